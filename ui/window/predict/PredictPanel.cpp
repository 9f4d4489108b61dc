#include "window/predict/PredictPanel.hpp"

#include "render/SafeText.hpp"
#include "render/SampleImage.hpp"
#include "state/LabState.hpp"
#include "state/workers/PredictTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/DrawCanvas.hpp"
#include "widgets/ScoreBars.hpp"
#include "window/predict/PredictChart.hpp"
#include "window/predict/PredictPictures.hpp"

#include <QBuffer>
#include <QButtonGroup>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QRadioButton>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <cmath>

namespace orbitui {

using predict::enlarged;
using predict::pngOf;

namespace {

QString axisTitle(const QString& parameter)
{
    if (parameter == "rotation")
        return QObject::tr("rotation (degrees, counter-clockwise)");
    if (parameter == "scale")
        return QObject::tr("scale (zoom factor)");
    if (parameter == "permutation")
        return QObject::tr("shuffle of the atoms (0: as in the file)");
    return QObject::tr("%1 (pixels)").arg(parameter);
}

} // namespace

PredictPanel::PredictPanel(LabState* state, QWidget* parent)
    : Panel("predict", tr("&Predict"), parent), state_(state), inputRunner_(new TaskRunner("predict-input", this)),
      answerRunner_(new TaskRunner("predict-answer", this)), sweepRunner_(new TaskRunner("predict-sweep", this))
{
    setAcceptDrops(true);
    for (std::size_t m = 0; m < 2; ++m)
        modelRunners_[m] = new TaskRunner(QStringLiteral("predict-model-%1").arg(m == 0 ? "a" : "b"), this);
    chart_ = new PredictChart(this);
    // The chart's "Data CSV…" writes what --export writes for B: the CLI's sweep CSV.
    chart_->box()->setCsvSource([this] { return sweepCsv(sweep_ && sweep_->results[1] ? 1 : 0); });

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Move the input by")));
    parameter_ = new QComboBox;
    parameter_->setObjectName("predictParameter");
    top->addWidget(parameter_);
    slider_ = new QSlider(Qt::Horizontal);
    slider_->setObjectName("predictSlider");
    top->addWidget(slider_, 1);
    valueText_ = new QLabel;
    valueText_->setMinimumWidth(90);
    top->addWidget(valueText_);
    content()->addLayout(top);
    molecule_ = buildMolecule();
    content()->addWidget(molecule_);

    auto* answers = new QWidget;
    auto* answersLayout = new QVBoxLayout(answers);
    answersLayout->setContentsMargins(0, 0, 0, 0);
    bars_ = new ScoreBars;
    answersLayout->addWidget(bars_, 1);
    answersLayout->addWidget(buildModels());

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(buildInput());
    split->addWidget(answers);
    split->addWidget(chart_->box());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 3);
    split->setSizes({220, 400, 500});  // the middle column fits a value with its interval at 1280 x 720
    content()->addWidget(split, 1);
    status_ = new QLabel;
    status_->setTextFormat(Qt::PlainText);
    status_->setWordWrap(true);
    content()->addWidget(status_);

    connect(parameter_, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        if (applying_ || text.isEmpty())
            return;
        settings_.parameter = text;
        parameterChanged();
    });
    connect(slider_, &QSlider::valueChanged, this, [this] {
        if (!applying_)
            sliderMoved();
    });
    connect(state_, &LabState::datasetChanged, this, &PredictPanel::datasetChanged);
    connect(state_, &LabState::selectionChanged, this, [this](int index) {
        if (row_->value() != index) {
            row_->blockSignals(true);
            row_->setValue(index);
            row_->blockSignals(false);
        }
        updateMolecule();
        if (settings_.input == "row") {
            inputStale_ = true;
            refresh();
        }
    });
    auto* paste = new QShortcut(QKeySequence::Paste, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(paste, &QShortcut::activated, this, [this] {
        const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
        if (mime && mime->hasImage())
            pasteImage(qvariant_cast<QImage>(mime->imageData()));
        else if (mime && mime->hasUrls() && mime->urls().front().isLocalFile())
            openImage(mime->urls().front().toLocalFile());
    });
    connectRunners();
    parameterChanged();
}

PredictPanel::~PredictPanel() = default;

