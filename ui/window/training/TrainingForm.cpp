#include "window/training/TrainingForm.hpp"

#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/KernelEditor.hpp"
#include "widgets/RegistryControls.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/TrainingCharts.hpp"

#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/util/Error.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace orbitui {

namespace {

/// A line edit's numbers (strict: throws SpecError naming `field`; lenient: `fallback` on bad text).
std::vector<double> listOf(const QLineEdit* edit, const std::string& field, bool strict, const std::vector<double>& fallback)
{
    try {
        return parseNumberList(edit->text().toStdString(), field);
    } catch (const orbit::SpecError&) {
        if (strict)
            throw;
        return fallback;
    }
}

/// Adds each descriptor (learner, evaluation) as an item: its display name, its name as the data,
/// its doc as the item's tooltip.
template <class Descriptors>
void addDescribedItems(QComboBox* box, const Descriptors& descriptors)
{
    for (const auto& d : descriptors) {
        box->addItem(QString::fromStdString(d.displayName), QString::fromStdString(d.name));
        box->setItemData(box->count() - 1, QString::fromStdString(d.doc), Qt::ToolTipRole);
    }
}

} // namespace

orbit::EvaluationKind evaluationOf(const QString& name)
{
    const orbit::EvaluationDescriptor* e = orbit::findEvaluation(name.toStdString());
    return e ? e->id : orbit::EvaluationKind::HoldOut;
}

TrainingForm::TrainingForm(LabState* state, LocalityPane* locality, QWidget* parent)
    : QWidget(parent), state_(state), localityPane_(locality)
{
    QGroupBox* features = buildFeatures();
    QGroupBox* learning = buildLearning();
    QGroupBox* grid = buildGrid();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(features);
    layout->addWidget(learning);
    layout->addWidget(grid);
    connectControls();
}

QGroupBox* TrainingForm::buildFeatures()
{
    preset_ = new QComboBox;
    preset_->setObjectName("preset");
    for (const std::string& p : featurePresets()) {  // the registry's maps, then the exact kernel
        preset_->addItem(QString::fromStdString(p));
        preset_->setItemData(preset_->count() - 1, QString::fromStdString(presetDescriptor(p)->doc), Qt::ToolTipRole);
    }
    preset_->setToolTip(tr("The feature map: raw pixels, sorted Coulomb rows, random Fourier (rf), Nyström, or an "
                           "invariant map (irf, inystrom, gicdf, kif) that averages over the orbit of the Group panel, or "
                           "no map: the exact invariant kernel (exact, for krr and gp). "
                           "gicdf uses thresholds over the measured range of its projections (span=auto); remove it "
                           "for the paper's fixed range."));
    s_ = new QSpinBox;
    configureCount(s_, *orbit::findFeatureMap("irf")->parameter("s"));
    s_->setToolTip(tr("s: how many features the map produces; more features approximate the kernel better but train slower."));
    r_ = new QSpinBox;
    configureCount(r_, *orbit::findFeatureMap("irf")->parameter("r"));
    r_->setToolTip(tr("r: how many group elements are sampled per template for the invariant maps; larger r averages "
                      "the orbit more exactly."));
    spec_ = new QLineEdit;
    spec_->setObjectName("spec");
    spec_->setToolTip(tr("The features spec actually used (CLI syntax, e.g. irf:s=500,r=16 or rf:s=1000+rf2:s=500); "
                         "edit it for options the controls above do not offer."));
    kernel_ = new KernelEditor;
    kernel_->kernelBox()->setToolTip(tr("The base kernel of the kernel maps (rf, irf, Nyström, kif), of krr and of the "
                                        "exact kernel. The Gaussian's bandwidth is searched over the bandwidths of the "
                                        "grid; another kernel takes the first of them (or its fixed σ)."));
    orbitInfo_ = new QLabel;
    orbitInfo_->setWordWrap(true);
    orbitInfo_->setStyleSheet("color: #555;");
    orbitInfo_->setToolTip(tr("The group and distribution the invariant maps average over; change them in the Group panel."));
    auto* features = new QGroupBox(tr("Features"));
    auto* featuresForm = new QFormLayout(features);
    featuresForm->addRow(tr("Map"), preset_);
    auto* sr = new QHBoxLayout;
    sr->addWidget(new QLabel(tr("s")));
    sr->addWidget(s_, 1);
    sr->addWidget(new QLabel(tr("r")));
    sr->addWidget(r_, 1);
    featuresForm->addRow(sr);
    featuresForm->addRow(tr("Spec"), spec_);
    featuresForm->addRow(tr("Kernel"), kernel_);
    featuresForm->addRow(orbitInfo_);
    return features;
}

