#include "window/group/GroupComparison.hpp"

#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "state/workers/PassScheduler.hpp"
#include "state/workers/Tasks.hpp"
#include "widgets/ChartBox.hpp"
#include "window/group/GroupPanel.hpp"

#include "orbit/registry/Registry.hpp"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace orbitui {

GroupComparison::GroupComparison(Comparison* comparison, LabState* state, GroupPanel* panel, QObject* parent)
    : QObject(parent), comparison_(comparison), state_(state), panel_(panel),
      runner_(new TaskRunner("orbit-density-a", this)), overlay_(panel->densityChart()->chart())
{
    // The panel sets its axes after it replaced the curve: draw A once it is done.
    connect(panel_->densitySeries(), &QXYSeries::pointsReplaced, this,
            [this] { PassScheduler::instance()->post(this, 0, [this] { update(); }); });
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

bool GroupComparison::isIdle() const { return PassScheduler::instance()->isIdle(this); }

QString GroupComparison::key() const
{
    const auto& a = *comparison_->pinned();
    std::string factor = panel_->densityFactor();  // empty unless affine
    const auto factors = a.orbit.factors();
    if (std::find(factors.begin(), factors.end(), factor) == factors.end())
        factor = factors.front();
    const orbit::DistributionDescriptor* d = orbit::findDistribution(a.orbit.factor(factor).name);
    const int index = d && d->dependsOnInput ? state_->selectedIndex() : -1;
    return QStringLiteral("%1|%2|%3|%4")
        .arg(comparison_->generation())
        .arg(Comparison::datasetKey(state_->dataset().get()), QString::fromStdString(factor))
        .arg(index);
}

void GroupComparison::update()
{
    if (!comparison_->isPinned()) {
        runner_->cancel();
        result_.reset();
        resultKey_.clear();
        pendingKey_.clear();
        overlay_.clear();
        overlay_.markOthers("B: ", false);
        panel_->densitySeries()->setName(tr("density q"));
        return;
    }
    panel_->densitySeries()->setName(QStringLiteral("B: ") + Comparison::describe(state_->orbitSettings()));
    overlay_.markOthers("B: ", true);
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

} // namespace orbitui
