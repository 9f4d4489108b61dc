#pragma once
// Training panel: choose features, learner, evaluation and a parameter grid, then Run (Ctrl+R) on
// the worker with a progress bar, ETA and Cancel (Esc). Results: a per-fold metrics table, the
// validation score along the main grid axis (with the log evidence on a second axis for blr), a
// confusion matrix for classes and a learning curve. A failed or cancelled run keeps the last
// results on screen. The settings are a TrainingForm, Run / Cancel / progress a TrainingRunControl,
// the per-fold table a FoldTableModel.
#include "state/LearnPicture.hpp"
#include "state/TrainingSettings.hpp"
#include "widgets/Panel.hpp"

#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QShortcut;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace orbitui {

class ChartBox;
struct ExportStart;
class ConfusionMatrixView;
class FoldTableModel;
class LabState;
class LocalityPane;
class ModelSaver;
class TaskRunner;
class TrainingForm;
class TrainingRunControl;
struct TrainingResult;

class TrainingPanel : public Panel {
    Q_OBJECT
public:
    explicit TrainingPanel(LabState* state, QWidget* parent = nullptr);

    bool isIdle() const override;
    bool hasCharts() const override { return true; }
    /// training-score.csv, learning-curve.csv and (classes) the confusion matrix's CSV, of the
    /// last result; charts it did not draw are left out.
    QStringList exportCharts(const QString& dir, QString* error) const override;

    /// The settings shown (list fields that do not parse keep their last good value).
    TrainingSettings settings() const;
    void setSettings(const TrainingSettings& settings);

    /// Starts a run with the current settings (what the Run button does). False when it could not
    /// start (no labelled data, a bad field: the reason is shown inline).
    bool run();
    /// Stops the running request; the results shown stay.
    void cancel() override;
    /// What runWhenDataReady starts: a training run or Learn locality.
    enum class Action { Train, Learn };
    /// Starts `action` as soon as a dataset is present (now, or when the next one arrives): the
    /// screenshot mode.
    void runWhenDataReady(Action action = Action::Train);
    /// Forgets an action waiting for data (the data did not load).
    void dropPendingRun() { pending_.reset(); }
    /// `orbitlab --export`: a training run once the data are there (Run), forgotten if they fail to load.
    void startForExport(const ExportStart& start);

    /// The last result drawn (null before the first).
    std::shared_ptr<const TrainingResult> lastResult() const { return last_; }
    /// How many results were drawn (tests).
    int drawCount() const { return draws_; }
    TaskRunner* runner() const { return runner_; }
    /// Learn locality (its settings under the grid, its picture in the results' second tab).
    LocalityPane* locality() const { return localityPane_; }
    /// Starts Learn locality with the current settings (what its button does); false with the
    /// reason shown inline when it cannot start.
    bool learnLocality();
    /// The per-fold table and its model.
    QTableView* metricsTable() const { return table_; }
    FoldTableModel* foldModel() const { return folds_; }
    ChartBox* scoreChart() const { return scoreChart_; }
    ChartBox* learningCurveChart() const { return curveChart_; }
    ConfusionMatrixView* confusionView() const { return confusion_; }
    QString statusText() const;
    /// The last run's result in words (score, samples, features, learner, time); empty before one.
    QString resultText() const;
    /// Shows the results of an earlier session, marked as such: the training's `trained` (resultText)
    /// on the status line, and the last learn's summary and chart on the Learned locality tab (shown
    /// when there is a chart). Nothing is computed again.
    void showRestored(const QString& trained, const QString& learned, const LearnPicture& picture);
    /// False while the "what this does" hint is shown (before the first result).
    bool showsResults() const;
    QLineEdit* specEdit() const;
    TrainingForm* form() const { return form_; }
    /// Save model… (the fitted model of the last run as a .npz).
    ModelSaver* modelSaver() const { return saver_; }
    /// The results' tabs (training results, learned locality; the A/B comparison adds its own).
    QTabWidget* resultTabs() const { return resultTabs_; }

protected:
    /// Ctrl+R and Esc work anywhere in the window while this panel is shown, and only then.
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    QWidget* buildSettings();
    QWidget* buildResults();
    /// The form's and the run controls' enabled states.
    void updateEnabled();
    void refreshOrbitInfo();
    void draw(std::shared_ptr<const TrainingResult> result);
    /// Fills the fold table and sizes it to its rows (at most 7 before it scrolls).
    void drawTable(const TrainingResult& result);
    void drawConfusion(const TrainingResult& result);
    void setRunning(bool running);
    /// " The results of the previous run are still shown." when there are some.
    QString keptNote() const;

    LabState* state_;
    TaskRunner* runner_;
    LocalityPane* localityPane_;
    QTabWidget* resultTabs_;
    QShortcut* learnShortcut_;
    TrainingForm* form_;
    TrainingRunControl* control_;
    ModelSaver* saver_;
    QShortcut* runShortcut_;
    QShortcut* cancelShortcut_;
    // Results.
    QStackedWidget* stack_;
    QLabel* summary_;
    QTableView* table_;
    FoldTableModel* folds_;
    ChartBox* scoreChart_;
    ChartBox* curveChart_;
    ConfusionMatrixView* confusion_;

    std::shared_ptr<const TrainingResult> last_;
    QString resultText_;  ///< the last result's summary in words (resultText)
    std::optional<Action> pending_;  ///< waiting for data (runWhenDataReady)
    int draws_ = 0;
};

} // namespace orbitui
