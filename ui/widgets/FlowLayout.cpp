#include "widgets/FlowLayout.hpp"

#include <QHBoxLayout>
#include <QWidget>

#include <algorithm>
#include <vector>

namespace orbitui {

FlowLayout::FlowLayout(QWidget* parent, int hSpacing, int vSpacing) : QLayout(parent), hSpace_(hSpacing), vSpace_(vSpacing)
{
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

void FlowLayout::addStretch() { stretchAt_ = int(items_.size()); }

int FlowLayout::count() const { return int(items_.size()); }

QLayoutItem* FlowLayout::itemAt(int index) const { return index >= 0 && index < items_.size() ? items_.at(index) : nullptr; }

QLayoutItem* FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= items_.size())
        return nullptr;
    if (stretchAt_ > index)
        --stretchAt_;
    return items_.takeAt(index);
}

Qt::Orientations FlowLayout::expandingDirections() const { return {}; }

int FlowLayout::heightForWidth(int width) const { return doLayout(QRect(0, 0, width, 0), false); }

int FlowLayout::lineCount(int width) const
{
    int lines = 0;
    doLayout(QRect(0, 0, width, 0), false, &lines);
    return lines;
}

QSize FlowLayout::minimumSize() const
{
    // As narrow as the widest item: everything else wraps.
    QSize size;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // One line.
    int width = 0, height = 0, n = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty())
            continue;
        const QSize s = item->sizeHint();
        width += s.width() + (n++ > 0 ? hSpace_ : 0);
        height = std::max(height, s.height());
    }
    const QMargins m = contentsMargins();
    return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    doLayout(rect, true);
}

int FlowLayout::doLayout(const QRect& rect, bool apply, int* lines) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    // Lines of visible items, each item with its size hint (shrunk to the width when wider).
    struct Placed {
        QLayoutItem* item;
        QSize size;
        bool afterStretch;
    };
    std::vector<std::vector<Placed>> rows(1);
    int x = 0;
    for (int i = 0; i < items_.size(); ++i) {
        QLayoutItem* item = items_[i];
        if (item->isEmpty())
            continue;
        QSize s = item->sizeHint().expandedTo(item->minimumSize());
        s.setWidth(std::min(s.width(), std::max(area.width(), item->minimumSize().width())));
        const int gap = rows.back().empty() ? 0 : hSpace_;
        if (!rows.back().empty() && x + gap + s.width() > area.width()) {
            rows.emplace_back();
            x = 0;
        }
        x += (rows.back().empty() ? 0 : hSpace_) + s.width();
        rows.back().push_back({item, s, stretchAt_ >= 0 && i >= stretchAt_});
    }
    int y = area.y();
    int count = 0;
    for (const auto& row : rows) {
        if (row.empty())
            continue;
        ++count;
        int height = 0, width = 0;
        for (const Placed& p : row) {
            height = std::max(height, p.size.height());
            width += p.size.width();
        }
        width += hSpace_ * int(row.size() - 1);
        if (apply) {
            // Items after the stretch go to the right end of the line.
            const int push = std::max(0, area.width() - width);
            int px = area.x();
            for (const Placed& p : row) {
                const int shift = p.afterStretch ? push : 0;
                const int top = y + (height - p.size.height()) / 2;
                p.item->setGeometry(QRect(QPoint(px + shift, top), p.size));
                px += p.size.width() + hSpace_;
            }
        }
        y += height + vSpace_;
    }
    if (lines)
        *lines = count;
    const QMargins m = contentsMargins();
    return (count > 0 ? y - vSpace_ - area.y() : 0) + m.top() + m.bottom();
}

QWidget* flowGroup(QWidget* caption, std::initializer_list<QWidget*> fields)
{
    auto* group = new QWidget;
    auto* layout = new QHBoxLayout(group);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    if (caption)
        layout->addWidget(caption);
    for (QWidget* field : fields)
        layout->addWidget(field);
    return group;
}

} // namespace orbitui
