#pragma once
// The A/B comparison in the panels: the views of the pinned A (state/Comparison.hpp) that features
// keep beside their panels (group/GroupComparison, kernels/KernelsComparison,
// approximation/ApproximationComparison, training/TrainingComparison), made together for a main
// window from the registered panels that have one (PanelDescriptor::compare). The panels only expose
// what is drawn; the views attach to it.
#include <QObject>
#include <QString>

#include <functional>
#include <vector>

namespace orbitui {

class ApproximationComparison;
class Comparison;
class GroupComparison;
class KernelsComparison;
class LabState;
class Panel;
class TrainingComparison;

/// The views of a main window's panels.
class ComparisonViews : public QObject {
    Q_OBJECT
public:
    /// A view for each of `panels` whose registration has one (window/shell/PanelList.cpp).
    ComparisonViews(Comparison* comparison, LabState* state, const std::vector<Panel*>& panels, QObject* parent = nullptr);
    /// False while a view waits for A's result.
    bool isIdle() const;
    /// The view of the panel called `name`, or null.
    QObject* view(const QString& name) const;
    GroupComparison* group() const;
    KernelsComparison* kernels() const;
    ApproximationComparison* approximation() const;
    TrainingComparison* training() const;

private:
    struct View {
        QString panel;
        QObject* view;
        std::function<bool(const QObject*)> idle;
    };
    std::vector<View> views_;
};

} // namespace orbitui
