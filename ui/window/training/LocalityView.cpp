#include "window/training/LocalityView.hpp"

#include "render/ParameterLabels.hpp"

#include "widgets/ChartBox.hpp"
#include "widgets/HeatmapView.hpp"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace orbitui {

namespace {

QFont axisFont()
{
    QFont f;
    f.setPointSizeF(10);
    return f;
}

/// [lo, hi] of the finite values, padded by 8 %; (0, 1) when there are none.
std::pair<double, double> paddedRange(const std::vector<double>& v)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double x : v)
        if (std::isfinite(x)) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    if (!std::isfinite(lo))
        return {0.0, 1.0};
    const double pad = hi > lo ? 0.08 * (hi - lo) : std::max(0.05 * std::abs(hi), 0.5);
    return {lo - pad, hi + pad};
}

QScatterSeries* scatter(const QString& name, const QColor& fill, double size, QScatterSeries::MarkerShape shape)
{
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setColor(fill);
    s->setBorderColor(Qt::white);
    s->setMarkerSize(size);
    s->setMarkerShape(shape);
    return s;
}

} // namespace

LocalityView::LocalityView(QWidget* parent) : QWidget(parent)
{
    stack_ = new QStackedWidget;
    chart_ = new ChartBox(new QChart, "evidence-landscape");
    chart_->setToolTip(tr("The log evidence over the learned parameter with the same templates and base noise at every "
                          "value (a smooth curve), and the optimiser's evaluations climbing it: the spread scan in grey, "
                          "the steps in blue, the best point in red."));
    surface_ = new HeatmapView;
    surface_->setTitle(tr("Log evidence"));
    surface_->setAxisNames(QString(), QString(), tr("log evidence"));
    surface_->setToolTip(tr("The log evidence over the two learned parameters (common random numbers), with the "
                            "optimiser's path in blue and the best point in red."));
    stack_->addWidget(chart_);
    stack_->addWidget(surface_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
}

bool LocalityView::showsSurface() const { return stack_->currentWidget() == surface_; }

void LocalityView::begin(std::vector<Parameter> params, std::vector<std::vector<double>> landscape)
{
    params_ = std::move(params);
    landscape_ = std::move(landscape);
    landscapePoints_.clear();
    path_.clear();
    landscapeCount_ = 0;
    best_ = -1;
    learnedLandscape_ = false;
    marginalLikelihood_ = false;
    if (params_.size() == 2 && landscape_.size() == 2) {
        Eigen::MatrixXd m = Eigen::MatrixXd::Constant(Eigen::Index(landscape_[0].size()), Eigen::Index(landscape_[1].size()),
                                                      std::numeric_limits<double>::quiet_NaN());
        surface_->clear();
        surface_->setAutoRange();
        surface_->setMatrix(m);
        surface_->setAxisValues(landscape_[0], landscape_[1]);
        surface_->setAxisCaptions(axisLabel(params_[0].name, params_[0].descriptor),
                                  axisLabel(params_[1].name, params_[1].descriptor));
        surface_->setAxisNames(QString::fromStdString(params_[0].name), QString::fromStdString(params_[1].name),
                               tr("log evidence"));
        stack_->setCurrentWidget(surface_);
    } else {
        stack_->setCurrentWidget(chart_);
        setUpChart();
    }
    redraw();
}

void LocalityView::addLandscapePoint(const orbit::EvidencePoint& point)
{
    ++landscapeCount_;
    if (showsSurface()) {
        landscapePoints_.push_back(point);  // kept for picture(); the surface draws from its matrix
        // The cell of the point's two values on the grid.
        auto index = [](const std::vector<double>& values, double v) {
            const auto it = std::min_element(values.begin(), values.end(),
                                             [v](double a, double b) { return std::abs(a - v) < std::abs(b - v); });
            return Eigen::Index(it - values.begin());
        };
        Eigen::MatrixXd m = surface_->matrix();
        m(index(landscape_[0], point.params.at(params_[0].name)), index(landscape_[1], point.params.at(params_[1].name))) =
            point.logEvidence;
        // Colours over the upper three quarters of the values: the peak matters, and far-off cells
        // (e.g. huge shifts) would otherwise squeeze it into one colour. Lower cells take the darkest.
        std::vector<double> finite;
        for (Eigen::Index k = 0; k < m.size(); ++k)
            if (std::isfinite(m.data()[k])) finite.push_back(m.data()[k]);
        if (finite.size() >= 4) {
            std::sort(finite.begin(), finite.end());
            const double lo = finite[finite.size() / 4], hi = finite.back();
            if (hi > lo) surface_->setRange(lo, hi);
        }
        surface_->setMatrix(m);
        return;
    }
    landscapePoints_.push_back(point);
    redraw();
}

void LocalityView::setLearnedLandscape(const std::vector<orbit::LandscapePoint>& points)
{
    if (params_.size() != 1 || !landscape_.empty() || series_.empty())
        return;
    landscapePoints_.clear();
    for (const orbit::LandscapePoint& p : points) {
        orbit::EvidencePoint e;
        e.params = p.params;
        e.logEvidence = p.logEvidence;
        landscapePoints_.push_back(e);
    }
    landscapeCount_ = int(landscapePoints_.size());
    learnedLandscape_ = true;
    series_[0]->setName(tr("evidence (the learn's own evaluations, pilots scaled to full size)"));
    redraw();
}

void LocalityView::showAsMarginalLikelihood()
{
    if (params_.size() != 1 || series_.size() < 5 || showsSurface())
        return;
    marginalLikelihood_ = true;
    const QString quantity = tr("Log marginal likelihood");
    const QString curveName = tr("the GP's log marginal likelihood at each value tried (bandwidth, signal and noise "
                                 "fitted there)");
    QChart* chart = chart_->chart();
    setChartTitle(chart, tr("%1 over %2").arg(quantity, axisLabel(params_.front().name, params_.front().descriptor)));
    if (yAxis_)
        yAxis_->setTitleText(quantity.toLower());
    series_[0]->setName(curveName);
    series_[2]->setName(tr("steps in the best bracket"));
}

void LocalityView::addPathPoint(const orbit::EvidencePoint& point, const orbit::EvidencePoint& best)
{
    path_.push_back(point);
    for (std::size_t i = 0; i < path_.size(); ++i)
        if (path_[i].params == best.params && path_[i].logEvidence == best.logEvidence)
            best_ = int(i);
    redraw();
}

LearnPicture LocalityView::picture() const
{
    LearnPicture p;
    for (const Parameter& param : params_)
        p.parameters.push_back(param.name);
    p.landscape = landscape_;
    // Only what the chart draws: the values, the evidence and, on the path, the stage.
    auto drawn = [](const orbit::EvidencePoint& e, bool withStage) {
        orbit::EvidencePoint d;
        d.params = e.params;
        d.logEvidence = e.logEvidence;
        if (withStage)
            d.stage = e.stage;
        return d;
    };
    for (const orbit::EvidencePoint& e : landscapePoints_)
        p.landscapePoints.push_back(drawn(e, false));
    p.learnedLandscape = learnedLandscape_;
    for (const orbit::EvidencePoint& e : path_)
        p.path.push_back(drawn(e, true));
    p.best = best_;
    p.marginalLikelihood = marginalLikelihood_;
    return p;
}

void LocalityView::show(std::vector<Parameter> params, const LearnPicture& picture)
{
    begin(std::move(params), picture.landscape);
    if (picture.learnedLandscape) {
        std::vector<orbit::LandscapePoint> points;
        for (const orbit::EvidencePoint& e : picture.landscapePoints)
            points.push_back({e.params, e.logEvidence, -1});
        setLearnedLandscape(points);
    } else {
        for (const orbit::EvidencePoint& e : picture.landscapePoints)
            addLandscapePoint(e);
    }
    path_ = picture.path;
    best_ = picture.best;
    redraw();
    if (picture.marginalLikelihood)
        showAsMarginalLikelihood();
}

void LocalityView::redraw()
{
    if (params_.empty())
        return;
    if (showsSurface())
        drawSurface();
    else if (params_.size() == 1)
        drawCurve();
    else
        drawTrajectories();
}

double LocalityView::cellPosition(std::size_t k, double value) const
{
    const std::vector<double>& v = landscape_[k];
    const bool log = params_[k].descriptor.logScale && v.front() > 0 && value > 0;
    auto t = [log](double x) { return log ? std::log(x) : x; };
    if (v.size() < 2 || t(v.back()) == t(v.front()))
        return 0.5;
    return 0.5 + (t(value) - t(v.front())) / (t(v.back()) - t(v.front())) * double(v.size() - 1);
}

void LocalityView::drawSurface()
{
    std::vector<QPointF> cells;
    for (const orbit::EvidencePoint& p : path_)
        cells.emplace_back(cellPosition(1, p.params.at(params_[1].name)), cellPosition(0, p.params.at(params_[0].name)));
    // The scan's points stand alone; the optimiser's steps are joined.
    const auto firstStep = std::find_if(path_.begin(), path_.end(), [](const orbit::EvidencePoint& p) { return p.stage != "scan"; });
    surface_->setOverlay(std::move(cells), best_, int(firstStep - path_.begin()));
}

void LocalityView::setUpChart()
{
    // The series and axes once per run; each evaluation only replaces points (recreating Qt Charts
    // series per report costs tens of milliseconds of GUI-thread time).
    QChart* chart = chart_->chart();
    clearChart(chart);
    series_.clear();
    auto* xAxis = new QValueAxis;
    QAbstractAxis* x = xAxis;
    auto* yAxis = new QValueAxis;
    yAxis->setLabelFormat("%.4g");
    yAxis->setTitleText(tr("log evidence"));
    yAxis->setTitleFont(axisFont());
    if (params_.size() == 1) {
        const Parameter& p = params_.front();
        setChartTitle(chart, tr("Log evidence over %1").arg(axisLabel(p.name, p.descriptor)));
        const auto [lo, hi] = p.bounds;
        if (p.descriptor.logScale && lo > 0) {
            auto* log = new QLogValueAxis;
            log->setBase(10);
            log->setLabelFormat("%g");
            log->setRange(lo / 1.2, hi * 1.2);
            delete xAxis;
            xAxis = nullptr;
            x = log;
        } else {
            xAxis->setRange(lo - 0.04 * (hi - lo), hi + 0.04 * (hi - lo));
            xAxis->setLabelFormat("%g");
        }
        x->setTitleText(axisLabel(p.name, p.descriptor));
        auto* curve = new QLineSeries;
        curve->setName(tr("evidence (same noise at every value)"));
        curve->setPen(QPen(QColor(120, 120, 120), 2));
        auto* steps = new QLineSeries;
        steps->setName(tr("optimiser"));
        steps->setPen(QPen(QColor(0, 120, 215), 1.5, Qt::DashLine));
        series_ = {curve, scatter(tr("scan"), QColor(150, 150, 150), 9, QScatterSeries::MarkerShapeCircle), steps,
                   scatter(tr("steps"), QColor(0, 120, 215), 9, QScatterSeries::MarkerShapeCircle),
                   scatter(tr("best"), QColor(220, 30, 30), 15, QScatterSeries::MarkerShapeStar)};
    } else {
        setChartTitle(chart, tr("The optimiser's path through the parameters"));
        xAxis->setLabelFormat("%d");
        x->setTitleText(tr("evaluation"));
        static const QColor colours[] = {QColor(0, 120, 215), QColor(230, 120, 0), QColor(0, 150, 80),
                                         QColor(150, 60, 200), QColor(200, 40, 120)};
        for (std::size_t k = 0; k < params_.size(); ++k) {
            auto* s = new QLineSeries;
            s->setName(axisLabel(params_[k].name, params_[k].descriptor));
            s->setPen(QPen(colours[k % 5], 2));
            s->setPointsVisible(true);
            series_.push_back(s);
        }
        auto* evidence = new QLineSeries;
        evidence->setName(tr("log evidence"));
        evidence->setPen(QPen(QColor(90, 90, 90), 2, Qt::DashLine));
        series_.push_back(evidence);
    }
    x->setTitleFont(axisFont());
    chart->addAxis(x, Qt::AlignBottom);
    if (params_.size() == 1) {
        chart->addAxis(yAxis, Qt::AlignLeft);
        for (QXYSeries* s : series_) {
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(yAxis);
        }
    } else {
        auto* placeAxis = new QValueAxis;
        placeAxis->setRange(-0.05, 1.05);
        placeAxis->setTitleText(tr("place in the search range"));
        placeAxis->setTitleFont(axisFont());
        chart->addAxis(placeAxis, Qt::AlignLeft);
        chart->addAxis(yAxis, Qt::AlignRight);
        for (std::size_t k = 0; k < series_.size(); ++k) {
            chart->addSeries(series_[k]);
            series_[k]->attachAxis(x);
            series_[k]->attachAxis(k + 1 == series_.size() ? yAxis : placeAxis);
        }
    }
    xAxis_ = xAxis;
    yAxis_ = yAxis;
}

void LocalityView::drawCurve()
{
    const std::string& name = params_.front().name;
    std::vector<QPointF> land;
    std::vector<double> ys;
    for (const orbit::EvidencePoint& e : landscapePoints_) {
        land.emplace_back(e.params.at(name), e.logEvidence);
        ys.push_back(e.logEvidence);
    }
    std::sort(land.begin(), land.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    QList<QPointF> scan, steps, best;
    for (std::size_t i = 0; i < path_.size(); ++i) {
        const QPointF q(path_[i].params.at(name), path_[i].logEvidence);
        ys.push_back(q.y());
        (path_[i].stage == "scan" ? scan : steps).append(q);
        if (int(i) == best_)
            best.append(q);
    }
    series_[0]->replace(QList<QPointF>(land.begin(), land.end()));
    series_[1]->replace(scan);
    series_[2]->replace(steps);
    series_[3]->replace(steps);
    series_[4]->replace(best);
    const auto [lo, hi] = paddedRange(ys);
    yAxis_->setRange(lo, hi);
    yAxis_->applyNiceNumbers();  // ticks at round values
    chart_->setNote(ys.empty() ? tr("The landscape and the optimiser's steps appear here.") : QString());
}

void LocalityView::drawTrajectories()
{
    // Each parameter's place in its search range (0 = lower bound, 1 = upper; in log space for log-scale
    // parameters) and the evidence, against the evaluation number.
    std::vector<double> ys;
    for (std::size_t k = 0; k < params_.size(); ++k) {
        const Parameter& p = params_[k];
        const bool log = p.descriptor.logScale && p.bounds.first > 0;
        auto t = [log](double x) { return log ? std::log(x) : x; };
        QList<QPointF> points;
        for (std::size_t i = 0; i < path_.size(); ++i)
            points.append(QPointF(double(i + 1), (t(path_[i].params.at(p.name)) - t(p.bounds.first)) /
                                                     (t(p.bounds.second) - t(p.bounds.first))));
        series_[k]->replace(points);
    }
    QList<QPointF> evidence;
    for (std::size_t i = 0; i < path_.size(); ++i) {
        evidence.append(QPointF(double(i + 1), path_[i].logEvidence));
        ys.push_back(path_[i].logEvidence);
    }
    series_.back()->replace(evidence);
    xAxis_->setRange(0.5, std::max<double>(2, double(path_.size()) + 0.5));
    const auto [lo, hi] = paddedRange(ys);
    yAxis_->setRange(lo, hi);
    chart_->setNote(path_.empty() ? tr("The optimiser's steps appear here.") : QString());
}

} // namespace orbitui
