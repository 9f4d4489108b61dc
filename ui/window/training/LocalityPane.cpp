#include "window/training/LocalityPane.hpp"

#include "render/ParameterLabels.hpp"

#include "state/LabState.hpp"
#include "state/TrainingSettings.hpp"
#include "state/workers/LocalityTask.hpp"
#include "window/training/LocalityView.hpp"
#include "window/training/PerClassView.hpp"
#include "window/training/TrainingCharts.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include "orbit/registry/Registry.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>
#include <cmath>

namespace orbitui {

namespace {

/// "κ = 0.84, translation σ = 1.2".
QString valuesText(const std::map<std::string, double>& values)
{
    QStringList parts;
    for (const auto& [name, v] : values)
        parts << QStringLiteral("%1 = %2").arg(axisLabel(name), QString::number(v, 'g', 4));
    return parts.join(", ");
}

} // namespace

LocalityPane::LocalityPane(LabState* state, QObject* parent)
    : QObject(parent), state_(state), runner_(new TaskRunner("locality", this))
{
    params_ = new QListWidget;
    params_->setObjectName("learnParameters");
    params_->setMaximumHeight(84);
    params_->setToolTip(tr("The distribution parameters to learn (set in the Group panel). Several at once need a "
                           "gradient: the irf features of rotation, translation, scale or affine."));
    evaluations_ = new QSpinBox;
    evaluations_->setObjectName("learnEvaluations");
    evaluations_->setRange(3, 500);
    evaluations_->setValue(30);
    evaluations_->setToolTip(tr("How many times the evidence may be evaluated in all: a scan spread over the range, "
                                "then the optimiser's steps."));
    perInput_ = new QCheckBox(tr("Own orbit samples per input"));
    perInput_->setObjectName("learnPerInput");
    perInput_->setChecked(true);
    perInput_->setToolTip(tr("irf features: draw each input's group elements on their own (mode=data) instead of sharing "
                             "one set with every input. Shared samples bias the evidence (by 1/r) and over-estimate "
                             "windows (93° for digits rotated by up to 45°); own samples recover them (49°; see "
                             "docs/results.md)."));
    perClass_ = new QCheckBox(tr("Per class"));
    perClass_->setObjectName("learnPerClass");
    perClass_->setToolTip(tr("Learn the parameters of every class by its own evidence (its own one-hot column, its own "
                             "precisions, the same templates), beside the single locality: which digits want a narrow "
                             "window? Classes only; the chart fills in class by class, Cancel keeps the classes learned "
                             "so far."));
    learner_ = new QComboBox;
    learner_->setObjectName("learnLearner");
    for (const char* name : {"blr", "gp"}) {  // the registry's learners that report a log evidence
        const orbit::LearnerDescriptor& d = *orbit::findLearner(name);
        learner_->addItem(QString::fromStdString(d.displayName), QString::fromLatin1(name));
        learner_->setItemData(learner_->count() - 1, QString::fromStdString(d.doc), Qt::ToolTipRole);
    }
    learner_->setToolTip(tr("What learns the locality: the evidence of Bayesian linear regression on the features above "
                            "(several parameters with a gradient, per class), or the log marginal likelihood of the "
                            "exact GP on the exact invariant kernel (one parameter, with the bandwidth, signal and "
                            "noise; the features' exact:r=R, else exact:r=4)."));
    connect(learner_, &QComboBox::currentIndexChanged, this, &LocalityPane::updateLearnerChoices);
    landscape_ = new QSpinBox;
    landscape_->setObjectName("learnLandscape");
    landscape_->setRange(0, 64);
    landscape_->setValue(0);
    landscape_->setSpecialValueText(tr("from the learn"));
    landscape_->setToolTip(tr("Extra points of the evidence landscape evaluated before learning, per learned parameter "
                              "(two parameters: a grid of n × n, drawn as a heatmap), each costing a full evaluation. "
                              "\"From the learn\" costs nothing: one parameter's curve is drawn from the learn's own "
                              "evaluations and its cheap pilots."));
    learnButton_ = new QPushButton(tr("Learn locality"));
    learnButton_->setObjectName("learnLocality");
    learnButton_->setToolTip(tr("Let the evidence choose the checked parameters on the worker (Ctrl+L); the sliders of "
                                "the Group panel follow every step."));
    undoButton_ = new QPushButton(tr("Undo"));
    undoButton_->setObjectName("undoLearned");
    undoButton_->setEnabled(false);
    undoButton_->setToolTip(tr("Put the distribution back as it was before the last learn."));
    auto* box = new QGroupBox(tr("Learn the locality"));
    auto* form = new QFormLayout(box);
    form->addRow(tr("Learner"), learner_);
    form->addRow(tr("Learn"), params_);
    form->addRow(tr("Evaluations"), evaluations_);
    form->addRow(tr("Landscape"), landscape_);
    form->addRow(perInput_);
    // "Per class" beside the button it changes, in the actions the host keeps in sight: lesson 2
    // points to it, and at the foot of the scrolled settings it sat below the fold.
    actions_ = new QWidget;
    auto* buttons = new QHBoxLayout(actions_);
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(perClass_);
    buttons->addWidget(learnButton_, 2);
    buttons->addWidget(undoButton_, 1);
    settings_ = box;

    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::PlainText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = summary_->font();
    f.setPointSizeF(f.pointSizeF() + 1);
    summary_->setFont(f);
    view_ = new LocalityView;
    perClassView_ = new PerClassView;
    perClassView_->hide();
    results_ = new QWidget;
    auto* layout = new QVBoxLayout(results_);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(view_, 1);
    layout->addWidget(perClassView_, 1);
    connect(perClassView_, &PerClassView::classClicked, this, &LocalityPane::showClass);

    connect(learnButton_, &QPushButton::clicked, this, &LocalityPane::learnRequested);
    connect(undoButton_, &QPushButton::clicked, this, &LocalityPane::undo);
    connect(state_, &LabState::orbitSettingsChanged, this, [this] {
        if (applying_)
            return;
        if (busy() && before_ && !sameParameters(*before_, state_->orbitSettings()))
            abandon(tr("the group or its distribution changed"));
        refreshParameters();
    });
    connect(state_, &LabState::datasetChanged, this, [this] {
        if (busy())
            abandon(tr("other data were opened"));
        refreshParameters();
        showRestored();
    });
    connect(runner_, &TaskRunner::progress, this, [this](quint64, double fraction, const QString& text) { emit progress(fraction, text); });
    connect(runner_, &TaskRunner::partial, this, [this](quint64, const QVariant& v) {
        if (abandoned_)
            return;  // its values name parameters of a setting the user has left
        if (const auto step = v.value<std::shared_ptr<const LocalityStep>>())
            onStep(*step);
        else if (const auto learned = v.value<std::shared_ptr<const orbit::ClassLocality>>())
            onClass(*learned);
    });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        if (abandoned_)
            return endAbandoned();  // finished before the cancel reached it
        onFinished(v.value<std::shared_ptr<const LocalityResult>>());
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        if (before_)
            state_->setOrbitSettings(*before_);  // a failed run leaves the settings as they were
        before_.reset();
        undoButton_->setEnabled(false);
        summary_->setText(tr("Learning failed: %1").arg(message));
        learnButton_->setEnabled(true);
        emit stopped(message, field);
    });
    connect(runner_, &TaskRunner::cancelled, this, [this](quint64) {
        if (abandoned_)
            return endAbandoned();
        if (!perClassView_->isHidden()) {  // a per-class run (shown even while the tab is not)
            keepClasses();
            summary_->setText(classes_.empty()
                                  ? tr("Cancelled before the first class was learned; the distribution is as it was.")
                                  : tr("Cancelled; kept the %1 classes learned so far as the per-class distributions "
                                       "(the chart shows them). Undo puts back the settings from before.")
                                        .arg(classes_.size()));
            if (classes_.empty() && before_) {
                state_->setOrbitSettings(*before_);
                before_.reset();
            }
            undoButton_->setEnabled(before_.has_value());
            learnButton_->setEnabled(true);
            emit stopped(QString());
            return;
        }
        if (!best_.empty()) {
            applyValues(best_);
            summary_->setText(tr("Cancelled after %1 evaluations; kept the best point so far: %2 (log evidence %3). "
                                 "Undo puts back the values from before.")
                                  .arg(steps_)
                                  .arg(valuesText(best_))
                                  .arg(bestEvidence_, 0, 'f', 2));
        } else if (!pilotBest_.empty()) {
            applyValues(pilotBest_);
            summary_->setText(tr("Cancelled while the pilots searched; kept the pilots' best point: %1 (log evidence "
                                 "%2 on a part of the rows). Undo puts back the values from before.")
                                  .arg(valuesText(pilotBest_))
                                  .arg(pilotBestEvidence_, 0, 'f', 2));
        } else {
            if (before_)
                state_->setOrbitSettings(*before_);
            before_.reset();
            summary_->setText(tr("Cancelled before the first step; the distribution is as it was."));
        }
        undoButton_->setEnabled(before_.has_value());
        learnButton_->setEnabled(true);
        emit stopped(QString());
    });
    refreshParameters();
}

