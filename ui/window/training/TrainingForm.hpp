#pragma once
// The Training panel's settings form: the feature map (preset, s, r and the spec line), the learner
// and evaluation, and the parameter grid (λ, C, bandwidths and a distribution parameter to sweep),
// with the Learn locality choices of its pane. It turns the widgets into TrainingSettings and back,
// and enables only the fields the chosen map, learner and evaluation use.
#include "state/TrainingSettings.hpp"

#include "orbit/registry/Registry.hpp"

#include <QString>
#include <QWidget>

#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace orbitui {

class FieldHighlight;
class KernelEditor;
class LabState;
class LocalityPane;

/// The registry's evaluation kind of a name (hold-out for an unknown one).
orbit::EvaluationKind evaluationOf(const QString& name);

class TrainingForm : public QWidget {
    Q_OBJECT
public:
    /// The form of `state`'s data and orbit settings; `locality` holds the Learn locality choices.
    TrainingForm(LabState* state, LocalityPane* locality, QWidget* parent = nullptr);

    /// The settings shown; strict: a list that does not parse throws SpecError naming it, else it
    /// keeps its last good value (remember()).
    TrainingSettings settingsFrom(bool strict) const;
    void setSettings(const TrainingSettings& settings);
    /// Settings a run or learn started with: list fields fall back to these when they stop parsing.
    void remember(const TrainingSettings& settings) { lastGood_ = settings; }
    /// Shows the orbit of the Group panel and the distribution parameters it offers to sweep.
    void refreshOrbitInfo();
    /// Enables the fields the chosen map, learner and evaluation use.
    void updateEnabled();

    QLineEdit* specEdit() const { return spec_; }
    /// The base kernel of the maps, krr and the exact machines (the registry's kernels).
    KernelEditor* kernelEditor() const { return kernel_; }
    /// Tells `fields` which control shows each of the core's fields (orbit/util/Error.hpp) and this
    /// form's own lists, so a refused setting marks its control.
    void markFields(FieldHighlight* fields) const;

private:
    /// The feature map: preset, s and r, the spec and the orbit it averages over.
    QGroupBox* buildFeatures();
    QGroupBox* buildLearning();
    /// Test fraction, folds, subset, seed and learning curve.
    void buildEvaluationControls();
    /// The lists of λ, C and bandwidths, and the swept distribution parameter.
    QGroupBox* buildGrid();
    void connectControls();
    void applyPreset();

    LabState* state_;
    LocalityPane* localityPane_;
    QComboBox* preset_;
    QSpinBox* s_;
    QSpinBox* r_;
    QLineEdit* spec_;
    QLabel* orbitInfo_;
    KernelEditor* kernel_;
    QComboBox* learner_;
    QComboBox* eval_;
    QDoubleSpinBox* holdout_;
    QSpinBox* k_;
    QSpinBox* subset_;
    QSpinBox* seed_;
    QCheckBox* learningCurve_;
    QLineEdit* lambdas_;
    QLineEdit* costs_;
    QLineEdit* medians_;
    QComboBox* localityAxis_;
    QLineEdit* locality_;

    std::string wantedLocalityAxis_;  ///< kept while the orbit settings offer no such axis
    TrainingSettings lastGood_;       ///< list fields fall back to these when they do not parse
};

} // namespace orbitui
