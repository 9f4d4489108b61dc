#include "models/ThumbnailModel.hpp"

#include "widgets/SampleImage.hpp"

namespace orbitui {

ThumbnailModel::ThumbnailModel(QObject* parent) : QAbstractListModel(parent), cache_(4000) {}

void ThumbnailModel::setDataset(std::shared_ptr<const orbit::Dataset> dataset)
{
    beginResetModel();
    dataset_ = std::move(dataset);
    cache_.clear();
    rendered_ = 0;
    endResetModel();
}

void ThumbnailModel::setThumbnailSize(int pixels)
{
    if (pixels == size_)
        return;
    size_ = pixels;
    cache_.clear();
    if (rowCount() > 0)
        emit dataChanged(index(0), index(rowCount() - 1), {Qt::DecorationRole, Qt::SizeHintRole});
}

int ThumbnailModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !dataset_ ? 0 : static_cast<int>(dataset_->count());
}

QVariant ThumbnailModel::data(const QModelIndex& index, int role) const
{
    if (!dataset_ || !index.isValid() || index.row() >= rowCount())
        return {};
    const auto i = static_cast<std::size_t>(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return sampleCaption(*dataset_, i);
    case Qt::ToolTipRole:
        return QStringLiteral("#%1: %2").arg(i).arg(sampleCaption(*dataset_, i));
    case Qt::DecorationRole: {
        if (QPixmap* cached = cache_.object(index.row()))
            return *cached;
        const QImage img = renderSample(*dataset_, i)
                               .scaled(size_, size_, Qt::KeepAspectRatio, Qt::FastTransformation);
        auto* pixmap = new QPixmap(QPixmap::fromImage(img));
        ++rendered_;
        const QPixmap copy = *pixmap;
        cache_.insert(index.row(), pixmap);
        return copy;
    }
    default:
        return {};
    }
}

} // namespace orbitui
