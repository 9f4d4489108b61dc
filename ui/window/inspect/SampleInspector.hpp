#pragma once
// The inspector of the linked views: what lies behind a cell of a Kernels heatmap (the two inputs
// with a few copies of their orbits, k, k_qG and the approximation there, and for a one-parameter
// group the curve k(g_t x_i, x_j) over t with the density q(t) under it and the aligning t*
// marked), behind a point of the Orbits embedding (that sample and its orbit), or behind a cell of
// the Training confusion matrix (its test samples with their orbits). A sample's row is a strip
// [x | g_1 x | ... ] drawn with the Orbits panel's renderer and sampler (the first copies of its
// gallery); clicking a row makes that sample the current input (sampleActivated). The strips and the
// curve are computed on a worker (state/workers/InspectTask): the titles and values show at once,
// the rows and the curve when they arrive (isIdle() is false until then).
#include "state/OrbitSettings.hpp"

#include "orbit/data/Dataset.hpp"
#include "orbit/figures/KernelCurve.hpp"

#include <QImage>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QListWidget;

namespace orbitui {

class ChartBox;
class TaskProgress;
class TaskRunner;
struct InspectResult;

/// A cell (row, column) of the Kernels heatmaps and the values of the four matrices there.
struct KernelCell {
    std::shared_ptr<const orbit::Dataset> dataset;
    OrbitSettings settings;         ///< group, distribution and seed the matrices were computed with
    std::string kernelSpec;         ///< the resolved base kernel, e.g. "gaussian:sigma=5.3"
    int row = 0, column = 0;        ///< position in the matrices
    std::size_t i = 0, j = 0;       ///< the dataset rows of row and column
    double base = 0.0, invariant = 0.0, approx = 0.0;
    QString approxName;             ///< the approximating map, e.g. "irf:s=200,r=64"
    int r = 0;                      ///< group samples of the Monte Carlo k_qG
};

class SampleInspector : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Empty, Pair, Sample, Samples };

    explicit SampleInspector(QWidget* parent = nullptr);

    /// Copies of each orbit shown beside a sample.
    static constexpr int kCopies = 6;

    /// A Kernels heatmap cell: x_i and x_j with their orbits, the values, and the curve (or why
    /// there is none). `curvePoints` as KernelCurveConfig::points.
    void showPair(const KernelCell& cell, int curvePoints = 360);
    /// One sample (a point of the Orbits embedding, or the current input): it and its orbit.
    void showSample(std::shared_ptr<const orbit::Dataset> dataset, const OrbitSettings& settings, int index,
                    const QString& origin);
    /// A list of samples (a confusion cell's): each with its orbit; `title` says what they are.
    void showSamples(std::shared_ptr<const orbit::Dataset> dataset, const OrbitSettings& settings,
                     const std::vector<int>& indices, const QString& title, const QStringList& notes = {});
    void clear();
    /// False while the rows or the curve of what is shown are being computed.
    bool isIdle() const;
    /// Stops computing the rows and the curve (its Cancel button); the titles and values stay.
    void cancel();
    TaskProgress* progress() const { return progress_; }
    /// Selects the row of sample `index` when it is listed (now, or when the rows arrive); none
    /// otherwise.
    void markRow(int index);

    Mode mode() const { return mode_; }
    /// The dataset rows listed, in order (pair: i then j).
    const std::vector<int>& shownIndices() const { return indices_; }
    /// The curve of the pair (none for other modes or a group without one parameter).
    const std::optional<orbit::KernelCurve>& curve() const { return curve_; }
    /// Why the pair has no curve (empty when it has one).
    QString noCurveReason() const { return noCurve_; }
    /// The title line and the values line, as plain text (tests, screenshots).
    QString titleText() const;
    QString valuesText() const;
    QListWidget* list() const { return list_; }
    ChartBox* curveChart() const { return chart_; }

signals:
    /// The user clicked the row of sample `index`.
    void sampleActivated(int index);

private:
    /// Lists `indices` (with `notes` beside them) once their strips arrive; for a pair also its curve.
    void startRows(std::shared_ptr<const orbit::Dataset> dataset, const OrbitSettings& settings,
                   const std::vector<int>& indices, const QStringList& notes, const std::string& kernelSpec = {},
                   int curvePoints = 0);
    void showResult(const InspectResult& result);
    void drawCurve(const orbit::KernelCurve& curve, const KernelCell& cell);

    Mode mode_ = Mode::Empty;
    std::vector<int> indices_;
    std::optional<orbit::KernelCurve> curve_;
    QString noCurve_;
    QStringList notes_;
    std::optional<int> marked_;
    KernelCell cell_;       ///< the pair shown (Mode::Pair)
    QString pairValues_;    ///< the pair's values before the line about its curve
    TaskRunner* runner_;
    TaskProgress* progress_;
    QLabel* title_;
    QLabel* values_;
    QListWidget* list_;
    ChartBox* chart_;
};

} // namespace orbitui
