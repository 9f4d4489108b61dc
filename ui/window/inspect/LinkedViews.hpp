#pragma once
// The linked views: clicking a cell of a Kernels heatmap, a point of the Orbits embedding or a cell
// of the Training confusion matrix opens the inspector (a dock of the main window) on the samples
// behind it; hovering says which samples they are; a sample chosen anywhere (in the inspector, or a
// heatmap cell's row, or an embedding point) becomes the current input of every panel
// (LabState::setSelectedIndex). The panels are unchanged: this object listens to their widgets.
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QString>

#include <optional>
#include <vector>

class QChartView;
class QDockWidget;
class QMainWindow;
class QWidget;

namespace orbitui {

class KernelsPanel;
class LabState;
class OrbitsPanel;
class SampleInspector;
class TrainingPanel;

class LinkedViews : public QObject {
    Q_OBJECT
public:
    /// Adds the inspector as a dock of `window` (hidden until something is inspected) and links
    /// the panels' widgets to it.
    LinkedViews(QMainWindow* window, LabState* state, OrbitsPanel* orbits, KernelsPanel* kernels,
                TrainingPanel* training);

    SampleInspector* inspector() const { return inspector_; }
    QDockWidget* dock() const { return dock_; }

    /// What a click on heatmap cell (row, column) of the Kernels panel does (the cell's signal).
    void inspectKernelCell(int row, int column);
    /// What a click on confusion cell (true a, predicted b) does.
    void inspectConfusionCell(int truth, int predicted);
    /// The embedding point nearest `value` (chart coordinates) within `pixels` of it on screen:
    /// (input number j, copy k, or -1 for the input's own marker).
    std::optional<std::pair<int, int>> embeddingPointAt(QPointF position, double pixels = 8.0) const;
    /// The dataset rows of the test samples of confusion cell (truth, predicted) of the last
    /// training result, in the order of its predictions.
    std::vector<int> confusionSamples(int truth, int predicted) const;
    /// The tooltip of a Kernels heatmap cell: "row i = 4: sample #n (label)", "column j = 25: sample #m (label)", "k = value".
    QString kernelCellText(int matrix, int row, int column) const;

    /// Most rows a confusion cell lists (a diagonal cell may hold hundreds of right answers).
    static constexpr int kMaxListed = 200;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showInspector();
    QString embeddingPointText(int input, int copy) const;

    QMainWindow* window_;
    LabState* state_;
    OrbitsPanel* orbits_;
    KernelsPanel* kernels_;
    TrainingPanel* training_;
    SampleInspector* inspector_;
    QDockWidget* dock_;
    // The embedding chart's view and viewport, watched by eventFilter. Guarded pointers: while the
    // window closes, the viewport still sends events after the Orbits panel's destructor has run,
    // so the filter must not reach them through orbits_ (UBSan: a member call on a destroyed panel).
    QPointer<QChartView> embeddingView_;
    QPointer<QWidget> embeddingViewport_;
};

} // namespace orbitui
