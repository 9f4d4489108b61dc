#include "window/kernels/KernelsPanel.hpp"

#include "state/LabState.hpp"
#include "state/SweepPacer.hpp"
#include "state/workers/KernelTasks.hpp"
#include "widgets/AutoApplyControl.hpp"
#include "widgets/CachedHeightLabel.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/FlowLayout.hpp"
#include "widgets/HeatmapView.hpp"
#include "widgets/KernelEditor.hpp"
#include "widgets/RegistryControls.hpp"
#include "widgets/TaskProgress.hpp"
#include "window/panels/PanelDescriptor.hpp"

#include "orbit/features/MatrixIo.hpp"
#include "orbit/registry/Figures.hpp"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QKeySequence>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace orbitui {

void showKernelMatrix(HeatmapView& view, const Eigen::MatrixXd& m, const KernelResult& r)
{
    // Classes form labelled blocks. Points ordered by target get numeric ticks of the target along
    // both axes and its unit in the axis captions (the labels, from sampleCaption, carry it too).
    const orbit::Dataset& ds = *r.request.dataset;
    std::vector<double> targets;
    QString caption;
    if (ds.isRegression()) {
        for (std::size_t i : r.indices)
            targets.push_back(ds.targets[i]);
        const QString unit = QString::fromStdString(ds.targetUnit);
        caption = unit.isEmpty() ? QObject::tr("target") : QObject::tr("target (%1)").arg(unit);
    }
    view.setMatrix(m, r.labels, r.labels);
    view.setAxisValues(targets, targets);
    view.setAxisCaptions(caption, caption);
}

namespace {

const char* const kFileNames[] = {"kernel-base", "kernel-invariant", "kernel-approximation", "kernel-difference"};

/// The approximation in a title: "invariant random Fourier" (the registry's words).
QString methodTitle(const std::string& method)
{
    const orbit::ApproximationDescriptor* a = orbit::findApproximation(method);
    return QString::fromStdString(a ? a->inWords : method);
}

/// The caption of a figure setting: its label, its doc as the tooltip.
QLabel* caption(const orbit::ParamDescriptor& p)
{
    auto* label = new QLabel(QString::fromStdString(p.label));
    label->setToolTip(QString::fromStdString(p.doc));
    return label;
}

/// A flat button under a heatmap.
QPushButton* flatButton(const QString& text, const char* objectName, const QString& toolTip)
{
    auto* button = new QPushButton(text);
    button->setObjectName(objectName);
    button->setToolTip(toolTip);
    button->setFlat(true);
    return button;
}

} // namespace

KernelsPanel::KernelsPanel(LabState* state, QWidget* parent)
    : Panel("kernels", tr("Kernels"), parent), state_(state), runner_(new TaskRunner("kernels", this)),
      n_(new QSpinBox), r_(new QSpinBox), method_(new QComboBox), s_(new QSpinBox), kernel_(new KernelEditor),
      bandwidth_(new QDoubleSpinBox),
      auto_(new AutoApplyControl(this)),
      progress_(new TaskProgress(tr("Stop computing these matrices; the ones drawn stay."), true)),
      summary_(new CachedHeightLabel(QString()))
{
    // Ranges, words and defaults: the registry's Kernels figure (orbit/registry/Figures.hpp).
    const orbit::FigureDescriptor& figure = orbit::kernelsFigure();
    configureControls(figure);
    buildControls(figure);
    buildSummaryRow();
    buildHeatmaps();
    applySettings(KernelsSettings{});
    connectControls();
    connectRunner();
    markFields();
    updateRText();
    followSweeps();
}

void KernelsPanel::configureControls(const orbit::FigureDescriptor& figure)
{
    configureCount(n_, figure.setting("n"));
    configureCount(r_, figure.setting("r"));
    r_->setMinimum(0);  // 0: the r of the orbit settings (r's default)
    r_->setMinimumWidth(150);
    const auto approximations = figure.approximations();
    configureChoice(method_, figure.setting("method"), {approximations.begin(), approximations.end()});
    configureCount(s_, figure.setting("s"));
    configureReal(bandwidth_, figure.setting("bandwidth"));
    bandwidth_->setSingleStep(0.1);
}