void PredictPanel::connectRunners()
{
    connect(inputRunner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        input_ = v.value<std::shared_ptr<const PredictInput>>();
        inputNote_->setText(input_->note.isEmpty() ? QString() : tr("Note: %1").arg(input_->note));
        succeed("input");
        sweep_.reset();
        requestSweep();
        requestAnswer();
    });
    connect(inputRunner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        fail("input", tr("The input cannot be read: %1").arg(message));
    });
    for (std::size_t m = 0; m < 2; ++m) {
        connect(modelRunners_[m], &TaskRunner::progress, this, [this, m](quint64, double f, const QString& text) {
            modelLabels_[m]->setText(tr("%1 %2 %").arg(text).arg(int(100 * f)));  // a run's model is refitted
        });
        connect(modelRunners_[m], &TaskRunner::finished, this, [this, m](quint64, const QVariant& v) {
            models_[m] = v.value<std::shared_ptr<const PredictModel>>();
            modelLabels_[m]->setText(models_[m]->name);
            succeed(m == 0 ? "A" : "B");
            requestSweep();
            requestAnswer();
        });
        connect(modelRunners_[m], &TaskRunner::failed, this, [this, m](quint64, const QString& message, const QString&) {
            models_[m].reset();
            modelLabels_[m]->setText(tr("none"));
            const QString path = m == 0 ? settings_.modelA : settings_.modelB;
            fail(m == 0 ? "A" : "B", tr("Model %1 (%2) cannot be used: %3")
                                         .arg(m == 0 ? "A" : "B", path.isEmpty() ? tr("the run") : QFileInfo(path).fileName(), message));
            requestSweep();
            requestAnswer();
        });
    }
    connect(answerRunner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        drawAnswer(v.value<std::shared_ptr<const PredictAnswer>>());
    });
    connect(answerRunner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        fail("answer", tr("No answer: %1").arg(message));
    });
    connect(sweepRunner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        sweep_ = v.value<std::shared_ptr<const PredictAnswer>>();
        std::array<QString, 2> names{modelName(0), modelName(1)};
        QStringList labels;
        for (const auto& model : models_)
            if (model && labels.isEmpty() && model->predictor->model().isClassification())
                for (int c = 0; c < model->predictor->model().outputs(); ++c)
                    labels << QString::fromStdString(model->predictor->model().labelText(c));
        chart_->draw(*sweep_, labels, names, axisTitle(settings_.parameter));
        chart_->setMarker(settings_.t);
    });
    connect(sweepRunner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        chart_->clear(tr("No sweep: %1").arg(message));
    });
}


void PredictPanel::cancel()
{
    for (TaskRunner* r : {inputRunner_, answerRunner_, sweepRunner_, modelRunners_[0], modelRunners_[1]})
        r->cancel();
}

PredictSettings PredictPanel::settings() const { return settings_; }

void PredictPanel::applySettings(const PredictSettings& s)
{
    const bool modelsChanged = s.modelA != settings_.modelA || s.modelB != settings_.modelB;
    const bool inputChanged = s.input != settings_.input || s.drawn != settings_.drawn || s.imageFile != settings_.imageFile ||
                              s.swap != settings_.swap || s.jitter != settings_.jitter;
    const bool parameterChanged = s.parameter != settings_.parameter;
    settings_ = s;
    applying_ = true;
    const int id = s.input == "drawn" ? 1 : s.input == "file" ? 2 : 0;
    source_->button(id)->setChecked(true);
    inputStack_->setCurrentIndex(id);
    if (!s.drawn.isEmpty()) {
        QImage image;
        image.loadFromData(s.drawn, "PNG");
        canvas_->blockSignals(true);
        canvas_->setImage(image);
        canvas_->blockSignals(false);
    } else {
        canvas_->blockSignals(true);
        canvas_->clear();
        canvas_->blockSignals(false);
    }
    filePicture_->setPixmap(s.imageFile.isEmpty() ? QPixmap() : enlarged(QImage(s.imageFile), 160));
    applying_ = false;
    updateMolecule();
    if (parameterChanged || parameter_->currentText() != s.parameter) {
        const double t = s.t;
        this->parameterChanged();
        settings_.t = t;
    }
    setValue(settings_.t);
    if (modelsChanged)
        modelStale_ = {true, true};
    if (inputChanged)
        inputStale_ = true;
    refresh();
}

