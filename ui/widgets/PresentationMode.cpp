#include "widgets/PresentationMode.hpp"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLegend>
#include <QWidget>
#include <QXYSeries>

#include <algorithm>

namespace orbitui {

namespace {

// Dynamic properties that remember what presentation mode changed, so it can be put back.
constexpr char kSecondary[] = "orbitSecondary";
constexpr char kFont[] = "orbitPresentationFont";
constexpr char kPenWidth[] = "orbitPresentationPenWidth";
constexpr char kMarkerSize[] = "orbitPresentationMarkerSize";
constexpr char kLabelsFont[] = "orbitPresentationLabelsFont";
constexpr char kTitleFont[] = "orbitPresentationTitleFont";
constexpr char kLegendFont[] = "orbitPresentationLegendFont";

QFont scaled(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, int(font.pixelSize() * factor + 0.5)));
    return font;
}

/// Scales `pen` of `object` up once (remembering the width) or back down.
template <typename Series>
void scalePen(Series* series, bool up)
{
    const QVariant before = series->property(kPenWidth);
    QPen pen = series->pen();
    if (up && !before.isValid()) {
        series->setProperty(kPenWidth, pen.widthF());
        pen.setWidthF(std::max(1.0, pen.widthF()) * PresentationMode::lineScale());
        series->setPen(pen);
    } else if (!up && before.isValid()) {
        pen.setWidthF(before.toDouble());
        series->setPen(pen);
        series->setProperty(kPenWidth, QVariant());
    }
}

/// Scales a font of `object` (read with `get`, written with `set`) up once or back down.
template <typename Get, typename Set>
void scaleFontOf(QObject* object, const char* key, bool up, Get get, Set set)
{
    const QVariant before = object->property(key);
    if (up && !before.isValid()) {
        object->setProperty(key, get());
        set(scaled(get(), PresentationMode::chartFontScale()));
    } else if (!up && before.isValid()) {
        set(before.value<QFont>());
        object->setProperty(key, QVariant());
    }
}

} // namespace

PresentationMode::PresentationMode(QWidget* window) : QObject(window), window_(window) {}

void PresentationMode::markSecondary(QWidget* widget) { widget->setProperty(kSecondary, true); }

bool PresentationMode::isSecondary(const QWidget* widget)
{
    return widget->objectName().startsWith(QLatin1String("export-")) || widget->property(kSecondary).toBool();
}

void PresentationMode::setOn(bool on)
{
    if (on == on_)
        return;
    on_ = on;
    if (on) {
        hideSecondary();
        scaleFonts(true);
        scaleCharts(true);
    } else {
        scaleCharts(false);
        scaleFonts(false);
        restoreSecondary();
    }
    emit toggled(on);
}

void PresentationMode::hideSecondary()
{
    for (QWidget* w : window_->findChildren<QWidget*>())
        if (isSecondary(w) && !w->isHidden()) {
            w->hide();
            hidden_.append(w);
        }
}

void PresentationMode::restoreSecondary()
{
    for (const QPointer<QWidget>& w : std::as_const(hidden_))
        if (w)
            w->show();
    hidden_.clear();
}

void PresentationMode::scaleFonts(bool up)
{
    // The window's font reaches every widget that did not set its own; those that did (a larger
    // tab bar, a bold title) are scaled one by one.
    QList<QWidget*> widgets = window_->findChildren<QWidget*>();
    if (up) {
        QList<QWidget*> own;
        for (QWidget* w : widgets)
            if (w->testAttribute(Qt::WA_SetFont))
                own.append(w);
        window_->setProperty(kFont, window_->font());
        window_->setFont(scaled(window_->font(), fontScale()));
        for (QWidget* w : own) {
            w->setProperty(kFont, w->font());
            w->setFont(scaled(w->font(), fontScale()));
        }
        return;
    }
    for (QWidget* w : widgets)
        if (const QVariant before = w->property(kFont); before.isValid()) {
            w->setFont(before.value<QFont>());
            w->setProperty(kFont, QVariant());
        }
    if (const QVariant before = window_->property(kFont); before.isValid()) {
        window_->setFont(before.value<QFont>());
        window_->setProperty(kFont, QVariant());
    }
}

void PresentationMode::scaleCharts(bool up)
{
    for (QChartView* view : window_->findChildren<QChartView*>()) {
        // Panels replace their series when they redraw: the new ones are scaled before they show.
        if (up)
            view->viewport()->installEventFilter(this);
        else
            view->viewport()->removeEventFilter(this);
        if (view->chart())
            scaleChart(view->chart(), up);
    }
}

void PresentationMode::scaleChart(QChart* chart, bool up)
{
    for (QAbstractSeries* series : chart->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            scalePen(xy, up);
            const QVariant before = xy->property(kMarkerSize);
            if (up && !before.isValid()) {
                xy->setProperty(kMarkerSize, xy->markerSize());
                xy->setMarkerSize(xy->markerSize() * lineScale());
            } else if (!up && before.isValid()) {
                xy->setMarkerSize(before.toDouble());
                xy->setProperty(kMarkerSize, QVariant());
            }
        } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            scalePen(area, up);
        }
    }
    for (QAbstractAxis* axis : chart->axes()) {
        // Enlarged tick labels that no longer fit are drawn whole: "0.…" tells the back row nothing.
        axis->setTruncateLabels(!up);
        scaleFontOf(axis, kLabelsFont, up, [axis] { return axis->labelsFont(); }, [axis](const QFont& f) { axis->setLabelsFont(f); });
        scaleFontOf(axis, kTitleFont, up, [axis] { return axis->titleFont(); }, [axis](const QFont& f) { axis->setTitleFont(f); });
    }
    scaleFontOf(chart, kTitleFont, up, [chart] { return chart->titleFont(); }, [chart](const QFont& f) { chart->setTitleFont(f); });
    QLegend* legend = chart->legend();
    scaleFontOf(legend, kLegendFont, up, [legend] { return legend->font(); }, [legend](const QFont& f) { legend->setFont(f); });
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event)
{
    if (on_ && event->type() == QEvent::Paint)
        if (auto* view = qobject_cast<QChartView*>(watched->parent()); view && view->chart())
            scaleChart(view->chart(), true);  // only what is not scaled yet
    return QObject::eventFilter(watched, event);
}

} // namespace orbitui
