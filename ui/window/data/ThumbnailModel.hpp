#pragma once
// The dataset as a list of thumbnails. Pictures are rendered when a view asks for them (only the
// visible ones) and kept in a bounded cache.
#include "orbit/data/Dataset.hpp"

#include <QAbstractListModel>
#include <QCache>
#include <QFontMetrics>
#include <QPixmap>

#include <memory>

namespace orbitui {

class ThumbnailModel : public QAbstractListModel {
    Q_OBJECT
public:
    explicit ThumbnailModel(QObject* parent = nullptr);

    void setDataset(std::shared_ptr<const orbit::Dataset> dataset);
    void setThumbnailSize(int pixels);
    int thumbnailSize() const { return size_; }
    /// How many thumbnails have been rendered so far (tests: rendering is lazy).
    int renderedCount() const { return rendered_; }

    /// The text under thumbnail i: sampleCaption(), and for targets with a known unit the name on
    /// one line and "value unit" on a second (a caption line is about as wide as a thumbnail).
    QString caption(std::size_t i) const;
    /// Lines of caption text under each thumbnail: 2 for targets with a unit, else 1.
    int captionLines() const;
    /// The width the captions need in font `fm` (the widest of the extreme targets with the unit), or 0
    /// when captions are a single line that may be elided.
    int captionWidth(const QFontMetrics& fm) const;

    /// The size every item reports (Qt::SizeHintRole), so that a uniform-size view does not take the
    /// first caption's width for all; an invalid size (the default) lets the delegate decide.
    void setItemSize(QSize size);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    std::shared_ptr<const orbit::Dataset> dataset_;
    int size_ = 72;
    QSize itemSize_;
    mutable QCache<int, QPixmap> cache_;
    mutable int rendered_ = 0;
};

} // namespace orbitui