void KernelsPanel::buildControls(const orbit::FigureDescriptor& figure)
{
    // One line on a wide screen; wraps (Compute included) on a narrow one or in presentation mode.
    auto* controls = new FlowLayout;
    controls->addWidget(flowGroup(caption(figure.setting("n")), {n_}));
    controls->addWidget(flowGroup(caption(figure.setting("r")), {r_}));
    controls->addWidget(flowGroup(caption(figure.setting("method")), {method_}));
    controls->addWidget(flowGroup(caption(figure.setting("s")), {s_}));
    auto* kernelCaption = new QLabel(tr("Base kernel"));
    kernelCaption->setToolTip(kernel_->kernelBox()->toolTip());
    controls->addWidget(flowGroup(kernelCaption, {kernel_}));
    controls->addWidget(flowGroup(caption(figure.setting("bandwidth")), {bandwidth_}));
    controls->addStretch();
    controls->addWidget(progress_);
    controls->addWidget(auto_);
    content()->addLayout(controls);
    sweepNote_ = new QLabel;
    sweepNote_->setWordWrap(true);
    sweepNote_->setStyleSheet("color: #8a5a00;");
    sweepNote_->hide();
    content()->addWidget(sweepNote_);
}

void KernelsPanel::buildSummaryRow()
{
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(summary_, 1);
    auto* featuresButton = new QPushButton(tr("Features ψ CSV/.npy…"));
    featuresButton->setObjectName("export-features");
    featuresButton->setToolTip(tr("Save the feature matrix ψ of the N points (one row per point, in heatmap order) "
                                  "as CSV or NumPy .npy"));
    summaryRow->addWidget(featuresButton, 0, Qt::AlignTop);
    content()->addLayout(summaryRow);
    connect(featuresButton, &QPushButton::clicked, this, [this] {
        saveAs(tr("Export features"), QStringLiteral("features.csv"), tr("CSV (*.csv);;NumPy (*.npy)"),
               [this](const QString& path) { return exportFeatures(path); });
    });
}

void KernelsPanel::buildHeatmaps()
{
    auto* grid = new QGridLayout;
    grid->setSpacing(6);
    for (int m = 0; m < 4; ++m) {
        auto* view = new HeatmapView;
        view->setAxisNames("i", "j", "k");
        view->setPlaceholder(tr("Load data to see kernel matrices."));
        view->setToolTip(QString());
        heatmaps_[static_cast<std::size_t>(m)] = view;
        auto* box = new QWidget;
        auto* boxLayout = new QVBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        boxLayout->setSpacing(0);
        boxLayout->addWidget(view, 1);
        boxLayout->addLayout(buildHeatmapButtons(static_cast<Matrix>(m)));
        grid->addWidget(box, m / 2, m % 2);
    }
    content()->addLayout(grid, 1);
    heatmaps_[Difference]->setColorMap(HeatmapView::ColorMap::Diverging);
}

QLayout* KernelsPanel::buildHeatmapButtons(Matrix which)
{
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    auto* matrixButton = flatButton(tr("Matrix CSV/.npy…"), "export-matrix",
                                    tr("Save the numbers of this matrix as CSV or NumPy .npy"));
    auto* pngButton = flatButton(tr("PNG…"), "export-png", tr("Save this heatmap as a PNG picture"));
    buttons->addWidget(matrixButton);
    buttons->addWidget(pngButton);
    buttons->addStretch();
    connect(matrixButton, &QPushButton::clicked, this, [this, which] {
        saveAs(tr("Export matrix"), QString(kFileNames[which]) + ".csv", tr("CSV (*.csv);;NumPy (*.npy)"),
               [this, which](const QString& path) { return exportMatrix(which, path); });
    });
    connect(pngButton, &QPushButton::clicked, this, [this, which] {
        saveAs(tr("Export heatmap"), QString(kFileNames[which]) + ".png", tr("PNG image (*.png)"),
               [this, which](const QString& path) {
                   return heatmaps_[which]->exportPng(path) ? QString() : tr("Could not write %1").arg(path);
               });
    });
    return buttons;
}

