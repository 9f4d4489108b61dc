#include "window/training/TrainingComparison.hpp"

#include "render/SafeText.hpp"
#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "state/TrainingSettings.hpp"
#include "state/workers/PassScheduler.hpp"
#include "state/workers/TrainingTask.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/ConfusionMatrixView.hpp"
#include "window/training/FoldTableModel.hpp"
#include "window/training/TrainingCharts.hpp"
#include "window/training/TrainingForm.hpp"
#include "window/training/TrainingPanel.hpp"
#include "window/training/TrainingRunControl.hpp"

#include "orbit/util/Error.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace orbitui {

namespace {

const QColor kColorA(90, 90, 90), kColorB(31, 119, 180);

/// The request TrainingPanel::run makes, for A's settings.
TrainingRequest requestFor(const PinnedSetting& a, std::shared_ptr<const orbit::Dataset> ds)
{
    const TrainingSettings& s = a.training;
    if (evaluationOf(QString::fromStdString(s.eval)) == orbit::EvaluationKind::Folds && ds->folds.empty())
        throw orbit::SpecError("eval", "these data have no folds of their own; choose hold-out or k-fold", s.eval);
    TrainingRequest request;
    request.dataset = std::move(ds);
    request.config = makeTrainConfig(s, a.orbit);
    request.config.validate();
    request.subset = static_cast<std::size_t>(s.subset);
    const bool sweeps = std::any_of(request.config.grid.begin(), request.config.grid.end(),
                                    [&](const orbit::ParamAxis& axis) { return axis.name == s.localityAxis; });
    request.mainAxis = sweeps ? s.localityAxis : std::string();
    return request;
}

QTableWidgetItem* cell(const QString& text, const QVariant& value = {})
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (value.isValid())
        item->setData(Qt::UserRole, value);
    return item;
}

} // namespace

TrainingComparison::TrainingComparison(Comparison* comparison, LabState* state, TrainingPanel* panel, QObject* parent)
    : QObject(parent), comparison_(comparison), state_(state), panel_(panel), runner_(new TaskRunner("trainer-a", this)),
      widget_(new QWidget), note_(new QLabel), table_(new QTableWidget(RowCount, 1)),
      chart_(new ChartBox(new QChart, "training-ab"))
{
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::PlainText);
    table_->setVerticalHeaderLabels({tr("setting"), tr("features"), tr("learner · evaluation"), tr("test score"),
                                     tr("std over folds"), tr("MAE"), tr("log evidence"), tr("samples"), tr("time")});
    table_->setHorizontalHeaderLabels({tr("B")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setToolTip(tr("A (pinned) and B (the current setting), each trained with its own settings and seed."));
    chart_->setToolTip(tr("Test score of every fold (and their mean) for A and B."));
    for (std::size_t c = 0; c < 2; ++c)
        confusion_[c] = new ConfusionMatrixView(c == 0 ? "confusion-a" : "confusion-b");
    auto* pictures = new QSplitter(Qt::Horizontal);
    pictures->addWidget(chart_);
    pictures->addWidget(confusion_[0]);
    pictures->addWidget(confusion_[1]);
    pictures->setChildrenCollapsible(false);
    pictures->setSizes({420, 400, 400});
    auto* layout = new QVBoxLayout(widget_);
    layout->addWidget(note_);
    layout->addWidget(table_);
    layout->addWidget(pictures, 1);

    connect(comparison_, &Comparison::pinnedChanged, this, &TrainingComparison::pinnedChanged);
    connect(panel_->runner(), &TaskRunner::started, this, &TrainingComparison::ensureA);  // Run trains A too
    connect(panel_->runner(), &TaskRunner::finished, this, [this] {
        draw();
        if (comparison_->isPinned())
            panel_->resultTabs()->setCurrentWidget(widget_);
    });
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        result_ = v.value<std::shared_ptr<const TrainingResult>>();
        resultKey_ = pendingKey_;
        failure_.clear();
        draw();
        emit resultAChanged();
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        failure_ = tr("A could not be trained: %1").arg(message);
        draw();
    });
    pinnedChanged();
}

bool TrainingComparison::isIdle() const { return PassScheduler::instance()->isIdle(this); }

QString TrainingComparison::noteText() const { return note_->text(); }

void TrainingComparison::pinnedChanged()
{
    QTabWidget* tabs = panel_->resultTabs();
    runner_->cancel();
    result_.reset();
    resultKey_.clear();
    pendingKey_.clear();
    failure_.clear();
    const bool pinned = comparison_->isPinned();
    const int index = tabs->indexOf(widget_);
    if (pinned && index < 0)
        tabs->addTab(widget_, tr("A / B"));
    else if (!pinned && index >= 0)
        tabs->removeTab(index);
    table_->setColumnCount(pinned ? 2 : 1);
    table_->setHorizontalHeaderLabels(pinned ? QStringList{tr("A"), tr("B")} : QStringList{tr("B")});
    draw();
}

