#include "panels/TrainingPanel.hpp"

#include "SafeText.hpp"
#include "models/LabState.hpp"
#include "panels/LocalityPane.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/TrainingCharts.hpp"
#include "workers/TrainingTask.hpp"

#include "models/DistributionCatalog.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace orbitui {

namespace {

QString pointText(const orbit::ParamPoint& point)
{
    QStringList parts;
    for (const auto& [name, value] : point)
        parts << (name == "median" ? QStringLiteral("bandwidth %1 × median").arg(value, 0, 'g', 4)
                                   : QStringLiteral("%1 = %2").arg(axisLabel(name), QString::number(value, 'g', 4)));
    return parts.join(", ");
}

QString metricName(const orbit::TrainResult& r) { return isRmse(r) ? QStringLiteral("RMSE") : QStringLiteral("accuracy"); }

QString formatScore(const orbit::TrainResult& r, double v)
{
    return isRmse(r) ? QString::number(v, 'f', 2) : QString::number(v, 'f', 3);
}

QString formatSeconds(double s)
{
    if (s < 60)
        return QStringLiteral("%1 s").arg(s, 0, 'f', s < 10 ? 1 : 0);
    return QStringLiteral("%1 min %2 s").arg(int(s) / 60).arg(int(s) % 60);
}

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

/// The integer range of a registry parameter, for a spin box.
void setRangeOf(QSpinBox* box, const orbit::ParamDescriptor& p)
{
    box->setRange(static_cast<int>(p.minimum), static_cast<int>(std::min<double>(p.maximum, std::numeric_limits<int>::max())));
}

/// The registry's evaluation kind of a combo's item data (hold-out for an unknown one).
orbit::EvaluationKind evaluationOf(const QString& name)
{
    const orbit::EvaluationDescriptor* e = orbit::findEvaluation(name.toStdString());
    return e ? e->id : orbit::EvaluationKind::HoldOut;
}

} // namespace

