#include "window/compare/ComparisonViews.hpp"

#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/training/TrainingComparison.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/HeatmapView.hpp"
#include "render/SampleImage.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/Tasks.hpp"

#include "orbit/registry/Registry.hpp"

#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace orbitui {

namespace {

/// Identifies a dataset object in a cache key (A's results are for one loaded dataset).
QString dataKey(const LabState* state) { return QString::number(reinterpret_cast<quintptr>(state->dataset().get()), 16); }

/// Legend names of B's own series while A is pinned: "B: " in front, taken off again on unpin.
void markB(QChart* chart, const ChartOverlay& overlay, bool pinned)
{
    for (QAbstractSeries* s : chart->series()) {
        auto* line = qobject_cast<QLineSeries*>(s);
        if (line && overlay.owns(line))
            continue;
        const QString name = s->name();
        if (pinned && !name.startsWith("B: "))
            s->setName("B: " + name);
        else if (!pinned && name.startsWith("B: "))
            s->setName(name.mid(3));
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Group & distribution

GroupComparison::GroupComparison(Comparison* comparison, LabState* state, GroupPanel* panel, QObject* parent)
    : QObject(parent), comparison_(comparison), state_(state), panel_(panel),
      runner_(new TaskRunner("orbit-density-a", this)), overlay_(panel->densityChart()->chart())
{
    // The panel sets its axes after it replaced the curve: draw A once it is done.
    connect(panel_->densitySeries(), &QXYSeries::pointsReplaced, this, [this] {
        if (scheduled_)
            return;
        scheduled_ = true;
        QTimer::singleShot(0, this, [this] {
            scheduled_ = false;
            update();
        });
    });
    connect(comparison_, &Comparison::pinnedChanged, this, &GroupComparison::update);
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        result_ = v.value<std::shared_ptr<const DensityResult>>();
        resultKey_ = pendingKey_;
        draw();
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        overlay_.clear();
        emit panel_->statusMessage(tr("A's density could not be drawn: %1").arg(message));
    });
}

bool GroupComparison::isIdle() const { return !runner_->busy() && !scheduled_; }

QString GroupComparison::key() const
{
    const auto& a = *comparison_->pinned();
    std::string factor = panel_->densityFactor();  // empty unless affine
    const auto factors = a.orbit.factors();
    if (std::find(factors.begin(), factors.end(), factor) == factors.end())
        factor = factors.front();
    const orbit::DistributionDescriptor* d = orbit::findDistribution(a.orbit.factor(factor).name);
    const int index = d && d->dependsOnInput ? state_->selectedIndex() : -1;
    return QStringLiteral("%1|%2|%3|%4").arg(comparison_->generation()).arg(dataKey(state_), QString::fromStdString(factor)).arg(index);
}

void GroupComparison::update()
{
    QChart* chart = panel_->densityChart()->chart();
    if (!comparison_->isPinned()) {
        runner_->cancel();
        result_.reset();
        resultKey_.clear();
        pendingKey_.clear();
        overlay_.clear();
        markB(chart, overlay_, false);
        panel_->densitySeries()->setName(tr("density q"));
        return;
    }
    panel_->densitySeries()->setName(QStringLiteral("B: ") + Comparison::describe(state_->orbitSettings()));
    markB(chart, overlay_, true);
    const QString k = key();
    if (result_ && k == resultKey_) {
        draw();
        return;
    }
    if (k == pendingKey_ && runner_->busy())
        return;
    pendingKey_ = k;
    DensityRequest req;
    req.settings = comparison_->pinned()->orbit;
    req.factor = k.section('|', 2, 2).toStdString();
    req.dataset = state_->dataset();
    req.index = state_->selectedIndex();
    runner_->submit(makeDensityTask(req));
}

void GroupComparison::draw()
{
    if (!comparison_->isPinned() || !result_)
        return;
    const DensityResult& r = *result_;
    // Only curves over the same parameter share the axes (a translation is not an angle).
    if (r.parameter != panel_->densityAxisX()->titleText()) {
        overlay_.clear();
        emit panel_->statusMessage(tr("A plots %1, B %2: no overlay").arg(r.parameter, panel_->densityAxisX()->titleText()));
        return;
    }
    ChartOverlay::Curve c;
    c.name = comparison_->label();
    c.points = r.hasDensity ? QList<QPointF>(r.curve.begin(), r.curve.end()) : QList<QPointF>(r.histogram.begin(), r.histogram.end());
    c.color = QColor(40, 40, 40);
    c.width = 2.5;
    overlay_.draw({c});
}

// ---------------------------------------------------------------------------------------------
// Kernels

KernelsComparison::KernelsComparison(Comparison* comparison, LabState* state, KernelsPanel* panel, QObject* parent)
    : QObject(parent), comparison_(comparison), state_(state), panel_(panel), runner_(new TaskRunner("kernels-a", this)),
      widget_(new QWidget), choice_(new QComboBox), note_(new QLabel)
{
    choice_->addItem(tr("invariant kernel k_qG"));
    choice_->addItem(tr("approximation ⟨ψ(xᵢ), ψ(xⱼ)⟩"));
    choice_->addItem(tr("base kernel k"));
    choice_->setToolTip(tr("The matrix shown for A, for B and as B − A"));
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::PlainText);
    auto* layout = new QVBoxLayout(widget_);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* head = new QHBoxLayout;
    head->addWidget(new QLabel(tr("Compare A and B:")));
    head->addWidget(choice_);
    head->addWidget(note_, 1);
    layout->addLayout(head);
    auto* row = new QHBoxLayout;
    for (int v = 0; v < 3; ++v) {
        auto* view = new HeatmapView;
        view->setAxisNames("i", "j", v == BMinusA ? "B − A" : "k");
        view->setPlaceholder(tr("Compute to compare A and B."));
        views_[static_cast<std::size_t>(v)] = view;
        row->addWidget(view, 1);
    }
    views_[BMinusA]->setColorMap(HeatmapView::ColorMap::Diverging);
    layout->addLayout(row, 1);
    widget_->hide();
    panel_->appendWidget(widget_, 1);

