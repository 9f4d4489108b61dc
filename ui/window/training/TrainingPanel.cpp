#include "window/training/TrainingPanel.hpp"

#include "render/SafeText.hpp"
#include "state/LabState.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/CachedHeightLabel.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/FractionBar.hpp"
#include "window/panels/PanelDescriptor.hpp"
#include "window/training/FoldTableModel.hpp"
#include "window/training/LocalityPane.hpp"
#include "window/training/ModelSaver.hpp"
#include "window/training/TrainingCharts.hpp"
#include "window/training/TrainingForm.hpp"
#include "window/training/TrainingRunControl.hpp"

#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"

#include <QChart>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace orbitui {

namespace {

QString metricName(const orbit::TrainResult& r) { return isRmse(r) ? QStringLiteral("RMSE") : QStringLiteral("accuracy"); }

} // namespace

TrainingPanel::TrainingPanel(LabState* state, QWidget* parent)
    : Panel("training", tr("Training"), parent), state_(state), runner_(new TaskRunner("trainer", this)),
      localityPane_(new LocalityPane(state, this)), form_(new TrainingForm(state, localityPane_)),
      control_(new TrainingRunControl(this)), saver_(new ModelSaver(this))
{
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(buildSettings());
    resultTabs_ = new QTabWidget;
    resultTabs_->setDocumentMode(true);
    resultTabs_->addTab(buildResults(), tr("Training results"));
    resultTabs_->addTab(localityPane_->resultsWidget(), tr("Learned locality"));
    splitter->addWidget(resultTabs_);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({350, 1010});
    content()->addWidget(splitter, 1);

    runShortcut_ = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_R), this);
    runShortcut_->setContext(Qt::WindowShortcut);
    runShortcut_->setEnabled(false);
    connect(runShortcut_, &QShortcut::activated, this, [this] { run(); });
    cancelShortcut_ = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    cancelShortcut_->setContext(Qt::WindowShortcut);
    cancelShortcut_->setEnabled(false);
    connect(cancelShortcut_, &QShortcut::activated, this, &TrainingPanel::cancel);
    learnShortcut_ = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    learnShortcut_->setContext(Qt::WindowShortcut);
    learnShortcut_->setEnabled(false);
    connect(learnShortcut_, &QShortcut::activated, this, [this] { learnLocality(); });

    connect(localityPane_, &LocalityPane::learnRequested, this, [this] { learnLocality(); });
    connect(localityPane_, &LocalityPane::progress, this, [this](double fraction, const QString& text) {
        control_->report(fraction, text, false);
        // Seen from the other panels too (the Group and Orbits panels follow the steps).
        emit statusMessage(tr("Learning the locality (%1 %): %2").arg(int(100 * fraction)).arg(text));
    });
    connect(localityPane_, &LocalityPane::stopped, this, [this](const QString& message, const QString& field) {
        if (!message.isEmpty())
            showFieldError(tr("Learning the locality failed: %1").arg(message), field, message);
        // "stopped" only for a cancel, a failure or an abandoned run: a finished learn says so.
        const QString elapsed = control_->elapsedText();
        control_->stop(message.isEmpty() ? 1.0 : 0.0, localityPane_->finished()
                                                          ? tr("Learn locality finished in %1.").arg(elapsed)
                                                          : tr("Learn locality stopped after %1.").arg(elapsed));
        updateEnabled();
    });

    connect(state_, &LabState::datasetChanged, this, [this] {
        refreshOrbitInfo();  // a new kind of data may come with new orbit settings
        if (pending_ && state_->dataset()) {
            const Action action = *pending_;
            pending_.reset();
            action == Action::Learn ? learnLocality() : run();
        }
    });
    connect(state_, &LabState::orbitSettingsChanged, this, &TrainingPanel::refreshOrbitInfo);

    connect(runner_, &TaskRunner::busyChanged, this, &TrainingPanel::setRunning);
    connect(runner_, &TaskRunner::progress, this, [this](quint64, double fraction, const QString& text) {
        control_->report(fraction, text, true);
    });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        clearError();
        draw(v.value<std::shared_ptr<const TrainingResult>>());
    });
    connect(runner_, &TaskRunner::cancelled, this, [this](quint64) {
        control_->stop(0, tr("Cancelled after %1.").arg(control_->elapsedText()) + keptNote());
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString& field) {
        showFieldError(tr("Training failed: %1.%2").arg(message, keptNote()), field, message);
        control_->stop(0, tr("Failed after %1.").arg(control_->elapsedText()) + keptNote());
    });

    connect(saver_, &ModelSaver::busyChanged, this, [this](bool busy) {
        if (busy)
            control_->start(tr("Saving the model…"));
        updateEnabled();
    });
    connect(saver_, &ModelSaver::progress, this, [this](double fraction, const QString& text) {
        control_->report(fraction, text, true);
    });
    connect(saver_, &ModelSaver::saved, this, [this](const QString& message) {
        clearError();
        control_->stop(1, message);
        emit statusMessage(message);
    });
    connect(saver_, &ModelSaver::failed, this, [this](const QString& message, const QString& field) {
        showFieldError(message, field, message);
        control_->stop(0, message);
    });

    connect(control_, &TrainingRunControl::runRequested, this, [this] { run(); });
    connect(control_, &TrainingRunControl::cancelRequested, this, &TrainingPanel::cancel);

    setSettings(TrainingSettings{});
    refreshOrbitInfo();
    updateEnabled();
}

