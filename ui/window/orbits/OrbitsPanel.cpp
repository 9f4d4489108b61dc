#include "window/orbits/OrbitsPanel.hpp"

#include "render/ParameterLabels.hpp"
#include "render/SampleImage.hpp"
#include "state/LabState.hpp"
#include "state/SweepPacer.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/Tasks.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/ImageGrid.hpp"
#include "widgets/ScatterLayer.hpp"
#include "widgets/TaskProgress.hpp"
#include "window/group/DistributionEditor.hpp"

#include <QChart>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace orbitui {

namespace {

// The kept draws' slots (Panel::whenInSight).
constexpr int kOrbitSlot = 0, kProbeSlot = 1;

QString describeSettings(const OrbitSettings& s)
{
    QStringList parts;
    for (const auto& f : s.factors())
        parts << QString::fromStdString(readableSpec(s.factor(f).spec()));
    return parts.join(" × ");
}

} // namespace

OrbitsPanel::OrbitsPanel(LabState* state, QWidget* parent)
    : Panel("orbits", tr("Orbits"), parent), state_(state), runner_(new TaskRunner("orbit-sampler", this)),
      probeRunner_(new TaskRunner("invariance-probe", this)),
      progress_(new TaskProgress(tr("Stop sampling this orbit and its probe; what is drawn stays."), true)),
      editor_(new DistributionEditor(state, true)), input_(new QLabel), inputCaption_(new QLabel),
      index_(new QSpinBox), galleryTitle_(new QLabel), gallery_(new ImageGrid), axisX_(new QValueAxis),
      axisY_(new QValueAxis), inputs_(new QLineEdit), probeX_(new QValueAxis), probeY_(new QValueAxis)
{
    QWidget* left = buildInputColumn();
    QWidget* centre = buildGalleryColumn();
    QWidget* right = buildChartsColumn();
    addColumns(left, centre, right);
    connectInputs();
    connectState();
    markFields();
    connectRunners();
    connectProgress();
    // A parameter sweep shows its next frame once the gallery, embedding and probe are drawn.
    SweepPacer::of(state_)->follow(this, [this] { return !isSweepFrameDone(); });
}