void TrainingComparison::ensureA()
{
    const auto ds = state_->dataset();
    if (!comparison_->isPinned() || !ds)
        return;
    const QString key = QStringLiteral("%1|%2").arg(comparison_->generation()).arg(reinterpret_cast<quintptr>(ds.get()), 0, 16);
    if ((result_ && key == resultKey_) || (key == pendingKey_ && runner_->busy()))
        return;
    try {
        TrainingRequest request = requestFor(*comparison_->pinned(), ds);
        pendingKey_ = key;
        failure_.clear();
        runner_->submit(makeTrainingTask(std::move(request)));
    } catch (const std::exception& e) {
        failure_ = tr("A cannot be trained on these data: %1").arg(QString::fromUtf8(e.what()));
    }
    draw();
}

void TrainingComparison::draw()
{
    const bool pinned = comparison_->isPinned();
    const std::shared_ptr<const TrainingResult> b = panel_->lastResult();
    const std::array<std::shared_ptr<const TrainingResult>, 2> results{pinned ? result_ : nullptr, b};
    const int first = pinned ? 0 : 1;  // column of results[first]
    QString note = pinned ? comparison_->label() + "  ·  B: " + Comparison::describe(state_->orbitSettings()) : QString();
    if (pinned && runner_->busy())
        note += "  ·  " + tr("training A…");
    if (!failure_.isEmpty())
        note += "  ·  " + failure_;
    if (pinned && !result_ && !runner_->busy() && failure_.isEmpty())
        note += "  ·  " + tr("Run (Ctrl+R) trains A and B.");
    note_->setText(note);

    table_->clearContents();
    auto* chart = chart_->chart();
    clearChart(chart);
    auto* bars = new QBarSeries;
    QStringList categories;
    int maxFolds = 0;
    double hi = 0.0;
    for (int k = first; k < 2; ++k) {
        const int column = k - first;
        const auto& res = results[static_cast<std::size_t>(k)];
        ConfusionMatrixView* confusion = confusion_[static_cast<std::size_t>(k)];
        if (!res) {
            confusion->setVisible(false);
            continue;
        }
        const orbit::TrainResult& r = res->result;
        const TrainingRequest& q = res->request;
        const QString which = k == 0 ? tr("A") : tr("B");
        const QString unit = QString::fromStdString(q.dataset->targetUnit);
        table_->setItem(Setting, column, cell(q.config.group.empty() ? tr("(no group: %1)").arg(QString::fromStdString(r.featureSpec))
                                                                     : QString::fromStdString(q.config.group + ", " + readableSpec(q.config.dist))));
        table_->setItem(Features, column, cell(QString::fromStdString(r.featureSpec) + tr(" (%1 features)").arg(r.featureDim)));
        table_->setItem(Learner, column, cell(QString::fromStdString(q.config.learner + " · " + q.config.eval)));
        table_->setItem(Score, column, cell((isRmse(r) ? tr("RMSE %1") : tr("accuracy %1")).arg(scoreText(r, r.mean)) +
                                                (isRmse(r) && !unit.isEmpty() ? " " + unit : QString()),
                                            r.mean));
        table_->setItem(Spread, column, cell(r.folds.size() > 1 ? scoreText(r, r.stddev) + tr(" (%1 folds)").arg(r.folds.size())
                                                                : tr("one split"),
                                             r.stddev));
        table_->setItem(Mae, column, isRmse(r) ? cell(QString::number(r.mae, 'f', 2), r.mae) : cell(tr("—")));
        table_->setItem(LogEvidence, column, r.logEvidence ? cell(QString::number(*r.logEvidence, 'g', 6), *r.logEvidence)
                                                           : cell(tr("— (%1 gives none)").arg(QString::fromStdString(q.config.learner))));
        table_->setItem(Samples, column, cell(QString::number(res->samples)));
        table_->setItem(Time, column, cell(durationText(r.seconds)));

        auto* set = new QBarSet(which);  // the setting of each is in the note above and in the table
        set->setColor(k == 0 ? kColorA : kColorB);
        for (const orbit::FoldResult& fold : r.folds) {
            set->append(fold.score);
            hi = std::max(hi, fold.score);
        }
        set->append(r.mean);
        bars->append(set);
        maxFolds = std::max(maxFolds, static_cast<int>(r.folds.size()));

        const bool classes = !isRmse(r) && r.confusion.rows() > 0;
        confusion->setVisible(classes);
        if (classes) {
            QStringList names;
            for (const std::string& n : res->classNames)
                names << QString::fromStdString(n);
            confusion->setMatrix(r.confusion, names, tr("%1: confusion · %2 test samples").arg(which).arg(r.confusion.sum()));
        }
    }
    table_->resizeRowsToContents();
    if (bars->count() == 0) {
        delete bars;
        chart_->setNote(pinned ? tr("Run to train A and B.") : QString());
        return;
    }
    chart_->setNote({});
    for (int f = 0; f < maxFolds; ++f)
        categories << tr("fold %1").arg(f + 1);
    categories << tr("mean");
    chart->addSeries(bars);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    auto* y = new QValueAxis;
    y->setRange(0.0, hi > 0 ? hi * 1.1 : 1.0);
    const bool rmse = results[1] ? isRmse(results[1]->result) : isRmse(results[0]->result);
    y->setTitleText(rmse ? tr("test RMSE") : tr("test accuracy"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
    setChartTitle(chart, pinned ? tr("A and B: test score per fold") : tr("Test score per fold"));
}

} // namespace orbitui
