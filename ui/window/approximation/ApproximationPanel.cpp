#include "window/approximation/ApproximationPanel.hpp"

#include "render/AxisTicks.hpp"
#include "render/SampleImage.hpp"
#include "state/LabState.hpp"
#include "state/workers/KernelTasks.hpp"
#include "widgets/AutoApplyControl.hpp"
#include "widgets/CachedHeightLabel.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/FractionBar.hpp"
#include "widgets/RegistryControls.hpp"
#include "window/panels/PanelDescriptor.hpp"

#include "orbit/registry/Figures.hpp"

#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace orbitui {

namespace {

QString joinList(const std::vector<int>& v)
{
    QStringList parts;
    for (int x : v)
        parts << QString::number(x);
    return parts.join(", ");
}

} // namespace

ApproximationPanel::ApproximationPanel(LabState* state, QWidget* parent)
    : Panel("approximation", tr("Approximation"), parent), state_(state), runner_(new TaskRunner("approximation", this)),
      n_(new QSpinBox), method_(new QComboBox), sList_(new QLineEdit), rList_(new QLineEdit), refR_(new QSpinBox),
      repeats_(new QSpinBox), bandwidth_(new QDoubleSpinBox), auto_(new AutoApplyControl(this)),
      cancel_(new QPushButton(tr("Cancel"))), progress_(new FractionBar),
      status_(new CachedHeightLabel(QString()))
{
    // Ranges, words and defaults: the registry's approximation-error figure (orbit/registry/Figures.hpp).
    const orbit::FigureDescriptor& figure = orbit::approximationFigure();
    configureControls(figure);
    QWidget* settingsColumn = buildSettingsColumn(figure);
    QLayout* charts = buildCharts();
    auto* body = new QHBoxLayout;
    body->addWidget(settingsColumn);
    body->addLayout(charts, 1);
    content()->addLayout(body, 1);

    applySettings(ApproximationSettings{});
    resetCharts();
    connectControls();
    connectRunner();
    markFields();
}

void ApproximationPanel::configureControls(const orbit::FigureDescriptor& figure)
{
    configureCount(n_, figure.setting("n"));
    const auto approximations = figure.approximations();
    configureChoice(method_, figure.setting("method"), {approximations.begin(), approximations.end()});
    sList_->setToolTip(QString::fromStdString(figure.setting("s").doc));
    rList_->setToolTip(QString::fromStdString(figure.setting("r").doc));
    configureCount(refR_, figure.setting("ref_r"));
    configureCount(repeats_, figure.setting("repeats"));
    configureReal(bandwidth_, figure.setting("bandwidth"));
    bandwidth_->setSingleStep(0.1);
    cancel_->setToolTip(tr("Stop the computation; the points already drawn stay."));
    cancel_->setShortcut(QKeySequence(QKeySequence::Cancel));
    cancel_->setEnabled(false);
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::RichText);
}

QWidget* ApproximationPanel::buildSettingsColumn(const orbit::FigureDescriptor& figure)
{
    auto* form = new QFormLayout;
    const auto label = [&figure](const char* key) { return QString::fromStdString(figure.setting(key).label); };
    form->addRow(label("n"), n_);
    form->addRow(label("method"), method_);
    form->addRow(label("s"), sList_);
    form->addRow(label("r"), rList_);
    form->addRow(label("ref_r"), refR_);
    form->addRow(label("repeats"), repeats_);
    form->addRow(label("bandwidth"), bandwidth_);
    auto* settingsBox = new QGroupBox(tr("Experiment (LGIKA Figure 1)"));
    settingsBox->setLayout(form);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(auto_);
    runRow->addWidget(cancel_);
    auto* left = new QVBoxLayout;
    left->addWidget(settingsBox);
    left->addLayout(runRow);
    left->addWidget(progress_);
    left->addWidget(status_);
    left->addStretch();
    auto* leftHost = new QWidget;
    leftHost->setLayout(left);
    leftHost->setFixedWidth(340);
    left->setContentsMargins(0, 0, 0, 0);
    return leftHost;
}