QWidget* OrbitsPanel::buildInputColumn()
{
    // Left: the input and the compact settings editor.
    input_->setFixedSize(200, 200);
    input_->setAlignment(Qt::AlignCenter);
    input_->setStyleSheet("background: palette(base); border: 1px solid #bbb;");
    inputCaption_->setAlignment(Qt::AlignCenter);
    index_->setToolTip(tr("The sample whose orbit is shown (also chosen by clicking in the Data panel)."));
    auto* inputBox = new QGroupBox(tr("Input x"));
    auto* inputLayout = new QVBoxLayout(inputBox);
    inputLayout->addWidget(input_, 0, Qt::AlignHCenter);
    inputLayout->addWidget(inputCaption_);
    auto* indexRow = new QFormLayout;
    indexRow->addRow(tr("Sample #"), index_);
    inputLayout->addLayout(indexRow);

    auto* leftHost = new QWidget;
    auto* left = new QVBoxLayout(leftHost);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(inputBox);
    left->addWidget(editor_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(leftHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(330);
    return scroll;
}

QWidget* OrbitsPanel::buildGalleryColumn()
{
    // Centre: the gallery.
    galleryTitle_->setWordWrap(true);
    QFont titleFont = galleryTitle_->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() + 1.5);
    titleFont.setBold(true);
    galleryTitle_->setFont(titleFont);
    gallery_->setPlaceholder(tr("Load data to see an orbit."));
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(galleryTitle_, 1);
    titleRow->addWidget(progress_, 0, Qt::AlignTop);
    centreLayout->addLayout(titleRow);
    centreLayout->addWidget(gallery_, 1);
    return centre;
}

QWidget* OrbitsPanel::buildChartsColumn()
{
    // Right: the orbit embedding, its inputs above it, the invariance probe below it.
    buildEmbeddingChart();
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(buildEmbeddingInputsRow());
    buildProbeChart();
    auto* rightSplit = new QSplitter(Qt::Vertical);
    rightSplit->addWidget(embedding_);
    rightSplit->addWidget(probe_);
    rightSplit->setSizes({450, 330});
    rightLayout->addWidget(rightSplit, 1);
    return right;
}

void OrbitsPanel::buildEmbeddingChart()
{
    auto* chart = new QChart;
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    QFont axisFont = axisX_->titleFont();
    axisFont.setPointSizeF(11);
    axisX_->setTitleFont(axisFont);
    axisY_->setTitleFont(axisFont);
    embedding_ = new ChartBox(chart, "orbit-embedding");
    embeddingMarkers_ = new ScatterLayer(chart);
}

QLayout* OrbitsPanel::buildEmbeddingInputsRow()
{
    inputs_->setToolTip(tr("Sample numbers whose orbits are projected together, separated by commas. "
                           "Overlapping clouds mean the invariance makes those inputs look alike."));
    auto* addSelected = new QPushButton(tr("Add input x"));
    addSelected->setToolTip(tr("Add the current input to the embedding."));
    auto* inputsRow = new QHBoxLayout;
    inputsRow->addWidget(new QLabel(tr("Embedding inputs")));
    inputsRow->addWidget(inputs_, 1);
    inputsRow->addWidget(addSelected);
    connect(addSelected, &QPushButton::clicked, this, [this] {
        std::vector<int> list = state_->embeddingInputs();
        if (std::find(list.begin(), list.end(), state_->selectedIndex()) == list.end())
            list.push_back(state_->selectedIndex());
        state_->setEmbeddingInputs(list);
    });
    return inputsRow;
}

void OrbitsPanel::buildProbeChart()
{
    auto* probeChart = new QChart;
    probeChart->addAxis(probeX_, Qt::AlignBottom);
    probeChart->addAxis(probeY_, Qt::AlignLeft);
    const QFont axisFont = axisX_->titleFont();  // the embedding's axis font (buildEmbeddingChart)
    probeX_->setTitleFont(axisFont);
    probeY_->setTitleFont(axisFont);
    probeY_->setTitleText(tr("cos(ψ(x), ψ(g·x))"));
    probeY_->setLabelFormat("%.1f");
    probeY_->setTickCount(6);
    probeY_->setRange(0.0, 1.0);
    probe_ = new ChartBox(probeChart, "invariance-probe");
    probe_->setToolTip(tr("How similar the features of g·x stay to those of x as g sweeps the group: an invariant map "
                          "stays near 1 where q puts its mass."));
}

void OrbitsPanel::addColumns(QWidget* left, QWidget* centre, QWidget* right)
{
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(left);
    splitter->addWidget(centre);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 1);
    splitter->setSizes({340, 520, 500});
    content()->addWidget(splitter, 1);
}

void OrbitsPanel::connectInputs()
{
    connect(index_, &QSpinBox::valueChanged, this, [this](int i) { state_->setSelectedIndex(i); });
    connect(inputs_, &QLineEdit::editingFinished, this, [this] {
        std::vector<int> list;
        for (const QString& part : inputs_->text().split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int i = part.toInt(&ok);
            if (ok)
                list.push_back(i);
        }
        state_->setEmbeddingInputs(list);
        showInput();
    });
}

void OrbitsPanel::connectState()
{
    connect(state_, &LabState::datasetChanged, this, [this] {
        showInput();
        request();
        requestProbe();
    });
    connect(state_, &LabState::selectionChanged, this, [this] {
        showInput();
        request();
        requestProbe();
    });
    connect(state_, &LabState::orbitSettingsChanged, this, &OrbitsPanel::request);
    connect(state_, &LabState::orbitSettingsChanged, this, &OrbitsPanel::requestProbe);
    connect(state_, &LabState::embeddingInputsChanged, this, [this] {
        showInput();
        request();
    });
}