QWidget* TrainingPanel::buildSettings()
{
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(control_->runButton(), 1);
    buttons->addWidget(control_->cancelButton(), 1);

    auto* host = new QWidget;
    auto* layout = new QVBoxLayout(host);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(form_);
    layout->addWidget(localityPane_->settingsWidget());
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(host);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(330);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    form_->markFields(fields());
    // The actions stay in sight under the scrolled settings, on a 720-pixel screen too.
    auto* column = new QWidget;
    auto* columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->addWidget(scroll, 1);
    columnLayout->addLayout(buttons);
    columnLayout->addWidget(localityPane_->actionsWidget());
    columnLayout->addWidget(control_->progressBar());
    columnLayout->addWidget(control_->statusLabel());
    return column;
}

QWidget* TrainingPanel::buildResults()
{
    stack_ = new QStackedWidget;
    auto* hint = new CachedHeightLabel(
        tr("<h2>Training</h2>"
           "<p>Fits a learner on feature maps of the current data and measures it on samples it did not see.</p>"
           "<ol><li>Choose the <b>features</b>: the invariant maps (irf, inystrom, gicdf, kif) average the kernel over "
           "the orbit set in the Group panel; rf and nystrom approximate the plain Gaussian kernel.</li>"
           "<li>Choose a <b>learner</b>, an <b>evaluation</b> and the <b>grid</b> of parameters to search; "
           "to see how the locality of the invariance matters, sweep κ (or σ).</li>"
           "<li>Press <b>Run</b> (Ctrl+R). Esc cancels.</li></ol>"
           "<p>Results appear here: the test score of every fold, the validation score along the grid (with the "
           "log evidence next to it for Bayesian linear regression), the confusion matrix of the classes and the "
           "learning curve. The defaults train on 1000 samples and take seconds.</p>"));
    hint->setWordWrap(true);
    hint->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    hint->setMargin(24);
    hint->setMaximumWidth(720);
    auto* hintHost = new QWidget;
    auto* hintLayout = new QHBoxLayout(hintHost);
    hintLayout->addWidget(hint, 0, Qt::AlignTop);
    hintLayout->addStretch(1);
    stack_->addWidget(hintHost);

    summary_ = new CachedHeightLabel(QString());
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont summaryFont = summary_->font();
    summaryFont.setPointSizeF(summaryFont.pointSizeF() + 1);
    summary_->setFont(summaryFont);
    folds_ = new FoldTableModel(this);
    table_ = new QTableView;
    table_->setModel(folds_);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(tr("Test score of every outer fold at the parameters chosen on its validation split, and "
                          "their mean ± standard deviation."));
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
    scoreChart_ = new ChartBox(new QChart, "training-score");
    scoreChart_->setToolTip(tr("Validation score along the main grid axis (the best over the other axes); for blr the "
                               "log evidence of the inner training part on the right axis."));
    curveChart_ = new ChartBox(new QChart, "learning-curve");
    curveChart_->setToolTip(tr("Test score of the first fold's chosen model against the number of training samples."));
    confusion_ = new ConfusionMatrixView("confusion-matrix");
    confusion_->setToolTip(tr("Test samples by true class (rows) and predicted class (columns), summed over the folds."));

    // The table as tall as its rows, the three pictures side by side below it.
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(scoreChart_);
    charts->addWidget(confusion_);
    charts->addWidget(curveChart_);
    charts->setChildrenCollapsible(false);
    charts->setSizes({340, 340, 340});
    auto* results = new QWidget;
    auto* layout = new QVBoxLayout(results);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(summary_, 1);
    summaryRow->addWidget(saver_->button(), 0, Qt::AlignTop);
    layout->addLayout(summaryRow);
    layout->addWidget(table_);
    layout->addWidget(charts, 1);
    stack_->addWidget(results);
    return stack_;
}

