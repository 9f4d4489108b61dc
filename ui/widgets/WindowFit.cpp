#include "widgets/WindowFit.hpp"

#include <QGuiApplication>
#include <QRegularExpression>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace orbitui {

QRect fitIntoArea(const QRect& wanted, const QRect& available, const QSize& minimum)
{
    if (!available.isValid())
        return wanted;
    QSize size = wanted.size().boundedTo(available.size()).expandedTo(minimum);
    QRect r(wanted.topLeft(), size);
    // Pull it back inside: first from the right and bottom, then from the left and top (so a
    // window larger than the area keeps its top-left corner, with the title bar, on screen).
    if (r.right() > available.right())
        r.moveRight(available.right());
    if (r.bottom() > available.bottom())
        r.moveBottom(available.bottom());
    if (r.left() < available.left())
        r.moveLeft(available.left());
    if (r.top() < available.top())
        r.moveTop(available.top());
    return r;
}

QRect defaultWindowRect(const QSize& preferred, const QRect& available)
{
    if (!available.isValid())
        return QRect(QPoint(0, 0), preferred);
    const int mx = available.width() / 50, my = available.height() / 50;
    const QSize size = preferred.boundedTo(available.size() - QSize(2 * mx, 2 * my));
    QRect r(QPoint(0, 0), size);
    r.moveCenter(available.center());
    return r;
}

void placeWindow(QWidget* window, const QByteArray& saved, const QSize& preferred)
{
    const bool restored = !saved.isEmpty() && window->restoreGeometry(saved);
    if (restored && (window->isMaximized() || window->isFullScreen()))
        return;
    QScreen* screen = restored ? QGuiApplication::screenAt(window->geometry().center()) : nullptr;
    if (!screen)
        screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect();
    const QRect r = restored ? fitIntoArea(window->geometry(), available, window->minimumSizeHint())
                             : defaultWindowRect(preferred, available);
    window->resize(r.size());
    window->move(r.topLeft());
}

std::optional<QSize> parseWindowSize(const QString& text, int minSide, int maxSide)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{1,6})\\s*[xX×]\\s*(\\d{1,6})\\s*$"));
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const int w = m.captured(1).toInt(), h = m.captured(2).toInt();
    if (w < minSide || h < minSide || w > maxSide || h > maxSide)
        return std::nullopt;
    return QSize(w, h);
}

} // namespace orbitui
