#pragma once
// The A/B comparison in the panels: while a setting is pinned as A (models/Comparison.hpp), each view
// computes A's result with A's settings on a worker of its own (the same TaskRunner pattern as the
// panel's), keeps it while A stays pinned (only B's changes never recompute A), and shows it beside
// the panel's own result, B:
//   Group & distribution: A's density laid dashed over B's, legend "A: …", "B: …";
//   Kernels: A, B and B − A of one matrix (k_qG, the approximation or the base kernel) on the same
//            points (A is computed on B's points), B − A in the diverging colours;
//   Approximation: A's error curves dashed over B's.
// Training is TrainingComparison.hpp. The panels only expose what is drawn; the views attach to it.
#include "widgets/ChartOverlay.hpp"

#include <QObject>
#include <QString>

#include <array>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QWidget;

namespace orbitui {

class ApproximationPanel;
class Comparison;
class GroupPanel;
class HeatmapView;
class KernelsPanel;
class LabState;
class TaskRunner;
class TrainingComparison;
class TrainingPanel;
struct ApproxResult;
struct DensityResult;
struct KernelResult;

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
    bool scheduled_ = false;
};

class KernelsComparison : public QObject {
    Q_OBJECT
public:
    enum View { A, B, BMinusA };
    KernelsComparison(Comparison* comparison, LabState* state, KernelsPanel* panel, QObject* parent = nullptr);
    bool isIdle() const;
    QWidget* widget() const { return widget_; }
    HeatmapView* view(View v) const { return views_[v]; }
    /// Which matrix is compared: 0 k_qG (the default), 1 the approximation, 2 the base kernel.
    QComboBox* matrixChoice() const { return choice_; }
    std::shared_ptr<const KernelResult> resultA() const { return result_; }
    QString noteText() const;

private:
    void update();
    void draw();

    Comparison* comparison_;
    LabState* state_;
    KernelsPanel* panel_;
    TaskRunner* runner_;
    QWidget* widget_;
    QComboBox* choice_;
    QLabel* note_;
    std::array<HeatmapView*, 3> views_{};
    std::shared_ptr<const KernelResult> result_;
    QString resultKey_, pendingKey_;
};

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

/// The four views, made for a main window's panels.
class ComparisonViews : public QObject {
    Q_OBJECT
public:
    ComparisonViews(Comparison* comparison, LabState* state, GroupPanel* group, KernelsPanel* kernels,
                    ApproximationPanel* approximation, TrainingPanel* training, QObject* parent = nullptr);
    /// False while a view waits for A's result.
    bool isIdle() const;
    GroupComparison* group() const { return group_; }
    KernelsComparison* kernels() const { return kernels_; }
    ApproximationComparison* approximation() const { return approximation_; }
    TrainingComparison* training() const { return training_; }

private:
    GroupComparison* group_;
    KernelsComparison* kernels_;
    ApproximationComparison* approximation_;
    TrainingComparison* training_;
};

} // namespace orbitui
