#pragma once
// Group & distribution panel: the settings editor and a live plot of the chosen distribution's
// density with a histogram of samples drawn from it (computed on its worker).
#include "widgets/Panel.hpp"

#include <memory>
#include <string>

class QAreaSeries;
class QComboBox;
class QLineSeries;
class QValueAxis;

namespace orbitui {

class ChartBox;
class DistributionEditor;
class LabState;
class TaskRunner;
struct DensityResult;

class GroupPanel : public Panel {
    Q_OBJECT
public:
    explicit GroupPanel(LabState* state, QWidget* parent = nullptr);

    bool hasCharts() const override { return true; }
    /// density.csv: the density chart's series (histogram outline, density q).
    QStringList exportCharts(const QString& dir, QString* error) const override;
    DistributionEditor* editor() const { return editor_; }
    // The chart's parts and what was drawn: a result that arrived while the panel was hidden is drawn
    // first (Panel::whenInSight).
    ChartBox* densityChart() const { return drawn(chartBox_); }
    /// The density curve q of the current setting and its axes.
    QLineSeries* densitySeries() const { return drawn(density_); }
    QValueAxis* densityAxisX() const { return drawn(axisX_); }
    QValueAxis* densityAxisY() const { return drawn(axisY_); }
    /// How many density results were drawn (tests).
    int drawCount() const { return drawn(draws_); }
    /// The group factor whose density is drawn (affine: rotation, translation or scale), else empty.
    std::string densityFactor() const;
    /// Plots `factor` when the group has it (a choice kept across restarts); otherwise nothing changes.
    void setDensityFactor(const std::string& factor);
    /// The last density drawn, with the request (settings) it was computed for; null before the first.
    std::shared_ptr<const DensityResult> lastResult() const { return drawn(last_); }
    /// A result that arrived while the panel was hidden and is not drawn yet, or null (tests).
    std::shared_ptr<const DensityResult> keptResult() const { return hasKeptDraws() ? received_ : nullptr; }

private:
    void buildDensityChart();
    /// The editor (scrolling) beside the factor choice and the density chart.
    void buildLayout();
    void connectState();
    void connectRunner();
    /// Shows a density result: its curve, histogram, axes and title.
    void draw(std::shared_ptr<const DensityResult> result);
    void request();
    void updateFactorChoice();

    LabState* state_;
    TaskRunner* runner_;
    DistributionEditor* editor_;
    QComboBox* factor_;
    ChartBox* chartBox_;
    QLineSeries* density_;
    QLineSeries* histogramLine_;
    QAreaSeries* histogram_;
    QValueAxis* axisX_;
    QValueAxis* axisY_;
    int draws_ = 0;
    std::shared_ptr<const DensityResult> last_;
    std::shared_ptr<const DensityResult> received_;  // the latest result, drawn or kept (Panel::whenInSight)
};

} // namespace orbitui
