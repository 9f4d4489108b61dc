#include "widgets/ScoreBars.hpp"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace orbitui {

namespace {

const std::array<QColor, 2> kModelColours{QColor(230, 126, 34), QColor(41, 128, 185)};  // A orange, B blue

} // namespace

ScoreBars::ScoreBars(QWidget* parent) : QWidget(parent) { setMinimumHeight(120); }

void ScoreBars::setLabels(const QStringList& labels)
{
    labels_ = labels;
    update();
}

void ScoreBars::setScores(int model, const std::vector<double>& scores, const QString& name)
{
    Model& m = models_[std::size_t(model)];
    m.scores = scores;
    m.value.reset();
    m.name = name;
    update();
}

void ScoreBars::setValue(int model, std::optional<double> value, std::optional<std::pair<double, double>> interval,
                         const QString& name, const QString& unit)
{
    Model& m = models_[std::size_t(model)];
    m.scores.clear();
    m.value = value;
    m.interval = interval;
    m.name = name;
    m.unit = unit;
    update();
}

int ScoreBars::top(int model) const
{
    const auto& s = models_[std::size_t(model)].scores;
    return s.empty() ? -1 : int(std::max_element(s.begin(), s.end()) - s.begin());
}

void ScoreBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const int line = fm.height();
    const bool anyBars = !models_[0].scores.empty() || !models_[1].scores.empty();
    if (!anyBars) {  // regression values, or nothing yet
        int y = line;
        for (std::size_t m = 0; m < 2; ++m) {
            const Model& model = models_[m];
            if (!model.value)
                continue;
            QString text = QStringLiteral("%1: %2").arg(m == 0 ? "A" : "B").arg(*model.value, 0, 'g', 6);
            if (!model.unit.isEmpty())
                text += " " + model.unit;
            p.setPen(kModelColours[m]);
            QFont big = font();
            big.setPointSizeF(big.pointSizeF() * 1.5);
            p.setFont(big);
            p.drawText(QPointF(8, y + QFontMetrics(big).ascent()), text);
            y += QFontMetrics(big).height();
            p.setFont(font());
            if (model.interval) {  // on a line of its own: a narrow column keeps the value whole
                p.drawText(QPointF(8, y + fm.ascent()), tr("interval (± 2 sd): [%1, %2]")
                                                            .arg(model.interval->first, 0, 'g', 5)
                                                            .arg(model.interval->second, 0, 'g', 5));
                y += line;
            }
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(QPointF(8, y + fm.ascent()), model.name);
            y += 2 * line;
        }
        return;
    }
    // Bars grow from the lowest score shown (ridge's wrong classes sit near -1): the longest bar
    // is the top class; a thin line marks zero when it is inside the range.
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    for (const Model& m : models_)
        for (double v : m.scores) {
            lowest = std::min(lowest, v);
            highest = std::max(highest, v);
        }
    const double span = std::max(1e-12, highest - lowest);
    lowest -= 0.05 * span;
    int labelWidth = 0;
    for (const QString& l : labels_)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(l));
    const int left = labelWidth + 12, right = width() - 8;
    const double scale = (right - left) / (highest - lowest);
    const double zeroX = left + (0.0 - lowest) * scale;
    const int rows = std::max<int>(int(labels_.size()), 1);
    const double rowHeight = std::max(double(line) * 0.9, double(height() - line - 4) / rows);
    const double barHeight = std::max(2.0, rowHeight * 0.8 / 2.0);
    // The models' names above the bars, in their colours.
    int x = left;
    for (std::size_t m = 0; m < 2; ++m) {
        if (models_[m].scores.empty())
            continue;
        p.setPen(kModelColours[m]);
        const QString name = QStringLiteral("■ %1: %2").arg(m == 0 ? "A" : "B", models_[m].name);
        p.drawText(QPointF(x, fm.ascent()), fm.elidedText(name, Qt::ElideRight, (right - left) / 2));
        x += (right - left) / 2;
    }
    for (int c = 0; c < int(labels_.size()); ++c) {
        const double y = line + 4 + c * rowHeight;
        bool isTop = false;
        for (std::size_t m = 0; m < 2; ++m) {
            const Model& model = models_[m];
            if (c >= int(model.scores.size()))
                continue;
            const double v = model.scores[std::size_t(c)];
            const QRectF bar(left, y + double(m) * barHeight, (v - lowest) * scale, barHeight - 1);
            const bool top = this->top(int(m)) == c;
            isTop = isTop || top;
            p.fillRect(bar, top ? kModelColours[m] : kModelColours[m].lighter(150));
        }
        QFont f = font();
        f.setBold(isTop);
        p.setFont(f);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRectF(0, y, labelWidth + 6, 2 * barHeight), Qt::AlignRight | Qt::AlignVCenter, labels_[c]);
        p.setFont(font());
    }
    if (zeroX > left && zeroX < right) {
        p.setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DotLine));
        p.drawLine(QPointF(zeroX, line + 2), QPointF(zeroX, height() - 2));
    }
}

} // namespace orbitui
