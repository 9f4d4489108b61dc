#pragma once
// Learn locality, in the Training panel: the evidence of Bayesian linear regression learns the
// distribution's parameters (orbit::learnLocality) on the worker. Its settings (which parameters, how
// many evaluations, the landscape's resolution) sit under the grid; its picture (the evidence
// landscape with the optimiser's path) replaces the training results while it runs. Every evaluation
// moves the distribution's parameters in the shared orbit settings, so the Group panel's sliders and
// density and the Orbits gallery follow the optimiser; the end (or Cancel) leaves the best point in
// the settings, and Undo puts back what they were before. With "per class" every class learns its own
// parameters (PerClassView fills in class by class); the learned classes become the orbit settings'
// per-class distributions (kept on Cancel), the single learned one their default. With the GP as the
// learner the exact GP's log marginal likelihood learns one parameter with the bandwidth, signal and
// noise (orbit::learnExactGp, on exact:r=R) on the same split; its values come as progress, its
// curve (the best log marginal likelihood at each value it tried) when it ends.
#include "state/LearnPicture.hpp"
#include "state/OrbitSettings.hpp"
#include "state/TrainingSettings.hpp"

#include "orbit/locality/PerClassLocality.hpp"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QLabel;
class QListWidget;
class QPushButton;
class QCheckBox;
class QComboBox;
class QSpinBox;
class QWidget;

namespace orbitui {

class LabState;
class LocalityView;
class PerClassView;
class TaskRunner;
struct LocalityResult;
struct LocalityStep;

class LocalityPane : public QObject {
    Q_OBJECT
public:
    LocalityPane(LabState* state, QObject* parent = nullptr);

    QWidget* settingsWidget() const { return settings_; }
    /// The Per class check box and the Learn locality and Undo buttons, for the host to keep in
    /// sight beside its own actions.
    QWidget* actionsWidget() const { return actions_; }
    QWidget* resultsWidget() const { return results_; }
    TaskRunner* runner() const { return runner_; }
    LocalityView* view() const { return view_; }
    QListWidget* parameterList() const { return params_; }
    QSpinBox* evaluationsBox() const { return evaluations_; }
    QSpinBox* landscapeBox() const { return landscape_; }
    QCheckBox* perInputBox() const { return perInput_; }
    /// The learner: "blr" (the evidence of Bayesian linear regression) or "gp" (the exact GP), as item data.
    QComboBox* learnerBox() const { return learner_; }
    /// The learner chosen: "blr" or "gp".
    std::string learner() const;
    /// "Per class": learn every class's parameters (orbit::learnPerClass) instead of one set.
    QCheckBox* perClassBox() const { return perClass_; }
    PerClassView* perClassView() const { return perClassView_; }
    /// The classes of the last per-class run learned so far (all of them after it finished, those
    /// reported before a cancel), by label.
    const std::map<int, orbit::ClassLocality>& learnedClasses() const { return classes_; }
    /// Shows class `label`'s learned distribution in the shared orbit settings (the Group panel) and
    /// selects its first sample (the Orbits panel). False when that class is not learned.
    bool showClass(int label);
    QPushButton* learnButton() const { return learnButton_; }
    QPushButton* undoButton() const { return undoButton_; }