QLayout* ApproximationPanel::buildCharts()
{
    const QString titles[2] = {tr("Spectral error ‖K − ΨΨᵀ‖₂ / ‖K‖₂"), tr("Frobenius error ‖K − ΨΨᵀ‖_F / ‖K‖_F")};
    const QString files[2] = {QStringLiteral("approximation-spectral"), QStringLiteral("approximation-frobenius")};
    auto* charts = new QHBoxLayout;
    for (int c = 0; c < 2; ++c) {
        auto* chart = new QChart;
        chart->setTitle(titles[c]);
        axisX_[c] = new QLogValueAxis;
        axisY_[c] = new QLogValueAxis;
        axisX_[c]->setBase(10.0);
        axisY_[c]->setBase(10.0);
        axisX_[c]->setLabelFormat("%g");
        axisY_[c]->setLabelFormat("%g");
        axisX_[c]->setMinorTickCount(8);
        axisY_[c]->setMinorTickCount(8);
        axisX_[c]->setTitleText(tr("s (templates / landmarks)"));
        axisY_[c]->setTitleText(tr("normalised error"));
        chart->addAxis(axisX_[c], Qt::AlignBottom);
        chart->addAxis(axisY_[c], Qt::AlignLeft);
        charts_[c] = new ChartBox(chart, files[c]);
        charts->addWidget(charts_[c], 1);
    }
    return charts;
}

void ApproximationPanel::connectControls()
{
    for (QSpinBox* box : {n_, refR_, repeats_})
        connect(box, &QSpinBox::valueChanged, this, &ApproximationPanel::settingsChanged);
    connect(bandwidth_, &QDoubleSpinBox::valueChanged, this, &ApproximationPanel::settingsChanged);
    connect(method_, &QComboBox::currentIndexChanged, this, &ApproximationPanel::settingsChanged);
    connect(sList_, &QLineEdit::editingFinished, this, &ApproximationPanel::settingsChanged);
    connect(rList_, &QLineEdit::editingFinished, this, &ApproximationPanel::settingsChanged);
    connect(auto_, &AutoApplyControl::applyRequested, this, &ApproximationPanel::compute);
    connect(cancel_, &QPushButton::clicked, this, &ApproximationPanel::cancel);
    connect(state_, &LabState::datasetChanged, this, &ApproximationPanel::settingsChanged);
    connect(state_, &LabState::orbitSettingsChanged, this, &ApproximationPanel::settingsChanged);
}

void ApproximationPanel::connectRunner()
{
    connect(runner_, &TaskRunner::busyChanged, this, [this](bool busy) { cancel_->setEnabled(busy); });
    connect(runner_, &TaskRunner::progress, this, [this](quint64, double f, const QString& text) {
        progress_->setFraction(f);
        progress_->setFormat(text + "  %p%");
    });
    // Drawn now in sight, else kept until shown (Panel::whenInSight): the curves grow as points
    // arrive, so the rows slot keeps every point received so far.
    connect(runner_, &TaskRunner::partial, this, [this](quint64, const QVariant& v) {
        received_.push_back(v.value<orbit::ApproxErrorRow>());
        whenInSight(kRowsSlot, [this, rows = received_] { drawRows(rows); });
    });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        dropKept(kRowsSlot);  // the result holds them all
        whenInSight(kResultSlot, [this, result = v.value<std::shared_ptr<const ApproxResult>>()] {
            last_ = result;
            drawResult(*result);
        });
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        dropKept(kResultSlot);  // older than the failure: never drawn over its message
        showFieldError(tr("Cannot compute the approximation errors: %1").arg(message), field, message);
    });
}