void KernelsPanel::saveAs(const QString& title, const QString& fileName, const QString& filter,
                          const std::function<QString(const QString& path)>& write)
{
    const QString path = QFileDialog::getSaveFileName(this, title, fileName, filter);
    if (path.isEmpty())
        return;
    const QString error = write(path);
    if (!error.isEmpty())
        showError(error);
}

void KernelsPanel::connectControls()
{
    for (QSpinBox* box : {n_, r_, s_})
        connect(box, &QSpinBox::valueChanged, this, &KernelsPanel::settingsChanged);
    connect(bandwidth_, &QDoubleSpinBox::valueChanged, this, &KernelsPanel::settingsChanged);
    connect(method_, &QComboBox::currentIndexChanged, this, &KernelsPanel::settingsChanged);
    connect(kernel_, &KernelEditor::changed, this, [this] {
        bandwidth_->setEnabled(kernel_->usesMedian());  // a fixed σ or the polynomial: no median multiple
        settingsChanged();
    });
    connect(auto_, &AutoApplyControl::applyRequested, this, &KernelsPanel::compute);
    connect(state_, &LabState::datasetChanged, this, [this] {
        for (HeatmapView* v : heatmaps_) {
            v->clear();
            v->setPlaceholder(tr("Load data to see kernel matrices."));
        }
        last_.reset();
        settingsChanged();
    });
    connect(state_, &LabState::orbitSettingsChanged, this, [this] {
        updateRText();
        settingsChanged();
    });
}

void KernelsPanel::connectRunner()
{
    connect(runner_, &TaskRunner::busyChanged, progress_, &TaskProgress::setRunning);
    connect(progress_, &TaskProgress::cancelClicked, this, &KernelsPanel::cancel);
    connect(runner_, &TaskRunner::progress, progress_,
            [this](quint64, double f, const QString& text) { progress_->setFraction(f, text); });
    // Drawn now in sight, else kept until shown (Panel::whenInSight).
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        whenInSight(0, [this, result = v.value<std::shared_ptr<const KernelResult>>()] {
            clearError();
            draw(result);
        });
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        dropKept(0);  // older than the failure: never drawn over its message
        showFieldError(tr("Cannot compute the kernel matrices: %1").arg(message), field, message);
        if (!last_)  // the data are there: the setting was refused
            for (HeatmapView* v : heatmaps_)
                v->setPlaceholder(tr("Not computed: the setting above was refused."));
    });
}

void KernelsPanel::markFields()
{
    // The controls of the core's fields (orbit/util/Error.hpp).
    fields()->add("points", n_);
    fields()->add("r", r_);
    fields()->add("features", s_);  // the size of the map; its other keys are fixed by the method
    fields()->add("kernel", kernel_->kernelBox());  // "kernel laplacian.sigma" too: the kernel it names
    fields()->add("bandwidth", bandwidth_);
}

void KernelsPanel::followSweeps()
{
    // Parameter sweeps: follow them live for small N (the sweep waits for these matrices), else
    // hold the change until the sweep stops.
    SweepPacer* pacer = SweepPacer::of(state_);
    pacer->follow(this, [this] { return followsSweep() && !isSweepFrameDone(); });
    connect(pacer, &SweepPacer::playingChanged, this, [this](bool playing) {
        updateSweepNote();
        if (!playing && sweepHeld_) {
            sweepHeld_ = false;
            settingsChanged();
        }
    });
    connect(n_, &QSpinBox::valueChanged, this, &KernelsPanel::updateSweepNote);
}

bool KernelsPanel::followsSweep() const
{
    const auto ds = state_->dataset();
    const int n = ds ? std::min(n_->value(), static_cast<int>(ds->count())) : n_->value();
    return n <= kSweepFollowMaxN;
}

