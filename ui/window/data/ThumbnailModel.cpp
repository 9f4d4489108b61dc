#include "window/data/ThumbnailModel.hpp"

#include "render/SampleImage.hpp"

#include <QTextDocument>

#include <algorithm>

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

namespace {

bool hasTargetUnit(const orbit::Dataset* d) { return d && d->isRegression() && !d->targetUnit.empty(); }

} // namespace

QString ThumbnailModel::caption(std::size_t i) const
{
    const orbit::Dataset& d = *dataset_;
    if (!hasTargetUnit(&d))
        return sampleCaption(d, i);
    const QString name = i < d.names.size() ? QString::fromStdString(d.names[i]) : QStringLiteral("#%1").arg(i);
    return name + QChar::LineSeparator + targetText(d, d.targets[i]);
}

int ThumbnailModel::captionLines() const { return hasTargetUnit(dataset_.get()) ? 2 : 1; }

int ThumbnailModel::captionWidth(const QFontMetrics& fm) const
{
    if (!hasTargetUnit(dataset_.get()))
        return 0;
    const auto [lo, hi] = std::minmax_element(dataset_->targets.begin(), dataset_->targets.end());
    return std::max(fm.horizontalAdvance(targetText(*dataset_, *lo)), fm.horizontalAdvance(targetText(*dataset_, *hi)));
}

void ThumbnailModel::setItemSize(QSize size)
{
    if (size == itemSize_)
        return;
    itemSize_ = size;
    if (rowCount() > 0)
        emit dataChanged(index(0), index(rowCount() - 1), {Qt::SizeHintRole});
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
        return caption(i);
    case Qt::ToolTipRole:
        // Names come from the file: plain text, never markup.
        return Qt::convertFromPlainText(QStringLiteral("#%1: %2").arg(i).arg(caption(i).replace(QChar::LineSeparator, QChar(' '))));
    case Qt::SizeHintRole:
        return itemSize_.isValid() ? QVariant(itemSize_) : QVariant();
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
