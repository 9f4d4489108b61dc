#pragma once
// Orbits panel: the gallery of r transformed copies g_k x of the selected input, redrawn live as
// the settings move (computed on its worker, latest request wins), and the orbit embedding: a
// 2-D PCA of the orbit samples of a few inputs, coloured by input; and the invariance probe: the
// similarity of psi(x) and psi(g x) as g sweeps the group, for an invariant and a plain RF map
// (on a worker of its own, so the gallery stays live). While either computes, a bar and Cancel
// show above the gallery.
#include "widgets/Panel.hpp"

#include <memory>

class QLabel;
class QLayout;
class QLineEdit;
class QSpinBox;
class QScatterSeries;
class QValueAxis;

namespace orbitui {

class ChartBox;
class DistributionEditor;
class ImageGrid;
class ScatterLayer;
class LabState;
class TaskProgress;
class TaskRunner;
struct OrbitResult;
struct ProbeResult;

class OrbitsPanel : public Panel {
    Q_OBJECT
public:
    explicit OrbitsPanel(LabState* state, QWidget* parent = nullptr);

    /// Stops sampling the orbit and the probe (Cancel, Esc); the gallery and charts drawn stay.
    void cancel() override;
    bool hasCharts() const override { return true; }
    /// orbit-embedding.csv and invariance-probe.csv (the gallery is a picture, not a chart).
    QStringList exportCharts(const QString& dir, QString* error) const override;
    // What is drawn: results that arrived while the panel was hidden are drawn first (Panel::whenInSight).
    ImageGrid* gallery() const { return drawn(gallery_); }
    ChartBox* embeddingChart() const { return drawn(embedding_); }
    ChartBox* probeChart() const { return drawn(probe_); }
    std::shared_ptr<const ProbeResult> lastProbe() const { return drawn(lastProbe_); }
    DistributionEditor* editor() const { return editor_; }
    /// The last result drawn (null before the first).
    std::shared_ptr<const OrbitResult> lastResult() const { return drawn(last_); }
    /// How many results were drawn (tests).
    int drawCount() const { return drawn(draws_); }
    /// The progress bar and Cancel button, shown while the orbit or the probe is computed.
    TaskProgress* progress() const { return progress_; }

private:
    QWidget* buildInputColumn();
    QWidget* buildGalleryColumn();
    QWidget* buildChartsColumn();
    void buildEmbeddingChart();
    /// The list of embedding inputs and its "Add input x" button.
    QLayout* buildEmbeddingInputsRow();
    void buildProbeChart();
    /// The three columns side by side in a splitter.
    void addColumns(QWidget* left, QWidget* centre, QWidget* right);
    void connectInputs();
    void connectState();
    void markFields();
    void connectRunners();
    /// The progress of both workers in one bar, with one Cancel for both.
    void connectProgress();
    void request();
    void draw(std::shared_ptr<const OrbitResult> result);
    void drawEmbedding(const OrbitResult& result);
    /// A new series for the orbit of the j-th embedded input (its colour; points and name follow).
    static QScatterSeries* orbitSeries(int j);
    /// A new series for the embedded inputs themselves (black squares).
    static QScatterSeries* inputsSeries();
    /// Adds `series` to the embedding chart on its two axes; returns it.
    QScatterSeries* addEmbeddingSeries(QScatterSeries* series);
    void showInput();
    void requestProbe();
    void drawProbe(std::shared_ptr<const ProbeResult> result);

    LabState* state_;
    TaskRunner* runner_;
    TaskRunner* probeRunner_;
    TaskProgress* progress_;
    DistributionEditor* editor_;
    QLabel* input_;
    QLabel* inputCaption_;
    QSpinBox* index_;
    QLabel* galleryTitle_;
    ImageGrid* gallery_;
    ChartBox* embedding_;
    /// Paints the embedding's markers (thousands at a large r) as one item: see ScatterLayer.
    ScatterLayer* embeddingMarkers_ = nullptr;
    QValueAxis* axisX_;
    QValueAxis* axisY_;
    QLineEdit* inputs_;
    ChartBox* probe_;
    QValueAxis* probeX_;
    QValueAxis* probeY_;
    std::shared_ptr<const ProbeResult> lastProbe_;
    std::shared_ptr<const OrbitResult> last_;
    int draws_ = 0;
};

} // namespace orbitui
