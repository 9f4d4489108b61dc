#include "window/sweep/SweepExport.hpp"

#include "state/SweepPacer.hpp"
#include "widgets/Panel.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/HeatmapView.hpp"
#include "widgets/ImageGrid.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/sweep/SweepControl.hpp"
#include "state/workers/Worker.hpp"

#include <gif_lib.h>

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

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

std::vector<SweepTarget> sweepTargets(QWidget* w)
{
    std::vector<SweepTarget> targets;
    QWidget* host = w ? w->window() : nullptr;
    for (QWidget* p = w; p; p = p->parentWidget())
        if (qobject_cast<Panel*>(p)) {
            host = p;
            break;
        }
    if (!host)
        return targets;
    const auto* panel = qobject_cast<Panel*>(host);
    targets.push_back({panel ? QObject::tr("the whole %1 panel").arg(panel->title().replace("&&", "&")) : QObject::tr("the window"),
                       host});
    for (ChartBox* c : host->findChildren<ChartBox*>())
        targets.push_back({QObject::tr("chart: %1").arg(c->baseName()), c});
    for (ImageGrid* g : host->findChildren<ImageGrid*>())
        targets.push_back({QObject::tr("the orbit gallery"), g});
    int heatmap = 0;
    for (HeatmapView* h : host->findChildren<HeatmapView*>())
        targets.push_back({QObject::tr("heatmap %1").arg(++heatmap), h});
    return targets;
}

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

void showSweepExportDialog(SweepControl* sweep)
{
    auto* dialog = new QDialog(sweep->window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Export the sweep of %1").arg(sweep->target()->label()));
    auto* format = new QComboBox;
    format->addItem(QObject::tr("Animated GIF"), int(SweepRecorder::Format::Gif));
    format->addItem(QObject::tr("Numbered PNGs (frame-000.png, …)"), int(SweepRecorder::Format::PngSequence));
    auto* what = new QComboBox;
    for (const SweepTarget& t : sweepTargets(sweep))
        what->addItem(t.name, QVariant::fromValue<QObject*>(t.widget.data()));
    auto* path = new QLineEdit(QDir::home().filePath("sweep.gif"));
    auto* browse = new QPushButton(QObject::tr("Browse…"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path, 1);
    pathRow->addWidget(browse);
    auto* status = new QLabel(QObject::tr("%1 frames, each recorded once every panel has drawn it.").arg(sweep->plan().frames));
    status->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Close);
    buttons->button(QDialogButtonBox::Ok)->setText(QObject::tr("Record"));
    auto* form = new QFormLayout(dialog);
    form->addRow(QObject::tr("Format"), format);
    form->addRow(QObject::tr("Record"), what);
    form->addRow(QObject::tr("File or folder"), pathRow);
    form->addRow(status);
    form->addRow(buttons);
    QObject::connect(format, &QComboBox::currentIndexChanged, dialog, [format, path] {
        const QFileInfo info(path->text());
        const bool gif = format->currentData().toInt() == int(SweepRecorder::Format::Gif);
        path->setText(gif ? info.dir().filePath(info.completeBaseName() + ".gif") : info.dir().filePath(info.completeBaseName()));
    });
    QObject::connect(browse, &QPushButton::clicked, dialog, [dialog, format, path] {
        const bool gif = format->currentData().toInt() == int(SweepRecorder::Format::Gif);
        const QString chosen = gif ? QFileDialog::getSaveFileName(dialog, QObject::tr("Animated GIF"), path->text(),
                                                                  QObject::tr("GIF (*.gif)"))
                                   : QFileDialog::getExistingDirectory(dialog, QObject::tr("Folder of the PNGs"), path->text());
        if (!chosen.isEmpty())
            path->setText(chosen);
    });
    auto* recorder = new SweepRecorder(dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, [=] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
        recorder->start(sweep, qobject_cast<QWidget*>(what->currentData().value<QObject*>()),
                        static_cast<SweepRecorder::Format>(format->currentData().toInt()), path->text().trimmed());
    });
    QObject::connect(recorder, &SweepRecorder::frameWritten, status, [status](int frame, int frames) {
        status->setText(QObject::tr("Recording frame %1 of %2…").arg(frame + 1).arg(frames));
    });
    QObject::connect(recorder, &SweepRecorder::finished, dialog, [=](const QStringList& written, const QString& error) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        status->setText(error.isEmpty() ? QObject::tr("Wrote %1 frames: %2").arg(sweep->plan().frames).arg(
                                              written.size() == 1 ? written.front() : QFileInfo(written.value(0)).path())
                                        : error);
        status->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
    });
    dialog->show();
}

} // namespace orbitui