void OrbitsPanel::markFields()
{
    editor_->registerFields(fields());
    fields()->add("index", index_);
    fields()->add("inputs", inputs_);
}

void OrbitsPanel::connectRunners()
{
    // Drawn now in sight, else kept until shown (Panel::whenInSight): the gallery's pictures and the
    // two charts cost the GUI thread tens of milliseconds that a hidden panel need not spend now.
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        whenInSight(kOrbitSlot, [this, result = v.value<std::shared_ptr<const OrbitResult>>()] {
            clearError();
            draw(result);
        });
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        dropKept(kOrbitSlot);  // older than the failure: never drawn over its message
        showFieldError(tr("Cannot sample this orbit: %1").arg(message), field, message);
    });
    connect(probeRunner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        whenInSight(kProbeSlot, [this, result = v.value<std::shared_ptr<const ProbeResult>>()] { drawProbe(result); });
    });
    connect(probeRunner_, &TaskRunner::failed, this, [this](quint64, const QString& message) {
        dropKept(kProbeSlot);
        probe_->chart()->removeAllSeries();
        probe_->setNote(tr("No invariance probe for these settings: %1").arg(message));
    });
}

void OrbitsPanel::connectProgress()
{
    const auto showBusy = [this] { progress_->setRunning(runner_->busy() || probeRunner_->busy()); };
    for (TaskRunner* runner : {runner_, probeRunner_}) {
        connect(runner, &TaskRunner::busyChanged, progress_, showBusy);
        // The gallery's request reports first; the probe's reports show once the gallery is done.
        connect(runner, &TaskRunner::progress, progress_, [this, runner](quint64, double f, const QString& text) {
            if (runner == runner_ || !runner_->busy())
                progress_->setFraction(f, text);
        });
    }
    connect(progress_, &TaskProgress::cancelClicked, this, &OrbitsPanel::cancel);
}

void OrbitsPanel::cancel()
{
    if (!runner_->busy() && !probeRunner_->busy())
        return;
    runner_->cancel();
    probeRunner_->cancel();
    emit statusMessage(tr("Orbit cancelled: the gallery and charts show the last one computed."));
}

void OrbitsPanel::showInput()
{
    const auto ds = state_->dataset();
    {
        const QSignalBlocker block(index_);
        index_->setRange(0, ds ? static_cast<int>(ds->count()) - 1 : 0);
        index_->setValue(state_->selectedIndex());
    }
    if (!inputs_->hasFocus()) {
        QStringList list;
        for (int i : state_->embeddingInputs())
            list << QString::number(i);
        inputs_->setText(list.join(", "));
    }
    if (!ds) {
        input_->clear();
        inputCaption_->clear();
        return;
    }
    const auto i = static_cast<std::size_t>(state_->selectedIndex());
    const QImage img = renderSample(*ds, i);
    input_->setPixmap(QPixmap::fromImage(img.scaled(input_->size() - QSize(8, 8), Qt::KeepAspectRatio,
                                                    Qt::FastTransformation)));
    inputCaption_->setText(tr("#%1 — %2").arg(i).arg(sampleCaption(*ds, i)));
}

void OrbitsPanel::request()
{
    const auto ds = state_->dataset();
    if (!ds)
        return;
    OrbitRequest req;
    req.dataset = ds;
    req.index = state_->selectedIndex();
    req.embeddingInputs = state_->embeddingInputs();
    req.settings = state_->orbitSettings();
    runner_->submit(makeOrbitTask(std::move(req)));
}

