#include "window/predict/PredictChart.hpp"

#include "render/SampleImage.hpp"
#include "state/workers/PredictTask.hpp"
#include "widgets/ChartBox.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace orbitui {

namespace {

void hideFromLegend(QChart* chart, QAbstractSeries* series)
{
    for (QLegendMarker* m : chart->legend()->markers(series))
        m->setVisible(false);
}

} // namespace

PredictChart::PredictChart(QObject* parent) : QObject(parent), box_(new ChartBox(new QChart, "predict-sweep"))
{
    clear(tr("The sweep chart appears when there is an input and a model."));
}

void PredictChart::clear(const QString& note)
{
    clearChart(box_->chart());
    marker_ = nullptr;
    setChartTitle(box_->chart(), QString());
    box_->setNote(note);
}

void PredictChart::draw(const PredictAnswer& sweep, const QStringList& labels, const std::array<QString, 2>& names,
                        const QString& axis)
{
    QChart* chart = box_->chart();
    clearChart(chart);
    marker_ = nullptr;
    box_->setNote(QString());
    const std::vector<double>& t = sweep.request.range.values;
    // The y range over every curve (and interval) of both models.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto& r : sweep.results) {
        if (!r)
            continue;
        if (r->value.empty()) {
            lo = std::min(lo, r->scores.minCoeff());
            hi = std::max(hi, r->scores.maxCoeff());
        } else {
            for (std::size_t i = 0; i < r->value.size(); ++i) {
                lo = std::min({lo, r->value[i], r->hasInterval() ? r->lower[i] : r->value[i]});
                hi = std::max({hi, r->value[i], r->hasInterval() ? r->upper[i] : r->value[i]});
            }
        }
    }
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        clear(tr("No model answered."));
        return;
    }
    const double pad = std::max(1e-9, (hi - lo) * 0.05);
    yLo_ = lo - pad;
    yHi_ = hi + pad;
    auto* x = new QValueAxis;
    x->setRange(t.front(), t.back());
    x->setTitleText(axis);
    auto* y = new QValueAxis;
    y->setRange(yLo_, yHi_);
    y->applyNiceNumbers();
    yLo_ = y->min();
    yHi_ = y->max();
    y->setTitleText(sweep.results[0] && !sweep.results[0]->value.empty() ? tr("predicted value") : tr("score"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto attach = [&](QAbstractSeries* s) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    // The windows first, under the curves.
    const std::array<QColor, 2> shade{QColor(230, 126, 34, 40), QColor(41, 128, 185, 40)};
    for (std::size_t m = 0; m < 2; ++m) {
        if (!sweep.window[m])
            continue;
        auto* upper = new QLineSeries;
        auto* lower = new QLineSeries;
        upper->append(sweep.window[m]->first, yHi_);
        upper->append(sweep.window[m]->second, yHi_);
        lower->append(sweep.window[m]->first, yLo_);
        lower->append(sweep.window[m]->second, yLo_);
        auto* area = new QAreaSeries(upper, lower);
        upper->setParent(area);  // the area series does not own its lines
        lower->setParent(area);
        area->setName(tr("%1's central 90 %").arg(m == 0 ? "A" : "B"));
        area->setBrush(shade[m]);
        area->setPen(QPen(shade[m].darker(150), 1, Qt::DotLine));
        attach(area);
    }
    const bool both = sweep.results[0] && sweep.results[1];
    // Only the classes that are the top class somewhere, for A or B: the lesson is where they cross
    // (the export keeps every class).
    std::vector<bool> wins;
    int hidden = 0;
    for (const auto& r : sweep.results)
        if (r && r->value.empty()) {
            wins.resize(std::size_t(r->scores.cols()), false);
            for (int top : r->top)
                wins[std::size_t(top)] = true;
        }
    hidden = int(std::count(wins.begin(), wins.end(), false));
    for (std::size_t m = 0; m < 2; ++m) {
        const auto& r = sweep.results[m];
        if (!r)
            continue;
        const Qt::PenStyle style = m == 0 && both ? Qt::DashLine : Qt::SolidLine;
        const bool inLegend = m == 1 || !both;
        if (!r->value.empty()) {  // regression: the value, its interval shaded
            if (r->hasInterval()) {
                auto* upper = new QLineSeries;
                auto* lower = new QLineSeries;
                for (std::size_t i = 0; i < t.size(); ++i) {
                    upper->append(t[i], r->upper[i]);
                    lower->append(t[i], r->lower[i]);
                }
                auto* band = new QAreaSeries(upper, lower);
                upper->setParent(band);
                lower->setParent(band);
                band->setName(tr("%1 ± 2 sd").arg(m == 0 ? "A" : "B"));
                band->setBrush(shade[m]);
                band->setPen(Qt::NoPen);
                attach(band);
            }
            auto* line = new QLineSeries;
            for (std::size_t i = 0; i < t.size(); ++i)
                line->append(t[i], r->value[i]);
            line->setName(QStringLiteral("%1: %2").arg(m == 0 ? "A" : "B", names[m]));
            line->setPen(QPen(m == 0 ? QColor(230, 126, 34) : QColor(41, 128, 185), 2, style));
            attach(line);
            continue;
        }
        for (Eigen::Index c = 0; c < r->scores.cols(); ++c) {
            if (!wins[std::size_t(c)])
                continue;
            auto* line = new QLineSeries;
            QList<QPointF> points;
            points.reserve(qsizetype(t.size()));
            for (std::size_t i = 0; i < t.size(); ++i)
                points.append(QPointF(t[i], r->scores(Eigen::Index(i), c)));
            line->replace(points);
            line->setName(c < labels.size() ? labels[int(c)] : QString::number(c));
            line->setPen(QPen(seriesColor(int(c)), m == 0 && both ? 1.5 : 2.0, style));
            attach(line);
            if (!inLegend)
                hideFromLegend(chart, line);
        }
    }
    marker_ = new QLineSeries;
    marker_->setName(tr("now"));
    marker_->setPen(QPen(QColor(40, 40, 40), 1.5));
    attach(marker_);
    hideFromLegend(chart, marker_);
    const bool regression = wins.empty();
    QString title = both ? (regression ? tr("Predicted values: A dashed, B solid") : tr("Scores: A dashed, B solid"))
                         : (regression ? tr("Predicted value of %1") : tr("Scores of %1")).arg(names[sweep.results[0] ? 0 : 1]);
    if (hidden > 0)
        title += hidden == 1 ? tr(" · 1 class that never wins left out") : tr(" · %1 classes that never win left out").arg(hidden);
    setChartTitle(chart, title);
}

void PredictChart::setMarker(double t)
{
    if (!marker_)
        return;
    marker_->replace(QList<QPointF>{QPointF(t, yLo_), QPointF(t, yHi_)});
}

double PredictChart::marker() const
{
    return marker_ && marker_->count() == 2 ? marker_->at(0).x() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace orbitui
