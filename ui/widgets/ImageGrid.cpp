#include "widgets/ImageGrid.hpp"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace orbitui {

ImageGrid::ImageGrid(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
}

void ImageGrid::setImages(std::vector<QImage> images, QStringList tooltips)
{
    images_ = std::move(images);
    tooltips_ = std::move(tooltips);
    update();
}

void ImageGrid::setPlaceholder(const QString& text)
{
    images_.clear();
    placeholder_ = text;
    update();
}

ImageGrid::Layout ImageGrid::layoutFor(QSize area) const
{
    Layout l;
    const int n = static_cast<int>(images_.size());
    if (n == 0)
        return l;
    const QSize imgSize = images_.front().size();
    const double aspect = imgSize.width() > 0 ? double(imgSize.height()) / imgSize.width() : 1.0;
    // Try every column count and keep the one with the largest cells.
    auto cellFor = [&](int cols) {
        const int rows = (n + cols - 1) / cols;
        const int cw = (area.width() - (cols + 1) * l.gap) / cols;
        const int ch = static_cast<int>((area.height() - (rows + 1) * l.gap) / rows / aspect);
        return std::min(cw, ch);
    };
    int largest = 0;
    for (int cols = 1; cols <= n; ++cols)
        largest = std::max(largest, cellFor(cols));
    // Among column counts whose cells are within 20 % of the largest, leave the fewest holes.
    int bestCell = 0, bestHoles = n + 1;
    for (int cols = 1; cols <= n; ++cols) {
        const int cell = cellFor(cols);
        const int rows = (n + cols - 1) / cols;
        const int holes = rows * cols - n;
        if (cell >= 0.8 * largest && (holes < bestHoles || (holes == bestHoles && cell > bestCell))) {
            bestCell = cell;
            bestHoles = holes;
            l.columns = cols;
            l.rows = rows;
        }
    }
    l.cell = std::max(bestCell, 4);
    const int gridW = l.columns * l.cell + (l.columns - 1) * l.gap;
    const int gridH = static_cast<int>(l.rows * l.cell * aspect) + (l.rows - 1) * l.gap;
    l.origin = QPoint((area.width() - gridW) / 2, (area.height() - gridH) / 2);
    return l;
}

void ImageGrid::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (images_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, placeholder_);
        return;
    }
    ++paints_;
    const Layout l = layoutFor(size());
    const double aspect = double(images_.front().height()) / std::max(1, images_.front().width());
    const int cellH = static_cast<int>(l.cell * aspect);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    for (int i = 0; i < static_cast<int>(images_.size()); ++i) {
        const QRect target(l.origin.x() + (i % l.columns) * (l.cell + l.gap),
                           l.origin.y() + (i / l.columns) * (cellH + l.gap), l.cell, cellH);
        p.drawImage(target, images_[static_cast<std::size_t>(i)]);
    }
}

bool ImageGrid::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip && !images_.empty()) {
        auto* help = static_cast<QHelpEvent*>(e);
        const Layout l = layoutFor(size());
        const double aspect = double(images_.front().height()) / std::max(1, images_.front().width());
        const int cellH = static_cast<int>(l.cell * aspect);
        const QPoint pos = help->pos() - l.origin;
        const int col = pos.x() / (l.cell + l.gap), row = pos.y() / (cellH + l.gap);
        const int i = row * l.columns + col;
        if (pos.x() >= 0 && pos.y() >= 0 && col < l.columns && i < tooltips_.size())
            QToolTip::showText(help->globalPos(), tooltips_.at(i), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

QImage ImageGrid::toImage(int cell) const
{
    if (images_.empty())
        return {};
    const int n = static_cast<int>(images_.size());
    const int cols = static_cast<int>(std::ceil(std::sqrt(double(n))));
    const int rows = (n + cols - 1) / cols;
    const double aspect = double(images_.front().height()) / std::max(1, images_.front().width());
    const int cellH = static_cast<int>(cell * aspect);
    const int gap = 2;
    QImage out(cols * (cell + gap) + gap, rows * (cellH + gap) + gap, QImage::Format_RGB32);
    out.fill(Qt::white);
    QPainter p(&out);
    for (int i = 0; i < n; ++i)
        p.drawImage(QRect(gap + (i % cols) * (cell + gap), gap + (i / cols) * (cellH + gap), cell, cellH),
                    images_[static_cast<std::size_t>(i)]);
    return out;
}

void ImageGrid::contextMenuEvent(QContextMenuEvent* event)
{
    if (images_.empty())
        return;
    QMenu menu(this);
    menu.addAction(tr("Export gallery as PNG…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export gallery"), "orbit.png", tr("PNG (*.png)"));
        if (!path.isEmpty())
            toImage().save(path);
    });
    menu.exec(event->globalPos());
}

} // namespace orbitui
