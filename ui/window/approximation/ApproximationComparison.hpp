#pragma once
// The A/B comparison of the Approximation panel: A's error curves dashed over B's.
// While a setting is pinned as A (state/Comparison.hpp) the view computes A's result with A's
// settings on a worker of its own (the same TaskRunner pattern as the panel's), keeps it while A
// stays pinned (only B's changes never recompute A), and shows it beside the panel's own result, B.
#include "widgets/ChartOverlay.hpp"

#include <QObject>
#include <QString>

#include <array>
#include <memory>


namespace orbitui {

class ApproximationPanel;
class Comparison;
class LabState;
class TaskRunner;
struct ApproxResult;

class ApproximationComparison : public QObject {
    Q_OBJECT
public:
    ApproximationComparison(Comparison* comparison, LabState* state, ApproximationPanel* panel, QObject* parent = nullptr);
    bool isIdle() const;
    /// A's curves over the spectral (0) and Frobenius (1) charts.
    const ChartOverlay& overlay(int chart) const { return *overlays_[chart]; }
    std::shared_ptr<const ApproxResult> resultA() const { return result_; }

private:
    void ensureA();
    void draw();

    Comparison* comparison_;
    LabState* state_;
    ApproximationPanel* panel_;
    TaskRunner* runner_;
    std::array<std::unique_ptr<ChartOverlay>, 2> overlays_;
    std::shared_ptr<const ApproxResult> result_;
    QString resultKey_, pendingKey_;
};

} // namespace orbitui