TrainingPanel::TrainingPanel(LabState* state, QWidget* parent)
    : Panel("training", tr("Training"), parent), state_(state), runner_(new TaskRunner("trainer", this)),
      localityPane_(new LocalityPane(state, this))
{
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(buildSettings());
    resultTabs_ = new QTabWidget;
    resultTabs_->setDocumentMode(true);
    resultTabs_->addTab(buildResults(), tr("Training results"));
    resultTabs_->addTab(localityPane_->resultsWidget(), tr("Learned locality"));
    splitter->addWidget(resultTabs_);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({350, 1010});
    content()->addWidget(splitter, 1);

    runShortcut_ = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_R), this);
    runShortcut_->setContext(Qt::WindowShortcut);
    runShortcut_->setEnabled(false);
    connect(runShortcut_, &QShortcut::activated, this, [this] { run(); });
    cancelShortcut_ = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    cancelShortcut_->setContext(Qt::WindowShortcut);
    cancelShortcut_->setEnabled(false);
    connect(cancelShortcut_, &QShortcut::activated, this, &TrainingPanel::cancel);
    learnShortcut_ = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    learnShortcut_->setContext(Qt::WindowShortcut);
    learnShortcut_->setEnabled(false);
    connect(learnShortcut_, &QShortcut::activated, this, [this] { learnLocality(); });

    connect(localityPane_, &LocalityPane::learnRequested, this, [this] { learnLocality(); });
    connect(localityPane_, &LocalityPane::progress, this, [this](double fraction, const QString& text) {
        progress_->setValue(static_cast<int>(std::lround(1000 * std::clamp(fraction, 0.0, 1.0))));
        status_->setText(tr("%1\n%2 % · %3 elapsed").arg(text, QString::number(int(100 * fraction)),
                                                          formatSeconds(clock_.elapsed() / 1000.0)));
        // Seen from the other panels too (the Group and Orbits panels follow the steps).
        emit statusMessage(tr("Learning the locality (%1 %): %2").arg(int(100 * fraction)).arg(text));
    });
    connect(localityPane_, &LocalityPane::stopped, this, [this](const QString& message, const QString& field) {
        if (!message.isEmpty())
            showFieldError(tr("Learning the locality failed: %1").arg(message), field, message);
        progress_->setValue(message.isEmpty() ? 1000 : 0);
        status_->setText(tr("Learn locality stopped after %1.").arg(formatSeconds(clock_.elapsed() / 1000.0)));
        updateEnabled();
    });

    connect(state_, &LabState::datasetChanged, this, [this] {
        refreshOrbitInfo();  // a new kind of data may come with new orbit settings
        if (pending_ && state_->dataset()) {
            const Action action = *pending_;
            pending_.reset();
            action == Action::Learn ? learnLocality() : run();
        }
    });
    connect(state_, &LabState::orbitSettingsChanged, this, &TrainingPanel::refreshOrbitInfo);

    connect(runner_, &TaskRunner::busyChanged, this, &TrainingPanel::setRunning);
    connect(runner_, &TaskRunner::progress, this, [this](quint64, double fraction, const QString& text) {
        progress_->setValue(static_cast<int>(std::lround(1000 * std::clamp(fraction, 0.0, 1.0))));
        const double elapsed = clock_.elapsed() / 1000.0;
        QString eta;
        if (fraction > 0.02 && elapsed > 0.5)
            eta = tr(" · about %1 left").arg(formatSeconds(elapsed * (1.0 - fraction) / fraction));
        status_->setText(tr("%1\n%2 % · %3 elapsed%4")
                             .arg(text, QString::number(int(100 * fraction)), formatSeconds(elapsed), eta));
    });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        clearError();
        draw(v.value<std::shared_ptr<const TrainingResult>>());
    });
    connect(runner_, &TaskRunner::cancelled, this, [this](quint64) {
        progress_->setValue(0);
        status_->setText(tr("Cancelled after %1.").arg(formatSeconds(clock_.elapsed() / 1000.0)) + keptNote());
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        progress_->setValue(0);
        showFieldError(tr("Training failed: %1.%2").arg(message, keptNote()), field, message);
        status_->setText(tr("Failed after %1.").arg(formatSeconds(clock_.elapsed() / 1000.0)) + keptNote());
    });

    lastGood_ = TrainingSettings{};
    setSettings(lastGood_);
    refreshOrbitInfo();
    updateEnabled();
}

