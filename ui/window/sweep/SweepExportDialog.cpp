#include "window/sweep/SweepExportDialog.hpp"

#include "widgets/ParameterControl.hpp"
#include "window/sweep/SweepControl.hpp"
#include "window/sweep/SweepRecorder.hpp"
#include "window/sweep/SweepTargets.hpp"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>

#include <memory>
#include <vector>

namespace orbitui {

void showSweepExportDialog(SweepControl* sweep)
{
    auto* dialog = new QDialog(sweep->window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Export the sweep of %1").arg(sweep->target()->label()));
    auto* format = new QComboBox;
    format->addItem(QObject::tr("Animated GIF"), int(SweepRecorder::Format::Gif));
    format->addItem(QObject::tr("Numbered PNGs (frame-000.png, …)"), int(SweepRecorder::Format::PngSequence));
    auto* what = new QComboBox;
    // Guarded: a chart listed here may go before Record is pressed (an A/B view unpinned).
    const auto targets = std::make_shared<const std::vector<SweepTarget>>(sweepTargets(sweep));
    for (const SweepTarget& t : *targets)
        what->addItem(t.name);
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
    // The sweep's control goes with its editor's controls (another group or distribution builds new
    // ones): the dialog, which records that control's sweep, goes with it.
    QObject::connect(sweep, &QObject::destroyed, dialog, &QDialog::close);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, [=] {
        const int i = what->currentIndex();
        // Null when it went: the recorder then says there is nothing to record.
        QWidget* target = i >= 0 && i < int(targets->size()) ? (*targets)[std::size_t(i)].widget.data() : nullptr;
        buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
        recorder->start(sweep, target, static_cast<SweepRecorder::Format>(format->currentData().toInt()),
                        path->text().trimmed());
    });
    QObject::connect(recorder, &SweepRecorder::frameWritten, status, [status](int frame, int frames) {
        status->setText(QObject::tr("Recording frame %1 of %2…").arg(frame + 1).arg(frames));
    });
    QObject::connect(recorder, &SweepRecorder::finished, dialog, [=, control = QPointer<SweepControl>(sweep)](
                                                                     const QStringList& written, const QString& error) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        const int frames = control ? control->plan().frames : int(written.size());
        status->setText(error.isEmpty() ? QObject::tr("Wrote %1 frames: %2").arg(frames).arg(
                                              written.size() == 1 ? written.front() : QFileInfo(written.value(0)).path())
                                        : error);
        status->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
    });
    dialog->show();
}

} // namespace orbitui
