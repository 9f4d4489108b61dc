#include "window/kernels/KernelsComparison.hpp"

#include "state/Comparison.hpp"
#include "state/LabState.hpp"
#include "state/workers/KernelTasks.hpp"
#include "state/workers/PassScheduler.hpp"
#include "widgets/HeatmapView.hpp"

#include "orbit/figures/KernelComparison.hpp"
#include "window/kernels/KernelsPanel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace orbitui {

KernelsComparison::KernelsComparison(Comparison* comparison, LabState* state, KernelsPanel* panel, QObject* parent)
    : QObject(parent), comparison_(comparison), state_(state), panel_(panel), runner_(new TaskRunner("kernels-a", this)),
      widget_(new QWidget), choice_(new QComboBox), note_(new QLabel)
{
    choice_->addItem(tr("invariant kernel k_qG"));
    choice_->addItem(tr("approximation ⟨ψ(xᵢ), ψ(xⱼ)⟩"));
    choice_->addItem(tr("base kernel k"));
    choice_->setToolTip(tr("The matrix shown for A, for B and as B − A"));
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::PlainText);
    auto* layout = new QVBoxLayout(widget_);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* head = new QHBoxLayout;
    head->addWidget(new QLabel(tr("Compare A and B:")));
    head->addWidget(choice_);
    head->addWidget(note_, 1);
    layout->addLayout(head);
    auto* row = new QHBoxLayout;
    for (int v = 0; v < 3; ++v) {
        auto* view = new HeatmapView;
        view->setAxisNames("i", "j", v == BMinusA ? "B − A" : "k");
        view->setPlaceholder(tr("Compute to compare A and B."));
        views_[static_cast<std::size_t>(v)] = view;
        row->addWidget(view, 1);
    }
    views_[BMinusA]->setColorMap(HeatmapView::ColorMap::Diverging);
    layout->addLayout(row, 1);
    widget_->hide();
    panel_->appendWidget(widget_, 1);

    connect(choice_, &QComboBox::currentIndexChanged, this, &KernelsComparison::draw);
    connect(comparison_, &Comparison::pinnedChanged, this, &KernelsComparison::update);
    connect(panel_, &KernelsPanel::resultDrawn, this, &KernelsComparison::update);  // B as drawn
    connect(state_, &LabState::datasetChanged, this, &KernelsComparison::update);
    connect(runner_, &TaskRunner::finished, this, [this](quint64, const QVariant& v) {
        result_ = v.value<std::shared_ptr<const KernelResult>>();
        resultKey_ = pendingKey_;
        draw();
    });
    connect(runner_, &TaskRunner::failed, this, [this](quint64, const QString& message, const QString&) {
        note_->setText(tr("A could not be computed: %1").arg(message));
    });
}

bool KernelsComparison::isIdle() const { return PassScheduler::instance()->isIdle(this); }

QString KernelsComparison::noteText() const { return note_->text(); }

void KernelsComparison::update()
{
    const bool pinned = comparison_->isPinned();
    widget_->setVisible(pinned);
    for (int m = 0; m < 4; ++m)  // the panel's own four heatmaps give way to A, B and B − A
        panel_->heatmap(KernelsPanel::Matrix(m))->parentWidget()->setVisible(!pinned);
    const auto b = panel_->lastResult();
    if (!pinned || !b) {
        if (!pinned) {
            runner_->cancel();
            result_.reset();
            resultKey_.clear();
            pendingKey_.clear();
        }
        for (HeatmapView* v : views_)
            v->clear();
        note_->setText(pinned ? tr("%1 · compute to see B beside it.").arg(comparison_->label()) : QString());
        return;
    }
    // A on B's points, so that B − A compares the same pairs.
    QString key =
        QStringLiteral("%1|%2|").arg(comparison_->generation()).arg(Comparison::datasetKey(state_->dataset().get()));
    for (std::size_t i : b->indices)
        key += QString::number(i) + ",";
    if (result_ && key == resultKey_) {
        draw();
        return;
    }
    if (key == pendingKey_ && runner_->busy())
        return;
    pendingKey_ = key;
    const PinnedSetting& a = *comparison_->pinned();
    KernelRequest req = kernelRequest(a.part<KernelsSettings>(), a.orbit, b->request.dataset->count());
    req.dataset = b->request.dataset;
    req.points = b->indices;  // A on B's points, so that B − A compares the same pairs
    req.n = static_cast<int>(b->indices.size());
    note_->setText(tr("Computing A (%1)…").arg(comparison_->label()));
    runner_->submit(makeKernelTask(std::move(req)));
}

void KernelsComparison::draw()
{
    const auto b = panel_->lastResult();
    if (!comparison_->isPinned() || !result_ || !b || result_->indices != b->indices)
        return;
    const int which = choice_->currentIndex();
    auto pick = [which](const KernelResult& r) -> const Eigen::MatrixXd& {
        return which == 1 ? r.approx : which == 2 ? r.base : r.invariant;
    };
    const Eigen::MatrixXd& ma = pick(*result_);
    const Eigen::MatrixXd& mb = pick(*b);
    const orbit::MatrixDifference bMinusA = orbit::differenceOf(ma, mb);
    const double lo = std::min(ma.minCoeff(), mb.minCoeff()), hi = std::max(ma.maxCoeff(), mb.maxCoeff());
    const QString name = choice_->currentText();
    views_[A]->setRange(lo, hi);
    views_[B]->setRange(lo, hi);
    views_[BMinusA]->setAutoRange();
    // B's points (A's are the same): their labels, and energy ticks for molecules.
    showKernelMatrix(*views_[A], ma, *b);
    showKernelMatrix(*views_[B], mb, *b);
    showKernelMatrix(*views_[BMinusA], bMinusA.difference, *b);
    views_[A]->setTitle(tr("A: %1 · %2").arg(name, Comparison::describe(result_->request.settings)));
    views_[B]->setTitle(tr("B: %1 · %2").arg(name, Comparison::describe(b->request.settings)));
    views_[BMinusA]->setTitle(tr("B − A (‖B − A‖_F / ‖A‖_F = %1)").arg(bMinusA.relativeFrobenius, 0, 'f', 3));
    note_->setText(tr("%1 points, the same for A and B; one colour scale for A and B.").arg(b->indices.size()));
}

} // namespace orbitui
