#include "widgets/ChartOverlay.hpp"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace orbitui {

namespace {

/// Widens `axis` to [lo, hi] (log axes: to whole decades of the positive part).
void widen(QAbstractAxis* axis, double lo, double hi)
{
    if (auto* v = qobject_cast<QValueAxis*>(axis)) {
        v->setRange(std::min(v->min(), lo), std::max(v->max(), hi));
    } else if (auto* l = qobject_cast<QLogValueAxis*>(axis)) {
        if (!(hi > 0))
            return;
        lo = std::max(lo, hi * 1e-12);
        const double base = l->base() > 1 ? l->base() : 10.0;
        const double dLo = std::pow(base, std::floor(std::log(lo) / std::log(base)));
        const double dHi = std::pow(base, std::ceil(std::log(hi) / std::log(base)));
        l->setRange(std::min(l->min(), dLo), std::max(l->max(), dHi));
    }
}

QAbstractAxis* firstAxis(QChart* chart, Qt::Orientation o)
{
    const QList<QAbstractAxis*> axes = chart->axes(o);
    return axes.isEmpty() ? nullptr : axes.front();
}

} // namespace

ChartOverlay::~ChartOverlay() = default;  // the chart owns the series

void ChartOverlay::clear()
{
    for (const QPointer<QLineSeries>& s : series_)
        if (s) {
            chart_->removeSeries(s);
            delete s.data();
        }
    series_.clear();
}

void ChartOverlay::draw(const std::vector<Curve>& curves)
{
    // Series the chart deleted (removeAllSeries) are gone; drop extra ones.
    series_.erase(std::remove_if(series_.begin(), series_.end(), [](const QPointer<QLineSeries>& s) { return !s; }),
                  series_.end());
    while (series_.size() > curves.size()) {
        chart_->removeSeries(series_.back());
        delete series_.back().data();
        series_.pop_back();
    }
    QAbstractAxis* x = firstAxis(chart_, Qt::Horizontal);
    QAbstractAxis* y = firstAxis(chart_, Qt::Vertical);
    while (series_.size() < curves.size()) {
        auto* s = new QLineSeries;
        chart_->addSeries(s);
        if (x)
            s->attachAxis(x);
        if (y)
            s->attachAxis(y);
        series_.emplace_back(s);
    }
    double xLo = 1e300, xHi = -1e300, yLo = 1e300, yHi = -1e300;
    const bool logY = qobject_cast<QLogValueAxis*>(y) != nullptr, logX = qobject_cast<QLogValueAxis*>(x) != nullptr;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const Curve& c = curves[i];
        QLineSeries* s = series_[i];
        s->setName(c.name);
        QPen pen(c.color);
        pen.setWidthF(c.width);
        pen.setStyle(c.style);
        s->setPen(pen);
        s->replace(c.points);
        for (const QPointF& p : c.points) {
            if (!logX || p.x() > 0) {
                xLo = std::min(xLo, p.x());
                xHi = std::max(xHi, p.x());
            }
            if (!logY || p.y() > 0) {
                yLo = std::min(yLo, p.y());
                yHi = std::max(yHi, p.y());
            }
        }
    }
    if (x && xLo <= xHi)
        widen(x, xLo, xHi);
    if (y && yLo <= yHi)
        widen(y, yLo, yHi);
}

std::vector<QLineSeries*> ChartOverlay::series() const
{
    std::vector<QLineSeries*> out;
    for (const QPointer<QLineSeries>& s : series_)
        if (s)
            out.push_back(s);
    return out;
}

bool ChartOverlay::owns(const QLineSeries* s) const
{
    return std::any_of(series_.begin(), series_.end(), [s](const QPointer<QLineSeries>& p) { return p == s; });
}

void ChartOverlay::markOthers(const QString& prefix, bool on)
{
    for (QAbstractSeries* s : chart_->series()) {
        auto* line = qobject_cast<QLineSeries*>(s);
        if (line && owns(line))
            continue;
        const QString name = s->name();
        if (on && !name.startsWith(prefix))
            s->setName(prefix + name);
        else if (!on && name.startsWith(prefix))
            s->setName(name.mid(prefix.size()));
    }
}

} // namespace orbitui