bool LocalityPane::busy() const { return runner_->busy(); }

std::vector<std::string> LocalityPane::checkedParameters() const
{
    std::vector<std::string> names;
    for (int i = 0; i < params_->count(); ++i)
        if (params_->item(i)->checkState() == Qt::Checked)
            names.push_back(params_->item(i)->data(Qt::UserRole).toString().toStdString());
    return names;
}

QString LocalityPane::summaryText() const { return summary_->text(); }

std::vector<std::string> LocalityPane::chosenParameters() const
{
    return params_->count() == 0 ? wanted_ : checkedParameters();
}

std::string LocalityPane::learner() const { return learner_->currentData().toString().toStdString(); }

void LocalityPane::updateLearnerChoices()
{
    const bool blr = !isGaussianProcess(learner());
    for (QWidget* w : std::initializer_list<QWidget*>{perInput_, perClass_, landscape_})
        w->setEnabled(blr);
}

void LocalityPane::setChoices(const std::vector<std::string>& learn, int evaluations, int landscape, bool perInput,
                              bool perClass, const std::string& learner)
{
    perInput_->setChecked(perInput);
    perClass_->setChecked(perClass);
    learner_->setCurrentIndex(std::max(0, learner_->findData(QString::fromStdString(learner))));
    wanted_ = learn;
    {
        const QSignalBlocker block(params_);  // the chosen landscape stays, not the two-parameter default
        const bool any = std::any_of(learn.begin(), learn.end(), [&](const std::string& name) {
            for (int i = 0; i < params_->count(); ++i)
                if (params_->item(i)->data(Qt::UserRole).toString().toStdString() == name)
                    return true;
            return false;
        });
        for (int i = 0; i < params_->count(); ++i) {
            const std::string name = params_->item(i)->data(Qt::UserRole).toString().toStdString();
            const bool wanted = any ? std::find(learn.begin(), learn.end(), name) != learn.end() : i == 0;
            params_->item(i)->setCheckState(wanted ? Qt::Checked : Qt::Unchecked);
        }
    }
    evaluations_->setValue(evaluations);
    landscape_->setValue(landscape);
}

