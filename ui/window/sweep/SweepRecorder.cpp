#include "window/sweep/SweepRecorder.hpp"

#include "render/GifWriter.hpp"
#include "state/SweepPacer.hpp"
#include "state/workers/Worker.hpp"
#include "window/sweep/SweepControl.hpp"

#include <QDir>
#include <QImage>
#include <QWidget>

#include <algorithm>

namespace orbitui {

SweepRecorder::SweepRecorder(QObject* parent) : QObject(parent), writer_(new TaskRunner("sweep-export", this)) {}

SweepRecorder::~SweepRecorder()
{
    if (sweep_ && sweep_->isRecording())
        sweep_->stop();
}

void SweepRecorder::fail(const QString& error)
{
    if (!running_)
        return;
    running_ = false;
    if (sweep_ && sweep_->isRecording())
        sweep_->stop();
    gif_.reset();
    emit finished(written_, error);
}

void SweepRecorder::start(SweepControl* sweep, QWidget* target, Format format, const QString& path)
{
    if (running_) {
        emit finished({}, tr("Could not export the sweep: an export is already running"));
        return;
    }
    written_.clear();
    sweep_ = sweep;
    running_ = true;
    const QString invalid = sweep->validationError();
    if (!invalid.isEmpty())
        return fail(invalid);
    if (!target)
        return fail(tr("Could not export the sweep: nothing to record"));
    if (format == Format::PngSequence && !QDir().mkpath(path))
        return fail(tr("Could not create the folder %1").arg(path));
    if (format == Format::Gif)
        gif_ = std::make_shared<GifWriter>();
    const SweepPlan plan = sweep->plan();
    const int frames = plan.frames;
    const int delayMs = plan.intervalMs > 0 ? std::max(plan.intervalMs, 20) : 150;  // "as fast as computed" is too fast for slides
    QPointer<QWidget> grabbed(target);
    // Written on the worker one frame at a time: the sweep follows the pacer, so the next frame
    // waits until this file is written.
    if (SweepPacer* pacer = sweep->pacer(); pacer && !followed_.contains(pacer)) {
        pacer->follow(this, [this] { return writer_->busy(); });
        followed_ << pacer;
    }
    auto sweepDone = std::make_shared<bool>(false);
    auto finishIfDone = [this, sweepDone, format, path] {
        if (!running_ || !*sweepDone || writer_->busy())
            return;
        if (format == Format::Gif && gif_) {
            auto gif = gif_;
            gif_.reset();
            writer_->submit([gif](const TaskContext&) { return QVariant(gif->close()); });
            written_ = {path};
            return;
        }
        running_ = false;
        emit finished(written_, {});
    };
    disconnect(writer_, nullptr, this, nullptr);
    connect(writer_, &TaskRunner::finished, this, [this, finishIfDone](quint64, const QVariant& v) {
        const QString error = v.toString();
        if (!error.isEmpty())
            return fail(error);
        finishIfDone();
    });
    connect(writer_, &TaskRunner::failed, this, [this](quint64, const QString& message) { fail(message); });
    sweep->record(
        [this, grabbed, format, path, frames, delayMs](int frame) {
            if (!running_ || !grabbed)
                return fail(tr("Could not export the sweep: the recorded view was closed"));
            const QImage image = grabbed->grab().toImage();
            emit frameWritten(frame, frames);
            if (format == Format::PngSequence) {
                const QString file = QDir(path).filePath(QStringLiteral("frame-%1.png").arg(frame, 3, 10, QChar('0')));
                written_ << file;
                writer_->submit([image, file](const TaskContext&) {
                    return QVariant(image.save(file, "PNG") ? QString() : QObject::tr("Could not write %1").arg(file));
                });
            } else {
                auto gif = gif_;
                const bool first = frame == 0;
                writer_->submit([gif, image, path, first, delayMs](const TaskContext&) {
                    if (first)
                        if (QString e = gif->open(path, image.size(), delayMs); !e.isEmpty())
                            return QVariant(e);
                    return QVariant(gif->add(image));
                });
            }
        },
        [this, sweepDone, finishIfDone](const QString& error) {
            if (!error.isEmpty())
                return fail(error);
            *sweepDone = true;
            finishIfDone();
        });
}

} // namespace orbitui
