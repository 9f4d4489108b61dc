#include "window/inspect/SampleInspector.hpp"

#include "render/SampleImage.hpp"
#include "state/workers/InspectTask.hpp"
#include "state/workers/PassScheduler.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/TaskProgress.hpp"


#include <QAreaSeries>
#include <QChart>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPen>
#include <QSplitter>
#include <QTextDocumentFragment>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace orbitui {

namespace {

/// The parameter's name for people: "theta (rad)" -> "θ (rad)".
QString parameterText(const std::string& p)
{
    QString s = QString::fromStdString(p);
    s.replace("theta", QStringLiteral("θ"));
    return s;
}

QString number(double v) { return QString::number(v, 'g', 4); }

} // namespace

SampleInspector::SampleInspector(QWidget* parent)
    : QWidget(parent), runner_(new TaskRunner("inspector", this)),
      progress_(new TaskProgress(tr("Stop drawing these samples' orbits and curve; the values stay."), false)),
      title_(new QLabel), values_(new QLabel),
      list_(new QListWidget)
{
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);
    QFont f = title_->font();
    f.setBold(true);
    title_->setFont(f);
    values_->setWordWrap(true);
    values_->setTextFormat(Qt::RichText);
    values_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    list_->setIconSize(QSize(7 * 40, 40));
    // One column, each sample's caption under its strip, so a narrow dock shows both.
    list_->setViewMode(QListView::IconMode);
    list_->setFlow(QListView::TopToBottom);
    list_->setWrapping(false);
    list_->setMovement(QListView::Static);
    list_->setResizeMode(QListView::Adjust);
    list_->setWordWrap(true);
    list_->setSpacing(4);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    setMinimumWidth(280);
    list_->setToolTip(tr("Each input x with the first copies g·x of its orbit (as in the Orbits gallery). "
                         "Click one to make it the current input everywhere."));
    auto* chart = new QChart;
    styleChart(chart);
    chart_ = new ChartBox(chart, "kernel-curve");
    chart_->setMinimumHeight(220);
    chart_->setToolTip(tr("k(g_t xᵢ, xⱼ): how close xᵢ comes to xⱼ when moved by g_t, with the density q(t) "
                          "shaded under it; t* marks the best alignment."));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(list_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(title_);
    layout->addWidget(values_);
    layout->addWidget(progress_, 0, Qt::AlignLeft);
    layout->addWidget(split, 1);

    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        emit sampleActivated(item->data(Qt::UserRole).toInt());
    });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        showResult(*v.value<std::shared_ptr<const InspectResult>>());
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        values_->setText(values_->text() + "<br>" + tr("Could not draw the samples: %1").arg(message.toHtmlEscaped()));
    });
    connect(runner_, &TaskRunner::busyChanged, progress_, &TaskProgress::setRunning);
    connect(runner_, &TaskRunner::progress, progress_,
            [this](quint64, double f, const QString& text) { progress_->setFraction(f, text); });
    connect(progress_, &TaskProgress::cancelClicked, this, &SampleInspector::cancel);
    clear();
}

bool SampleInspector::isIdle() const { return PassScheduler::instance()->isIdle(this); }

void SampleInspector::cancel()
{
    if (!runner_->busy())
        return;
    runner_->cancel();
    values_->setText(values_->text() + "<br><i>" + tr("Cancelled: the orbit strips and the curve are not drawn.") + "</i>");
}

void SampleInspector::markRow(int index)
{
    marked_ = index;
    const auto at = std::find(indices_.begin(), indices_.end(), index);
    if (at == indices_.end() || list_->count() != static_cast<int>(indices_.size()))
        list_->clearSelection();
    else
        list_->setCurrentRow(static_cast<int>(at - indices_.begin()));
}

void SampleInspector::clear()
{
    runner_->cancel();
    mode_ = Mode::Empty;
    indices_.clear();
    curve_.reset();
    noCurve_.clear();
    list_->clear();
    title_->setText(tr("Inspector"));
    values_->setText(tr("Click a cell of a Kernels heatmap, a point of the Orbits embedding or a cell of the "
                        "Training confusion matrix to see the samples behind it."));
    clearChart(chart_->chart());
    chart_->chart()->setTitle(QString());
    chart_->setNote({});
    chart_->hide();
}

void SampleInspector::startRows(std::shared_ptr<const orbit::Dataset> dataset, const OrbitSettings& settings,
                                const std::vector<int>& indices, const QStringList& notes, const std::string& kernelSpec,
                                int curvePoints)
{
    list_->clear();
    indices_ = indices;
    notes_ = notes;
    marked_.reset();
    clearChart(chart_->chart());
    chart_->hide();
    InspectRequest req;
    req.dataset = std::move(dataset);
    req.settings = settings;
    req.indices = indices;
    req.copies = kCopies;
    req.kernelSpec = kernelSpec;
    req.curvePoints = curvePoints;
    runner_->submit(makeInspectTask(std::move(req)));
}

