#include "window/sweep/SweepTargets.hpp"

#include "widgets/ChartBox.hpp"
#include "widgets/HeatmapView.hpp"
#include "widgets/ImageGrid.hpp"
#include "widgets/Panel.hpp"

namespace orbitui {

std::vector<SweepTarget> sweepTargets(QWidget* w)
{
    std::vector<SweepTarget> targets;
    QWidget* host = w ? w->window() : nullptr;
    for (QWidget* p = w; p; p = p->parentWidget())
        if (qobject_cast<Panel*>(p)) {
            host = p;
            break;
        }
    if (!host)
        return targets;
    const auto* panel = qobject_cast<Panel*>(host);
    targets.push_back({panel ? QObject::tr("the whole %1 panel").arg(panel->title().replace("&&", "&")) : QObject::tr("the window"),
                       host});
    for (ChartBox* c : host->findChildren<ChartBox*>())
        targets.push_back({QObject::tr("chart: %1").arg(c->baseName()), c});
    for (ImageGrid* g : host->findChildren<ImageGrid*>())
        targets.push_back({QObject::tr("the orbit gallery"), g});
    int heatmap = 0;
    for (HeatmapView* h : host->findChildren<HeatmapView*>())
        targets.push_back({QObject::tr("heatmap %1").arg(++heatmap), h});
    return targets;
}

} // namespace orbitui