QWidget* TrainingPanel::buildSettings()
{
    // Features.
    preset_ = new QComboBox;
    preset_->setObjectName("preset");
    for (const std::string& p : featurePresets()) {
        preset_->addItem(QString::fromStdString(p));
        preset_->setItemData(preset_->count() - 1, QString::fromStdString(orbit::findFeatureMap(p)->doc), Qt::ToolTipRole);
    }
    preset_->setToolTip(tr("The feature map: raw pixels, sorted Coulomb rows, random Fourier (rf), Nyström, or an "
                           "invariant map (irf, inystrom, gicdf, kif) that averages over the orbit of the Group panel. "
                           "gicdf uses thresholds over the measured range of its projections (span=auto); remove it "
                           "for the paper's fixed range."));
    s_ = new QSpinBox;
    setRangeOf(s_, *orbit::findFeatureMap("irf")->parameter("s"));
    s_->setToolTip(tr("s: how many features the map produces; more features approximate the kernel better but train slower."));
    r_ = new QSpinBox;
    setRangeOf(r_, *orbit::findFeatureMap("irf")->parameter("r"));
    r_->setToolTip(tr("r: how many group elements are sampled per template for the invariant maps; larger r averages "
                      "the orbit more exactly."));
    spec_ = new QLineEdit;
    spec_->setObjectName("spec");
    spec_->setToolTip(tr("The features spec actually used (CLI syntax, e.g. irf:s=500,r=16 or rf:s=1000+rf2:s=500); "
                         "edit it for options the controls above do not offer."));
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
    featuresForm->addRow(orbitInfo_);

    // Learner and evaluation.
    learner_ = new QComboBox;
    learner_->setObjectName("learner");
    for (const orbit::LearnerDescriptor& l : orbit::learnerDescriptors()) {
        learner_->addItem(QString::fromStdString(l.displayName), QString::fromStdString(l.name));
        learner_->setItemData(learner_->count() - 1, QString::fromStdString(l.doc), Qt::ToolTipRole);
    }
    learner_->setToolTip(tr("The learner fitted on the features; blr also reports the log evidence, which can choose κ "
                            "without a validation set."));
    eval_ = new QComboBox;
    eval_->setObjectName("evaluation");
    for (const orbit::EvaluationDescriptor& e : orbit::evaluationDescriptors()) {
        eval_->addItem(QString::fromStdString(e.displayName), QString::fromStdString(e.name));
        eval_->setItemData(eval_->count() - 1, QString::fromStdString(e.doc), Qt::ToolTipRole);
    }
    eval_->setToolTip(tr("How test scores are measured: one held-out part, k rotating folds, or the folds stored in the "
                         "data (e.g. QM7's five)."));
    holdout_ = new QDoubleSpinBox;
    holdout_->setObjectName("holdout");
    {
        const ParameterInfo fraction = parameterInfo(orbit::evaluationDescriptor(orbit::EvaluationKind::HoldOut).parameters.front());
        holdout_->setDecimals(fraction.decimals);
        holdout_->setRange(fraction.minimum, fraction.maximum);  // (0, 1), rounded to the decimals
    }
    holdout_->setSingleStep(0.05);
    holdout_->setToolTip(tr("The fraction of the samples kept aside for testing in a hold-out evaluation."));
    k_ = new QSpinBox;
    k_->setObjectName("folds");
    setRangeOf(k_, orbit::evaluationDescriptor(orbit::EvaluationKind::KFold).parameters.front());
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
    auto* learning = new QGroupBox(tr("Learner and evaluation"));
    auto* learningForm = new QFormLayout(learning);
    learningForm->addRow(tr("Learner"), learner_);
    learningForm->addRow(tr("Evaluation"), eval_);
    learningForm->addRow(tr("Test fraction"), holdout_);
    learningForm->addRow(tr("Folds K"), k_);
    learningForm->addRow(tr("Subset"), subset_);
    learningForm->addRow(tr("Seed"), seed_);
    learningForm->addRow(learningCurve_);

    // The parameter grid.
    lambdas_ = new QLineEdit;
    lambdas_->setObjectName("lambdas");
    lambdas_->setToolTip(tr("Ridge strengths λ to try (comma-separated); the best on the validation split is kept."));
    costs_ = new QLineEdit;
    costs_->setObjectName("costs");
    costs_->setToolTip(tr("SVM costs C to try (comma-separated); large C fits the training data harder."));
    medians_ = new QLineEdit;
    medians_->setObjectName("medians");
    medians_->setToolTip(tr("Gaussian bandwidths to try, as multiples of the median distance between samples."));
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

    // Run.
    runButton_ = new QPushButton(tr("Run"));
    runButton_->setDefault(true);
    runButton_->setToolTip(tr("Train and evaluate with these settings on the worker (Ctrl+R)."));
    cancelButton_ = new QPushButton(tr("Cancel"));
    cancelButton_->setToolTip(tr("Stop the running training (Esc); the results already shown stay."));
    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    progress_->setToolTip(tr("How much of the run is done."));
    status_ = new QLabel(tr("Press Run (Ctrl+R) to train."));
    status_->setWordWrap(true);
    status_->setToolTip(tr("What the run is doing, with the elapsed time and an estimate of the time left."));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(runButton_, 1);
    buttons->addWidget(cancelButton_, 1);

    auto* host = new QWidget;
    auto* layout = new QVBoxLayout(host);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(features);
    layout->addWidget(learning);
    layout->addWidget(grid);
    layout->addLayout(buttons);
    layout->addWidget(localityPane_->settingsWidget());
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(host);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(330);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    connect(preset_, &QComboBox::currentIndexChanged, this, [this] { applyPreset(); });
    connect(s_, &QSpinBox::valueChanged, this, [this] { applyPreset(); });
    connect(r_, &QSpinBox::valueChanged, this, [this] { applyPreset(); });
    connect(spec_, &QLineEdit::textEdited, this, [this] { updateEnabled(); });
    connect(learner_, &QComboBox::currentIndexChanged, this, [this] { updateEnabled(); });
    connect(eval_, &QComboBox::currentIndexChanged, this, [this] { updateEnabled(); });
    connect(localityAxis_, &QComboBox::activated, this, [this] {
        wantedLocalityAxis_ = localityAxis_->currentData().toString().toStdString();
        updateEnabled();
    });
    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancelButton_, &QPushButton::clicked, this, &TrainingPanel::cancel);

    // The controls of the core's fields (orbit/util/Error.hpp), and of this form's own lists.
    fields()->add("features", spec_);
    fields()->add("kernel", medians_);  // the panel's kernel is the Gaussian of the bandwidth list
    for (const char* f : {"group", "distribution"})
        fields()->add(f, orbitInfo_);  // set in the Group panel: the line that shows them
    fields()->add("learner", learner_);
    fields()->add("eval", eval_);
    fields()->add("grid", locality_);  // the swept distribution parameter, and the grid as a whole
    for (const char* f : {"grid lambda", "λ list"})
        fields()->add(f, lambdas_);
    for (const char* f : {"grid C", "C list"})
        fields()->add(f, costs_);
    for (const char* f : {"grid median", "grid bandwidth", "bandwidths"})
        fields()->add(f, medians_);
    fields()->add("sweep values", locality_);
    fields()->add("subset", subset_);
    fields()->add("learning-curve", learningCurve_);
    fields()->add("learn", localityPane_->parameterList());
    fields()->add("max-evals", localityPane_->evaluationsBox());
    return scroll;
}