void OrbitsPanel::draw(std::shared_ptr<const OrbitResult> result)
{
    last_ = result;
    const OrbitRequest& req = result->request;
    const orbit::Dataset& ds = *req.dataset;
    const int r = static_cast<int>(result->gallery.rows());
    std::vector<QImage> images = result->images;  // rendered on the worker (shared, not copied)
    if (static_cast<int>(images.size()) != r) {
        images.clear();
        for (int k = 0; k < r; ++k)
            images.push_back(renderSample(result->gallery.row(k).data(), ds.shape, ds.kind,
                                          atomCount(ds, static_cast<std::size_t>(req.index))));
    }
    QStringList tips;
    for (int k = 0; k < r; ++k)
        tips << tr("g_%1 = %2").arg(k + 1).arg(QString::fromStdString(result->elementText[static_cast<std::size_t>(k)]));
    gallery_->setImages(std::move(images), tips);
    galleryTitle_->setText(tr("Orbit of #%1 (%2): r = %3 copies g·x, g ~ %4")
                               .arg(req.index)
                               .arg(sampleCaption(ds, static_cast<std::size_t>(req.index)))
                               .arg(r)
                               .arg(describeSettings(req.settings)));
    drawEmbedding(*result);
    ++draws_;
    emit statusMessage(tr("Orbit and embedding computed in %1 ms").arg(result->seconds * 1e3, 0, 'f', 1));
}

namespace {

/// The smallest box holding every point grown into it (and the origin).
struct Bounds {
    double xMin = 0, xMax = 0, yMin = 0, yMax = 0;
    void grow(QPointF p)
    {
        xMin = std::min(xMin, p.x());
        xMax = std::max(xMax, p.x());
        yMin = std::min(yMin, p.y());
        yMax = std::max(yMax, p.y());
    }
};

/// Row `row` of the two principal-component scores as a point.
QPointF scorePoint(const orbit::MatrixXfR& scores, Eigen::Index row) { return {scores(row, 0), scores(row, 1)}; }

} // namespace

QScatterSeries* OrbitsPanel::addEmbeddingSeries(QScatterSeries* series)
{
    embeddingMarkers_->add(series);
    embedding_->chart()->addSeries(series);
    series->attachAxis(axisX_);
    series->attachAxis(axisY_);
    return series;
}

void OrbitsPanel::drawEmbedding(const OrbitResult& result)
{
    QChart* chart = embedding_->chart();
    const auto& inputs = result.request.embeddingInputs;
    if (!result.embeddingError.isEmpty() || result.scores.rows() == 0) {
        chart->removeAllSeries();
        embedding_->setNote(result.embeddingError);
        return;
    }
    embedding_->setNote({});
    // The same number of inputs as drawn: update the series in place. Creating and deleting
    // series rebuilds the chart's items and legend, the most expensive part of a redraw while a
    // slider moves.
    const QList<QAbstractSeries*> existing = chart->series();
    const bool reuse = existing.size() == qsizetype(inputs.size()) + 1;
    if (!reuse)
        chart->removeAllSeries();
    const orbit::Dataset& ds = *result.request.dataset;
    const int r = result.request.settings.r;
    Bounds box;
    QList<QPointF> originals;
    for (std::size_t j = 0; j < inputs.size(); ++j) {
        auto* series = reuse ? static_cast<QScatterSeries*>(existing[qsizetype(j)]) : addEmbeddingSeries(orbitSeries(int(j)));
        const auto i = static_cast<std::size_t>(inputs[j]);
        QString caption = sampleCaption(ds, i);
        if (caption.size() > 14)
            caption = caption.left(13) + "…";
        series->setName(tr("#%1 (%2)").arg(i).arg(caption));
        QList<QPointF> points;
        points.reserve(r);
        for (int k = 0; k < r; ++k) {
            points.append(scorePoint(result.scores, Eigen::Index(j) * r + k));
            box.grow(points.back());
        }
        series->replace(points);
        originals.append(scorePoint(result.inputScores, Eigen::Index(j)));
        box.grow(originals.back());
    }
    auto* inputSeries = reuse ? static_cast<QScatterSeries*>(existing.back()) : addEmbeddingSeries(inputsSeries());
    inputSeries->replace(originals);
    const double padX = std::max(1e-6, (box.xMax - box.xMin) * 0.06), padY = std::max(1e-6, (box.yMax - box.yMin) * 0.06);
    axisX_->setRange(box.xMin - padX, box.xMax + padX);
    axisY_->setRange(box.yMin - padY, box.yMax + padY);
    axisX_->setTitleText(tr("PC 1 (%1 % of variance)").arg(result.explained[0] * 100.0, 0, 'f', 1));
    axisY_->setTitleText(tr("PC 2 (%1 % of variance)").arg(result.explained[1] * 100.0, 0, 'f', 1));
    setChartTitle(chart, tr("Orbit embedding: PCA of %1 orbits × %2 copies").arg(inputs.size()).arg(r));
}

