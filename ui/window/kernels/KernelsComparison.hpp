#pragma once
// The A/B comparison of the Kernels panel: A, B and B − A of one matrix (k_qG, the approximation
// or the base kernel) on the same points (A is computed on B's points), B − A in the diverging
// colours, in place of the panel's four heatmaps.
// While a setting is pinned as A (state/Comparison.hpp) the view computes A's result with A's
// settings on a worker of its own (the same TaskRunner pattern as the panel's), keeps it while A
// stays pinned (only B's changes never recompute A), and shows it beside the panel's own result, B.
#include <QObject>
#include <QString>

#include <array>
#include <memory>

class QComboBox;
class QLabel;
class QWidget;

namespace orbitui {

class Comparison;
class HeatmapView;
class KernelsPanel;
class LabState;
class TaskRunner;
struct KernelResult;

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

} // namespace orbitui
