#include "window/training/ModelSaver.hpp"

#include "state/workers/ModelTask.hpp"
#include "state/workers/Worker.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>

namespace orbitui {

ModelSaver::ModelSaver(QObject* parent)
    : QObject(parent), button_(new QPushButton(tr("Save model…"))), runner_(new TaskRunner("model saver", this))
{
    button_->setObjectName("saveModelButton");
    connect(button_, &QPushButton::clicked, this, &ModelSaver::saveWithDialog);
    connect(runner_, &TaskRunner::busyChanged, this, [this](bool busy) {
        updateButton();
        emit busyChanged(busy);
    });
    connect(runner_, &TaskRunner::progress, this, [this](quint64, double fraction, const QString& text) {
        emit progress(fraction, tr("Saving the model: %1").arg(text));
    });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        const SavedModelInfo info = v.value<SavedModelInfo>();
        emit saved(tr("Model saved to %1 (%2 at %3, %4 features, fitted on %5 rows; %6): orbitlab-cli predict --model %7 "
                      "--data FILE, or orbitlab.load_model in Python")
                       .arg(QDir::toNativeSeparators(info.path), info.learner, info.chosen.isEmpty() ? tr("its only grid point") : info.chosen)
                       .arg(info.dims)
                       .arg(info.trainRows)
                       .arg(info.size, QFileInfo(info.path).fileName()));
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        emit failed(tr("Could not save the model: %1").arg(message), field);
    });
    connect(runner_, &TaskRunner::cancelled, this,
            [this](quint64) { emit failed(tr("Saving the model was cancelled; no file was written."), QString()); });
    updateButton();
}

bool ModelSaver::busy() const { return runner_->busy(); }

void ModelSaver::setResult(std::shared_ptr<const TrainingResult> result)
{
    result_ = std::move(result);
    updateButton();
}

void ModelSaver::setBlocked(bool blocked)
{
    blocked_ = blocked;
    updateButton();
}

bool ModelSaver::save(const QString& path)
{
    if (!result_) {
        emit failed(tr("Run a training first: Save model… saves the model of the last run."), QString());
        return false;
    }
    if (path.trimmed().isEmpty()) {
        emit failed(tr("Could not save the model: no file name given."), QString());
        return false;
    }
    runner_->submit(makeSaveModelTask(result_, path));
    return true;
}

void ModelSaver::saveWithDialog()
{
    QString path = QFileDialog::getSaveFileName(button_->window(), tr("Save model"), QStringLiteral("model.npz"),
                                                tr("Saved models (*.npz)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".npz");
    save(path);
}

void ModelSaver::updateButton()
{
    button_->setEnabled(result_ && !blocked_ && !runner_->busy());
    if (!result_)
        button_->setToolTip(tr("Saves the fitted model of the last run (map + learner) as a .npz: run a training first"));
    else
        button_->setToolTip(tr("Saves the fitted model of the last run (map + learner) as a .npz that orbitlab-cli "
                               "predict and Python's orbitlab.load_model read (krr keeps its training rows' features)"));
}

} // namespace orbitui
