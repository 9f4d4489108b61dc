#pragma once
// Exporting a parameter sweep for slides: each frame of a SweepControl, once every panel that
// follows the sweep drew it, grabbed from a widget (the panel, or one of its charts) and written
// as an animated GIF (giflib; each frame quantized to its own 256-colour palette by median cut,
// GifQuantizeBuffer) or as numbered PNGs frame-000.png, frame-001.png, ... in a folder. Files are
// written on a worker thread; the next frame waits for the last one to be written.
#include <QImage>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

namespace orbitui {

class SweepControl;
class SweepPacer;
class TaskRunner;

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

/// A widget of a panel that can be recorded, with a name for the user.
struct SweepTarget {
    QString name;
    QPointer<QWidget> widget;
};
/// What can be recorded around `w`: its panel (the nearest Panel ancestor, else the window), then
/// the panel's charts, orbit gallery and heatmaps, by their names.
std::vector<SweepTarget> sweepTargets(QWidget* w);

/// Records one sweep into a GIF or a PNG sequence.
class SweepRecorder : public QObject {
    Q_OBJECT
public:
    enum class Format { Gif, PngSequence };
    explicit SweepRecorder(QObject* parent = nullptr);
    ~SweepRecorder() override;

    /// Plays `sweep` once (frames from..to) and writes each settled frame of `target`: the GIF file
    /// `path`, or `path`/frame-NNN.png (the folder is created). finished() answers.
    void start(SweepControl* sweep, QWidget* target, Format format, const QString& path);
    bool isRunning() const { return running_; }

signals:
    /// Every file written (the GIF, or the PNGs in order) and "" — or what was written so far and a
    /// one-line error.
    void finished(const QStringList& written, const QString& error);
    void frameWritten(int frame, int frames);

private:
    void fail(const QString& error);

    TaskRunner* writer_;
    QPointer<SweepControl> sweep_;
    std::shared_ptr<GifWriter> gif_;
    QStringList written_;
    QString error_;
    bool running_ = false;
    QList<QObject*> followed_;  ///< the pacers that wait for writer_
};

/// The dialog of the sweep's "Export…" button: format, what to record, where; runs a SweepRecorder
/// and reports the result in the panel's status bar (or the sweep's message row for an error).
void showSweepExportDialog(SweepControl* sweep);

} // namespace orbitui
