#include "widgets/DrawCanvas.hpp"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace orbitui {

DrawCanvas::DrawCanvas(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(120, 120);
    setCursor(Qt::CrossCursor);
    setToolTip(tr("Draw with the left mouse button, erase with the right one"));
    reset(QSize(20, 20));
}

void DrawCanvas::reset(QSize size)
{
    image_ = QImage(size.expandedTo(QSize(1, 1)), QImage::Format_Grayscale8);
    image_.fill(0);
    update();
}

void DrawCanvas::setImage(const QImage& image)
{
    QImage grey = image.convertToFormat(QImage::Format_Grayscale8);
    if (grey.size() != image_.size())
        grey = grey.scaled(image_.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    image_ = grey;
    update();
    emit changed();
}

void DrawCanvas::clear()
{
    image_.fill(0);
    update();
    emit changed();
}

bool DrawCanvas::isBlank() const
{
    for (int y = 0; y < image_.height(); ++y) {
        const uchar* row = image_.constScanLine(y);
        if (std::any_of(row, row + image_.width(), [](uchar v) { return v != 0; }))
            return false;
    }
    return true;
}

void DrawCanvas::dab(QPointF point, bool erase)
{
    // A soft disc: full ink within radius/2 of the centre, fading to none at radius + 1/2.
    const double r = radius_;
    const int x0 = std::max(0, int(std::floor(point.x() - r - 1))), x1 = std::min(image_.width() - 1, int(std::ceil(point.x() + r)));
    const int y0 = std::max(0, int(std::floor(point.y() - r - 1))), y1 = std::min(image_.height() - 1, int(std::ceil(point.y() + r)));
    for (int y = y0; y <= y1; ++y) {
        uchar* row = image_.scanLine(y);
        for (int x = x0; x <= x1; ++x) {
            const double d = std::hypot(x + 0.5 - point.x(), y + 0.5 - point.y());
            const double ink = std::clamp((r + 0.5 - d) / (r / 2.0 + 0.5), 0.0, 1.0);
            const int v = int(std::lround(255.0 * ink));
            row[x] = uchar(erase ? std::min<int>(row[x], 255 - v) : std::max<int>(row[x], v));
        }
    }
    update();
}

int DrawCanvas::heightForWidth(int width) const
{
    return image_.width() > 0 ? width * image_.height() / image_.width() : width;
}

QRectF DrawCanvas::canvasRect() const
{
    const double scale = std::min(double(width()) / image_.width(), double(height()) / image_.height());
    const QSizeF size(image_.width() * scale, image_.height() * scale);
    return QRectF(QPointF((width() - size.width()) / 2.0, (height() - size.height()) / 2.0), size);
}

QPointF DrawCanvas::toCanvas(QPointF p) const
{
    const QRectF r = canvasRect();
    return {(p.x() - r.left()) * image_.width() / r.width(), (p.y() - r.top()) * image_.height() / r.height()};
}

void DrawCanvas::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QRectF r = canvasRect();
    painter.drawImage(r, image_);
    painter.setPen(QColor(80, 80, 80));
    const double cell = r.width() / image_.width();
    if (cell >= 6.0) {  // the pixel grid, faint
        painter.setPen(QColor(60, 60, 60));
        for (int x = 1; x < image_.width(); ++x)
            painter.drawLine(QPointF(r.left() + x * cell, r.top()), QPointF(r.left() + x * cell, r.bottom()));
        for (int y = 1; y < image_.height(); ++y)
            painter.drawLine(QPointF(r.left(), r.top() + y * cell), QPointF(r.right(), r.top() + y * cell));
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(r.adjusted(0, 0, -1, -1));
}

void DrawCanvas::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton && event->button() != Qt::RightButton)
        return;
    drawing_ = true;
    erasing_ = event->button() == Qt::RightButton;
    last_ = toCanvas(event->position());
    dab(last_, erasing_);
}

void DrawCanvas::mouseMoveEvent(QMouseEvent* event)
{
    if (!drawing_)
        return;
    const QPointF p = toCanvas(event->position());
    const double length = std::hypot(p.x() - last_.x(), p.y() - last_.y());
    const int steps = std::max(1, int(std::ceil(length / 0.3)));
    for (int i = 1; i <= steps; ++i)
        dab(last_ + (p - last_) * (double(i) / steps), erasing_);
    last_ = p;
}

void DrawCanvas::mouseReleaseEvent(QMouseEvent*)
{
    if (!drawing_)
        return;
    drawing_ = false;
    emit changed();
}

} // namespace orbitui