QWidget* TrainingPanel::buildResults()
{
    stack_ = new QStackedWidget;
    auto* hint = new QLabel(
        tr("<h2>Training</h2>"
           "<p>Fits a learner on feature maps of the current data and measures it on samples it did not see.</p>"
           "<ol><li>Choose the <b>features</b>: the invariant maps (irf, inystrom, gicdf, kif) average the kernel over "
           "the orbit set in the Group panel; rf and nystrom approximate the plain Gaussian kernel.</li>"
           "<li>Choose a <b>learner</b>, an <b>evaluation</b> and the <b>grid</b> of parameters to search; "
           "to see how the locality of the invariance matters, sweep κ (or σ).</li>"
           "<li>Press <b>Run</b> (Ctrl+R). Esc cancels.</li></ol>"
           "<p>Results appear here: the test score of every fold, the validation score along the grid (with the "
           "log evidence next to it for Bayesian linear regression), the confusion matrix of the classes and the "
           "learning curve. The defaults train on 1000 samples and take seconds.</p>"));
    hint->setWordWrap(true);
    hint->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    hint->setMargin(24);
    hint->setMaximumWidth(720);
    auto* hintHost = new QWidget;
    auto* hintLayout = new QHBoxLayout(hintHost);
    hintLayout->addWidget(hint, 0, Qt::AlignTop);
    hintLayout->addStretch(1);
    stack_->addWidget(hintHost);

    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont summaryFont = summary_->font();
    summaryFont.setPointSizeF(summaryFont.pointSizeF() + 1);
    summary_->setFont(summaryFont);
    table_ = new QTableWidget;
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(tr("Test score of every outer fold at the parameters chosen on its validation split, and "
                          "their mean ± standard deviation."));
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
    scoreChart_ = new ChartBox(new QChart, "training-score");
    scoreChart_->setToolTip(tr("Validation score along the main grid axis (the best over the other axes); for blr the "
                               "log evidence of the inner training part on the right axis."));
    curveChart_ = new ChartBox(new QChart, "learning-curve");
    curveChart_->setToolTip(tr("Test score of the first fold's chosen model against the number of training samples."));
    confusion_ = new ConfusionMatrixView("confusion-matrix");
    confusion_->setToolTip(tr("Test samples by true class (rows) and predicted class (columns), summed over the folds."));

    // The table as tall as its rows, the three pictures side by side below it.
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(scoreChart_);
    charts->addWidget(confusion_);
    charts->addWidget(curveChart_);
    charts->setChildrenCollapsible(false);
    charts->setSizes({340, 340, 340});
    auto* results = new QWidget;
    auto* layout = new QVBoxLayout(results);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(table_);
    layout->addWidget(charts, 1);
    stack_->addWidget(results);
    return stack_;
}

