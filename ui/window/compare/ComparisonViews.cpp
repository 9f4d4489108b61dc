#include "window/compare/ComparisonViews.hpp"

#include "window/approximation/ApproximationComparison.hpp"
#include "window/group/GroupComparison.hpp"
#include "window/kernels/KernelsComparison.hpp"
#include "window/training/TrainingComparison.hpp"

namespace orbitui {

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
