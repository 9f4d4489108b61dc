#include "window/inspect/LinkedViews.hpp"

#include "render/SampleImage.hpp"
#include "state/LabState.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/Tasks.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "widgets/HeatmapView.hpp"
#include "window/inspect/SampleInspector.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/training/Experiment.hpp"

#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QHelpEvent>
#include <QListWidget>
#include <QMainWindow>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace orbitui {

namespace {

/// A sample as hovering names it: "sample #n (label)".
QString sampleName(const orbit::Dataset& ds, std::size_t i)
{
    return QObject::tr("sample #%1 (%2)").arg(i).arg(sampleCaption(ds, i));
}

} // namespace

LinkedViews::LinkedViews(QMainWindow* window, LabState* state, OrbitsPanel* orbits, KernelsPanel* kernels,
                         TrainingPanel* training)
    : QObject(window), window_(window), state_(state), orbits_(orbits), kernels_(kernels), training_(training),
      inspector_(new SampleInspector), dock_(new QDockWidget(tr("Inspector"), window))
{
    dock_->setObjectName("inspectorDock");  // saveState / restoreState find it by name
    dock_->setWidget(inspector_);
    dock_->setAllowedAreas(Qt::RightDockWidgetArea | Qt::BottomDockWidgetArea | Qt::LeftDockWidgetArea);
    window->addDockWidget(Qt::RightDockWidgetArea, dock_);
    dock_->hide();
    // Shown (by a click or View ▸ Inspector) in a wide window, the dock takes 2/7 of it, so the
    // curve's axes and legend are not cut; at 1280 x 720 it keeps its minimum and the panel its width.
    connect(dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible || dock_->isFloating()) return;
        const int wanted = std::clamp(window_->width() * 2 / 7, dock_->minimumSizeHint().width(), 560);
        if (dock_->width() < wanted) window_->resizeDocks({dock_}, {wanted}, Qt::Horizontal);
    });

    for (int m = 0; m < 4; ++m) {
        HeatmapView* view = kernels_->heatmap(KernelsPanel::Matrix(m));
        view->setCellTextFunction([this, m](int row, int column) { return kernelCellText(m, row, column); });
        view->setCursor(Qt::PointingHandCursor);
        connect(view, &HeatmapView::cellClicked, this, &LinkedViews::inspectKernelCell);
    }
    HeatmapView* confusion = training_->confusionView()->heatmap();
    confusion->setCursor(Qt::PointingHandCursor);
    connect(confusion, &HeatmapView::cellClicked, this, &LinkedViews::inspectConfusionCell);
    embeddingView_ = orbits_->embeddingChart()->view();
    embeddingViewport_ = embeddingView_->viewport();
    embeddingViewport_->installEventFilter(this);

    connect(inspector_, &SampleInspector::sampleActivated, state_, &LabState::setSelectedIndex);
    connect(state_, &LabState::selectionChanged, this, [this](int index) {
        const auto ds = state_->dataset();
        if (!ds || index < 0 || static_cast<std::size_t>(index) >= ds->count())
            return;
        switch (inspector_->mode()) {
        case SampleInspector::Mode::Empty:
        case SampleInspector::Mode::Sample:
            // The inspector follows the current input (when it shows one sample, or nothing yet).
            inspector_->showSample(ds, state_->orbitSettings(), index, tr("The current input"));
            break;
        default:
            inspector_->markRow(index);  // a list: mark the current input's row, if it is there
        }
    });
    connect(state_, &LabState::datasetChanged, inspector_, &SampleInspector::clear);
}

void LinkedViews::showInspector()
{
    dock_->show();
    dock_->raise();
}