    connect(choice_, &QComboBox::currentIndexChanged, this, &KernelsComparison::draw);
    connect(comparison_, &Comparison::pinnedChanged, this, &KernelsComparison::update);
    connect(panel_->runner(), &TaskRunner::finished, this, &KernelsComparison::update);
    connect(state_, &LabState::datasetChanged, this, &KernelsComparison::update);
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        result_ = v.value<std::shared_ptr<const KernelResult>>();
        resultKey_ = pendingKey_;
        draw();
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        note_->setText(tr("A could not be computed: %1").arg(message));
    });
}

bool KernelsComparison::isIdle() const { return !runner_->busy(); }

QString KernelsComparison::noteText() const { return note_->text(); }

void KernelsComparison::update()
{
    const bool pinned = comparison_->isPinned();
    widget_->setVisible(pinned);
    for (int m = 0; m < 4; ++m)  // the panel's own four heatmaps give way to A, B and B − A
        panel_->heatmap(KernelsPanel::Matrix(m))->parentWidget()->setVisible(!pinned);
    const auto b = panel_->lastResult();
    if (!pinned || !b) {
        if (!pinned) {
            runner_->cancel();
            result_.reset();
            resultKey_.clear();
            pendingKey_.clear();
        }
        for (HeatmapView* v : views_)
            v->clear();
        note_->setText(pinned ? tr("%1 · compute to see B beside it.").arg(comparison_->label()) : QString());
        return;
    }
    // A on B's points, so that B − A compares the same pairs.
    QString key = QStringLiteral("%1|%2|").arg(comparison_->generation()).arg(dataKey(state_));
    for (std::size_t i : b->indices)
        key += QString::number(i) + ",";
    if (result_ && key == resultKey_) {
        draw();
        return;
    }
    if (key == pendingKey_ && runner_->busy())
        return;
    pendingKey_ = key;
    const PinnedSetting& a = *comparison_->pinned();
    KernelRequest req;
    req.dataset = b->request.dataset;
    req.settings = a.orbit;
    req.points = b->indices;
    req.n = static_cast<int>(b->indices.size());
    req.r = a.kernels.r > 0 ? a.kernels.r : a.orbit.r;
    req.method = a.kernels.method.toStdString();
    req.s = a.kernels.s;
    req.bandwidth = a.kernels.bandwidth;
    note_->setText(tr("Computing A (%1)…").arg(comparison_->label()));
    runner_->submit(makeKernelTask(std::move(req)));
}

void KernelsComparison::draw()
{
    const auto b = panel_->lastResult();
    if (!comparison_->isPinned() || !result_ || !b || result_->indices != b->indices)
        return;
    const int which = choice_->currentIndex();
    auto pick = [which](const KernelResult& r) -> const Eigen::MatrixXd& {
        return which == 1 ? r.approx : which == 2 ? r.base : r.invariant;
    };
    const Eigen::MatrixXd& ma = pick(*result_);
    const Eigen::MatrixXd& mb = pick(*b);
    const Eigen::MatrixXd diff = mb - ma;
    const double lo = std::min(ma.minCoeff(), mb.minCoeff()), hi = std::max(ma.maxCoeff(), mb.maxCoeff());
    const QString name = choice_->currentText();
    views_[A]->setRange(lo, hi);
    views_[B]->setRange(lo, hi);
    views_[BMinusA]->setAutoRange();
    // B's points (A's are the same): their labels, and energy ticks for molecules.
    showKernelMatrix(*views_[A], ma, *b);
    showKernelMatrix(*views_[B], mb, *b);
    showKernelMatrix(*views_[BMinusA], diff, *b);
    views_[A]->setTitle(tr("A: %1 · %2").arg(name, Comparison::describe(result_->request.settings)));
    views_[B]->setTitle(tr("B: %1 · %2").arg(name, Comparison::describe(b->request.settings)));
    const double normA = ma.norm();
    views_[BMinusA]->setTitle(tr("B − A (‖B − A‖_F / ‖A‖_F = %1)").arg(normA > 0 ? diff.norm() / normA : 0.0, 0, 'f', 3));
    note_->setText(tr("%1 points, the same for A and B; one colour scale for A and B.").arg(b->indices.size()));
}

