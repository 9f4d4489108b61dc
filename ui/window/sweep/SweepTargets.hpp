#pragma once
// What a sweep's export can record around a control: its panel, the panel's charts, its orbit gallery
// and its heatmaps.
#include <QPointer>
#include <QString>
#include <QWidget>

#include <vector>

namespace orbitui {

/// A widget of a panel that can be recorded, with a name for the user.
struct SweepTarget {
    QString name;
    QPointer<QWidget> widget;
};
/// What can be recorded around `w`: its panel (the nearest Panel ancestor, else the window), then
/// the panel's charts, orbit gallery and heatmaps, by their names.
std::vector<SweepTarget> sweepTargets(QWidget* w);

} // namespace orbitui