void SampleInspector::showResult(const InspectResult& result)
{
    const orbit::Dataset& ds = *result.request.dataset;
    QSize icon(1, 1);
    for (std::size_t k = 0; k < indices_.size() && k < result.strips.size(); ++k) {
        const int index = indices_[k];
        const QImage& strip = result.strips[k];
        icon = icon.expandedTo(strip.size());
        QString text = tr("#%1 — %2").arg(index).arg(sampleCaption(ds, static_cast<std::size_t>(index)));
        if (k < static_cast<std::size_t>(notes_.size()) && !notes_[static_cast<qsizetype>(k)].isEmpty())
            text += "  ·  " + notes_[static_cast<qsizetype>(k)];
        auto* item = new QListWidgetItem(QIcon(QPixmap::fromImage(strip)), text);
        item->setData(Qt::UserRole, index);
        item->setToolTip(tr("Sample #%1 (%2) and %3 copies g·x of its orbit. Click to make it the current input.")
                             .arg(index)
                             .arg(sampleCaption(ds, static_cast<std::size_t>(index)))
                             .arg(kCopies));
        list_->addItem(item);
    }
    list_->setIconSize(icon);
    if (marked_)
        markRow(*marked_);
    if (mode_ != Mode::Pair)
        return;
    curve_ = result.curve;
    noCurve_ = result.noCurve;
    QString values = pairValues_;
    if (curve_) {
        const QString p = parameterText(curve_->parameter);
        values += tr("<br>Best alignment: <b>t* = %1</b> %2, where k(g<sub>t*</sub> xᵢ, xⱼ) = <b>%3</b>.")
                      .arg(number(curve_->tStar()), p, number(curve_->cStar()));
        if (curve_->bestWeighted)
            values += tr(" Weighted by q: argmax k·q at t = %1, E<sub>g~q</sub> k(g xᵢ, xⱼ) = %2.")
                          .arg(number(curve_->t[*curve_->bestWeighted]), number(curve_->weightedMean));
        drawCurve(*curve_, cell_);
    } else {
        values += tr("<br>No curve over t: %1").arg(noCurve_.toHtmlEscaped());
    }
    values_->setText(values);
}

void SampleInspector::showPair(const KernelCell& cell, int curvePoints)
{
    mode_ = Mode::Pair;
    curve_.reset();
    noCurve_.clear();
    cell_ = cell;
    const orbit::Dataset& ds = *cell.dataset;
    const auto caption = [&ds](std::size_t i) { return sampleCaption(ds, i).toHtmlEscaped(); };
    title_->setText(tr("Row %1 = sample #%2 (%3), column %4 = sample #%5 (%6)")
                        .arg(cell.row)
                        .arg(cell.i)
                        .arg(caption(cell.i))
                        .arg(cell.column)
                        .arg(cell.j)
                        .arg(caption(cell.j)));
    pairValues_ = tr("k(xᵢ, xⱼ) = <b>%1</b> (%2) · k<sub>qG</sub>(xᵢ, xⱼ) = <b>%3</b> (Monte Carlo, r = %4) · "
                     "approximation ⟨ψ(xᵢ), ψ(xⱼ)⟩ = <b>%5</b> (%6)")
                      .arg(number(cell.base), QString::fromStdString(readableSpec(cell.kernelSpec)).toHtmlEscaped(),
                           number(cell.invariant))
                      .arg(cell.r)
                      .arg(number(cell.approx), cell.approxName.toHtmlEscaped());
    values_->setText(pairValues_);
    startRows(cell.dataset, cell.settings, {static_cast<int>(cell.i), static_cast<int>(cell.j)},
              {tr("xᵢ (row)"), tr("xⱼ (column)")}, cell.kernelSpec, curvePoints);
}

