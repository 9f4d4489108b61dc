#pragma once
// The A/B comparison in the panels: the views of the pinned A (state/Comparison.hpp) that each
// feature keeps beside its panel (group/GroupComparison, kernels/KernelsComparison,
// approximation/ApproximationComparison, training/TrainingComparison), made together for a main
// window. The panels only expose what is drawn; the views attach to it.
#include <QObject>

namespace orbitui {

class ApproximationComparison;
class ApproximationPanel;
class Comparison;
class GroupComparison;
class GroupPanel;
class KernelsComparison;
class KernelsPanel;
class LabState;
class TrainingComparison;
class TrainingPanel;

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
