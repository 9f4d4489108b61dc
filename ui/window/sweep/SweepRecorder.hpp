#pragma once
// Recording a parameter sweep for slides: each frame of a SweepControl, once every panel that follows
// the sweep drew it, grabbed from a widget (the panel, or one of its charts) and written as an
// animated GIF (render/GifWriter) or as numbered PNGs frame-000.png, frame-001.png, ... in a folder.
// Files are written on a worker thread; the next frame waits for the last one to be written.
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <memory>

class QWidget;

namespace orbitui {

class GifWriter;
class SweepControl;
class TaskRunner;

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

} // namespace orbitui
