#pragma once
// Animated GIFs for slides (a parameter sweep's frames): giflib, each frame quantized to its own
// 256-colour palette by median cut (GifQuantizeBuffer), played in a loop.
#include <QImage>
#include <QSize>
#include <QString>

namespace orbitui {

/// An animated GIF written frame by frame. Requires frames of the size given to open(); a frame of
/// another size is scaled to it. Plays in a loop. Errors are one line naming the file.
class GifWriter {
public:
    GifWriter() = default;
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    /// Creates `path` for frames of `size`, each shown `delayMs` (rounded to 1/100 s, at least 2/100 s).
    QString open(const QString& path, QSize size, int delayMs);
    QString add(const QImage& frame);
    /// Finishes the file (also done by the destructor, without a message).
    QString close();
    int frameCount() const { return frames_; }

private:
    void* gif_ = nullptr;  // GifFileType*
    QString path_;
    QSize size_;
    int delayCs_ = 10;
    int frames_ = 0;
};

} // namespace orbitui