TrainingSettings TrainingPanel::settingsFrom(bool strict) const
{
    TrainingSettings s;
    s.preset = preset_->currentText().toStdString();
    s.s = s_->value();
    s.r = r_->value();
    const std::string line = spec_->text().trimmed().toStdString();
    s.spec = line == presetSpec(s.preset, s.s, s.r) ? std::string() : line;
    s.learner = learner_->currentData().toString().toStdString();
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
    s.subset = subset_->value();
    s.learningCurve = learningCurve_->isChecked();
    s.seed = static_cast<std::uint64_t>(seed_->value());
    return s;
}

TrainingSettings TrainingPanel::settings() const { return settingsFrom(false); }

void TrainingPanel::setSettings(const TrainingSettings& s)
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
    holdout_->setValue(s.holdoutFraction);
    k_->setValue(s.k);
    lambdas_->setText(QString::fromStdString(formatNumberList(s.lambdas)));
    costs_->setText(QString::fromStdString(formatNumberList(s.costs)));
    medians_->setText(QString::fromStdString(formatNumberList(s.medians)));
    locality_->setText(QString::fromStdString(formatNumberList(s.locality)));
    wantedLocalityAxis_ = s.localityAxis;
    localityPane_->setChoices(s.learn, s.learnEvaluations, s.learnLandscape, s.learnPerInput);
    subset_->setValue(s.subset);
    learningCurve_->setChecked(s.learningCurve);
    seed_->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, std::numeric_limits<int>::max())));
    lastGood_ = s;
    refreshOrbitInfo();
    updateEnabled();
}

void TrainingPanel::applyPreset()
{
    spec_->setText(QString::fromStdString(presetSpec(preset_->currentText().toStdString(), s_->value(), r_->value())));
    updateEnabled();
}

void TrainingPanel::refreshOrbitInfo()
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

void TrainingPanel::updateEnabled()
{
    const orbit::FeatureMapDescriptor* map = orbit::findFeatureMap(preset_->currentText().toStdString());
    s_->setEnabled(map && !map->parameters.empty());  // raw and sorted have no size
    r_->setEnabled(map && map->invariant && map->parameter("r"));
    const orbit::LearnerDescriptor* learner = orbit::findLearner(learner_->currentData().toString().toStdString());
    const std::string axis = learner ? learner->axis() : std::string();
    lambdas_->setEnabled(axis == "lambda");
    costs_->setEnabled(axis == "C");
    const orbit::EvaluationKind eval = evaluationOf(eval_->currentData().toString());
    holdout_->setEnabled(eval == orbit::EvaluationKind::HoldOut);
    k_->setEnabled(eval == orbit::EvaluationKind::KFold);
    const auto ds = state_->dataset();
    const bool hasFolds = ds && !ds->folds.empty();
    if (auto* model = qobject_cast<QStandardItemModel*>(eval_->model()))
        if (QStandardItem* item = model->item(eval_->findData(QString(orbit::toString(orbit::EvaluationKind::Folds)))))
            item->setEnabled(hasFolds || eval == orbit::EvaluationKind::Folds);
    const bool invariant = isInvariantSpec(spec_->text().trimmed().toStdString());
    localityAxis_->setEnabled(invariant && localityAxis_->count() > 1);
    locality_->setEnabled(invariant && !localityAxis_->currentData().toString().isEmpty());
    const bool busy = runner_->busy() || localityPane_->busy();
    runButton_->setEnabled(!busy);
    cancelButton_->setEnabled(busy);
    localityPane_->learnButton()->setEnabled(!busy && localityPane_->parameterList()->count() > 0);
}

