#include "window/compare/ComparisonViews.hpp"

#include "widgets/Panel.hpp"
#include "window/approximation/ApproximationComparison.hpp"
#include "window/group/GroupComparison.hpp"
#include "window/kernels/KernelsComparison.hpp"
#include "window/panels/PanelDescriptor.hpp"
#include "window/training/TrainingComparison.hpp"

namespace orbitui {

ComparisonViews::ComparisonViews(Comparison* comparison, LabState* state, const std::vector<Panel*>& panels, QObject* parent)
    : QObject(parent)
{
    for (Panel* p : panels)
        if (const PanelDescriptor* d = panelDescriptor(p->name()); d && d->compare)
            views_.push_back({p->name(), d->compare(comparison, state, p, this), d->compareIdle});
}

bool ComparisonViews::isIdle() const
{
    for (const View& v : views_)
        if (!v.idle(v.view))
            return false;
    return true;
}

QObject* ComparisonViews::view(const QString& name) const
{
    for (const View& v : views_)
        if (v.panel == name)
            return v.view;
    return nullptr;
}

GroupComparison* ComparisonViews::group() const { return qobject_cast<GroupComparison*>(view("group")); }

KernelsComparison* ComparisonViews::kernels() const { return qobject_cast<KernelsComparison*>(view("kernels")); }

ApproximationComparison* ComparisonViews::approximation() const
{
    return qobject_cast<ApproximationComparison*>(view("approximation"));
}

TrainingComparison* ComparisonViews::training() const { return qobject_cast<TrainingComparison*>(view("training")); }

} // namespace orbitui