void PredictPanel::setRunSources(std::function<std::shared_ptr<const TrainingResult>()> runB,
                                 std::function<std::shared_ptr<const TrainingResult>()> runA)
{
    runB_ = std::move(runB);
    runA_ = std::move(runA);
    runsChanged();
}

void PredictPanel::runsChanged()
{
    const std::array<std::shared_ptr<const TrainingResult>, 2> now{runA_ ? runA_() : nullptr, runB_ ? runB_() : nullptr};
    for (std::size_t m = 0; m < 2; ++m) {
        const QString& path = m == 0 ? settings_.modelA : settings_.modelB;
        if (path.isEmpty() && now[m] != runs_[m])
            modelStale_[m] = true;
    }
    refresh();
}

void PredictPanel::setValue(double t)
{
    const orbit::SweepRange range = predictSweepRange(settings_.parameter);
    const double step = predictSliderStep(settings_.parameter);
    slider_->setValue(int(std::lround((t - range.values.front()) / step)));
    sliderMoved();
}

void PredictPanel::datasetChanged()
{
    const auto ds = state_->dataset();
    applying_ = true;
    row_->setRange(0, ds ? int(ds->count()) - 1 : 0);
    row_->setValue(state_->selectedIndex());
    const QString parameter = settings_.parameter;
    parameter_->clear();
    const QStringList names = ds ? predictParameters(ds->kind) : QStringList();
    parameter_->addItems(names);
    if (names.isEmpty())
        parameter_->addItem(parameter);  // no data: the session's parameter stays in sight
    if (names.contains(parameter) || names.isEmpty())
        parameter_->setCurrentText(parameter);
    applying_ = false;
    if (ds && ds->kind == orbit::DataKind::Images) {
        const QSize size(ds->shape.width, ds->shape.height);
        if (canvas_->image().size() != size) {
            QImage kept;
            if (!settings_.drawn.isEmpty())
                kept.loadFromData(settings_.drawn, "PNG");
            canvas_->reset(size);
            if (!kept.isNull()) {
                canvas_->blockSignals(true);
                canvas_->setImage(kept);
                canvas_->blockSignals(false);
            }
        }
    }
    updateMolecule();
    if (!names.isEmpty() && !names.contains(parameter)) {
        settings_.parameter = names.front();
        parameterChanged();
    }
    inputStale_ = true;
    modelStale_ = {true, true};
    refresh();
}

void PredictPanel::parameterChanged()
{
    // The combo shows the parameter (one the data cannot take is listed until other data come).
    applying_ = true;
    if (parameter_->findText(settings_.parameter) < 0)
        parameter_->addItem(settings_.parameter);
    parameter_->setCurrentText(settings_.parameter);
    applying_ = false;
    const orbit::SweepRange range = predictSweepRange(settings_.parameter);
    const double step = predictSliderStep(settings_.parameter);
    applying_ = true;
    slider_->setRange(0, int(std::lround((range.values.back() - range.values.front()) / step)));
    slider_->setPageStep(std::max(1, slider_->maximum() / 12));
    applying_ = false;
    settings_.t = predictIdentity(settings_.parameter);
    setValue(settings_.t);
    sweep_.reset();
    requestSweep();
}

void PredictPanel::sliderMoved()
{
    const orbit::SweepRange range = predictSweepRange(settings_.parameter);
    const double step = predictSliderStep(settings_.parameter);
    settings_.t = range.values.front() + slider_->value() * step;
    if (std::abs(settings_.t) < 1e-12)
        settings_.t = 0.0;
    updateValueText();
    chart_->setMarker(settings_.t);
    requestAnswer();
}

void PredictPanel::updateValueText()
{
    const QString p = settings_.parameter;
    const double t = settings_.t;
    valueText_->setText(p == "rotation" ? QStringLiteral("%1°").arg(t)
                        : p == "scale"  ? QStringLiteral("× %1").arg(t, 0, 'f', 2)
                        : p == "permutation" ? (t == 0 ? tr("as in the file") : tr("shuffle %1").arg(t))
                                             : tr("%1 px").arg(t, 0, 'f', 1));
}