void LocalityPane::refreshParameters()
{
    const auto ds = state_->dataset();
    std::vector<std::string> names, checked = params_->count() == 0 ? wanted_ : checkedParameters();
    std::shared_ptr<const orbit::Distribution> dist;
    if (ds)
        try {
            dist = buildOrbit(state_->orbitSettings(), ds->kind, ds->shape).dist;
        } catch (const orbit::SpecError&) {
        }
    std::vector<std::pair<std::string, const orbit::ParamDescriptor*>> offered;
    if (dist)
        for (const auto& [name, value] : dist->parameters())
            offered.emplace_back(name, &dist->parameterDescriptor(name));
    // The same names as shown: keep the user's checks.
    bool same = int(offered.size()) == params_->count();
    for (int i = 0; same && i < params_->count(); ++i)
        same = params_->item(i)->data(Qt::UserRole).toString().toStdString() == offered[std::size_t(i)].first;
    if (same)
        return;
    const QSignalBlocker block(params_);
    params_->clear();
    bool any = std::any_of(offered.begin(), offered.end(), [&](const auto& o) {
        return std::find(checked.begin(), checked.end(), o.first) != checked.end();
    });
    for (const auto& [name, p] : offered) {
        auto* item = new QListWidgetItem(axisLabel(name, *p) + (p->learnable ? QString() : tr("  (1-D search, no gradient)")));
        item->setData(Qt::UserRole, QString::fromStdString(name));
        item->setToolTip(QString::fromStdString(p->doc));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool wanted = any ? std::find(checked.begin(), checked.end(), name) != checked.end() : params_->count() == 0;
        item->setCheckState(wanted ? Qt::Checked : Qt::Unchecked);
        params_->addItem(item);
    }
    learnButton_->setEnabled(!offered.empty() && !runner_->busy());
    if (offered.empty())
        learnButton_->setToolTip(tr("The distribution of the Group panel has no parameter to learn (Haar and delta have "
                                    "none)."));
}

