#include "render/GifWriter.hpp"

#include <gif_lib.h>

#include <QFile>
#include <QObject>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace orbitui {

namespace {

QString gifError(const QString& path, int code)
{
    const char* text = GifErrorString(code);
    return QObject::tr("Could not write %1: %2").arg(path, QString::fromUtf8(text ? text : "unknown GIF error"));
}

} // namespace

GifWriter::~GifWriter()
{
    if (gif_) {
        int error = 0;
        EGifCloseFile(static_cast<GifFileType*>(gif_), &error);
    }
}

QString GifWriter::open(const QString& path, QSize size, int delayMs)
{
    if (gif_)
        return QObject::tr("Could not write %1: a GIF is already open").arg(path);
    if (size.isEmpty() || size.width() > 65535 || size.height() > 65535)
        return QObject::tr("Could not write %1: frame size %2 x %3 is not a GIF size")
            .arg(path).arg(size.width()).arg(size.height());
    // Opened here, not by EGifOpenFileName (which creates the file readable by its owner only):
    // a GIF for slides gets the usual permissions (0666 less the umask).
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return QObject::tr("Could not write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    int error = 0;
    GifFileType* gif = EGifOpenFileHandle(fd, &error);  // owns fd once it succeeded
    if (!gif) {
        ::close(fd);
        return gifError(path, error);
    }
    gif_ = gif;
    path_ = path;
    size_ = size;
    delayCs_ = std::max(2, (delayMs + 5) / 10);
    EGifSetGifVersion(gif, true);
    if (EGifPutScreenDesc(gif, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR)
        return gifError(path, gif->Error);
    // NETSCAPE2.0: loop forever.
    static const GifByteType appName[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof appName, appName) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
        return gifError(path, gif->Error);
    return {};
}

QString GifWriter::add(const QImage& frame)
{
    auto* gif = static_cast<GifFileType*>(gif_);
    if (!gif)
        return QObject::tr("Could not write a GIF frame: no file is open");
    QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
    if (rgb.size() != size_)
        rgb = rgb.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    const int w = size_.width(), h = size_.height();
    const std::size_t n = std::size_t(w) * std::size_t(h);
    std::vector<GifByteType> r(n), g(n), b(n), indices(n);
    for (int y = 0; y < h; ++y) {
        const uchar* line = rgb.constScanLine(y);
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y) * w + x;
            r[i] = line[3 * x];
            g[i] = line[3 * x + 1];
            b[i] = line[3 * x + 2];
        }
    }
    GifColorType colours[256] = {};
    int count = 256;
    if (GifQuantizeBuffer(unsigned(w), unsigned(h), &count, r.data(), g.data(), b.data(), indices.data(), colours) ==
        GIF_ERROR)
        return QObject::tr("Could not write %1: frame %2 could not be quantized to 256 colours").arg(path_).arg(frames_);
    ColorMapObject* map = GifMakeMapObject(256, colours);
    if (!map)
        return QObject::tr("Could not write %1: out of memory for a palette").arg(path_);
    GraphicsControlBlock control{DISPOSE_DO_NOT, false, delayCs_, NO_TRANSPARENT_COLOR};
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&control, extension);
    bool ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(length), extension) != GIF_ERROR &&
              EGifPutImageDesc(gif, 0, 0, w, h, false, map) != GIF_ERROR;
    for (int y = 0; ok && y < h; ++y)
        ok = EGifPutLine(gif, indices.data() + std::size_t(y) * w, w) != GIF_ERROR;
    GifFreeMapObject(map);
    if (!ok)
        return gifError(path_, gif->Error);
    ++frames_;
    return {};
}

QString GifWriter::close()
{
    auto* gif = static_cast<GifFileType*>(gif_);
    gif_ = nullptr;
    if (!gif)
        return {};
    int error = 0;
    if (EGifCloseFile(gif, &error) == GIF_ERROR)
        return gifError(path_, error);
    return {};
}

} // namespace orbitui
