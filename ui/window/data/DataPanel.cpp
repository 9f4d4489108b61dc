#include "window/data/DataPanel.hpp"

#include "render/SafeText.hpp"
#include "state/LabState.hpp"
#include "state/workers/Tasks.hpp"
#include "state/WorkingState.hpp"
#include "widgets/CachedHeightLabel.hpp"
#include "window/data/ThumbnailModel.hpp"

#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>

#include <algorithm>

namespace orbitui {

DataPanel::DataPanel(LabState* state, QWidget* parent)
    : Panel("data", tr("Data"), parent), state_(state), runner_(new TaskRunner("orbit-load", this)),
      model_(new ThumbnailModel(this)), summary_(new CachedHeightLabel(QString())), view_(new QListView),
      progress_(new QProgressBar), zoom_(new QSlider(Qt::Horizontal))
{
    auto* openButton = new QPushButton(tr("Open data…"));
    openButton->setToolTip(tr("Open images (IDX, CIFAR, .amat, PNG/JPEG, folders, digits.png), "
                              "molecules (extended XYZ, QM7 .mat) or CSV. You can also drop a file on the window."));
    connect(openButton, &QPushButton::clicked, this, &DataPanel::openRequested);
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setText(tr("No data loaded."));
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(200);
    progress_->hide();
    zoom_->setRange(kMinThumbnailSize, kMaxThumbnailSize);
    zoom_->setValue(model_->thumbnailSize());
    zoom_->setMaximumWidth(160);
    zoom_->setToolTip(tr("Thumbnail size"));

    auto* top = new QHBoxLayout;
    top->addWidget(openButton, 0, Qt::AlignTop);
    top->addWidget(summary_, 1);
    top->addWidget(progress_, 0, Qt::AlignTop);
    auto* zoomBox = new QHBoxLayout;
    zoomBox->addWidget(new QLabel(tr("Thumbnail size")));
    zoomBox->addWidget(zoom_);
    top->addLayout(zoomBox);

    view_->setViewMode(QListView::IconMode);
    view_->setResizeMode(QListView::Adjust);
    view_->setMovement(QListView::Static);
    view_->setUniformItemSizes(true);
    view_->setLayoutMode(QListView::SinglePass);  // uniform sizes: instant, and scrollTo works at once
    view_->setSpacing(4);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setModel(model_);
    applyZoom(zoom_->value());
    connect(zoom_, &QSlider::valueChanged, this, &DataPanel::applyZoom);

    content()->addLayout(top);
    content()->addWidget(view_, 1);
    auto* hint = new QLabel(tr("Click a sample to make it the input of the Orbits panel."));
    hint->setStyleSheet("color: #555;");
    content()->addWidget(hint);

    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    state_->setSelectedIndex(current.row());
            });
    connect(state_, &LabState::datasetChanged, this, &DataPanel::showDataset);
    connect(state_, &LabState::selectionChanged, this, &DataPanel::selectInView);

    connect(runner_, &TaskRunner::progress, this,
            [this](quint64, double, const QString& text) { emit statusMessage(text); });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& result) {
        const auto r = result.value<LoadResult>();
        progress_->hide();
        clearError();
        state_->setDataset(r.dataset, r.path);
        emit statusMessage(tr("Loaded %1 in %2 s").arg(safeText(QFileInfo(r.path).fileName())).arg(r.seconds, 0, 'f', 2));
        emit loaded(r.path);
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message) {
        progress_->hide();
        const QString keep = state_->dataset()
                                 ? tr(" Still showing %1.").arg(QFileInfo(state_->datasetPath()).fileName())
                                 : QString();
        showError(tr("Could not load %1: %2.%3").arg(QFileInfo(pendingPath_).fileName(), message, keep));
        emit statusMessage(tr("Loading failed"));
        emit loadFailed(pendingPath_, message);
    });
}

void DataPanel::open(const QString& path)
{
    pendingPath_ = path;
    progress_->show();
    runner_->submit(makeLoadTask(LoadRequest{path, {}}));
}