TrainingSettings TrainingPanel::settings() const { return form_->settingsFrom(false); }

void TrainingPanel::setSettings(const TrainingSettings& s)
{
    form_->setSettings(s);
    updateEnabled();
}

void TrainingPanel::refreshOrbitInfo()
{
    form_->refreshOrbitInfo();
    updateEnabled();
}

void TrainingPanel::updateEnabled()
{
    form_->updateEnabled();
    const bool busy = runner_->busy() || localityPane_->busy() || saver_->busy();
    saver_->setBlocked(runner_->busy() || localityPane_->busy());
    control_->setBusy(busy);
    localityPane_->learnButton()->setEnabled(!busy && localityPane_->parameterList()->count() > 0);
}

void TrainingPanel::showEvent(QShowEvent* event)
{
    Panel::showEvent(event);
    runShortcut_->setEnabled(true);
    cancelShortcut_->setEnabled(true);
    learnShortcut_->setEnabled(true);
}

void TrainingPanel::hideEvent(QHideEvent* event)
{
    Panel::hideEvent(event);
    runShortcut_->setEnabled(false);
    cancelShortcut_->setEnabled(false);
    learnShortcut_->setEnabled(false);
}

bool TrainingPanel::isIdle() const
{
    // An action waiting for the dataset (pending_) is the one thing the scheduler does not hold.
    return !pending_ && Panel::isIdle();
}

QString TrainingPanel::statusText() const { return control_->statusText(); }

QString TrainingPanel::resultText() const
{
    return last_ ? resultText_ : QString();
}

void TrainingPanel::showRestored(const QString& trained, const QString& learned, const LearnPicture& picture)
{
    if (!isIdle())
        return;
    if (!trained.isEmpty()) {
        // The score is the first line; the whole text is the tooltip.
        control_->stop(1.0, tr("From the last session: %1").arg(trained.section('\n', 0, 0)));
        control_->statusLabel()->setToolTip(trained);
    }
    if (!learned.isEmpty() || !picture.empty())
        localityPane_->restore(learned, picture);
    if (!picture.empty() && !last_)
        resultTabs_->setCurrentIndex(1);
}
QLineEdit* TrainingPanel::specEdit() const { return form_->specEdit(); }
bool TrainingPanel::showsResults() const { return stack_->currentIndex() == 1; }