void PredictPanel::showEvent(QShowEvent* event)
{
    Panel::showEvent(event);
    runsChanged();
}

void PredictPanel::refresh()
{
    if (!isVisible() || applying_)
        return;  // the work waits until the panel is shown
    if (inputStale_) {
        inputStale_ = false;
        requestInput();
    }
    for (int m = 0; m < 2; ++m)
        if (modelStale_[std::size_t(m)]) {
            modelStale_[std::size_t(m)] = false;
            requestModel(m);
        }
}

void PredictPanel::requestInput()
{
    const auto ds = state_->dataset();
    if (!ds)
        return;
    PredictInputRequest request{ds, settings_.input, state_->selectedIndex(), settings_.drawn, settings_.imageFile, {}, 0.0, 0};
    if (settings_.input == "row" && ds->kind == orbit::DataKind::Coulomb) {
        request.swap = settings_.swap;
        request.jitter = settings_.jitter;
    }
    if (settings_.input == "row")  // an image, or a molecule's Coulomb matrix
        rowPicture_->setPixmap(enlarged(renderSample(*ds, std::size_t(std::min<int>(state_->selectedIndex(), int(ds->count()) - 1))), 160));
    if (settings_.input == "drawn" && settings_.drawn.isEmpty()) {
        input_.reset();
        answerRunner_->cancel();
        sweepRunner_->cancel();
        chart_->clear(tr("Draw a digit on the canvas (left button draws, right button erases)."));
        moved_->clear();
        return;
    }
    if (settings_.input == "file" && settings_.imageFile.isEmpty()) {
        input_.reset();
        chart_->clear(tr("Open, drop or paste an image."));
        moved_->clear();
        return;
    }
    inputRunner_->submit(makePredictInputTask(std::move(request)));
}

void PredictPanel::requestModel(int model)
{
    const auto ds = state_->dataset();
    const std::size_t m = std::size_t(model);
    PredictModelRequest request;
    request.path = model == 0 ? settings_.modelA : settings_.modelB;
    if (request.path.isEmpty()) {
        runs_[m] = model == 0 ? (runA_ ? runA_() : nullptr) : (runB_ ? runB_() : nullptr);
        request.run = runs_[m];
        if (!request.run) {
            modelRunners_[m]->cancel();
            models_[m].reset();
            modelLabels_[m]->setText(model == 0 ? tr("none: pin a setting as A (Compare) and run, or open a model")
                                                : tr("none: run the Training panel, or open a model"));
            succeed(model == 0 ? "A" : "B");  // an earlier file's failure is no longer the question
            requestSweep();
            requestAnswer();
            return;
        }
    }
    if (ds) {
        request.checkData = true;
        request.kind = ds->kind;
        request.shape = ds->shape;
    }
    modelLabels_[m]->setText(tr("loading…"));
    modelRunners_[m]->submit(makePredictModelTask(std::move(request)));
}

void PredictPanel::requestAnswer()
{
    if (!input_ || (!models_[0] && !models_[1])) {
        answerRunner_->cancel();
        if (!models_[0] && !models_[1]) {
            bars_->setScores(0, {}, {});
            bars_->setScores(1, {}, {});
        }
        return;
    }
    PredictRequest request;
    request.models = {models_[0] ? models_[0]->predictor : nullptr, models_[1] ? models_[1]->predictor : nullptr};
    request.input = input_;
    request.range = {orbit::parseSweepParameter(settings_.parameter.toStdString()), {settings_.t}};
    answerRunner_->submit(makePredictTask(std::move(request)));
}

void PredictPanel::requestSweep()
{
    if (!input_ || (!models_[0] && !models_[1])) {
        sweepRunner_->cancel();
        if (input_)
            chart_->clear(tr("No model yet: run the Training panel, or open a model (A or B) below."));
        return;
    }
    PredictRequest request;
    request.models = {models_[0] ? models_[0]->predictor : nullptr, models_[1] ? models_[1]->predictor : nullptr};
    request.input = input_;
    request.range = predictSweepRange(settings_.parameter);
    sweepRunner_->submit(makePredictTask(std::move(request)));
}