int DataPanel::thumbnailSize() const { return zoom_->value(); }

void DataPanel::setThumbnailSize(int px) { zoom_->setValue(px); }

void DataPanel::applyZoom(int px)
{
    model_->setThumbnailSize(px);
    view_->setIconSize(QSize(px, px));
    // Room for every caption line; a target with its unit is not elided (the cell widens instead).
    const QFontMetrics fm(view_->font());
    const int lines = model_->captionLines();
    const QSize grid(std::max(px + 22, model_->captionWidth(fm) + 24), px + 26 + (lines - 1) * fm.lineSpacing());
    view_->setGridSize(grid);
    model_->setItemSize(lines > 1 ? grid - QSize(8, 4) : QSize());
}

bool DataPanel::isLoading() const { return runner_->busy(); }

QString DataPanel::summaryText() const { return summary_->text(); }

QString DataPanel::summarize(const orbit::Dataset& d)
{
    const QString kind = d.kind == orbit::DataKind::Images    ? tr("images")
                         : d.kind == orbit::DataKind::Coulomb ? tr("Coulomb matrices (molecules)")
                                                              : tr("vectors");
    QString shape = QStringLiteral("%1 × %2").arg(d.shape.height).arg(d.shape.width);
    if (d.shape.channels > 1)
        shape += QStringLiteral(" × %1").arg(d.shape.channels);
    QString what;
    if (d.isClassification()) {
        what = tr("%1 classes").arg(d.numClasses);
        if (!d.classNames.empty()) {
            QStringList names;
            for (std::size_t i = 0; i < d.classNames.size() && i < 10; ++i)
                names << QString::fromStdString(d.classNames[i]).toHtmlEscaped();
            what += " (" + names.join(", ") + (d.classNames.size() > 10 ? ", …" : "") + ")";
        }
    } else if (d.isRegression()) {
        const auto [lo, hi] = std::minmax_element(d.targets.begin(), d.targets.end());
        double mean = 0.0;
        for (double t : d.targets)
            mean += t;
        mean /= static_cast<double>(d.targets.size());
        // The unit only when the data states it (file header or its README), never guessed.
        const QString unit = d.targetUnit.empty() ? QString() : " " + QString::fromStdString(d.targetUnit).toHtmlEscaped();
        what = tr("targets from %1 to %2%4 (mean %3%4)")
                   .arg(*lo, 0, 'f', 1)
                   .arg(*hi, 0, 'f', 1)
                   .arg(mean, 0, 'f', 1)
                   .arg(unit);
    } else {
        what = tr("unlabelled");
    }
    // Rich text: every text from the data (names, unit, path) is escaped (safe text, then HTML).
    const QString path = safePath(QString::fromStdString(d.source));
    return tr("<b>%1</b> — %2 %3, each %4; %5<br><span style='color:#555'>format %6 · %7</span>")
        .arg(safeText(QFileInfo(QString::fromStdString(d.source)).fileName(), orbit::kQuoteMaxChars).toHtmlEscaped())
        .arg(d.count())
        .arg(kind, shape, what, QString::fromStdString(d.format), path.toHtmlEscaped());
}

void DataPanel::showDataset()
{
    const auto ds = state_->dataset();
    model_->setDataset(ds);
    applyZoom(zoom_->value());  // caption lines follow the data
    summary_->setText(ds ? summarize(*ds) : tr("No data loaded."));
    selectInView(state_->selectedIndex());
}

void DataPanel::selectInView(int index)
{
    if (index < 0 || index >= model_->rowCount())
        return;
    const QModelIndex mi = model_->index(index);
    if (view_->currentIndex() != mi) {
        const QSignalBlocker block(view_->selectionModel());
        view_->selectionModel()->setCurrentIndex(mi, QItemSelectionModel::ClearAndSelect);
        view_->viewport()->update();
    }
    // The batched layout places items later: scroll once it has run.
    QTimer::singleShot(0, view_, [view = view_, mi] { view->scrollTo(mi, QAbstractItemView::PositionAtCenter); });
}

} // namespace orbitui