QGroupBox* TrainingForm::buildLearning()
{
    learner_ = new QComboBox;
    learner_->setObjectName("learner");
    addDescribedItems(learner_, orbit::learnerDescriptors());
    learner_->setToolTip(tr("The learner fitted on the features; blr also reports the log evidence, which can choose κ "
                            "without a validation set."));
    eval_ = new QComboBox;
    eval_->setObjectName("evaluation");
    addDescribedItems(eval_, orbit::evaluationDescriptors());
    eval_->setToolTip(tr("How test scores are measured: one held-out part, k rotating folds, or the folds stored in the "
                         "data (e.g. QM7's five)."));
    buildEvaluationControls();
    auto* learning = new QGroupBox(tr("Learner and evaluation"));
    auto* learningForm = new QFormLayout(learning);
    learningForm->addRow(tr("Learner"), learner_);
    learningForm->addRow(tr("Evaluation"), eval_);
    learningForm->addRow(tr("Test fraction"), holdout_);
    learningForm->addRow(tr("Folds K"), k_);
    learningForm->addRow(tr("Subset"), subset_);
    learningForm->addRow(tr("Seed"), seed_);
    learningForm->addRow(learningCurve_);
    return learning;
}

void TrainingForm::buildEvaluationControls()
{
    holdout_ = new QDoubleSpinBox;
    configureReal(holdout_, orbit::evaluationDescriptor(orbit::EvaluationKind::HoldOut).parameters.front());  // (0, 1), rounded to the decimals
    holdout_->setObjectName("holdout");
    holdout_->setSingleStep(0.05);
    holdout_->setToolTip(tr("The fraction of the samples kept aside for testing in a hold-out evaluation."));
    k_ = new QSpinBox;
    configureCount(k_, orbit::evaluationDescriptor(orbit::EvaluationKind::KFold).parameters.front());
    k_->setObjectName("folds");
    k_->setToolTip(tr("K: the number of folds; each fold is tested once by a model trained on the others."));
    subset_ = new QSpinBox;
    subset_->setRange(0, 100000000);
    subset_->setSingleStep(500);
    subset_->setSpecialValueText(tr("all"));
    subset_->setSuffix(tr(" samples"));
    subset_->setToolTip(tr("Train and test on this many samples drawn at random with the seed (0 = all); small "
                           "subsets finish in seconds."));
    seed_ = new QSpinBox;
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setToolTip(tr("The seed of every random choice of the run (subset, splits, features): the same seed gives "
                         "the same numbers."));
    learningCurve_ = new QCheckBox(tr("Learning curve"));
    learningCurve_->setToolTip(tr("Also score the chosen model trained on 10 %, 25 %, 50 % and 100 % of the first "
                                  "training fold."));
}

QGroupBox* TrainingForm::buildGrid()
{
    lambdas_ = new QLineEdit;
    lambdas_->setObjectName("lambdas");
    lambdas_->setToolTip(tr("Ridge strengths λ to try (comma-separated); the best on the validation split is kept."));
    costs_ = new QLineEdit;
    costs_->setObjectName("costs");
    costs_->setToolTip(tr("SVM costs C to try (comma-separated); large C fits the training data harder."));
    medians_ = new QLineEdit;
    medians_->setObjectName("medians");
    medians_->setToolTip(tr("Bandwidths as multiples of the median distance between samples: the Gaussian tries each, "
                            "another kernel takes the first."));
    localityAxis_ = new QComboBox;
    localityAxis_->setToolTip(tr("A parameter of the orbit distribution to sweep: the locality of the invariance "
                                 "(for von Mises, small κ = nearly full rotation invariance)."));
    locality_ = new QLineEdit;
    locality_->setObjectName("locality");
    locality_->setToolTip(tr("The values of the swept distribution parameter; features are recomputed for each."));
    auto* grid = new QGroupBox(tr("Parameter grid"));
    auto* gridForm = new QFormLayout(grid);
    gridForm->addRow(tr("λ list"), lambdas_);
    gridForm->addRow(tr("C list"), costs_);
    gridForm->addRow(tr("Bandwidths"), medians_);
    gridForm->addRow(tr("Sweep"), localityAxis_);
    gridForm->addRow(tr("Values"), locality_);
    return grid;
}