void KernelsPanel::updateSweepNote()
{
    const bool held = SweepPacer::of(state_)->isPlaying() && !followsSweep();
    sweepNote_->setText(tr("The kernel matrices do not follow the sweep for N > %1 (N = %2): they are recomputed when "
                           "it stops. Set N ≤ %1 to watch them change live.")
                            .arg(kSweepFollowMaxN)
                            .arg(n_->value()));
    sweepNote_->setVisible(held);
}

KernelsSettings KernelsPanel::settings() const
{
    KernelsSettings s;
    s.n = n_->value();
    s.r = r_->value();
    s.method = method_->currentData().toString();
    s.s = s_->value();
    s.kernel = kernel_->choice();
    s.bandwidth = bandwidth_->value();
    s.autoApply = auto_->autoApply();
    return s;
}

void KernelsPanel::applySettings(const KernelsSettings& s)
{
    // One recomputation for the whole change, not one per control.
    const QSignalBlocker b1(n_), b2(r_), b3(method_), b4(s_), b5(bandwidth_);
    n_->setValue(s.n);
    r_->setValue(s.r);
    const int m = method_->findData(s.method);
    method_->setCurrentIndex(m >= 0 ? m : 0);
    s_->setValue(s.s);
    kernel_->setChoice(s.kernel);
    bandwidth_->setEnabled(kernel_->usesMedian());
    bandwidth_->setValue(s.bandwidth);
    auto_->setAutoApply(s.autoApply);
    settingsChanged();
}

void KernelsPanel::updateRText()
{
    r_->setSpecialValueText(tr("as in Orbits (%1)").arg(state_->orbitSettings().r));
}

void KernelsPanel::settingsChanged()
{
    if (!state_->dataset())
        return;
    if (!auto_->autoApply() && last_)
        summary_->setText(summaryText() + tr("  <i>(settings changed: press Compute)</i>"));
    if (SweepPacer::of(state_)->isPlaying()) {
        if (!followsSweep()) {
            sweepHeld_ = true;
            return;
        }
        auto_->applyNow();  // a frame of a sweep: no debounce, the sweep waits for the result
        return;
    }
    auto_->markChanged();
}

void KernelsPanel::startForExport(const ExportStart& start)
{
    if (!settings().autoApply)
        start.whenData([this] { compute(); });
}

void KernelsPanel::compute()
{
    const auto ds = state_->dataset();
    if (!ds)
        return;
    KernelRequest req = kernelRequest(settings(), state_->orbitSettings(), ds->count());
    req.dataset = ds;
    runner_->submit(makeKernelTask(std::move(req)));
}

void KernelsPanel::cancel()
{
    if (!runner_->busy())
        return;
    runner_->cancel();
    summary_->setText(summaryText() + tr("  <i>(cancelled: press Compute)</i>"));
}

QPushButton* KernelsPanel::cancelButton() const { return progress_->cancelButton(); }


QString KernelsPanel::summaryText() const
{
    if (!last_)
        return {};
    const KernelResult& r = *last_;
    const bool byTarget = r.request.dataset->isRegression();
    return tr("N = %1 points (ordered by %11), base kernel %2, group %3 with %4, r = %5.  "
              "<b>Relative error of the %6 map (%7): Frobenius %8, spectral %9.</b>  Computed in %10 s.")
        .arg(r.indices.size())
        .arg(describeKernel(r.kernelSpec),
             QString::fromStdString(r.request.settings.groupSpec()),
             QString::fromStdString(r.request.settings.distSpec()))
        .arg(r.request.r)
        .arg(methodTitle(r.request.method), QString::fromStdString(r.request.featureSpec()))
        .arg(r.frobenius, 0, 'f', 3)
        .arg(r.spectral, 0, 'f', 3)
        .arg(r.seconds, 0, 'f', 2)
        .arg(byTarget ? tr("target") : tr("label"));
}