void ApproximationPanel::drawResult(const ApproxResult& result)
{
    clearError();
    drawRows(result.rows);
    progress_->setFraction(1);
    progress_->setFormat(tr("done  %p%"));
    status_->setText(tr("%1 points of %2 × %3 in %4 s; K: Monte Carlo k_qG with ref-r = %5, %6.%7")
                         .arg(result.rows.size())
                         .arg(result.request.config.rList.size())
                         .arg(result.request.config.sList.size())
                         .arg(result.seconds, 0, 'f', 1)
                         .arg(result.request.config.refR)
                         .arg(describeKernel(result.kernelSpec))
                         .arg(note_));
    emit statusMessage(tr("Approximation errors computed in %1 s").arg(result.seconds, 0, 'f', 1));
}

void ApproximationPanel::markFields()
{
    // The controls of the core's fields (orbit/util/Error.hpp).
    fields()->add("points", n_);
    fields()->add("features", method_);
    fields()->add("s-list", sList_);
    fields()->add("r-list", rList_);
    fields()->add("ref-r", refR_);
    fields()->add("repeats", repeats_);
    fields()->add("kernel", bandwidth_);
}

std::optional<std::vector<int>> ApproximationPanel::parseList(const QString& text, const char* key, QString* error)
{
    const orbit::ParamDescriptor& p = orbit::approximationFigure().setting(key);
    const QString field = QString::fromStdString(p.label);
    std::vector<int> out;
    for (const QString& part : text.split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = part.toInt(&ok);
        if (!ok || !p.accepts(v)) {
            if (error)
                *error = tr("%1: “%2” is not a whole number between %3 and %4")
                             .arg(field, part)
                             .arg(static_cast<int>(p.minimum))
                             .arg(static_cast<int>(p.maximum));
            return std::nullopt;
        }
        if (std::find(out.begin(), out.end(), v) == out.end())
            out.push_back(v);
    }
    if (out.empty()) {
        if (error)
            *error = tr("%1: give at least one value, e.g. 10, 100").arg(field);
        return std::nullopt;
    }
    std::sort(out.begin(), out.end());
    return out;
}

ApproximationSettings ApproximationPanel::settings() const
{
    ApproximationSettings s;
    s.n = n_->value();
    s.method = method_->currentData().toString();
    s.sList = parseList(sList_->text(), "s", nullptr).value_or(s.sList);
    s.rList = parseList(rList_->text(), "r", nullptr).value_or(s.rList);
    s.refR = refR_->value();
    s.repeats = repeats_->value();
    s.bandwidth = bandwidth_->value();
    s.autoApply = auto_->autoApply();
    return s;
}

void ApproximationPanel::applySettings(const ApproximationSettings& s)
{
    {
        const QSignalBlocker b1(n_), b2(method_), b3(refR_), b4(repeats_), b5(bandwidth_);
        n_->setValue(s.n);
        const int m = method_->findData(s.method);
        method_->setCurrentIndex(m >= 0 ? m : 0);
        sList_->setText(joinList(s.sList));
        rList_->setText(joinList(s.rList));
        refR_->setValue(s.refR);
        repeats_->setValue(s.repeats);
        bandwidth_->setValue(s.bandwidth);
        auto_->setAutoApply(s.autoApply);
    }
    settingsChanged();
}

void ApproximationPanel::settingsChanged()
{
    if (state_->dataset())
        auto_->markChanged();
}

void ApproximationPanel::startForExport(const ExportStart& start)
{
    if (!settings().autoApply)
        start.whenData([this] { compute(); });
}

void ApproximationPanel::compute()
{
    const auto ds = state_->dataset();
    if (!ds)
        return;
    QString error;
    const auto sList = parseList(sList_->text(), "s", &error);
    const auto rList = sList ? parseList(rList_->text(), "r", &error) : std::nullopt;
    if (!sList || !rList) {
        showFieldError(error, sList ? "r-list" : "s-list", error);
        return;
    }
    ApproxRequest req = approxRequest(settings(), state_->orbitSettings(), ds->count());
    req.dataset = ds;
    note_.clear();
    const QString method = QString::fromStdString(orbit::findApproximation(req.config.method)->displayName);
    if (!req.sDropped.empty())  // at most n landmarks: the larger s are left out, say so
        note_ = tr(" %1 takes at most n = %2 landmarks: larger s were left out.").arg(method).arg(req.n);
    if (req.config.sList.empty()) {
        const QString error = tr("%1 needs s ≤ n = %2: give smaller s values or a larger n.").arg(method).arg(req.n);
        showFieldError(error, "s-list", error);
        return;
    }
    clearError();
    runS_ = req.config.sList;
    runR_ = req.config.rList;
    rows_.clear();
    received_.clear();
    dropKept(kRowsSlot);
    dropKept(kResultSlot);
    resetCharts();
    progress_->setFraction(0);
    status_->setText(tr("Computing %1 × %2 points…%3").arg(runR_.size()).arg(runS_.size()).arg(note_));
    runner_->submit(makeApproxTask(std::move(req)));
}

