#pragma once
// Small picture helpers of the Predict panel's files.
#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <QPixmap>

namespace orbitui::predict {

/// `image` as PNG bytes.
inline QByteArray pngOf(const QImage& image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

/// `image` scaled up to fit side x side, its pixels kept sharp.
inline QPixmap enlarged(const QImage& image, int side)
{
    if (image.isNull())
        return {};
    return QPixmap::fromImage(image.scaled(side, side, Qt::KeepAspectRatio, Qt::FastTransformation));
}

} // namespace orbitui::predict