void TrainingPanel::showEvent(QShowEvent* event)
{
    Panel::showEvent(event);
    runShortcut_->setEnabled(true);
    cancelShortcut_->setEnabled(true);
    learnShortcut_->setEnabled(true);
}

void TrainingPanel::hideEvent(QHideEvent* event)
{
    Panel::hideEvent(event);
    runShortcut_->setEnabled(false);
    cancelShortcut_->setEnabled(false);
    learnShortcut_->setEnabled(false);
}

bool TrainingPanel::isIdle() const { return !pending_ && !runner_->busy() && !localityPane_->busy(); }

QString TrainingPanel::statusText() const { return status_->text(); }
bool TrainingPanel::showsResults() const { return stack_->currentIndex() == 1; }

bool TrainingPanel::run()
{
    const auto ds = state_->dataset();
    if (!ds) {
        showError(tr("Load a labelled dataset first (File ▸ Open data…)."));
        return false;
    }
    if (!ds->isClassification() && !ds->isRegression()) {
        showError(tr("%1 has no labels or targets: training needs classes or energies to learn.")
                      .arg(QFileInfo(QString::fromStdString(ds->source)).fileName()));
        return false;
    }
    refreshOrbitInfo();  // the sweep axes of the orbit settings in force now
    TrainingRequest request;
    request.dataset = ds;
    try {
        const TrainingSettings s = settingsFrom(true);
        if (evaluationOf(QString::fromStdString(s.eval)) == orbit::EvaluationKind::Folds && ds->folds.empty())
            throw orbit::SpecError("eval", "these data have no folds of their own; choose hold-out or k-fold", s.eval);
        lastGood_ = s;
        request.config = makeTrainConfig(s, state_->orbitSettings());
        request.config.validate();
        request.subset = static_cast<std::size_t>(s.subset);
        const bool sweeps = std::any_of(request.config.grid.begin(), request.config.grid.end(),
                                        [&](const orbit::ParamAxis& a) { return a.name == s.localityAxis; });
        request.mainAxis = sweeps ? s.localityAxis : std::string();
    } catch (const orbit::SpecError& e) {
        showFieldError(tr("Cannot run: %1").arg(QString::fromUtf8(e.what())), QString::fromStdString(e.field()),
                       QString::fromUtf8(e.what()), true);
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot run: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    clearError();
    progress_->setValue(0);
    status_->setText(tr("Starting…"));
    clock_.start();
    runner_->submit(makeTrainingTask(std::move(request)));
    return true;
}

bool TrainingPanel::learnLocality()
{
    if (runner_->busy() || localityPane_->busy())
        return false;
    try {
        const TrainingSettings s = settingsFrom(true);
        localityPane_->start(s);
        lastGood_ = s;
    } catch (const orbit::SpecError& e) {
        showFieldError(tr("Cannot learn the locality: %1").arg(QString::fromUtf8(e.what())),
                       QString::fromStdString(e.field()), QString::fromUtf8(e.what()), true);
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot learn the locality: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    clearError();
    clock_.start();
    progress_->setValue(0);
    status_->setText(tr("Learning the locality…"));
    resultTabs_->setCurrentIndex(1);
    updateEnabled();
    return true;
}

void TrainingPanel::cancel()
{
    if (localityPane_->busy()) {
        localityPane_->cancel();
        return;
    }
    if (!runner_->busy())
        return;
    runner_->cancel();  // announces cancelled(id); the worker stops at the core's next progress report
}

QString TrainingPanel::keptNote() const
{
    return last_ ? tr(" The results of the previous run are still shown.") : QString();
}

void TrainingPanel::runWhenDataReady(Action action)
{
    if (!state_->dataset())
        pending_ = action;
    else if (action == Action::Learn)
        learnLocality();
    else
        run();
}

void TrainingPanel::setRunning(bool)
{
    updateEnabled();
}

void TrainingPanel::draw(std::shared_ptr<const TrainingResult> result)
{
    if (!result)
        return;
    last_ = result;
    ++draws_;
    const orbit::TrainResult& r = result->result;
    progress_->setValue(1000);
    status_->setText(tr("Finished in %1.").arg(formatSeconds(r.seconds)));
    const TrainingRequest& q = result->request;
    const QString data = safeText(QFileInfo(QString::fromStdString(q.dataset->source)).fileName(), orbit::kQuoteMaxChars);
    const QString metric = isRmse(r) ? tr("test RMSE") : tr("test accuracy");
    // RMSE and MAE are in the targets' unit, when the data states one.
    const QString unit = QString::fromStdString(q.dataset->targetUnit);
    const QString unitSuffix = isRmse(r) && !unit.isEmpty() ? " " + unit.toHtmlEscaped() : QString();
    QString score = r.folds.size() == 1
                        ? tr("<b>%1 %2%3</b> on one held-out split").arg(metric, formatScore(r, r.mean), unitSuffix)
                        : tr("<b>%1 %2 ± %3%4</b> over %5 folds")
                              .arg(metric, formatScore(r, r.mean), formatScore(r, r.stddev), unitSuffix)
                              .arg(r.folds.size());
    if (isRmse(r))
        score += tr(" · MAE %1%2").arg(QString::number(r.mae, 'f', 2), unitSuffix);
    if (r.logEvidence)
        score += tr(" · log evidence %1").arg(*r.logEvidence, 0, 'g', 6);
    summary_->setText(tr("%1<br>%2 of %3 samples of %4 · %5 (%6 features)%7 · %8 · %9")
                          .arg(score)
                          .arg(result->samples)
                          .arg(q.dataset->count())
                          .arg(data.toHtmlEscaped(), QString::fromStdString(r.featureSpec).toHtmlEscaped())
                          .arg(r.featureDim)
                          .arg(q.config.group.empty()
                                   ? QString()
                                   : tr(" over %1, %2").arg(QString::fromStdString(q.config.group),
                                                            QString::fromStdString(q.config.dist).toHtmlEscaped()))
                          .arg(QString::fromStdString(q.config.learner), formatSeconds(r.seconds)));
    if (result->curve.x.size() < 2)
        summary_->setText(summary_->text() +
                          tr("<br><i>One grid point only, so no score curve: list several values of λ, C or the "
                             "bandwidth, or sweep a distribution parameter.</i>"));
    drawTable(*result);
    drawScoreChart(scoreChart_, result->result, result->curve, unit);
    drawConfusion(*result);
    drawLearningCurve(curveChart_, result->result, unit);
    stack_->setCurrentIndex(1);
    resultTabs_->setCurrentIndex(0);
    emit statusMessage(tr("Training finished: %1 %2%3").arg(metricName(r), formatScore(r, r.mean), unitSuffix));
}

void TrainingPanel::drawTable(const TrainingResult& result)
{
    const orbit::TrainResult& r = result.result;
    const bool regression = isRmse(r);
    const bool evidence = r.logEvidence.has_value();
    const QString unit = QString::fromStdString(result.request.dataset->targetUnit);
    QStringList headers{tr("fold"), regression ? withScoreUnit(tr("RMSE"), r, unit) : tr("accuracy")};
    if (regression)
        headers << withScoreUnit(tr("MAE"), r, unit);
    if (evidence)
        headers << tr("log evidence");
    headers << tr("seconds") << tr("chosen parameters");
    table_->clear();
    table_->setColumnCount(static_cast<int>(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    const int folds = static_cast<int>(r.folds.size());
    table_->setRowCount(folds + 1);
    auto put = [this](int row, int col, const QString& text, bool bold = false) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(col == table_->columnCount() - 1 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignCenter);
        if (bold) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        table_->setItem(row, col, item);
    };
    for (int f = 0; f < folds; ++f) {
        const orbit::FoldResult& fold = r.folds[static_cast<std::size_t>(f)];
        int col = 0;
        put(f, col++, QString::number(f + 1));
        put(f, col++, formatScore(r, fold.score));
        if (regression)
            put(f, col++, QString::number(fold.mae, 'f', 2));
        if (evidence)
            put(f, col++, QString::number(fold.logEvidence, 'g', 6));
        put(f, col++, QString::number(fold.seconds, 'f', 2));
        put(f, col++, pointText(fold.chosen));
    }
    // The summary row: the core's fold statistics (orbit::summarizeFolds, as `train --json` reports).
    const orbit::FoldSummary sum = orbit::summarizeFolds(r);
    int col = 0;
    put(folds, col++, folds > 1 ? tr("mean ± std") : tr("mean"), true);
    put(folds, col++, folds > 1 ? formatScore(r, sum.score.mean) + " ± " + formatScore(r, sum.score.sd) : formatScore(r, sum.score.mean), true);
    auto withSpread = [folds](const QString& mean, const QString& sd) { return folds > 1 ? mean + " ± " + sd : mean; };
    if (regression)
        put(folds, col++, withSpread(QString::number(sum.mae.mean, 'f', 2), QString::number(sum.mae.sd, 'f', 2)), true);
    if (evidence)
        put(folds, col++, withSpread(QString::number(sum.logEvidence.mean, 'g', 6), QString::number(sum.logEvidence.sd, 'g', 3)), true);
    put(folds, col++, QString::number(sum.seconds, 'f', 2), true);
    put(folds, col++, tr("%1 features").arg(r.featureDim), true);
    table_->resizeColumnsToContents();
    table_->resizeRowsToContents();
    int height = table_->horizontalHeader()->height() + 2 * table_->frameWidth() + 2;
    for (int row = 0; row < std::min(table_->rowCount(), 7); ++row)
        height += table_->rowHeight(row);
    table_->setFixedHeight(height);
}

QStringList TrainingPanel::exportCharts(const QString& dir, QString* error) const
{
    QStringList written;
    if (!last_)
        return written;
    if (last_->curve.x.size() >= 2 &&
        !writeChartCsv(dir, scoreChart_->baseName() + ".csv", scoreChart_->csv(), &written, error))
        return written;
    if (!writeChartCsv(dir, curveChart_->baseName() + ".csv", curveChart_->csv(), &written, error))
        return written;
    if (!isRmse(last_->result) && last_->result.confusion.rows() > 0)
        writeChartCsv(dir, confusion_->baseName() + ".csv", confusion_->csv(), &written, error);
    return written;
}

void TrainingPanel::drawConfusion(const TrainingResult& result)
{
    const orbit::TrainResult& r = result.result;
    const bool classes = !isRmse(r) && r.confusion.rows() > 0;
    confusion_->setVisible(classes);
    if (!classes)
        return;
    QStringList names;
    for (const std::string& name : result.classNames)
        names << QString::fromStdString(name);
    confusion_->setMatrix(r.confusion, names, tr("Confusion matrix · %1 test samples").arg(r.confusion.sum()));
}

} // namespace orbitui