// ---------------------------------------------------------------------------------------------
// Approximation

ApproximationComparison::ApproximationComparison(Comparison* comparison, LabState* state, ApproximationPanel* panel,
                                                 QObject* parent)
    : QObject(parent), comparison_(comparison), state_(state), panel_(panel), runner_(new TaskRunner("approximation-a", this))
{
    overlays_[0] = std::make_unique<ChartOverlay>(panel_->spectralChart()->chart());
    overlays_[1] = std::make_unique<ChartOverlay>(panel_->frobeniusChart()->chart());
    connect(comparison_, &Comparison::pinnedChanged, this, [this] {
        if (!comparison_->isPinned()) {
            runner_->cancel();
            result_.reset();
            resultKey_.clear();
            pendingKey_.clear();
            for (int c = 0; c < 2; ++c) {
                overlays_[c]->clear();
                markB(c == 0 ? panel_->spectralChart()->chart() : panel_->frobeniusChart()->chart(), *overlays_[c], false);
            }
            return;
        }
        if (!panel_->rows().empty() || panel_->runner()->busy())
            ensureA();
        draw();
    });
    // B's run starts (its charts were just emptied), grows and ends: A is drawn over it each time.
    connect(panel_->runner(), &TaskRunner::started, this, [this] {
        ensureA();
        draw();
    });
    connect(panel_->runner(), &TaskRunner::partial, this, &ApproximationComparison::draw);
    connect(panel_->runner(), &TaskRunner::finished, this, &ApproximationComparison::draw);
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        result_ = v.value<std::shared_ptr<const ApproxResult>>();
        resultKey_ = pendingKey_;
        draw();
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        emit panel_->statusMessage(tr("A's approximation errors could not be computed: %1").arg(message));
    });
}

bool ApproximationComparison::isIdle() const { return !runner_->busy(); }

void ApproximationComparison::ensureA()
{
    const auto ds = state_->dataset();
    if (!comparison_->isPinned() || !ds)
        return;
    const QString key = QStringLiteral("%1|%2").arg(comparison_->generation()).arg(dataKey(state_));
    if ((result_ && key == resultKey_) || (key == pendingKey_ && runner_->busy()))
        return;
    pendingKey_ = key;
    const PinnedSetting& a = *comparison_->pinned();
    ApproxRequest req;
    req.dataset = ds;
    req.settings = a.orbit;
    req.n = std::min(a.approximation.n, static_cast<int>(ds->count()));
    req.bandwidth = a.approximation.bandwidth;
    req.config.method = a.approximation.method.toStdString();
    req.config.sList = a.approximation.sList;
    req.config.rList = a.approximation.rList;
    req.config.refR = a.approximation.refR;
    req.config.repeats = a.approximation.repeats;
    req.config.seed = a.orbit.seed;
    if (req.config.method == "nystrom")  // at most n landmarks, as the panel does
        std::erase_if(req.config.sList, [&](int s) { return s > req.n; });
    runner_->submit(makeApproxTask(std::move(req)));
}

void ApproximationComparison::draw()
{
    if (!comparison_->isPinned())
        return;
    for (int c = 0; c < 2; ++c)
        markB(c == 0 ? panel_->spectralChart()->chart() : panel_->frobeniusChart()->chart(), *overlays_[c], true);
    if (!result_)
        return;
    const std::vector<int>& rList = result_->request.config.rList;
    for (int c = 0; c < 2; ++c) {
        std::vector<ChartOverlay::Curve> curves;
        for (std::size_t k = 0; k < rList.size(); ++k) {
            ChartOverlay::Curve curve;
            curve.name = tr("A: r = %1").arg(rList[k]);
            curve.color = seriesColor(static_cast<int>(k));
            for (const orbit::ApproxErrorRow& row : result_->rows)
                if (row.r == rList[k])
                    curve.points.append(QPointF(row.s, std::max(c == 0 ? row.spectral : row.frobenius, 1e-12)));
            curves.push_back(curve);
        }
        overlays_[c]->draw(curves);
    }
}

// ---------------------------------------------------------------------------------------------

ComparisonViews::ComparisonViews(Comparison* comparison, LabState* state, GroupPanel* group, KernelsPanel* kernels,
                                 ApproximationPanel* approximation, TrainingPanel* training, QObject* parent)
    : QObject(parent), group_(new GroupComparison(comparison, state, group, this)),
      kernels_(new KernelsComparison(comparison, state, kernels, this)),
      approximation_(new ApproximationComparison(comparison, state, approximation, this)),
      training_(new TrainingComparison(comparison, state, training, this))
{
}

bool ComparisonViews::isIdle() const
{
    return group_->isIdle() && kernels_->isIdle() && approximation_->isIdle() && training_->isIdle();
}

} // namespace orbitui
