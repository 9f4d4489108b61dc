#pragma once
// The picture of learning the locality: the common-random-number evidence landscape over the learned
// parameter (a curve for one, a heatmap for two) with the optimiser's evaluations as points climbing
// it (the spread scan grey, the L-BFGS or bracketing steps joined in order, the best one red); for
// three or more parameters, each parameter's path through its range and the evidence, against the
// evaluation number. Fed point by point while the worker runs.
#include "state/LearnPicture.hpp"
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/registry/Parameters.hpp"

#include <QString>
#include <QWidget>

#include <string>
#include <utility>
#include <vector>

class QStackedWidget;
class QValueAxis;
class QXYSeries;

namespace orbitui {

class ChartBox;
class HeatmapView;

class LocalityView : public QWidget {
    Q_OBJECT
public:
    explicit LocalityView(QWidget* parent = nullptr);

    /// One learned parameter: its name (as the distribution names it), description and search range.
    struct Parameter {
        std::string name;
        orbit::ParamDescriptor descriptor;
        std::pair<double, double> bounds;
    };
    /// Starts a new picture: the parameters, and the landscape's values per parameter (one list: a
    /// curve, two: a surface; empty: none).
    void begin(std::vector<Parameter> params, std::vector<std::vector<double>> landscape);
    /// A landscape evaluation (its parameters are on the landscape's grid).
    void addLandscapePoint(const orbit::EvidencePoint& point);
    /// An evaluation of the optimiser, with the best point so far.
    void addPathPoint(const orbit::EvidencePoint& point, const orbit::EvidencePoint& best);
    /// One parameter without a landscape grid: the curve of the learn's own evaluations, the pilots'
    /// mapped onto the full scale (orbit::learnLandscape); no evaluation of its own.
    void setLearnedLandscape(const std::vector<orbit::LandscapePoint>& points);

    /// One parameter: the curve is the exact GP's log marginal likelihood, not the BLR evidence (the
    /// title, the vertical axis and the legend say so; its steps are those in the best bracket). show()
    /// does it for a picture that says so.
    void showAsMarginalLikelihood();

    /// What the view was fed since the last begin(), as data (the working state keeps it).
    LearnPicture picture() const;
    /// Draws `picture` again, as if fed point by point; `params` are its parameters' descriptions, in
    /// its order.
    void show(std::vector<Parameter> params, const LearnPicture& picture);

    int landscapePoints() const { return landscapeCount_; }
    int pathPoints() const { return int(path_.size()); }
    /// The chart (one parameter, or three and more) and the surface (two).
    ChartBox* chartBox() const { return chart_; }
    HeatmapView* surface() const { return surface_; }
    bool showsSurface() const;

private:
    void setUpChart();
    void redraw();
    void drawCurve();
    void drawSurface();
    void drawTrajectories();
    /// A value's position along landscape axis k, in cells (cell i centred on i + 0.5).
    double cellPosition(std::size_t k, double value) const;

    std::vector<Parameter> params_;
    std::vector<std::vector<double>> landscape_;
    std::vector<orbit::EvidencePoint> landscapePoints_, path_;
    int landscapeCount_ = 0;
    int best_ = -1;  ///< index into path_
    bool learnedLandscape_ = false;  ///< landscapePoints_ are the learn's own evaluations (setLearnedLandscape)
    bool marginalLikelihood_ = false;  ///< showAsMarginalLikelihood since the last begin()
    QStackedWidget* stack_;
    ChartBox* chart_;
    HeatmapView* surface_;
    std::vector<QXYSeries*> series_;       ///< one parameter: landscape, scan, path, path points, best; else one per parameter + evidence
    QValueAxis* xAxis_ = nullptr;           ///< null for a log axis (its range is fixed by the bounds)
    QValueAxis* yAxis_ = nullptr;
};

} // namespace orbitui