void LocalityPane::start(const TrainingSettings& training)
{
    const auto ds = state_->dataset();
    if (!ds)
        throw orbit::SpecError("data", "load a labelled dataset first");
    if (!ds->isClassification() && !ds->isRegression())
        throw orbit::SpecError("data", "these data have no labels or targets to learn from", ds->source);
    const std::vector<std::string> names = checkedParameters();
    if (names.empty())
        throw orbit::SpecError("learn", "check at least one parameter of the distribution to learn");
    const OrbitSettings orbitSettings = state_->orbitSettings();
    finished_ = false;
    LocalityRequest request;
    request.dataset = ds;
    request.subset = std::size_t(std::max(0, training.subset));
    orbit::LocalityConfig& c = request.config;
    request.learner = learner();
    const bool gp = isGaussianProcess(request.learner);
    // Own samples per input unless the spec already says how the average is taken.
    TrainingSettings perInput = training;
    perInput.learnPerInput = perInput_->isChecked();
    c.features = gp ? learnExactFeatureSpec(training) : learnFeatureSpec(perInput);
    if (!isInvariantSpec(c.features))
        throw orbit::SpecError("features", "learning the locality needs invariant features (irf, inystrom, gicdf, kif)",
                               c.features);
    if (gp && perClass_->isChecked())
        throw orbit::SpecError("per-class", "is a learn of Bayesian linear regression: the GP learns one locality", "gp");
    c.group = orbitSettings.groupSpec();
    c.dist = orbitSettings.distSpec();
    c.kernel = learnKernelSpec(training);
    c.eval = training.evalSpec();
    c.seed = training.seed;
    c.learn = names;
    c.maxEvaluations = evaluations_->value();
    c.validate();
    const auto dist = buildOrbit(orbitSettings, ds->kind, ds->shape).dist;
    std::vector<LocalityView::Parameter> params;
    for (const std::string& name : names) {
        const orbit::ParamDescriptor& p = dist->parameterDescriptor(name);
        params.push_back({name, p, {p.learnMinimum, p.learnMaximum}});
        if (names.size() <= 2 && landscape_->value() > 0 && !gp)
            request.landscape.push_back(landscapeValues(p, landscape_->value()));
    }
    request.perClass = perClass_->isChecked();
    if (request.perClass) {
        if (!ds->isClassification())
            throw orbit::SpecError("per-class", "needs class labels: regression targets have no classes to give localities to",
                                   ds->source);
        request.landscape.clear();
    }
    before_ = orbitSettings;
    restored_ = {};
    running_ = names;
    best_.clear();
    pilotBest_.clear();
    classes_.clear();
    steps_ = 0;
    view_->setVisible(!request.perClass);
    perClassView_->setVisible(request.perClass);
    if (request.perClass) {
        QStringList classes;
        for (int k = 0; k < ds->numClasses; ++k)
            classes << (std::size_t(k) < ds->classNames.size() ? QString::fromStdString(ds->classNames[std::size_t(k)])
                                                                : QString::number(k));
        perClassView_->begin(classes, names.front(), orbit::rotationWindowDegrees(*dist).has_value());
    }
    view_->begin(params, request.landscape);
    if (gp)
        view_->showAsMarginalLikelihood();
    QStringList labels;
    for (const LocalityView::Parameter& p : params)
        labels << axisLabel(p.name, p.descriptor);
    summary_->setText(gp ? tr("Learning %1 by the exact GP's log marginal likelihood on %2…")
                               .arg(labels.join(", "), QString::fromStdString(c.features))
                      : request.perClass ? tr("Learning %1 for one locality, then for every class…").arg(labels.join(", "))
                      : request.landscape.empty() ? tr("Learning %1…").arg(labels.join(", "))
                                                : tr("Drawing the evidence landscape over %1, then learning…").arg(labels.join(", ")));
    learnButton_->setEnabled(false);
    undoButton_->setEnabled(false);
    runner_->submit(makeLocalityTask(std::move(request)));
    emit started();
}

