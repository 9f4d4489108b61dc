#pragma once
// Fitting the main window to the screen it opens on: a small laptop or a 1280 x 720 projector as
// well as a wide monitor. The rectangle arithmetic is separate from the widgets so it can be
// tested without a screen of that size.
#include <QByteArray>
#include <QRect>
#include <QSize>
#include <QString>

#include <optional>

class QWidget;

namespace orbitui {

/// `wanted` moved and shrunk into `available`: the size is at most `available`'s (but never below
/// `minimum`: a window that cannot shrink further keeps its minimum and sits at available's top
/// left), and the rectangle lies inside `available` whenever its size allows.
QRect fitIntoArea(const QRect& wanted, const QRect& available, const QSize& minimum = {});

/// A new window's rectangle: `preferred`, or less when `available` is smaller (a margin of 2 %
/// of the screen on each side), centred in `available`.
QRect defaultWindowRect(const QSize& preferred, const QRect& available);

/// Gives `window` its last geometry (`saved`, from QWidget::saveGeometry) when there is one, else
/// `preferred`; then moves and shrinks it into the available geometry of the screen it lies on (a
/// saved geometry from a larger or a disconnected monitor comes back on this one). A maximised or
/// full-screen window is left as restored.
void placeWindow(QWidget* window, const QByteArray& saved, const QSize& preferred);

/// Parses a window size "WxH" (e.g. "1280x720"; 'X' or '×' also separate) whose sides lie in
/// [minSide, maxSide] pixels; nullopt otherwise.
std::optional<QSize> parseWindowSize(const QString& text, int minSide = 200, int maxSide = 10000);

} // namespace orbitui
