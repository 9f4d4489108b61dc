#pragma once
// The Training panel's Save model… button: the fitted model of the last run, written on its own
// worker as a NumPy .npz (state/workers/ModelTask.hpp) that `orbitlab-cli predict`, Python's
// orbitlab.load_model and `orbitlab-cli train --save-model` share. Disabled before the first run,
// and while a run, a learn or a save is busy.
#include <QObject>
#include <QString>

#include <memory>

class QPushButton;

namespace orbitui {

class TaskRunner;
struct TrainingResult;

class ModelSaver : public QObject {
    Q_OBJECT
public:
    explicit ModelSaver(QObject* parent = nullptr);

    QPushButton* button() const { return button_; }
    TaskRunner* runner() const { return runner_; }
    bool busy() const;

    /// The run whose model a save writes (null: none yet).
    void setResult(std::shared_ptr<const TrainingResult> result);
    /// A run or learn is busy elsewhere in the panel: no save starts meanwhile.
    void setBlocked(bool blocked);
    /// Starts saving the model of the last run to `path` ("M.npz"); false, with failed() emitted,
    /// when there is nothing to save or no file name.
    bool save(const QString& path);
    /// The file dialog of the button, then save().
    void saveWithDialog();

signals:
    /// "Saving the model: <step>" while it runs.
    void progress(double fraction, const QString& text);
    /// The model is written: the status line's text.
    void saved(const QString& message);
    void failed(const QString& message, const QString& field);
    void busyChanged(bool busy);

private:
    void updateButton();

    QPushButton* button_;
    TaskRunner* runner_;
    std::shared_ptr<const TrainingResult> result_;
    bool blocked_ = false;
};

} // namespace orbitui
