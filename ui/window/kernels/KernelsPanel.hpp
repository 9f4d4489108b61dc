#pragma once
// Kernels panel: heatmaps, for N points ordered by label, of the base kernel k, the Monte Carlo
// invariant kernel k_qG, its approximation by a feature map (invariant RF, Nyström or GICDF) and
// the difference, computed on the worker; each matrix exports to CSV/.npy and each heatmap to PNG.
#include "state/AnalysisSettings.hpp"
#include "widgets/Panel.hpp"

#include <Eigen/Core>

#include <array>
#include <functional>
#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QPushButton;
class QSpinBox;

namespace orbit {
struct FigureDescriptor;
}

namespace orbitui {

class AutoApplyControl;
struct ExportStart;
class KernelEditor;
class TaskProgress;
class HeatmapView;
class LabState;
class TaskRunner;
struct KernelResult;

/// Gives `view` the matrix `m` of result `r` with its axes: the class labels of the points, and for
/// points ordered by target also numeric ticks of the target on both axes, its unit in the captions.
/// (The four heatmaps of the Kernels panel and the A/B views show their matrices this way.)
void showKernelMatrix(HeatmapView& view, const Eigen::MatrixXd& m, const KernelResult& r);

class KernelsPanel : public Panel {
    Q_OBJECT
public:
    /// The four matrices, in display order.
    enum Matrix { Base, Invariant, Approximation, Difference };

    explicit KernelsPanel(LabState* state, QWidget* parent = nullptr);

    bool hasCharts() const override { return true; }
    /// kernel-base.csv, kernel-invariant.csv, kernel-approximation.csv and kernel-difference.csv
    /// (what each heatmap's "Matrix CSV…" writes); nothing before the first result.
    QStringList exportCharts(const QString& dir, QString* error) const override;
    KernelsSettings settings() const;
    void applySettings(const KernelsSettings& s);

    /// Starts a computation for the current settings now (Compute).
    void compute();
    /// `orbitlab --export`: computes once the data are there when auto-apply is off (as Compute would).
    void startForExport(const ExportStart& start);
    /// Stops the computation under way (Cancel, or Esc while it runs); the matrices drawn stay.
    void cancel() override;
    QPushButton* cancelButton() const;
    // What is drawn (a result that arrived while the panel was hidden waits, Panel::whenInSight: the
    // A/B comparison and the linked views read these on every result).
    HeatmapView* heatmap(Matrix which) const { return heatmaps_[which]; }
    TaskRunner* runner() const { return runner_; }
    AutoApplyControl* autoApplyControl() const { return auto_; }
    /// The base kernel (the registry's kernels and their parameters; the median multiple is the bandwidth box).
    KernelEditor* kernelEditor() const { return kernel_; }
    std::shared_ptr<const KernelResult> lastResult() const { return last_; }
    QString summaryText() const;
    /// Writes a matrix as .csv or .npy (by extension); returns an error message or empty.
    QString exportMatrix(Matrix which, const QString& path) const;
    /// Writes the feature matrix psi (N x D, rows in heatmap order) as .csv or .npy.
    QString exportFeatures(const QString& path) const;

    /// Up to this many points the matrices follow a parameter sweep live (SweepControl); above
    /// it they wait until the sweep stops, and the panel says so.
    static constexpr int kSweepFollowMaxN = 100;
    /// True when the current N is small enough to follow a sweep.
    bool followsSweep() const;
    /// The note shown while a sweep plays that the matrices do not follow.
    QLabel* sweepNote() const { return sweepNote_; }

signals:
    /// A result was drawn (at once in sight, when shown otherwise: Panel::whenInSight).
    void resultDrawn();

private:
    void configureControls(const orbit::FigureDescriptor& figure);
    /// The row of settings, Compute and progress, and the note of a sweep not followed.
    void buildControls(const orbit::FigureDescriptor& figure);
    /// The summary of the last result and its "Features ψ" export.
    void buildSummaryRow();
    /// The 2 x 2 grid of heatmaps, each with its export buttons.
    void buildHeatmaps();
    QLayout* buildHeatmapButtons(Matrix which);
    /// Asks where to save (`title`, default `fileName`, `filter`) and shows the error `write` returns.
    void saveAs(const QString& title, const QString& fileName, const QString& filter,
                const std::function<QString(const QString& path)>& write);
    void connectControls();
    void connectRunner();
    void markFields();
    void followSweeps();
    void settingsChanged();
    void draw(std::shared_ptr<const KernelResult> result);
    void updateRText();

    LabState* state_;
    TaskRunner* runner_;
    QSpinBox* n_;
    QSpinBox* r_;
    QComboBox* method_;
    QSpinBox* s_;
    KernelEditor* kernel_;
    QDoubleSpinBox* bandwidth_;
    AutoApplyControl* auto_;
    TaskProgress* progress_;
    QLabel* summary_;
    std::array<HeatmapView*, 4> heatmaps_{};
    std::shared_ptr<const KernelResult> last_;
    QLabel* sweepNote_ = nullptr;
    bool sweepHeld_ = false;  ///< a change arrived during a sweep the matrices do not follow
    void updateSweepNote();
};

} // namespace orbitui
