// The Predict panel's input (a row, the canvas, an image file: opened, dropped or pasted), its
// models' row and its export.
#include "window/predict/PredictPanel.hpp"

#include "render/SampleImage.hpp"
#include "state/LabState.hpp"
#include "state/workers/PredictTask.hpp"
#include "widgets/DrawCanvas.hpp"
#include "window/predict/PredictPictures.hpp"

#include <QButtonGroup>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace orbitui {

using predict::enlarged;
using predict::pngOf;

QWidget* PredictPanel::buildInput()
{
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* sources = new QHBoxLayout;
    source_ = new QButtonGroup(this);
    const QStringList names{tr("Row"), tr("Draw"), tr("Image")};
    const QStringList keys{"row", "drawn", "file"};
    for (int i = 0; i < 3; ++i) {
        auto* b = new QRadioButton(names[i]);
        b->setObjectName("predictSource-" + keys[i]);
        source_->addButton(b, i);
        sources->addWidget(b);
    }
    source_->button(0)->setChecked(true);
    layout->addLayout(sources);

    inputStack_ = new QStackedWidget;
    // The row: an index, and its picture.
    auto* rowPage = new QWidget;
    auto* rowLayout = new QVBoxLayout(rowPage);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    row_ = new QSpinBox;
    row_->setObjectName("predictRow");
    row_->setPrefix(tr("row "));
    row_->setToolTip(tr("The row of the data (the Data panel's and the inspector's selection follows it)"));
    rowLayout->addWidget(row_);
    rowPicture_ = new QLabel;
    rowPicture_->setAlignment(Qt::AlignCenter);
    rowLayout->addWidget(rowPicture_, 1);
    inputStack_->addWidget(rowPage);
    // The canvas.
    auto* drawPage = new QWidget;
    auto* drawLayout = new QVBoxLayout(drawPage);
    drawLayout->setContentsMargins(0, 0, 0, 0);
    canvas_ = new DrawCanvas;
    drawLayout->addWidget(canvas_, 1);
    auto* drawButtons = new QHBoxLayout;
    auto* brush = new QSpinBox;
    brush->setPrefix(tr("brush "));
    brush->setRange(1, 4);
    brush->setValue(1);
    auto* clear = new QPushButton(tr("Clear"));
    auto* fromRow = new QPushButton(tr("Copy row"));
    fromRow->setToolTip(tr("Start the drawing from the selected row"));
    drawButtons->addWidget(brush);
    drawButtons->addWidget(clear);
    drawButtons->addWidget(fromRow);
    drawLayout->addLayout(drawButtons);
    inputStack_->addWidget(drawPage);
    // An image file.
    auto* filePage = new QWidget;
    auto* fileLayout = new QVBoxLayout(filePage);
    fileLayout->setContentsMargins(0, 0, 0, 0);
    auto* open = new QPushButton(tr("Open image…"));
    fileLayout->addWidget(open);
    auto* hint = new QLabel(tr("Or drop an image on this panel, or paste one (Ctrl+V)."));
    hint->setWordWrap(true);
    fileLayout->addWidget(hint);
    filePicture_ = new QLabel;
    filePicture_->setAlignment(Qt::AlignCenter);
    fileLayout->addWidget(filePicture_, 1);
    inputStack_->addWidget(filePage);
    layout->addWidget(inputStack_, 1);

    inputNote_ = new QLabel;
    inputNote_->setWordWrap(true);
    inputNote_->setTextFormat(Qt::PlainText);
    layout->addWidget(inputNote_);
    layout->addWidget(new QLabel(tr("What the models see:")));
    moved_ = new QLabel;
    moved_->setObjectName("predictMoved");
    moved_->setAlignment(Qt::AlignCenter);
    moved_->setMinimumSize(120, 120);
    layout->addWidget(moved_, 1);

    connect(source_, &QButtonGroup::idClicked, this, [this, keys](int id) {
        settings_.input = keys[id];
        inputStack_->setCurrentIndex(id);
        inputStale_ = true;
        refresh();
    });
    connect(row_, &QSpinBox::valueChanged, this, [this](int v) {
        if (!applying_ && state_->selectedIndex() != v)
            state_->setSelectedIndex(v);
    });
    connect(brush, &QSpinBox::valueChanged, this, [this](int v) { canvas_->setBrushRadius(0.6 + 0.5 * v); });
    connect(clear, &QPushButton::clicked, canvas_, &DrawCanvas::clear);
    connect(fromRow, &QPushButton::clicked, this, [this] {
        const auto ds = state_->dataset();
        if (ds && ds->kind == orbit::DataKind::Images && std::size_t(state_->selectedIndex()) < ds->count())
            canvas_->setImage(renderSample(*ds, std::size_t(state_->selectedIndex())));
    });
    connect(canvas_, &DrawCanvas::changed, this, [this] {
        settings_.drawn = canvas_->isBlank() ? QByteArray() : pngOf(canvas_->image());
        if (settings_.input == "drawn") {
            inputStale_ = true;
            refresh();
        }
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open image"), QFileInfo(settings_.imageFile).absolutePath(),
                                                          tr("Images (*.png *.jpg *.jpeg *.bmp *.pgm *.tif *.tiff *.webp);;All files (*)"));
        if (!path.isEmpty())
            openImage(path);
    });
    return box;
}

