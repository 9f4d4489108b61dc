#include "window/approximation/ApproximationComparison.hpp"

#include "render/SampleImage.hpp"
#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/PassScheduler.hpp"
#include "widgets/ChartBox.hpp"
#include "window/approximation/ApproximationPanel.hpp"

#include <QChart>

#include <algorithm>

namespace orbitui {

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
                overlays_[c]->markOthers("B: ", false);
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

bool ApproximationComparison::isIdle() const { return PassScheduler::instance()->isIdle(this); }

void ApproximationComparison::ensureA()
{
    const auto ds = state_->dataset();
    if (!comparison_->isPinned() || !ds)
        return;
    const QString key =
        QStringLiteral("%1|%2").arg(comparison_->generation()).arg(Comparison::datasetKey(state_->dataset().get()));
    if ((result_ && key == resultKey_) || (key == pendingKey_ && runner_->busy()))
        return;
    pendingKey_ = key;
    const PinnedSetting& a = *comparison_->pinned();
    ApproxRequest req = approxRequest(a.part<ApproximationSettings>(), a.orbit, ds->count());
    req.dataset = ds;
    runner_->submit(makeApproxTask(std::move(req)));
}

void ApproximationComparison::draw()
{
    if (!comparison_->isPinned())
        return;
    for (int c = 0; c < 2; ++c)
        overlays_[c]->markOthers("B: ", true);
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

} // namespace orbitui
