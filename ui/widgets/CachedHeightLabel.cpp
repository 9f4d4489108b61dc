#include "widgets/CachedHeightLabel.hpp"

#include <QEvent>

namespace orbitui {

CachedHeightLabel::CachedHeightLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {}

int CachedHeightLabel::heightForWidth(int width) const
{
    // setText and setMargin are not virtual: what the height depends on is compared on every call
    // (cheap next to a text layout).
    if (text() != text_ || font() != font_ || margin() != margin_ || contentsMargins() != contents_ ||
        heights_.size() > 64) {
        heights_.clear();
        text_ = text();
        font_ = font();
        margin_ = margin();
        contents_ = contentsMargins();
    }
    if (const auto it = heights_.constFind(width); it != heights_.constEnd())
        return *it;
    const int height = QLabel::heightForWidth(width);
    heights_.insert(width, height);
    return height;
}

void CachedHeightLabel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        heights_.clear();
    QLabel::changeEvent(event);
}

} // namespace orbitui