void ApproximationPanel::cancel()
{
    if (!runner_->busy())
        return;
    runner_->cancel();  // the points delivered so far stay drawn; nothing more arrives for this run
    drawKept();         // those kept while hidden too
    progress_->setFormat(tr("cancelled  %p%"));
    status_->setText(tr("Cancelled: %1 of %2 points kept.").arg(rows_.size()).arg(runS_.size() * runR_.size()));
}


QString ApproximationPanel::statusText() const { return status_->text(); }

QStringList ApproximationPanel::exportCharts(const QString& dir, QString* error) const
{
    drawKept();
    QStringList written;
    for (const ChartBox* box : charts_)
        if (!writeChartCsv(dir, box->baseName() + ".csv", box->csv(), &written, error))
            break;
    return written;
}

void ApproximationPanel::resetCharts()
{
    for (int c = 0; c < 2; ++c) {
        QChart* chart = charts_[c]->chart();
        chart->removeAllSeries();
        // One curve per r, made once per run: results arriving only replace their points (creating
        // and deleting Qt Charts series rebuilds the chart's items and legend each time).
        curves_[c].clear();
        for (std::size_t k = 0; k < runR_.size(); ++k) {
            auto* series = new QLineSeries;
            series->setName(tr("r = %1").arg(runR_[k]));
            QPen pen(seriesColor(static_cast<int>(k)));
            pen.setWidthF(2.0);
            series->setPen(pen);
            series->setPointsVisible(true);
            chart->addSeries(series);
            series->attachAxis(axisX_[c]);
            series->attachAxis(axisY_[c]);
            curves_[c].push_back(series);
        }
        const auto [sLo, sHi] = runS_.empty() ? std::make_pair(1.0, 1000.0)
                                              : decadeRange(runS_.front(), runS_.back());
        axisX_[c]->setRange(sLo, sHi);
        axisY_[c]->setRange(0.01, 1.0);
        charts_[c]->setNote(state_->dataset() ? QString() : tr("Load data to compute approximation errors."));
    }
}

void ApproximationPanel::drawRows(const std::vector<orbit::ApproxErrorRow>& rows)
{
    if (rows.size() == rows_.size() && !rows.empty())
        return;
    rows_ = rows;
    std::map<int, QList<QPointF>> spectral, frobenius;
    double lo = 1e300, hi = 0.0;
    for (const auto& row : rows) {
        const double a = std::max(row.spectral, 1e-12), b = std::max(row.frobenius, 1e-12);
        spectral[row.r].append(QPointF(row.s, a));
        frobenius[row.r].append(QPointF(row.s, b));
        lo = std::min({lo, a, b});
        hi = std::max({hi, a, b});
    }
    const std::map<int, QList<QPointF>>* data[2] = {&spectral, &frobenius};
    for (int c = 0; c < 2; ++c) {
        for (std::size_t k = 0; k < runR_.size() && k < curves_[c].size(); ++k) {
            const auto it = data[c]->find(runR_[k]);
            curves_[c][k]->replace(it != data[c]->end() ? it->second : QList<QPointF>());
        }
        if (!rows.empty()) {
            const auto [yLo, yHi] = decadeRange(lo, hi);
            axisY_[c]->setRange(yLo, yHi);
        }
    }
}

} // namespace orbitui