void LocalityPane::cancel()
{
    if (runner_->busy())
        runner_->cancel();
}

LearnPicture LocalityPane::picture() const
{
    return view_->isHidden() ? LearnPicture{} : view_->picture();
}

void LocalityPane::restore(const QString& summary, const LearnPicture& picture)
{
    if (busy())
        return;
    if (!summary.isEmpty())
        summary_->setText(tr("From the last session: %1").arg(summary));
    restored_ = picture;
    showRestored();
}

void LocalityPane::showRestored()
{
    const auto ds = state_->dataset();
    if (restored_.empty() || busy() || !ds)
        return;
    const LearnPicture picture = std::exchange(restored_, {});
    std::vector<LocalityView::Parameter> params;
    try {
        const auto dist = buildOrbit(state_->orbitSettings(), ds->kind, ds->shape).dist;
        for (const std::string& name : picture.parameters) {
            const orbit::ParamDescriptor& p = dist->parameterDescriptor(name);
            params.push_back({name, p, {p.learnMinimum, p.learnMaximum}});
        }
    } catch (const orbit::SpecError&) {
        return;  // the setting has changed since (another group or distribution): its chart is gone
    }
    perClassView_->setVisible(false);
    view_->setVisible(true);
    view_->show(std::move(params), picture);
}

bool LocalityPane::sameParameters(const OrbitSettings& a, const OrbitSettings& b)
{
    if (a.group != b.group || a.groupValues != b.groupValues)
        return false;
    for (const std::string& f : a.factors())
        if (a.factor(f).name != b.factor(f).name)
            return false;
    return true;
}

void LocalityPane::abandon(const QString& why)
{
    abandoned_ = true;
    abandonReason_ = why;
    runner_->cancel();
}

void LocalityPane::endAbandoned()
{
    abandoned_ = false;
    before_.reset();  // the user's own change stands; Undo would take it back
    best_.clear();
    pilotBest_.clear();
    classes_.clear();
    summary_->setText(tr("Stopped learning: %1 while it ran, so its values would not fit. Nothing learned was applied; "
                         "press Learn again for the new setting.")
                          .arg(abandonReason_));
    undoButton_->setEnabled(false);
    learnButton_->setEnabled(true);
    emit stopped(QString());
}

void LocalityPane::undo()
{
    if (!before_)
        return;
    state_->setOrbitSettings(*before_);
    before_.reset();
    undoButton_->setEnabled(false);
    summary_->setText(summary_->text() + tr("\nUndone: the distribution is back as it was."));
}

void LocalityPane::setUndoSettings(const std::optional<OrbitSettings>& settings)
{
    if (busy())
        return;  // a running learn owns its Undo
    before_ = settings;
    undoButton_->setEnabled(before_.has_value());
}

std::optional<OrbitSettings> LocalityPane::bestSoFar() const
{
    // The best full-size point, or while the pilots still search, theirs (what a cancel keeps).
    const std::map<std::string, double>& best = best_.empty() ? pilotBest_ : best_;
    if (!busy() || best.empty())
        return std::nullopt;
    OrbitSettings s = state_->orbitSettings();
    for (const auto& [name, v] : best)
        s.setParameter(name, v);
    return s;
}