bool TrainingPanel::run()
{
    if (saver_->busy())
        return false;  // Run is disabled while a model is saved; Ctrl+R waits too
    const auto ds = state_->dataset();
    if (!ds) {
        showError(tr("Load a labelled dataset first (File ▸ Open data…)."));
        return false;
    }
    if (!ds->isClassification() && !ds->isRegression()) {
        showError(tr("%1 has no labels or targets: training needs classes or energies to learn.")
                      .arg(QFileInfo(QString::fromStdString(ds->source)).fileName()));
        return false;
    }
    refreshOrbitInfo();  // the sweep axes of the orbit settings in force now
    TrainingRequest request;
    request.dataset = ds;
    try {
        const TrainingSettings s = form_->settingsFrom(true);
        if (evaluationOf(QString::fromStdString(s.eval)) == orbit::EvaluationKind::Folds && ds->folds.empty())
            throw orbit::SpecError("eval", "these data have no folds of their own; choose hold-out or k-fold", s.eval);
        checkTrainingKernel(s);  // one bandwidth for a kernel the grid does not search
        form_->remember(s);
        request.config = makeTrainConfig(s, state_->orbitSettings());
        if (const auto perClass = perClassTrainConfig(s, state_->orbitSettings())) {  // a per-class learn's result
            request.config = *perClass;
            request.distPerClass = state_->orbitSettings().distPerClass;
        }
        request.config.validate();
        request.subset = static_cast<std::size_t>(s.subset);
        const bool sweeps = std::any_of(request.config.grid.begin(), request.config.grid.end(),
                                        [&](const orbit::ParamAxis& a) { return a.name == s.localityAxis; });
        request.mainAxis = sweeps ? s.localityAxis : std::string();
    } catch (const orbit::SpecError& e) {
        showFieldError(tr("Cannot run: %1").arg(QString::fromUtf8(e.what())), QString::fromStdString(e.field()),
                       QString::fromUtf8(e.what()), true);
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot run: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    clearError();
    control_->start(tr("Starting…"));
    runner_->submit(makeTrainingTask(std::move(request)));
    return true;
}

bool TrainingPanel::learnLocality()
{
    if (runner_->busy() || localityPane_->busy() || saver_->busy())
        return false;
    try {
        const TrainingSettings s = form_->settingsFrom(true);
        localityPane_->start(s);
        form_->remember(s);
    } catch (const orbit::SpecError& e) {
        showFieldError(tr("Cannot learn the locality: %1").arg(QString::fromUtf8(e.what())),
                       QString::fromStdString(e.field()), QString::fromUtf8(e.what()), true);
        return false;
    } catch (const std::exception& e) {
        showError(tr("Cannot learn the locality: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    clearError();
    control_->start(tr("Learning the locality…"));
    resultTabs_->setCurrentIndex(1);
    updateEnabled();
    return true;
}

void TrainingPanel::cancel()
{
    if (localityPane_->busy()) {
        localityPane_->cancel();
        return;
    }
    if (saver_->busy()) {
        saver_->runner()->cancel();
        return;
    }
    if (!runner_->busy())
        return;
    runner_->cancel();  // announces cancelled(id); the worker stops at the core's next progress report
}

QString TrainingPanel::keptNote() const
{
    return last_ ? tr(" The results of the previous run are still shown.") : QString();
}

void TrainingPanel::startForExport(const ExportStart& start)
{
    runWhenDataReady();
    start.ifLoadFails([this] { dropPendingRun(); });
}

void TrainingPanel::runWhenDataReady(Action action)
{
    if (!state_->dataset())
        pending_ = action;
    else if (action == Action::Learn)
        learnLocality();
    else
        run();
}

void TrainingPanel::setRunning(bool)
{
    updateEnabled();
}

void TrainingPanel::draw(std::shared_ptr<const TrainingResult> result)
{
    if (!result)
        return;
    last_ = result;
    saver_->setResult(result);
    ++draws_;
    const orbit::TrainResult& r = result->result;
    control_->stop(1, tr("Finished in %1.").arg(durationText(r.seconds)));
    const TrainingRequest& q = result->request;
    const QString data = safeText(QFileInfo(QString::fromStdString(q.dataset->source)).fileName(), orbit::kQuoteMaxChars);
    const QString metric = isRmse(r) ? tr("test RMSE") : tr("test accuracy");
    // RMSE and MAE are in the targets' unit, when the data states one.
    const QString unit = QString::fromStdString(q.dataset->targetUnit);
    const QString unitSuffix = isRmse(r) && !unit.isEmpty() ? " " + unit.toHtmlEscaped() : QString();
    QString score = r.folds.size() == 1
                        ? tr("<b>%1 %2%3</b> on one held-out split").arg(metric, scoreText(r, r.mean), unitSuffix)
                        : tr("<b>%1 %2 ± %3%4</b> over %5 folds")
                              .arg(metric, scoreText(r, r.mean), scoreText(r, r.stddev), unitSuffix)
                              .arg(r.folds.size());
    if (isRmse(r))
        score += tr(" · MAE %1%2").arg(QString::number(r.mae, 'f', 2), unitSuffix);
    if (r.logEvidence)
        score += tr(" · log evidence %1").arg(*r.logEvidence, 0, 'g', 6);
    // The exact kernel machines have no features: their spec says what they use.
    const QString features = r.featureDim > 0 ? tr(" (%1 features)").arg(r.featureDim) : QString();
    summary_->setText(tr("%1<br>%2 of %3 samples of %4 · %5%6%7 · %8 · %9")
                          .arg(score)
                          .arg(result->samples)
                          .arg(q.dataset->count())
                          .arg(data.toHtmlEscaped(), QString::fromStdString(r.featureSpec).toHtmlEscaped(), features)
                          .arg(q.config.group.empty()
                                   ? QString()
                                   : tr(" over %1, %2").arg(QString::fromStdString(q.config.group),
                                                            QString::fromStdString(q.config.dist).toHtmlEscaped()))
                          .arg(QString::fromStdString(q.config.learner), durationText(r.seconds)));
    const orbit::LearnerDescriptor* learner = orbit::findLearner(q.config.learner);
    if (result->curve.x.size() < 2 && !(learner && learner->gaussianProcess))  // the GP fits its own: no grid
        summary_->setText(summary_->text() +
                          tr("<br><i>One grid point only, so no score curve: list several values of λ, C or the "
                             "bandwidth, or sweep a distribution parameter.</i>"));
    // In words once per result (the working state asks for it at every autosave poll).
    resultText_ = QTextDocumentFragment::fromHtml(summary_->text()).toPlainText();
    drawTable(*result);
    drawScoreChart(scoreChart_, result->result, result->curve, unit);
    drawConfusion(*result);
    drawLearningCurve(curveChart_, result->result, unit);
    if (orbit::isExactKernelSpec(q.config.features))
        curveChart_->setNote(tr("The exact kernel machines draw no learning curve."));
    stack_->setCurrentIndex(1);
    resultTabs_->setCurrentIndex(0);
    emit statusMessage(tr("Training finished: %1 %2%3").arg(metricName(r), scoreText(r, r.mean), unitSuffix));
}

void TrainingPanel::drawTable(const TrainingResult& result)
{
    folds_->setResult(result.result, QString::fromStdString(result.request.dataset->targetUnit));
    table_->resizeColumnsToContents();
    table_->resizeRowsToContents();
    int height = table_->horizontalHeader()->height() + 2 * table_->frameWidth() + 2;
    for (int row = 0; row < std::min(folds_->rowCount(), 7); ++row)
        height += table_->rowHeight(row);
    table_->setFixedHeight(height);
}

QStringList TrainingPanel::exportCharts(const QString& dir, QString* error) const
{
    QStringList written;
    if (!last_)
        return written;
    if (last_->curve.x.size() >= 2 &&
        !writeChartCsv(dir, scoreChart_->baseName() + ".csv", scoreChart_->csv(), &written, error))
        return written;
    if (!writeChartCsv(dir, curveChart_->baseName() + ".csv", curveChart_->csv(), &written, error))
        return written;
    if (!isRmse(last_->result) && last_->result.confusion.rows() > 0)
        writeChartCsv(dir, confusion_->baseName() + ".csv", confusion_->csv(), &written, error);
    return written;
}

void TrainingPanel::drawConfusion(const TrainingResult& result)
{
    const orbit::TrainResult& r = result.result;
    const bool classes = !isRmse(r) && r.confusion.rows() > 0;
    confusion_->setVisible(classes);
    if (!classes)
        return;
    QStringList names;
    for (const std::string& name : result.classNames)
        names << QString::fromStdString(name);
    confusion_->setMatrix(r.confusion, names, tr("Confusion matrix · %1 test samples").arg(r.confusion.sum()));
}

} // namespace orbitui