QWidget* PredictPanel::buildModels()
{
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int m = 0; m < 2; ++m) {
        grid->addWidget(new QLabel(m == 0 ? tr("<b>A</b>") : tr("<b>B</b>")), m, 0);
        modelLabels_[std::size_t(m)] = new QLabel;
        modelLabels_[std::size_t(m)]->setTextFormat(Qt::PlainText);
        modelLabels_[std::size_t(m)]->setWordWrap(true);
        grid->addWidget(modelLabels_[std::size_t(m)], m, 1);
        auto* open = new QPushButton(tr("Open model…"));
        open->setObjectName(m == 0 ? "predictOpenA" : "predictOpenB");
        open->setToolTip(tr("A model saved with Save model… or orbitlab-cli train --save-model"));
        auto* run = new QPushButton(m == 0 ? tr("Pinned A") : tr("Last run"));
        run->setToolTip(m == 0 ? tr("Compare's pinned A as last fitted") : tr("The Training panel's last run"));
        grid->addWidget(open, m, 2);
        grid->addWidget(run, m, 3);
        connect(open, &QPushButton::clicked, this, [this, m] {
            const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QString(), tr("Orbit Lab models (*.npz);;All files (*)"));
            if (!path.isEmpty())
                openModel(m, path);
        });
        connect(run, &QPushButton::clicked, this, [this, m] { openModel(m, QString()); });
    }
    grid->setColumnStretch(1, 1);
    return box;
}

void PredictPanel::openModel(int model, const QString& path)
{
    (model == 0 ? settings_.modelA : settings_.modelB) = path;
    modelStale_[std::size_t(model)] = true;
    refresh();
}

void PredictPanel::openImage(const QString& path)
{
    settings_.input = "file";
    settings_.imageFile = path;
    source_->button(2)->setChecked(true);
    inputStack_->setCurrentIndex(2);
    filePicture_->setPixmap(enlarged(QImage(path), 160));
    inputStale_ = true;
    refresh();
}

void PredictPanel::pasteImage(const QImage& image)
{
    if (image.isNull())
        return;
    settings_.input = "drawn";
    settings_.drawn = pngOf(image.convertToFormat(QImage::Format_Grayscale8));
    source_->button(1)->setChecked(true);
    inputStack_->setCurrentIndex(1);
    canvas_->blockSignals(true);
    canvas_->setImage(image);
    canvas_->blockSignals(false);
    inputStale_ = true;
    refresh();
}

QString PredictPanel::sweepCsv(int model) const
{
    if (!sweep_ || !sweep_->results[std::size_t(model)])
        return {};
    return QString::fromStdString(orbit::sweepCsv(sweep_->request.models[std::size_t(model)]->model(),
                                                  *sweep_->results[std::size_t(model)]));
}

QStringList PredictPanel::exportCharts(const QString& dir, QString* error) const
{
    QStringList written;
    const std::array<const char*, 2> names{"predict-sweep-a.csv", "predict-sweep.csv"};
    for (int m : {1, 0}) {
        const QString csv = sweepCsv(m);
        if (!csv.isEmpty() && !writeChartCsv(dir, names[std::size_t(m)], csv, &written, error))
            return written;
    }
    if (!written.isEmpty() && settings_.input == "drawn" && !settings_.drawn.isEmpty()) {
        QFile f(QDir(dir).filePath("predict-input.png"));
        if (!f.open(QIODevice::WriteOnly) || f.write(settings_.drawn) != settings_.drawn.size()) {
            if (error)
                *error = tr("cannot write %1").arg(f.fileName());
            return written;
        }
        written << f.fileName();
    }
    return written;
}

void PredictPanel::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasImage())
        event->acceptProposedAction();
}

void PredictPanel::dropEvent(QDropEvent* event)
{
    const QMimeData* mime = event->mimeData();
    if (mime->hasImage())
        pasteImage(qvariant_cast<QImage>(mime->imageData()));
    else if (mime->hasUrls() && mime->urls().front().isLocalFile())
        openImage(mime->urls().front().toLocalFile());
    event->acceptProposedAction();
}

} // namespace orbitui