void SampleInspector::drawCurve(const orbit::KernelCurve& curve, const KernelCell& cell)
{
    QChart* chart = chart_->chart();
    clearChart(chart);
    chart_->setNote({});
    const QString p = parameterText(curve.parameter);
    // Short tick labels: the dock may be narrow, and an elided "0.…" says nothing.
    auto* axisT = new QValueAxis;
    axisT->setTitleText(p);
    axisT->setLabelFormat("%.2f");
    auto* axisK = new QValueAxis;
    axisK->setTitleText(tr("k(g_t xᵢ, xⱼ)"));
    axisK->setLabelFormat("%.2g");
    auto* axisQ = new QValueAxis;
    axisQ->setTitleText(tr("density q(t)"));
    axisQ->setLabelFormat("%.2g");
    chart->addAxis(axisT, Qt::AlignBottom);
    chart->addAxis(axisK, Qt::AlignLeft);
    chart->addAxis(axisQ, Qt::AlignRight);
    const double tLo = curve.t.front(), tHi = curve.t.back();
    axisT->setRange(tLo, tHi);
    const double cMax = *std::max_element(curve.c.begin(), curve.c.end());
    const double cMin = *std::min_element(curve.c.begin(), curve.c.end());
    const double kLo = std::min(0.0, cMin), kHi = std::max({cMax, cell.invariant, cell.base}) * 1.08 + 1e-12;
    axisK->setRange(kLo, kHi);

    // q first: shaded under the curve, on an axis of its own.
    if (!curve.q.empty()) {
        auto* upper = new QLineSeries;
        for (std::size_t k = 0; k < curve.t.size(); ++k)
            upper->append(curve.t[k], curve.q[k]);
        auto* area = new QAreaSeries(upper);
        upper->setParent(area);  // the area series does not own its line
        area->setName(tr("q(t)"));
        area->setColor(QColor(120, 170, 230, 90));
        area->setBorderColor(QColor(70, 120, 200));
        chart->addSeries(area);
        area->attachAxis(axisT);
        area->attachAxis(axisQ);
        axisQ->setRange(0.0, *std::max_element(curve.q.begin(), curve.q.end()) * 1.1 + 1e-12);
    } else {
        axisQ->setRange(0.0, 1.0);
        axisQ->setTitleText(tr("q(t): no density (delta)"));
    }
    auto* c = new QLineSeries;
    c->setName(tr("k(g_t xᵢ, xⱼ)"));
    for (std::size_t k = 0; k < curve.t.size(); ++k)
        c->append(curve.t[k], curve.c[k]);
    c->setPen(QPen(QColor(20, 20, 20), 2));
    c->setPointsVisible(curve.t.size() <= 64);
    chart->addSeries(c);
    c->attachAxis(axisT);
    c->attachAxis(axisK);

    auto addLine = [&](const QString& name, QPointF a, QPointF b, const QPen& pen) {
        auto* s = new QLineSeries;
        s->setName(name);
        s->append(a);
        s->append(b);
        s->setPen(pen);
        chart->addSeries(s);
        s->attachAxis(axisT);
        s->attachAxis(axisK);
    };
    addLine(tr("k_qG"), {tLo, cell.invariant}, {tHi, cell.invariant},
            QPen(QColor(0, 140, 70), 1.5, Qt::DashLine));
    addLine(tr("t*"), {curve.tStar(), kLo}, {curve.tStar(), kHi},
            QPen(QColor(210, 30, 30), 2.5));
    if (curve.bestWeighted && *curve.bestWeighted != curve.best) {
        const double tq = curve.t[*curve.bestWeighted];
        addLine(tr("argmax k·q"), {tq, kLo}, {tq, kHi}, QPen(QColor(230, 140, 20), 1.5, Qt::DotLine));
    }
    chart->setTitle(tr("k(g_t x_%1, x_%2)").arg(cell.i).arg(cell.j));  // over the axis below
    chart_->show();
}

void SampleInspector::showSample(std::shared_ptr<const orbit::Dataset> dataset, const OrbitSettings& settings, int index,
                                 const QString& origin)
{
    mode_ = Mode::Sample;
    curve_.reset();
    noCurve_.clear();
    const orbit::Dataset& ds = *dataset;
    title_->setText(tr("Sample #%1 (%2)").arg(index).arg(sampleCaption(ds, static_cast<std::size_t>(index)).toHtmlEscaped()));
    values_->setText(tr("%1 — the input and %2 copies g·x of its orbit, g ~ %3.")
                         .arg(origin.toHtmlEscaped())
                         .arg(kCopies)
                         .arg(QString::fromStdString(readableSpec(settings.distSpec())).toHtmlEscaped()));
    startRows(std::move(dataset), settings, {index}, {});
}

void SampleInspector::showSamples(std::shared_ptr<const orbit::Dataset> dataset, const OrbitSettings& settings,
                                  const std::vector<int>& indices, const QString& title, const QStringList& notes)
{
    mode_ = Mode::Samples;
    curve_.reset();
    noCurve_.clear();
    title_->setText(title.toHtmlEscaped());
    values_->setText(indices.empty() ? tr("No test sample in this cell.")
                                     : tr("%1 test sample(s), each with %2 copies g·x of its orbit (g ~ %3).")
                                           .arg(indices.size())
                                           .arg(kCopies)
                                           .arg(QString::fromStdString(readableSpec(settings.distSpec())).toHtmlEscaped()));
    startRows(std::move(dataset), settings, indices, notes);
}

QString SampleInspector::titleText() const { return QTextDocumentFragment::fromHtml(title_->text()).toPlainText(); }

QString SampleInspector::valuesText() const { return QTextDocumentFragment::fromHtml(values_->text()).toPlainText(); }

} // namespace orbitui