QString LinkedViews::kernelCellText(int matrix, int row, int column) const
{
    const auto result = kernels_->lastResult();
    if (!result || row < 0 || column < 0 || static_cast<std::size_t>(row) >= result->indices.size() ||
        static_cast<std::size_t>(column) >= result->indices.size())
        return {};
    const orbit::Dataset& ds = *result->request.dataset;
    const std::array<const Eigen::MatrixXd*, 4> matrices{&result->base, &result->invariant, &result->approx,
                                                         &result->difference};
    const Eigen::MatrixXd& M = *matrices[static_cast<std::size_t>(matrix)];
    return tr("row i = %1: %2\ncolumn j = %3: %4\nk = %5\nclick: inspect this pair")
        .arg(row)
        .arg(sampleName(ds, result->indices[std::size_t(row)]))
        .arg(column)
        .arg(sampleName(ds, result->indices[std::size_t(column)]))
        .arg(M(row, column), 0, 'g', 6);
}

void LinkedViews::inspectKernelCell(int row, int column)
{
    const auto result = kernels_->lastResult();
    if (!result || row < 0 || column < 0 || static_cast<std::size_t>(row) >= result->indices.size() ||
        static_cast<std::size_t>(column) >= result->indices.size())
        return;
    KernelCell cell;
    cell.dataset = result->request.dataset;
    cell.settings = result->request.settings;
    cell.kernelSpec = result->kernelSpec;
    cell.row = row;
    cell.column = column;
    cell.i = result->indices[std::size_t(row)];
    cell.j = result->indices[std::size_t(column)];
    cell.base = result->base(row, column);
    cell.invariant = result->invariant(row, column);
    cell.approx = result->approx(row, column);
    cell.approxName = QString::fromStdString(result->request.featureSpec());
    cell.r = result->request.r;
    for (int m = 0; m < 4; ++m)
        kernels_->heatmap(KernelsPanel::Matrix(m))->setMarkedCell(std::make_pair(row, column));
    inspector_->showPair(cell);
    showInspector();
    // The row's sample becomes the current input (when the matrices are of the data shown).
    if (cell.dataset == state_->dataset())
        state_->setSelectedIndex(static_cast<int>(cell.i));
}

std::vector<int> LinkedViews::confusionSamples(int truth, int predicted) const
{
    std::vector<int> out;
    const auto result = training_->lastResult();
    if (!result)
        return out;
    // Predictions name rows of the data trained on: the seeded subset when the run took one.
    const orbit::Dataset& all = *result->request.dataset;
    const std::size_t n = result->request.subset;
    std::vector<std::size_t> rows;
    if (n == 0 || n >= all.count()) {
        rows.resize(all.count());
        std::iota(rows.begin(), rows.end(), std::size_t(0));
    } else {
        rows = orbit::subsetRows(all.count(), n, result->request.config.seed);
    }
    for (const orbit::TestPrediction& p : result->result.predictions)
        if (p.truth == truth && p.predicted == predicted && p.row < rows.size())
            out.push_back(static_cast<int>(rows[p.row]));
    return out;
}

void LinkedViews::inspectConfusionCell(int truth, int predicted)
{
    const auto result = training_->lastResult();
    if (!result)
        return;
    const auto names = result->classNames;
    auto name = [&names](int k) {
        return k >= 0 && static_cast<std::size_t>(k) < names.size() ? QString::fromStdString(names[std::size_t(k)])
                                                                    : QString::number(k);
    };
    std::vector<int> samples = confusionSamples(truth, predicted);
    const std::size_t total = samples.size();
    if (samples.size() > std::size_t(kMaxListed))
        samples.resize(std::size_t(kMaxListed));
    QString title = truth == predicted
                        ? tr("True %1, predicted %1: %2 right answers").arg(name(truth)).arg(total)
                        : tr("True %1, predicted %2: %3 misclassified test sample(s)").arg(name(truth), name(predicted)).arg(total);
    if (total > samples.size())
        title += tr(" (the first %1 listed)").arg(samples.size());
    QStringList notes;
    for (std::size_t k = 0; k < samples.size(); ++k)
        notes << tr("predicted %1").arg(name(predicted));
    inspector_->showSamples(result->request.dataset, state_->orbitSettings(), samples, title, notes);
    training_->confusionView()->heatmap()->setMarkedCell(std::make_pair(truth, predicted));
    showInspector();
}

