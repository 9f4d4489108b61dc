#pragma once
// Approximation panel: LGIKA Figure 1 live. The normalised spectral and Frobenius errors
// ||K - Psi Psi^T|| / ||K|| of invariant RF / Nyström features against the Monte Carlo invariant
// kernel, against s on log axes, one curve per r; computed on the worker, the curves grow as each
// (r, s) result arrives, and Cancel keeps what is drawn.
#include "state/AnalysisSettings.hpp"
#include "widgets/Panel.hpp"

#include "orbit/figures/ApproxError.hpp"

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QLineEdit;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QSpinBox;

namespace orbit {
struct FigureDescriptor;
}

namespace orbitui {

class AutoApplyControl;
struct ExportStart;
class FractionBar;
class ChartBox;
class LabState;
class TaskRunner;
struct ApproxResult;

class ApproximationPanel : public Panel {
    Q_OBJECT
public:
    explicit ApproximationPanel(LabState* state, QWidget* parent = nullptr);

    bool hasCharts() const override { return true; }
    /// approximation-spectral.csv and approximation-frobenius.csv.
    QStringList exportCharts(const QString& dir, QString* error) const override;
    ApproximationSettings settings() const;
    void applySettings(const ApproximationSettings& s);

    /// Starts a run for the current settings now (Compute).
    void compute();
    /// `orbitlab --export`: computes once the data are there when auto-apply is off (as Compute would).
    void startForExport(const ExportStart& start);
    /// Stops the running computation; the curves drawn so far stay.
    void cancel() override;
    TaskRunner* runner() const { return runner_; }
    AutoApplyControl* autoApplyControl() const { return auto_; }
    ChartBox* spectralChart() const { return charts_[0]; }
    ChartBox* frobeniusChart() const { return charts_[1]; }
    /// The rows drawn so far (of the latest run).
    /// The points drawn (a result that arrived while the panel was hidden waits, Panel::whenInSight:
    /// the A/B comparison reads them on every result).
    const std::vector<orbit::ApproxErrorRow>& rows() const { return rows_; }
    /// The last result drawn (null before the first).
    std::shared_ptr<const ApproxResult> lastResult() const { return last_; }
    QString statusText() const;

    /// "10, 20 50" -> {10, 20, 50}, sorted without repeats, each value in the range of the figure's
    /// setting `key` ("s" or "r"); empty optional (and `error` set, naming the setting's label) on a
    /// bad entry or none.
    static std::optional<std::vector<int>> parseList(const QString& text, const char* key, QString* error);

private:
    void configureControls(const orbit::FigureDescriptor& figure);
    /// The settings form, Compute and Cancel, the progress and the status line.
    QWidget* buildSettingsColumn(const orbit::FigureDescriptor& figure);
    /// The spectral and Frobenius charts side by side, on log axes.
    QLayout* buildCharts();
    void connectControls();
    void connectRunner();
    /// Draws a finished run's rows and reports them in the status line.
    void drawResult(const ApproxResult& result);
    void markFields();
    void settingsChanged();
    void drawRows(const std::vector<orbit::ApproxErrorRow>& rows);
    void resetCharts();

    LabState* state_;
    TaskRunner* runner_;
    QSpinBox* n_;
    QComboBox* method_;
    QLineEdit* sList_;
    QLineEdit* rList_;
    QSpinBox* refR_;
    QSpinBox* repeats_;
    QDoubleSpinBox* bandwidth_;
    AutoApplyControl* auto_;
    QPushButton* cancel_;
    FractionBar* progress_;
    QLabel* status_;
    ChartBox* charts_[2];
    QLogValueAxis* axisX_[2];
    QLogValueAxis* axisY_[2];
    std::vector<QLineSeries*> curves_[2];  ///< one per r of the latest run, in runR_ order
    std::vector<int> runS_, runR_;  ///< the lists of the latest run (axis ranges, colours)
    std::vector<orbit::ApproxErrorRow> rows_;      ///< drawn
    std::vector<orbit::ApproxErrorRow> received_;  ///< received from the current run, drawn or kept
    std::shared_ptr<const ApproxResult> last_;     ///< the last result drawn
    // The kept draws' slots (Panel::whenInSight): the points so far, the final result.
    static constexpr int kRowsSlot = 0, kResultSlot = 1;
    QString note_;
};

} // namespace orbitui
