#pragma once
// The A/B comparison of the Group & distribution panel: A's density laid dashed over B's, legend
// "A: …", "B: …".
// While a setting is pinned as A (state/Comparison.hpp) the view computes A's result with A's
// settings on a worker of its own (the same TaskRunner pattern as the panel's), keeps it while A
// stays pinned (only B's changes never recompute A), and shows it beside the panel's own result, B.
#include "widgets/ChartOverlay.hpp"

#include <QObject>
#include <QString>

#include <memory>


namespace orbitui {

class Comparison;
class GroupPanel;
class LabState;
class TaskRunner;
struct DensityResult;

class GroupComparison : public QObject {
    Q_OBJECT
public:
    GroupComparison(Comparison* comparison, LabState* state, GroupPanel* panel, QObject* parent = nullptr);
    bool isIdle() const;
    /// A's density (or, without one, its histogram) over the panel's chart.
    const ChartOverlay& overlay() const { return overlay_; }
    std::shared_ptr<const DensityResult> resultA() const { return result_; }

private:
    void update();
    void draw();
    QString key() const;

    Comparison* comparison_;
    LabState* state_;
    GroupPanel* panel_;
    TaskRunner* runner_;
    ChartOverlay overlay_;
    std::shared_ptr<const DensityResult> result_;
    QString resultKey_, pendingKey_;
};

} // namespace orbitui
