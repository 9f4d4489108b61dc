// The normal equations of the shared row sets and of the fits added from them (CellEquations.hpp).
#include "training/CellEquations.hpp"

#include "orbit/util/Error.hpp"

#include <string>

namespace orbit::detail {

namespace {

/// Unless spread, Trainer::features gathers every feature row on every rank (PointFeatures::F is whole).
constexpr bool kRowsGathered = true;

/// The cells inside the rows marked in `in` (`size` of them), in cell order, when those rows are
/// exactly a union of cells; else nullopt.
std::optional<std::vector<std::size_t>> cellsCovering(const std::vector<CellEquations>& cells, const std::vector<char>& in,
                                                      std::size_t size)
{
    std::vector<std::size_t> inside;
    std::size_t covered = 0;
    for (std::size_t k = 0; k < cells.size(); ++k) {
        const CellEquations& c = cells[k];
        const auto n = std::size_t(std::count_if(c.rows.begin(), c.rows.end(), [&](std::size_t r) { return in[r] != 0; }));
        if (n == 0) continue;
        if (n != c.rows.size()) return std::nullopt;
        covered += n;
        inside.push_back(k);
    }
    if (covered != size || inside.empty()) return std::nullopt;
    return inside;
}

/// How `train` is made of the shared sets (SharedRowSets): the cells it is made of, or the cells it
/// is made of with a removable set R, less R. Nullopt when neither fits.
std::optional<CellPlan> planOfCells(const PointFeatures& p, const Indices& train)
{
    if (p.cells.empty()) return std::nullopt;
    std::vector<char> in(static_cast<std::size_t>(p.rows()), 0);
    for (std::size_t r : train) in[r] = 1;
    if (auto cells = cellsCovering(p.cells, in, train.size())) return CellPlan{std::move(*cells), std::nullopt};
    for (std::size_t k = 0; k < p.removable.size(); ++k) {
        const CellEquations& R = p.removable[k];
        if (std::any_of(R.rows.begin(), R.rows.end(), [&](std::size_t r) { return in[r] != 0; })) continue;
        for (std::size_t r : R.rows) in[r] = 1;
        auto cells = cellsCovering(p.cells, in, train.size() + R.rows.size());
        for (std::size_t r : R.rows) in[r] = 0;
        if (cells) return CellPlan{std::move(*cells), k};
    }
    return std::nullopt;
}

/// The normal equations of dataset rows `set` (targets Y) summed over the run's row blocks and
/// ranks: each rank sums the blocks it holds when the features are spread, else any blocks.
NormalEquations equationsOf(const PointFeatures& p, const Indices& set, const Eigen::MatrixXd& Y,
                            const RowPartition& rows, FitClock& clock, const Progress& progress)
{
    clock.rows += static_cast<long long>(set.size());
    if (p.spread()) return normalEquationsOfHeld(p.F, p.starts, set, Y, p.blocks, *rows.ranks, &clock.sums, progress);
    return normalEquations(p.F, set, Y, RowBlocks{p.F.rows(), rows.blockRows}, *rows.ranks, &clock.sums, progress,
                           kRowsGathered);
}

} // namespace

NormalEquations sumOfPlan(const PointFeatures& p, const CellPlan& plan)
{
    const Eigen::Index D = p.F.cols();
    auto held = [&](const CellEquations& c, const char* what, std::size_t k) -> const NormalEquations& {
        if (c.raw.G.rows() != D || c.raw.G.cols() != D)
            throw ContractError("sumOfPlan", std::string(what) + " " + std::to_string(k) + " is " + std::to_string(c.raw.G.rows()) +
                                                 " x " + std::to_string(c.raw.G.cols()) + " on this rank, not " + std::to_string(D) +
                                                 " x " + std::to_string(D) + " (not sent here)");
        return c.raw;
    };
    // op(column j of `to`, column j of `from`) on and below the diagonal, column by column.
    auto lower = [D](Eigen::MatrixXd& to, const Eigen::MatrixXd& from, auto op) {
        for (Eigen::Index j = 0; j < D; ++j) op(to.col(j).tail(D - j), from.col(j).tail(D - j));
    };
    const NormalEquations& first = held(p.cells[plan.cells.front()], "cell", plan.cells.front());
    NormalEquations sum;
    sum.G = MatrixPool::take(D, D);
    sum.B = first.B;
    sum.samples = first.samples;
    lower(sum.G, first.G, [](auto to, const auto& from) { to = from; });
    for (std::size_t i = 1; i < plan.cells.size(); ++i) {
        const NormalEquations& c = held(p.cells[plan.cells[i]], "cell", plan.cells[i]);
        lower(sum.G, c.G, [](auto to, const auto& from) { to += from; });
        sum.B += c.B;
        sum.samples += c.samples;
    }
    if (plan.removed) {
        const NormalEquations& R = held(p.removable[*plan.removed], "removable set", *plan.removed);
        lower(sum.G, R.G, [](auto to, const auto& from) { to -= from; });
        sum.B -= R.B;
        sum.samples -= R.samples;
    }
    return sum;
}

std::shared_ptr<FitEquations> trainingEquations(const PointFeatures& p, const Indices& train, const TargetCoding& coding,
                                                const Eigen::MatrixXd& Y, const RowPartition& rows, FitClock& clock,
                                                const Progress& progress, bool whole)
{
    if (auto plan = planOfCells(p, train)) return std::make_shared<FitEquations>(p, std::move(*plan), coding, whole);
    return std::make_shared<FitEquations>(equationsOf(p, train, Y, rows, clock, progress));
}

void computeCells(const Dataset& data, const PointFeatures& p, const SharedRowSets& sets, const RowPartition& rows,
                  const Progress& poll)
{
    p.cells.clear();
    p.removable.clear();
    std::size_t total = 0;
    for (const Indices& c : sets.cells) total += c.size();
    if (std::size_t(p.F.cols()) > total) return;
    FitClock clock(rows);
    // Every set in one block sum (the ranks meet once), set k left on its sum's root (the ranks in
    // turn); fitAll sends each on to the ranks whose fits add it (sendCells).
    std::vector<Indices> all = sets.cells;
    all.insert(all.end(), sets.removable.begin(), sets.removable.end());
    std::vector<Eigen::MatrixXd> targets;
    for (const Indices& set : all) {
        targets.push_back(data.isClassification() ? rawTargets(select(data.labels, set), data.numClasses)
                                                  : rawTargets(select(data.targets, set)));
        clock.rows += static_cast<long long>(set.size());
    }
    const Ranks& ranks = *rows.ranks;
    std::vector<NormalEquations> sums =
        normalEquationsAtRoots(p.F, p.starts, all, targets, p.spread() ? p.blocks : RowBlocks{p.F.rows(), rows.blockRows},
                               ranks, &clock.sums, poll);
    for (std::size_t k = 0; k < all.size(); ++k) {
        std::vector<char> on(static_cast<std::size_t>(ranks.size()), 0);
        on[std::size_t(rootOfSum(k, ranks.size()))] = 1;
        (k < sets.cells.size() ? p.cells : p.removable).push_back(CellEquations{all[k], std::move(sums[k]), std::move(on)});
    }
}

void sendCells(const PointFeatures& p, const std::vector<std::shared_ptr<FitEquations>>& equations,
               const std::vector<int>& owners, const std::vector<std::pair<std::size_t, std::size_t>>& task,
               const Ranks& ranks)
{
    // Every rank walks the same loops, so all agree on what moves from whom to whom.
    struct Move {
        CellEquations* cell;
        int from, to;
    };
    std::vector<Move> moves;
    for (int q = 0; q < ranks.size(); ++q) {
        std::vector<char> cell(p.cells.size(), 0), removable(p.removable.size(), 0);
        for (std::size_t t = 0; t < task.size(); ++t) {
            const FitEquations* e = equations[task[t].first].get();
            if (owners[t] != q || !e || !e->plan()) continue;
            for (std::size_t c : e->plan()->cells) cell[c] = 1;
            if (e->plan()->removed) removable[*e->plan()->removed] = 1;
        }
        auto need = [&](CellEquations& c) {
            if (c.on[std::size_t(q)]) return;
            // From the rank that summed it (a rank it is sent to now holds it only once received).
            const auto from = int(std::find(c.on.begin(), c.on.end(), char(1)) - c.on.begin());
            moves.push_back(Move{&c, from, q});
        };
        for (std::size_t k = 0; k < cell.size(); ++k)
            if (cell[k]) need(p.cells[k]);
        for (std::size_t k = 0; k < removable.size(); ++k)
            if (removable[k]) need(p.removable[k]);
    }
    // Every send is posted before any receive, so that the cells for every rank travel at once.
    // G's lower triangle goes from where it lies into the receiver's D x D matrix (postLower): no
    // packed copy on either side, and no message buffer of fresh pages for each cell. (Packed, five
    // cells per rank at P = 2 took fresh pages to send and to receive: QM7, irf:s=4000,r=20,
    // kfold:5, fixed kernel, on a VM where page faults are dear, 0.83 of the machine's ceiling;
    // 0.95 with this and MatrixPool::take shrinking a kept sum for a received cell; docs/results.md.)
    for (const Move& m : moves)
        if (ranks.rank() == m.from) {
            ranks.postLower(m.cell->raw.G, m.to);
            ranks.post(m.cell->raw.B, m.to);
        }
    // The matrices received into are paged in first, while the other ranks do the same: a page
    // fault taken inside the receive would count as waiting for another rank.
    const Eigen::Index D = p.F.cols();
    for (const Move& m : moves)
        if (ranks.rank() == m.to) m.cell->raw.G = MatrixPool::takePagedIn(D, D);
    for (const Move& m : moves) {
        if (ranks.rank() == m.to) {
            ranks.receiveLower(m.from, m.cell->raw.G);
            m.cell->raw.B = ranks.receive(m.from);
        }
        m.cell->on[std::size_t(m.to)] = 1;
    }
    // Every cell has left before this rank's own fits start. Over a transport whose sends move only
    // while the sender is inside MPI (TCP; shared memory without a single-copy mechanism), a posted
    // cell would wait out the sender's Choleskys while the rank that needs it waits too: measured on
    // QM7 (irf:s=4000,r=20, kfold:5, P = 2 over TCP), rank 1 waited 10 s of 30.
    ranks.waitPosted(0);
}

} // namespace orbit::detail