void LocalityPane::applyValues(const std::map<std::string, double>& values)
{
    OrbitSettings s = state_->orbitSettings();
    for (const auto& [name, v] : values)
        s.setParameter(name, v);
    applying_ = true;
    state_->setOrbitSettings(s);
    applying_ = false;
}

void LocalityPane::onStep(const LocalityStep& step)
{
    if (step.stage == LocalityStep::Stage::Landscape) {
        view_->addLandscapePoint(step.point);
        summary_->setText(tr("Evidence landscape: %1 of %2 points.").arg(step.index).arg(step.total));
        return;
    }
    if (step.stage == LocalityStep::Stage::Pilot) {
        // A cheap pilot on a part of the rows finds the basin; its evidence is on its own scale, so
        // it moves the sliders but joins the chart only at the end (scaled, learnLandscape).
        pilotBest_ = step.best.params;
        pilotBestEvidence_ = step.best.logEvidence;
        applyValues(step.point.params);
        summary_->setText(tr("Pilot on a part of the rows, evaluation %1 (%2): %3.\nBest of this pilot: %4.")
                              .arg(step.index)
                              .arg(QString::fromStdString(step.point.stage))
                              .arg(valuesText(step.point.params))
                              .arg(valuesText(step.best.params)));
        return;
    }
    ++steps_;
    view_->addPathPoint(step.point, step.best);
    best_ = step.best.params;
    bestEvidence_ = step.best.logEvidence;
    applyValues(step.point.params);  // the sliders, the density and the orbits follow the optimiser
    summary_->setText((isGaussianProcess(learner()) ? tr("Learning by the GP, value %1 of at most %2 (%3): %4, log marginal "
                                              "likelihood %5.\nBest so far: %6, log marginal likelihood %7.")
                                         : tr("Learning, evaluation %1 of at most %2 (%3): %4, log evidence %5.\nBest so "
                                              "far: %6, log evidence %7."))
                          .arg(step.index)
                          .arg(step.total)
                          .arg(QString::fromStdString(step.point.stage))
                          .arg(valuesText(step.point.params))
                          .arg(step.point.logEvidence, 0, 'f', 2)
                          .arg(valuesText(step.best.params))
                          .arg(step.best.logEvidence, 0, 'f', 2));
}

void LocalityPane::onClass(const orbit::ClassLocality& learned)
{
    classes_[learned.label] = learned;
    perClassView_->addClass(learned);
    summary_->setText(tr("Learned %1 of %2 classes; class %3: %4 (log evidence %5).")
                          .arg(classes_.size())
                          .arg(state_->dataset() ? state_->dataset()->numClasses : 0)
                          .arg(learned.label)
                          .arg(valuesText(learned.learned))
                          .arg(learned.logEvidence, 0, 'f', 2));
}

void LocalityPane::keepClasses()
{
    if (classes_.empty())
        return;
    orbit::ClassDistributions d;
    for (const auto& [label, c] : classes_)
        d.named[label] = c.dist;
    OrbitSettings s = state_->orbitSettings();
    s.distPerClass = d.text();
    applying_ = true;
    state_->setOrbitSettings(s);
    applying_ = false;
}

bool LocalityPane::showClass(int label)
{
    const auto it = classes_.find(label);
    const auto ds = state_->dataset();
    if (it == classes_.end() || !ds)
        return false;
    applyValues(it->second.learned);  // the Group panel shows the class's own distribution
    const auto row = std::find(ds->labels.begin(), ds->labels.end(), label);
    if (row != ds->labels.end())
        state_->setSelectedIndex(int(row - ds->labels.begin()));  // and the Orbits panel one of its samples
    summary_->setText(tr("Class %1: %2 (log evidence %3%4). The Group panel shows its distribution, the Orbits panel "
                         "sample %5.")
                          .arg(label)
                          .arg(valuesText(it->second.learned))
                          .arg(it->second.logEvidence, 0, 'f', 2)
                          .arg(it->second.test ? tr(", held-out recall %1").arg(*it->second.test, 0, 'f', 3) : QString())
                          .arg(state_->selectedIndex()));
    return true;
}

} // namespace orbitui