void TrainingForm::connectControls()
{
    connect(preset_, &QComboBox::currentIndexChanged, this, [this] { applyPreset(); });
    connect(s_, &QSpinBox::valueChanged, this, [this] { applyPreset(); });
    connect(r_, &QSpinBox::valueChanged, this, [this] { applyPreset(); });
    connect(spec_, &QLineEdit::textEdited, this, [this] { updateEnabled(); });
    connect(learner_, &QComboBox::currentIndexChanged, this, [this] { updateEnabled(); });
    connect(kernel_, &KernelEditor::changed, this, [this] { updateEnabled(); });
    connect(eval_, &QComboBox::currentIndexChanged, this, [this] { updateEnabled(); });
    connect(localityAxis_, &QComboBox::activated, this, [this] {
        wantedLocalityAxis_ = localityAxis_->currentData().toString().toStdString();
        updateEnabled();
    });
}

TrainingSettings TrainingForm::settingsFrom(bool strict) const
{
    TrainingSettings s;
    s.preset = preset_->currentText().toStdString();
    s.s = s_->value();
    s.r = r_->value();
    const std::string line = spec_->text().trimmed().toStdString();
    s.spec = line == presetSpec(s.preset, s.s, s.r) ? std::string() : line;
    s.learner = learner_->currentData().toString().toStdString();
    s.kernel = kernel_->choice().toStdString();
    s.eval = eval_->currentData().toString().toStdString();
    s.holdoutFraction = holdout_->value();
    s.k = k_->value();
    s.lambdas = listOf(lambdas_, "λ list", strict, lastGood_.lambdas);
    s.costs = listOf(costs_, "C list", strict, lastGood_.costs);
    s.medians = listOf(medians_, "bandwidths", strict, lastGood_.medians);
    const std::string shown = localityAxis_->currentData().toString().toStdString();
    s.localityAxis = shown.empty() ? wantedLocalityAxis_ : shown;  // none: the kept wish (or none)
    s.locality = listOf(locality_, "sweep values", strict && !s.localityAxis.empty(), lastGood_.locality);
    s.learn = localityPane_->chosenParameters();
    s.learnEvaluations = localityPane_->evaluationsBox()->value();
    s.learnLandscape = localityPane_->landscapeBox()->value();
    s.learnPerInput = localityPane_->perInputBox()->isChecked();
    s.learnPerClass = localityPane_->perClassBox()->isChecked();
    s.learnLearner = localityPane_->learner();
    s.subset = subset_->value();
    s.learningCurve = learningCurve_->isChecked();
    s.seed = static_cast<std::uint64_t>(seed_->value());
    s.more = lastGood_.more;  // the table's rows this form has no field for, as the session gave them
    return s;
}

void TrainingForm::setSettings(const TrainingSettings& s)
{
    {
        const QSignalBlocker b1(preset_), b2(s_), b3(r_), b4(learner_), b5(eval_);
        const int presetIndex = preset_->findText(QString::fromStdString(s.preset));
        preset_->setCurrentIndex(presetIndex >= 0 ? presetIndex : preset_->findText("irf"));
        s_->setValue(s.s);
        r_->setValue(s.r);
        learner_->setCurrentIndex(std::max(0, learner_->findData(QString::fromStdString(s.learner))));
        eval_->setCurrentIndex(std::max(0, eval_->findData(QString::fromStdString(s.eval))));
    }
    spec_->setText(QString::fromStdString(s.featureSpec()));
    kernel_->setChoice(QString::fromStdString(s.kernel));
    holdout_->setValue(s.holdoutFraction);
    k_->setValue(s.k);
    lambdas_->setText(QString::fromStdString(formatNumberList(s.lambdas)));
    costs_->setText(QString::fromStdString(formatNumberList(s.costs)));
    medians_->setText(QString::fromStdString(formatNumberList(s.medians)));
    locality_->setText(QString::fromStdString(formatNumberList(s.locality)));
    wantedLocalityAxis_ = s.localityAxis;
    localityPane_->setChoices(s.learn, s.learnEvaluations, s.learnLandscape, s.learnPerInput, s.learnPerClass,
                              s.learnLearner);
    subset_->setValue(s.subset);
    learningCurve_->setChecked(s.learningCurve);
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, std::numeric_limits<int>::max())));
    lastGood_ = s;
    refreshOrbitInfo();
    updateEnabled();
}

void TrainingForm::applyPreset()
{
    spec_->setText(QString::fromStdString(presetSpec(preset_->currentText().toStdString(), s_->value(), r_->value())));
    updateEnabled();
}