void PredictPanel::drawAnswer(std::shared_ptr<const PredictAnswer> answer)
{
    answer_ = std::move(answer);
    ++answers_;
    QStringList labels;
    QStringList tops;
    for (std::size_t m = 0; m < 2; ++m) {
        const auto& r = answer_->results[m];
        const QString name = modelName(int(m));
        if (!r) {
            bars_->setScores(int(m), {}, {});
            continue;
        }
        const orbit::SavedModel& model = answer_->request.models[m]->model();
        if (model.isClassification()) {
            if (labels.isEmpty())
                for (int c = 0; c < model.outputs(); ++c)
                    labels << QString::fromStdString(model.labelText(c));
            bars_->setScores(int(m), std::vector<double>(r->scores.data(), r->scores.data() + r->scores.size()), name);
            tops << tr("%1 says %2").arg(m == 0 ? "A" : "B", QString::fromStdString(model.labelText(r->top.front())));
        } else {
            std::optional<std::pair<double, double>> interval;
            if (r->hasInterval())
                interval = std::make_pair(r->lower.front(), r->upper.front());
            bars_->setValue(int(m), r->value.front(), interval, name, QString::fromStdString(model.targetUnit));
            QString top = tr("%1: %2").arg(m == 0 ? "A" : "B").arg(r->value.front(), 0, 'g', 6);
            if (const auto& row = answer_->asInFile[m])
                top += movedText(r->value.front(), row->first, row->second);
            tops << top;
        }
    }
    if (!labels.isEmpty())
        bars_->setLabels(labels);
    if (input_ && answer_->request.input == input_) {
        const orbit::SweepRange& range = answer_->request.range;
        const orbit::Shape shape = state_->dataset() ? state_->dataset()->shape : orbit::Shape{};
        if (state_->dataset() && int(input_->x.size()) == shape.dim()) {
            std::vector<float> moved = input_->x;
            const auto group = orbit::makeSweepGroup(range.parameter);
            const double t = range.values.front();
            try {
                group->apply(orbit::sweepElement(range.parameter, t, input_->x.data(), shape, 0), input_->x.data(), moved.data(), shape);
            } catch (const std::exception&) {
            }
            moved_->setPixmap(enlarged(renderSample(moved.data(), shape, state_->dataset()->kind,
                                                    atomCount(*state_->dataset(), input_->index)),
                                       160));
        }
    }
    QString truth;  // what the file says of a row
    if (input_ && settings_.input == "row" && state_->dataset() && input_->index < state_->dataset()->count())
        truth = tr(" (the file: %1)").arg(sampleCaption(*state_->dataset(), input_->index));
    const QString at = settings_.parameter != "permutation" ? tr("at %1").arg(valueText_->text())
                       : settings_.t == 0                  ? tr("atoms in the file's order")
                                                           : tr("shuffle %1 of the atoms").arg(settings_.t);
    status_->setText(tr("%1%2, %3: %4.").arg(input_ ? input_->what : QString(), truth, at, tops.join(", ")));
}

void PredictPanel::fail(const QString& source, const QString& message)
{
    errorSource_ = source;
    showError(message.simplified());
}

void PredictPanel::succeed(const QString& source)
{
    if (errorSource_ == source) {
        errorSource_.clear();
        clearError();
    }
}

QString PredictPanel::movedText(double value, double asInFile, double mcError) const
{
    const double change = value - asInFile;
    QString text = tr(" (as in the file %1, a change of %2").arg(asInFile, 0, 'g', 6).arg(change, 0, 'g', 3);
    if (!std::isfinite(mcError))
        return text + ")";
    // The CLI's test (predict --swap): within twice the error, or the float rounding of a model without any.
    const bool within = std::abs(change) <= 2.0 * mcError + 1e-9 * std::max(std::abs(value), std::abs(asInFile));
    return text + tr("; Monte Carlo error %1: %2)").arg(mcError, 0, 'g', 3).arg(within ? tr("within it") : tr("larger than it"));
}

QString PredictPanel::modelName(int model) const
{
    const auto& m = models_[std::size_t(model)];
    return m ? m->name : QString();
}

ChartBox* PredictPanel::chart() const { return chart_->box(); }

QString PredictPanel::statusText() const { return status_->text(); }

} // namespace orbitui