std::optional<std::pair<int, int>> LinkedViews::embeddingPointAt(QPointF position, double pixels) const
{
    QChart* chart = orbits_->embeddingChart()->chart();
    const QList<QAbstractSeries*> series = chart->series();
    const auto result = orbits_->lastResult();
    if (!result || series.size() != qsizetype(result->request.embeddingInputs.size()) + 1)
        return std::nullopt;
    std::optional<std::pair<int, int>> best;
    double bestDistance = pixels;
    for (qsizetype s = 0; s < series.size(); ++s) {
        const auto* scatter = qobject_cast<const QScatterSeries*>(series[s]);
        if (!scatter)
            continue;
        const bool inputs = s == series.size() - 1;  // the inputs' own markers come last
        const QList<QPointF> points = scatter->points();
        for (qsizetype k = 0; k < points.size(); ++k) {
            const QPointF at = chart->mapToPosition(points[k], series[s]);
            const double d = std::hypot(at.x() - position.x(), at.y() - position.y());
            // An input's marker wins a tie with the copies drawn under it.
            if (d < bestDistance || (inputs && d <= bestDistance)) {
                bestDistance = d;
                best = inputs ? std::make_pair(static_cast<int>(k), -1) : std::make_pair(static_cast<int>(s), static_cast<int>(k));
            }
        }
    }
    return best;
}

QString LinkedViews::embeddingPointText(int input, int copy) const
{
    const auto result = orbits_->lastResult();
    const auto ds = result ? result->request.dataset : nullptr;
    if (!ds || input < 0 || static_cast<std::size_t>(input) >= result->request.embeddingInputs.size())
        return {};
    const auto i = static_cast<std::size_t>(result->request.embeddingInputs[std::size_t(input)]);
    if (copy < 0)
        return tr("%1: the input x itself\nclick: inspect it").arg(sampleName(*ds, i));
    return tr("%1: copy %2 of its orbit\nclick: inspect it").arg(sampleName(*ds, i)).arg(copy + 1);
}

bool LinkedViews::eventFilter(QObject* watched, QEvent* event)
{
    // Only the two events handled below reach the panels; every other one (the viewport's own
    // teardown among them) is passed on without touching them.
    const bool handled = event->type() == QEvent::ToolTip || event->type() == QEvent::MouseButtonRelease;
    if (!handled || watched != embeddingViewport_ || !embeddingView_)
        return QObject::eventFilter(watched, event);
    QChartView* view = embeddingView_;
    auto chartPosition = [view](QPoint viewportPos) {
        return view->chart()->mapFromScene(view->mapToScene(viewportPos));
    };
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto point = embeddingPointAt(chartPosition(help->pos()))) {
            QToolTip::showText(help->globalPos(), embeddingPointText(point->first, point->second), view->viewport());
            return true;
        }
        QToolTip::hideText();
        return false;
    }
    if (event->type() == QEvent::MouseButtonRelease) {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const auto result = orbits_->lastResult();
        if (mouse->button() != Qt::LeftButton || !result)
            return false;
        if (const auto point = embeddingPointAt(chartPosition(mouse->position().toPoint()))) {
            const int index = result->request.embeddingInputs[std::size_t(point->first)];
            const auto ds = result->request.dataset;
            if (ds == state_->dataset())
                state_->setSelectedIndex(index);
            inspector_->showSample(ds, result->request.settings, index,
                                   point->second < 0 ? tr("The input marker in the Orbits embedding")
                                                     : tr("Copy %1 of this orbit in the Orbits embedding").arg(point->second + 1));
            showInspector();
        }
    }
    return false;
}

} // namespace orbitui
