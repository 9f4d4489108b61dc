#include "window/training/TrainingCharts.hpp"

#include "render/ParameterLabels.hpp"

#include "orbit/registry/Registry.hpp"

#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace orbitui {

namespace {

QAbstractAxis* makeXAxis(const std::vector<double>& x, bool logarithmic, const QString& title)
{
    QFont font;
    font.setPointSizeF(10);
    if (logarithmic) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat("%g");
        const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
        axis->setRange(*lo / 2, *hi * 2);
        axis->setTitleText(title);
        axis->setTitleFont(font);
        return axis;
    }
    auto* axis = new QValueAxis;
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    const double pad = *hi > *lo ? 0.05 * (*hi - *lo) : 0.5;
    axis->setRange(*lo - pad, *hi + pad);
    axis->setLabelFormat("%g");
    axis->setTitleText(title);
    axis->setTitleFont(font);
    return axis;
}

QValueAxis* makeYAxis(const std::vector<double>& y, const QString& title)
{
    auto* axis = new QValueAxis;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : y)
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (!std::isfinite(lo)) {
        lo = 0;
        hi = 1;
    }
    const double pad = hi > lo ? 0.08 * (hi - lo) : std::max(0.05 * std::abs(hi), 0.01);
    axis->setRange(lo - pad, hi + pad);
    axis->setLabelFormat(std::max(std::abs(lo), std::abs(hi)) >= 1000 ? "%.0f" : "%.3g");
    axis->setTitleText(title);
    QFont font;
    font.setPointSizeF(10);
    axis->setTitleFont(font);
    axis->applyNiceNumbers();
    return axis;
}

QLineSeries* makeSeries(const QString& name, const std::vector<double>& x, const std::vector<double>& y, const QColor& colour)
{
    QList<QPointF> points;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
        if (std::isfinite(y[i]))
            points.append(QPointF(x[i], y[i]));
    auto* series = new QLineSeries;
    series->setName(name);
    series->replace(points);
    series->setPointsVisible(true);
    QPen pen(colour);
    pen.setWidthF(2.2);
    series->setPen(pen);
    series->setColor(colour);
    return series;
}

} // namespace

bool isRmse(const orbit::TrainResult& r) { return orbit::parseMetric(r.metric) == orbit::Metric::Rmse; }

QString withScoreUnit(const QString& text, const orbit::TrainResult& r, const QString& unit)
{
    return isRmse(r) && !unit.isEmpty() ? QStringLiteral("%1 (%2)").arg(text, unit) : text;
}

void drawScoreChart(ChartBox* box, const orbit::TrainResult& r, const AxisCurve& curve, const QString& unit)
{
    QChart* chart = box->chart();
    clearChart(chart);
    // A single grid point makes no curve: the box is hidden and the summary says why.
    box->setVisible(curve.x.size() >= 2);
    if (curve.x.size() < 2)
        return;
    const QString axis = axisLabel(curve.axis);
    const bool evidence = curve.hasEvidence();
    const QString metric = isRmse(r) ? QObject::tr("validation RMSE") : QObject::tr("validation accuracy");
    QString title = evidence ? QObject::tr("Evidence and %1 vs %2").arg(isRmse(r) ? QObject::tr("RMSE") : QObject::tr("accuracy"), axis)
                             : QObject::tr("%1 vs %2").arg(metric, axis);
    title[0] = title[0].toUpper();
    setChartTitle(chart, title);
    const bool positive = std::all_of(curve.x.begin(), curve.x.end(), [](double v) { return v > 0; });
    const double ratio = positive ? *std::max_element(curve.x.begin(), curve.x.end()) /
                                        *std::min_element(curve.x.begin(), curve.x.end())
                                  : 1.0;
    const bool logarithmic = positive && (curve.axis == "lambda" || curve.axis == "C" || ratio >= 50);
    QAbstractAxis* x = makeXAxis(curve.x, logarithmic, axis + (logarithmic ? QObject::tr(" (log scale)") : QString()));
    QValueAxis* y = makeYAxis(curve.validation, withScoreUnit(metric, r, unit));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto* validation = makeSeries(metric, curve.x, curve.validation, QColor(0x1f, 0x77, 0xb4));
    chart->addSeries(validation);
    validation->attachAxis(x);
    validation->attachAxis(y);
    y->setLinePenColor(validation->color());
    if (evidence) {
        QValueAxis* ev = makeYAxis(curve.logEvidence, QObject::tr("log evidence (inner training part)"));
        chart->addAxis(ev, Qt::AlignRight);
        auto* series = makeSeries(QObject::tr("log evidence"), curve.x, curve.logEvidence, QColor(0xd6, 0x27, 0x28));
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(ev);
        ev->setLinePenColor(series->color());
    }
}

void drawLearningCurve(ChartBox* box, const orbit::TrainResult& r, const QString& unit)
{
    QChart* chart = box->chart();
    clearChart(chart);
    setChartTitle(chart, QObject::tr("Learning curve"));
    if (r.learningCurve.empty()) {
        box->setNote(QObject::tr("Tick “Learning curve” and run again to see the score against the training-set size."));
        return;
    }
    box->setNote({});
    std::vector<double> n, score;
    for (const orbit::LearningCurvePoint& p : r.learningCurve) {
        n.push_back(static_cast<double>(p.trainSize));
        score.push_back(p.score);
    }
    const QString metric = isRmse(r) ? QObject::tr("test RMSE") : QObject::tr("test accuracy");
    QAbstractAxis* x = makeXAxis(n, false, QObject::tr("training samples"));
    if (auto* v = qobject_cast<QValueAxis*>(x)) {
        v->setRange(0, *std::max_element(n.begin(), n.end()) * 1.05);
        v->applyNiceNumbers();
        v->setLabelFormat("%.0f");
    }
    QValueAxis* y = makeYAxis(score, withScoreUnit(metric, r, unit));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    auto* series = makeSeries(QObject::tr("%1, fold 1").arg(metric), n, score, QColor(0x2c, 0xa0, 0x2c));
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace orbitui
