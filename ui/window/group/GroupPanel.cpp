#include "window/group/GroupPanel.hpp"

#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"
#include "state/SweepPacer.hpp"
#include "state/workers/Tasks.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/FieldHighlight.hpp"
#include "window/group/DistributionEditor.hpp"

#include "orbit/registry/Registry.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QScrollArea>
#include <QShowEvent>
#include <QSignalBlocker>
#include <QSplitter>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace orbitui {

GroupPanel::GroupPanel(LabState* state, QWidget* parent)
    : Panel("group", tr("Group && distribution"), parent), state_(state),
      runner_(new TaskRunner("orbit-density", this)), editor_(new DistributionEditor(state, false)),
      factor_(new QComboBox), density_(new QLineSeries), histogramLine_(new QLineSeries), axisX_(new QValueAxis),
      axisY_(new QValueAxis)
{
    buildDensityChart();
    buildLayout();
    connectState();
    connectRunner();
    updateFactorChoice();
    request();
    // A parameter sweep shows its next frame once this density is drawn.
    SweepPacer::of(state_)->follow(this, [this] { return !isSweepFrameDone(); });
}

void GroupPanel::buildDensityChart()
{
    auto* chart = new QChart;
    histogram_ = new QAreaSeries(histogramLine_);
    histogramLine_->setParent(histogram_);  // a QAreaSeries does not own its boundary line series
    histogram_->setName(tr("histogram of drawn samples"));
    histogram_->setColor(QColor(31, 119, 180, 90));
    histogram_->setBorderColor(QColor(31, 119, 180));
    density_->setName(tr("density q"));
    QPen pen(QColor(214, 39, 40));
    pen.setWidthF(2.5);
    density_->setPen(pen);
    chart->addSeries(histogram_);
    chart->addSeries(density_);
    chart->addAxis(axisX_, Qt::AlignBottom);
    chart->addAxis(axisY_, Qt::AlignLeft);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(histogram_), static_cast<QAbstractSeries*>(density_)}) {
        s->attachAxis(axisX_);
        s->attachAxis(axisY_);
    }
    axisY_->setTitleText(tr("probability density"));
    QFont axisFont = axisX_->titleFont();
    axisFont.setPointSizeF(11);
    axisX_->setTitleFont(axisFont);
    axisY_->setTitleFont(axisFont);
    chartBox_ = new ChartBox(chart, "density");
}

void GroupPanel::buildLayout()
{
    factor_->setToolTip(tr("Which factor of the affine group to plot."));
    connect(factor_, &QComboBox::currentIndexChanged, this, &GroupPanel::request);

    auto* scroll = new QScrollArea;
    scroll->setWidget(editor_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(380);

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* factorRow = new QHBoxLayout;
    factorRow->addWidget(new QLabel(tr("Plot factor")));
    factorRow->addWidget(factor_);
    factorRow->addStretch();
    rightLayout->addLayout(factorRow);
    rightLayout->addWidget(chartBox_, 1);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(scroll);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({420, 900});
    content()->addWidget(splitter, 1);
}

void GroupPanel::connectState()
{
    connect(state_, &LabState::orbitSettingsChanged, this, [this] {
        updateFactorChoice();
        request();
    });
    connect(state_, &LabState::datasetChanged, this, &GroupPanel::request);
    connect(state_, &LabState::selectionChanged, this, [this] {
        // q depends on the selected input (noisy sort): its draws change with the selection.
        const orbit::DistributionDescriptor* d = orbit::findDistribution(state_->orbitSettings().dist.name);
        if (d && d->dependsOnInput)
            request();
    });
}

void GroupPanel::connectRunner()
{
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        received_ = v.value<std::shared_ptr<const DensityResult>>();
        whenInSight(0, [this, result = received_] { draw(result); });
    });
    editor_->registerFields(fields());
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        dropKept(0);  // older than the failure: never drawn over its message
        showFieldError(tr("Cannot draw this distribution: %1").arg(message), field, message);
        histogramLine_->clear();
        density_->clear();
    });
}

void GroupPanel::draw(std::shared_ptr<const DensityResult> r)
{
    clearError();
    histogramLine_->replace(r->histogram);
    density_->replace(r->curve);
    density_->setVisible(r->hasDensity);
    histogram_->setVisible(!r->histogram.isEmpty());
    axisX_->setRange(r->xMin, r->xMax);
    axisY_->setRange(0.0, r->yMax);
    axisX_->setTitleText(r->parameter);
    if (r->parameter.startsWith("rotation angle") && r->xMax - r->xMin > 1.0) {
        axisX_->setTickType(QValueAxis::TicksDynamic);
        axisX_->setTickAnchor(0.0);
        axisX_->setTickInterval(M_PI / 4);
        axisX_->setLabelFormat("%.2f");
    } else {
        axisX_->setTickType(QValueAxis::TicksFixed);
        axisX_->setTickCount(9);
        axisX_->setLabelFormat("%.3g");
    }
    const OrbitSettings& s = r->request.settings;
    const DistributionParams& p = s.factor(r->request.factor);
    setChartTitle(chartBox_->chart(), tr("%1 on %2: %3 samples (seed %4)")
                                          .arg(displayName(p.name), groupDisplayName(r->request.factor))
                                          .arg(r->request.samples)
                                          .arg(s.seed));
    chartBox_->setNote(r->note);
    // No distribution on permutations has a density: their atoms moved are counted.
    axisY_->setTitleText(r->hasDensity ? tr("probability density") : tr("fraction of draws"));
    ++draws_;
    last_ = r;
}

void GroupPanel::updateFactorChoice()
{
    const OrbitSettings& s = state_->orbitSettings();
    const QSignalBlocker block(factor_);
    const QString current = factor_->currentData().toString();
    factor_->clear();
    for (const auto& f : s.factors())
        factor_->addItem(groupDisplayName(f), QString::fromStdString(f));
    const int i = factor_->findData(current);
    factor_->setCurrentIndex(i >= 0 ? i : 0);
    factor_->setEnabled(s.factors().size() > 1);
}

void GroupPanel::request()
{
    DensityRequest req;
    req.settings = state_->orbitSettings();
    req.factor = factor_->currentData().toString().toStdString();
    if (!req.settings.hasFactor(req.factor)) {  // the choice still lists another group's factors
        updateFactorChoice();
        req.factor = req.settings.factors().front();
    }
    req.dataset = state_->dataset();
    req.index = state_->selectedIndex();
    runner_->submit(makeDensityTask(req));
}


std::string GroupPanel::densityFactor() const { return factor_->currentData().toString().toStdString(); }

void GroupPanel::setDensityFactor(const std::string& factor)
{
    if (const int i = factor_->findData(QString::fromStdString(factor)); i >= 0)
        factor_->setCurrentIndex(i);
}

QStringList GroupPanel::exportCharts(const QString& dir, QString* error) const
{
    drawKept();
    QStringList written;
    writeChartCsv(dir, chartBox_->baseName() + ".csv", chartBox_->csv(), &written, error);
    return written;
}

} // namespace orbitui
