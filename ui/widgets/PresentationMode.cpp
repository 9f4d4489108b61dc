#include "widgets/PresentationMode.hpp"

#include "state/workers/PassScheduler.hpp"

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

void PresentationMode::setStagedParts(const QList<QWidget*>& parts)
{
    parts_.clear();
    for (QWidget* part : parts)
        if (part && !part->testAttribute(Qt::WA_SetFont) && window_->isAncestorOf(part))
            parts_.push_back({part, on_, false});
}

bool PresentationMode::isSettled() const
{
    return std::none_of(parts_.begin(), parts_.end(), [this](const Part& p) { return p.widget && (p.pinned || p.scaled != on_); });
}

void PresentationMode::setOn(bool on)
{
    if (on == on_)
        return;
    on_ = on;
    if (on)
        rememberOwnFonts();
    // A hidden part keeps the font it has until its turn: it holds that font as its own (every
    // attribute), so the window's new font stops at it; the parts in sight change now.
    for (Part& part : parts_)
        if (part.widget && !part.widget->isVisible() && !part.pinned && part.scaled != on) {
            QFont kept = part.widget->font();
            kept.setResolveMask(QFont::AllPropertiesResolved);
            part.widget->setFont(kept);
            part.pinned = true;
            part.widget->installEventFilter(this);  // shown before its turn: its turn runs then
        }
    const QList<QWidget*> own = ownFontWidgets(window_);
    if (on) {
        hideSecondary();
        scaleWindowFont(true);
        scaleOwnFonts(own, true);
        scaleCharts(window_, true);
    } else {
        scaleCharts(window_, false);
        scaleOwnFonts(own, false);
        scaleWindowFont(false);
        restoreSecondary();
    }
    for (Part& part : parts_)
        if (part.widget && part.widget->isVisible())
            runTurn(part);
    scheduleTurn();
    emit toggled(on);
}

void PresentationMode::runTurn(Part& part)
{
    if (!part.widget)
        return;
    if (part.pinned) {
        part.widget->removeEventFilter(this);
        part.widget->setFont(QFont());  // inherits the window's font again, as before it was pinned
        part.pinned = false;
    }
    // Off: also the fonts remembered for a turn that never came.
    scaleOwnFonts(ownFontWidgets(part.widget), on_);
    if (part.scaled != on_) {
        scaleCharts(part.widget, on_);
        part.scaled = on_;
    }
}

void PresentationMode::scheduleTurn()
{
    if (isSettled())
        return;
    // One part per job, paced with the rest of the window's deferred work (a waiting turn is replaced).
    PassScheduler::instance()->post(this, 0, [this] { nextTurn(); });
}

void PresentationMode::nextTurn()
{
    for (Part& part : parts_)
        if (part.widget && (part.pinned || part.scaled != on_)) {
            runTurn(part);
            break;
        }
    scheduleTurn();
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

bool PresentationMode::isInPart(const QWidget* widget, const QWidget* root) const
{
    for (const QWidget* w = widget; w && w != root; w = w->parentWidget())
        for (const Part& part : parts_)
            if (part.widget == w)
                return true;
    return false;
}

QList<QWidget*> PresentationMode::ownFontWidgets(QWidget* root) const
{
    QList<QWidget*> own;
    for (QWidget* w : root->findChildren<QWidget*>())
        if (w->testAttribute(Qt::WA_SetFont) && !isInPart(w, root))
            own.append(w);
    return own;
}

void PresentationMode::rememberOwnFonts()
{
    // Before the window's font changes and before a part is pinned: what such a widget inherits is
    // still what it inherited before, so setting the remembered font back restores it exactly.
    for (QWidget* w : window_->findChildren<QWidget*>())
        if (w->testAttribute(Qt::WA_SetFont) && !w->property(kFont).isValid() &&
            std::none_of(parts_.begin(), parts_.end(), [w](const Part& p) { return p.widget == w; }))
            w->setProperty(kFont, w->font());
}

void PresentationMode::scaleOwnFonts(const QList<QWidget*>& widgets, bool up)
{
    // The window's font reaches every widget that did not set its own; those that did (a larger
    // tab bar, a bold title) are scaled one by one, from the font they had before the mode.
    for (QWidget* w : widgets)
        if (const QVariant before = w->property(kFont); before.isValid()) {
            w->setFont(up ? scaled(before.value<QFont>(), fontScale()) : before.value<QFont>());
            if (!up)
                w->setProperty(kFont, QVariant());
        }
}

void PresentationMode::scaleWindowFont(bool up)
{
    const QVariant before = window_->property(kFont);
    if (up && !before.isValid()) {
        window_->setProperty(kFont, window_->font());
        window_->setFont(scaled(window_->font(), fontScale()));
    } else if (!up && before.isValid()) {
        window_->setFont(before.value<QFont>());
        window_->setProperty(kFont, QVariant());
    }
}

void PresentationMode::scaleCharts(QWidget* root, bool up)
{
    for (QChartView* view : root->findChildren<QChartView*>()) {
        if (isInPart(view, root))
            continue;
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
            // The marker size is read before the pen changes: a series that never set one follows
            // its pen's width, and the size it had is the one to restore.
            const QVariant before = xy->property(kMarkerSize);
            const qreal marker = xy->markerSize();
            scalePen(xy, up);
            if (up && !before.isValid()) {
                xy->setProperty(kMarkerSize, marker);
                xy->setMarkerSize(marker * lineScale());
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
    if (event->type() == QEvent::Show)
        for (Part& part : parts_)
            if (part.widget == watched) {
                runTurn(part);  // before its first paint: layouts are requested ahead of the (low-priority) update
                break;
            }
    if (on_ && event->type() == QEvent::Paint)
        if (auto* view = qobject_cast<QChartView*>(watched->parent()); view && view->chart())
            scaleChart(view->chart(), true);  // only what is not scaled yet
    return QObject::eventFilter(watched, event);
}

} // namespace orbitui