    /// Starts learning the checked parameters with the Training panel's features, evaluation,
    /// subset, seed and first bandwidth. Throws SpecError naming the field when it cannot start.
    void start(const TrainingSettings& training);
    void cancel();
    bool busy() const;
    /// Puts back the orbit settings from before the last learn (what Undo does).
    void undo();
    /// The orbit settings Undo puts back (none: Undo is off), and setting them (a restored working state).
    const std::optional<OrbitSettings>& undoSettings() const { return before_; }
    /// The chart of the last one-locality learn (or of the one under way) as data; empty after a
    /// per-class learn or before any.
    LearnPicture picture() const;
    /// Shows a learn of an earlier session: its summary (marked as such) and, once data are loaded
    /// whose distribution has the picture's parameters, its chart. Nothing is learned again; a
    /// picture whose parameters the distribution does not have is dropped.
    void restore(const QString& summary, const LearnPicture& picture);
    void setUndoSettings(const std::optional<OrbitSettings>& settings);
    /// While a learn runs: the orbit settings at its best point so far (none before the first step).
    std::optional<OrbitSettings> bestSoFar() const;
    /// The names of the checked parameters.
    std::vector<std::string> checkedParameters() const;
    /// The parameters to keep in the session: the checked ones, or the session's choice while no
    /// dataset offers any.
    std::vector<std::string> chosenParameters() const;
    /// Puts the session's choices in the form: the parameters to check (empty: the first offered;
    /// names the distribution does not have are ignored), the budget and the landscape points.
    void setChoices(const std::vector<std::string>& learn, int evaluations, int landscape, bool perInput = true,
                    bool perClass = false, const std::string& learner = "blr");
    /// The result of the last finished learn (null before one).
    std::shared_ptr<const LocalityResult> lastResult() const { return last_; }
    /// Whether the last run ended with its result (false while one runs, and after a cancel, a
    /// failure or an abandoned run): what the status line says when stopped() arrives.
    bool finished() const { return finished_; }
    QString summaryText() const;

signals:
    /// Learn locality was pressed: the panel answers with start(its settings).
    void learnRequested();
    /// The run started (the panel shows resultsWidget()).
    void started();
    /// The run stopped: finished, failed (message non-empty; `field` names the setting at fault
    /// when the core did, see orbit::SpecError) or cancelled.
    void stopped(const QString& message, const QString& field = QString());
    void progress(double fraction, const QString& text);

private:
    void refreshParameters();
    /// Whether `a` and `b` have the same learnable parameters: the same group and distribution names.
    static bool sameParameters(const OrbitSettings& a, const OrbitSettings& b);
    /// Cancels the running learn because the user left its setting (`why`); applies nothing of it.
    void abandon(const QString& why);
    void endAbandoned();
    /// Draws restored_ when data are loaded and nothing runs (then forgets it).
    void showRestored();
    void onStep(const LocalityStep& step);
    void onClass(const orbit::ClassLocality& learned);
    /// Writes the classes learned so far into the orbit settings' per-class distributions.
    void keepClasses();
    void onFinished(std::shared_ptr<const LocalityResult> result);
    /// A GP learn's end: the first fold's parameter applied, its curve drawn, every fold in words.
    void onExactFinished(const LocalityResult& result);
    /// Enables the choices the learner uses (the GP: no per-input samples, landscape or per class).
    void updateLearnerChoices();
    /// Writes `values` into the shared orbit settings (the sliders follow).
    void applyValues(const std::map<std::string, double>& values);

    LabState* state_;
    TaskRunner* runner_;
    QWidget* settings_;
    QWidget* results_;
    QListWidget* params_;
    QSpinBox* evaluations_;
    QSpinBox* landscape_;
    QCheckBox* perInput_;  ///< irf: independent orbit samples per input (mode=data)
    QCheckBox* perClass_;
    QComboBox* learner_;
    PerClassView* perClassView_;
    std::map<int, orbit::ClassLocality> classes_;
    QPushButton* learnButton_;
    QPushButton* undoButton_;
    QWidget* actions_;
    QLabel* summary_;
    LocalityView* view_;
    std::optional<OrbitSettings> before_;        ///< the settings before the last learn (Undo)
    std::vector<std::string> wanted_;            ///< the session's choice, applied whenever the list is rebuilt
    std::vector<std::string> running_;           ///< the parameters of the run in progress
    std::map<std::string, double> best_;          ///< the best full-size point of the run so far
    double bestEvidence_ = 0.0;
    std::map<std::string, double> pilotBest_;     ///< before the first full-size one: the last pilot's best
    double pilotBestEvidence_ = 0.0;
    int steps_ = 0;
    std::shared_ptr<const LocalityResult> last_;
    bool applying_ = false;                       ///< true while this pane writes the orbit settings
    /// The user changed the group, a distribution or the data while a learn ran: its values no longer
    /// name this setting's parameters, so the run is cancelled and nothing it learned is applied.
    bool abandoned_ = false;
    QString abandonReason_;
    LearnPicture restored_;  ///< a picture of an earlier session waiting for its data
    bool finished_ = false;                       ///< finished(): set by onFinished, cleared by start
};

} // namespace orbitui
