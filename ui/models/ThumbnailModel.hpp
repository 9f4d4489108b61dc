#pragma once
// The dataset as a list of thumbnails. Pictures are rendered when a view asks for them (only the
// visible ones) and kept in a bounded cache.
#include "orbit/data/Dataset.hpp"

#include <QAbstractListModel>
#include <QCache>
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

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    std::shared_ptr<const orbit::Dataset> dataset_;
    int size_ = 72;
    mutable QCache<int, QPixmap> cache_;
    mutable int rendered_ = 0;
};

} // namespace orbitui