QScatterSeries* OrbitsPanel::orbitSeries(int j)
{
    auto* series = new QScatterSeries;
    series->setMarkerSize(8);
    QColor c = seriesColor(j);
    series->setBorderColor(c.darker(130));
    c.setAlpha(150);
    series->setColor(c);
    return series;
}

QScatterSeries* OrbitsPanel::inputsSeries()
{
    auto* series = new QScatterSeries;
    series->setName(tr("the inputs x"));
    series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    series->setMarkerSize(13);
    series->setColor(Qt::black);
    series->setBorderColor(Qt::white);
    return series;
}


QStringList OrbitsPanel::exportCharts(const QString& dir, QString* error) const
{
    drawKept();
    QStringList written;
    for (const ChartBox* box : {embedding_, probe_})
        if (!writeChartCsv(dir, box->baseName() + ".csv", box->csv(), &written, error))
            break;
    return written;
}

void OrbitsPanel::requestProbe()
{
    const auto ds = state_->dataset();
    if (!ds)
        return;
    ProbeRequest req;
    req.dataset = ds;
    req.index = state_->selectedIndex();
    req.settings = state_->orbitSettings();
    probeRunner_->submit(makeProbeTask(std::move(req)));
}

void OrbitsPanel::drawProbe(std::shared_ptr<const ProbeResult> result)
{
    lastProbe_ = result;
    QChart* chart = probe_->chart();
    probe_->setNote({});
    // Two curves already drawn: update them in place (see drawEmbedding).
    const QList<QAbstractSeries*> existing = chart->series();
    const bool reuse = existing.size() == 2;
    if (!reuse)
        chart->removeAllSeries();
    const ProbeResult& r = *result;
    const QString names[2] = {tr("invariant RF, r = %1").arg(r.request.settings.r), tr("plain RF (no group)")};
    const std::vector<double>* curves[2] = {&r.invariantSimilarity, &r.plainSimilarity};
    double lo = 0.0;
    for (int c = 0; c < 2; ++c) {
        auto* series = reuse ? static_cast<QLineSeries*>(existing[c]) : new QLineSeries;
        series->setName(names[c]);
        if (!reuse) {
            QPen pen(c == 0 ? seriesColor(0) : QColor(0x70, 0x70, 0x70));
            pen.setWidthF(2.0);
            if (c == 1)
                pen.setStyle(Qt::DashLine);
            series->setPen(pen);
        }
        QList<QPointF> points;
        for (std::size_t i = 0; i < r.values.size() && i < curves[c]->size(); ++i) {
            points.append(QPointF(r.values[i], (*curves[c])[i]));
            lo = std::min(lo, (*curves[c])[i]);
        }
        series->replace(points);
        if (!reuse) {
            chart->addSeries(series);
            series->attachAxis(probeX_);
            series->attachAxis(probeY_);
        }
    }
    if (!r.values.empty())
        probeX_->setRange(r.values.front(), std::max(r.values.back(), r.values.front() + 1e-9));
    probeY_->setRange(lo < 0.0 ? std::floor(lo * 5.0) / 5.0 : 0.0, 1.0);
    QString parameter = r.parameter;
    parameter.replace("theta", "θ");
    probeX_->setTitleText(tr("g: %1").arg(parameter));
    setChartTitle(chart, tr("Invariance probe of #%1 (s = %2 features)").arg(r.request.index).arg(r.request.s));
}

} // namespace orbitui