void TrainingForm::refreshOrbitInfo()
{
    const OrbitSettings& o = state_->orbitSettings();
    // Spaces after the commas let a long affine spec wrap.
    // Learned values carry all their digits in the session; four significant ones are read here.
    QString dist = QString::fromStdString(readableSpec(o.distSpec()));
    orbitInfo_->setText(tr("Orbit: %1, %2 (set in the Group panel)")
                            .arg(QString::fromStdString(o.groupSpec()), dist.replace(",", ", ")));
    const QSignalBlocker block(localityAxis_);
    localityAxis_->clear();
    localityAxis_->addItem(tr("none"), QString());
    for (const std::string& axis : localityAxes(o))
        localityAxis_->addItem(axisLabel(axis) + " (" + QString::fromStdString(axis) + ")", QString::fromStdString(axis));
    // The wanted axis when offered; else (e.g. κ wanted, noisy sort offers σ) the first one offered,
    // while the wish is kept for when the distribution offers it again. "none" stays none.
    int i = localityAxis_->findData(QString::fromStdString(wantedLocalityAxis_));
    if (i < 0 && !wantedLocalityAxis_.empty() && localityAxis_->count() > 1)
        i = 1;
    localityAxis_->setCurrentIndex(std::max(0, i));
    updateEnabled();
}

void TrainingForm::updateEnabled()
{
    const std::string preset = preset_->currentText().toStdString();
    const orbit::FeatureMapDescriptor* map = presetDescriptor(preset);
    const bool exact = orbit::isExactKernelSpec(preset);
    s_->setEnabled(map && !map->parameters.empty() && !exact);  // raw and sorted have no size, the exact kernel no map
    r_->setEnabled(map && map->invariant && map->parameter("r"));
    const orbit::LearnerDescriptor* learner = orbit::findLearner(learner_->currentData().toString().toStdString());
    const std::string axis = learner ? learner->axis() : std::string();
    lambdas_->setEnabled(axis == "lambda");
    costs_->setEnabled(axis == "C");
    const std::string spec = spec_->text().trimmed().toStdString();
    const bool kernelUsed = usesGaussianKernel(spec, learner ? learner->name : std::string());
    kernel_->setEnabled(kernelUsed);
    medians_->setEnabled(kernelUsed && kernel_->usesMedian() && !(learner && learner->gaussianProcess));
    const orbit::EvaluationKind eval = evaluationOf(eval_->currentData().toString());
    holdout_->setEnabled(eval == orbit::EvaluationKind::HoldOut);
    k_->setEnabled(eval == orbit::EvaluationKind::KFold);
    const auto ds = state_->dataset();
    const bool hasFolds = ds && !ds->folds.empty();
    if (auto* model = qobject_cast<QStandardItemModel*>(eval_->model()))
        if (QStandardItem* item = model->item(eval_->findData(QString(orbit::toString(orbit::EvaluationKind::Folds)))))
            item->setEnabled(hasFolds || eval == orbit::EvaluationKind::Folds);
    // The exact kernel machines search no distribution parameter (Learn locality learns it).
    const bool invariant = isInvariantSpec(spec) && !orbit::isExactKernelSpec(spec);
    learningCurve_->setEnabled(!orbit::isExactKernelSpec(spec));  // the exact machines draw none (orbit::trainExact)
    localityAxis_->setEnabled(invariant && localityAxis_->count() > 1);
    locality_->setEnabled(invariant && !localityAxis_->currentData().toString().isEmpty());
}

void TrainingForm::markFields(FieldHighlight* fields) const
{
    fields->add("features", spec_);
    fields->add("kernel", kernel_->kernelBox());
    for (const char* f : {"group", "distribution"})
        fields->add(f, orbitInfo_);  // set in the Group panel: the line that shows them
    fields->add("learner", learner_);
    fields->add("eval", eval_);
    fields->add("grid", locality_);  // the swept distribution parameter, and the grid as a whole
    for (const char* f : {"grid lambda", "λ list"})
        fields->add(f, lambdas_);
    for (const char* f : {"grid C", "C list"})
        fields->add(f, costs_);
    for (const char* f : {"grid median", "grid bandwidth", "bandwidths"})
        fields->add(f, medians_);
    fields->add("sweep values", locality_);
    fields->add("subset", subset_);
    fields->add("learning-curve", learningCurve_);
    fields->add("learn", localityPane_->parameterList());
    fields->add("max-evals", localityPane_->evaluationsBox());
}

} // namespace orbitui