void KernelsPanel::draw(std::shared_ptr<const KernelResult> result)
{
    last_ = result;
    const KernelResult& r = *result;
    // One colour scale for the three kernels so they compare at a glance.
    // GICDF approximates a kernel of its own, on another scale: it keeps its own colour range.
    const orbit::ApproximationDescriptor* approximation = orbit::findApproximation(r.request.method);
    const bool ownScale = approximation && approximation->ownKernel;
    const double lo = std::min({r.base.minCoeff(), r.invariant.minCoeff(), ownScale ? 1e300 : r.approx.minCoeff()});
    const double hi = std::max({r.base.maxCoeff(), r.invariant.maxCoeff(), ownScale ? -1e300 : r.approx.maxCoeff()});
    const std::array<const Eigen::MatrixXd*, 4> matrices{&r.base, &r.invariant, &r.approx, &r.difference};
    const std::array<QString, 4> titles{
        tr("Base kernel k(xᵢ, xⱼ), %1").arg(describeKernel(r.kernelSpec)),
        tr("Invariant kernel k_qG, Monte Carlo, r = %1").arg(r.request.r),
        tr("Approximation ⟨ψ(xᵢ), ψ(xⱼ)⟩: %1, s = %2").arg(methodTitle(r.request.method)).arg(r.request.s),
        tr("Difference approximation − k_qG (rel. Frobenius %1)").arg(r.frobenius, 0, 'f', 3)};
    for (int m = 0; m < 4; ++m) {
        HeatmapView* view = heatmaps_[static_cast<std::size_t>(m)];
        if (m == Difference || (m == Approximation && ownScale))
            view->setAutoRange();
        else
            view->setRange(lo, hi);
        showKernelMatrix(*view, *matrices[static_cast<std::size_t>(m)], r);
        view->setTitle(titles[static_cast<std::size_t>(m)]);
    }
    QString text = summaryText();
    if (const orbit::ApproximationDescriptor* a = orbit::findApproximation(r.request.method); a && a->ownKernel)
        text += tr("  %1 approximates its own CDF kernel, not k_qG: the difference shows how the two differ.")
                    .arg(QString::fromStdString(a->displayName));
    summary_->setText(text);
    emit statusMessage(tr("Kernel matrices computed in %1 s").arg(r.seconds, 0, 'f', 2));
    emit resultDrawn();
}

QString KernelsPanel::exportMatrix(Matrix which, const QString& path) const
{
    if (!last_)
        return tr("Nothing to export yet: compute the kernels first.");
    const std::array<const Eigen::MatrixXd*, 4> matrices{&last_->base, &last_->invariant, &last_->approx,
                                                         &last_->difference};
    const Eigen::MatrixXd& M = *matrices[which];
    try {
        if (path.endsWith(".csv", Qt::CaseInsensitive))
            orbit::writeCsv(path.toStdString(), M);
        else
            orbit::writeMatrix(path.toStdString(), orbit::MatrixXfR(M.cast<float>()));
    } catch (const std::exception& e) {
        return tr("Could not export the matrix: %1").arg(QString::fromUtf8(e.what()));
    }
    return {};
}

QStringList KernelsPanel::exportCharts(const QString& dir, QString* error) const
{
    drawKept();
    QStringList written;
    if (!last_)
        return written;
    for (int m = 0; m < 4; ++m) {
        const QString path = QDir(dir).filePath(QString(kFileNames[m]) + ".csv");
        const QString failure = exportMatrix(static_cast<Matrix>(m), path);
        if (!failure.isEmpty()) {
            if (error)
                *error = failure;
            break;
        }
        written << path;
    }
    return written;
}

QString KernelsPanel::exportFeatures(const QString& path) const
{
    if (!last_)
        return tr("Nothing to export yet: compute the kernels first.");
    try {
        if (path.endsWith(".csv", Qt::CaseInsensitive))
            orbit::writeCsv(path.toStdString(), last_->features);
        else
            orbit::writeMatrix(path.toStdString(), last_->features);
    } catch (const std::exception& e) {
        return tr("Could not export the features: %1").arg(QString::fromUtf8(e.what()));
    }
    return {};
}

} // namespace orbitui
