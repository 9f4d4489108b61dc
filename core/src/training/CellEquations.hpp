#pragma once
// Private to the learners of `train` (TrainingLearners.cpp): the normal equations of the shared row
// sets (cells, TrainLearner::shareCells), computed once per fold or run, and those of each fit added
// from them (or summed at once when its rows are no union of cells); and the clock that books a
// fit's time to the run's stages.
#include "training/TrainingLearners.hpp"

#include "orbit/learn/NormalEquations.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/linalg/MatrixPool.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/parallel/Ranks.hpp"
#include "orbit/parallel/StageCosts.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace orbit::detail {

/// Adds one fit's wall time to the run's stages: the block products and their reduction as the
/// block sums measured them, the rest as solve.
class FitClock {
public:
    explicit FitClock(const RowPartition& rows) : seconds_(rows.seconds), t0_(std::chrono::steady_clock::now()) {}
    FitClock(const FitClock&) = delete;
    FitClock& operator=(const FitClock&) = delete;
    ~FitClock()
    {
        if (!seconds_) return;
        const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        seconds_->products += sums.leaves;
        seconds_->reduction += sums.reduction;
        seconds_->solve += std::max(0.0, total - sums.leaves - sums.reduction);
        seconds_->productRows += rows;
    }
    BlockSumTimes sums;
    long long rows = 0;  ///< training rows whose block products this fit computed

private:
    StageCosts* seconds_;
    std::chrono::steady_clock::time_point t0_;
};

/// Which shared sets (PointFeatures::cells, ::removable) a training set is made of: the cells to
/// add, in cell order, less the removable set `removed` if there is one.
struct CellPlan {
    std::vector<std::size_t> cells;
    std::optional<std::size_t> removed;
};

/// The raw equations of a plan: its cells added in cell order, less the removed set's, G's lower
/// triangle only (the cells hold no more; each entry the same additions as the whole matrices').
/// G goes in a matrix of the computation's MatrixPool (the previous fit's, already paged in).
NormalEquations sumOfPlan(const PointFeatures& p, const CellPlan& plan);

/// The normal equations of one fit's training rows with coded targets. Summed over the row blocks
/// at once (collective), or, when the rows are a union of shared cells, the cells' sum formed on
/// first use: only on the ranks the fit's dealt tasks go to, so that the ranks share these D x D
/// additions instead of each repeating every fit's. A cells' sum holds G's lower triangle only
/// (a ridge fit's Cholesky reads no more) unless `whole`, when it is mirrored.
class FitEquations {
public:
    explicit FitEquations(NormalEquations ne) : ne_(std::move(ne)) {}
    FitEquations(const PointFeatures& p, CellPlan plan, TargetCoding coding, bool whole)
        : p_(&p), plan_(std::move(plan)), coding_(std::move(coding)), whole_(whole)
    {
    }
    FitEquations(const FitEquations&) = delete;
    FitEquations& operator=(const FitEquations&) = delete;
    ~FitEquations()
    {
        if (ne_) MatrixPool::give(std::move(ne_->G));
    }

    /// The equations; the cells' sum the first time (p's cells must still be those of the plan).
    const NormalEquations& get()
    {
        const std::lock_guard<std::mutex> lock(forming_);
        if (!ne_) {
            ne_ = coded(sumOfPlan(*p_, plan_), coding_);
            if (whole_) mirrorLower(ne_->G);
        }
        return *ne_;
    }

    /// A cells' sum goes back to the computation's MatrixPool (the next fit's sum takes its pages)
    /// once this rank's tasks of the fit are done; a later get() would add it again. Equations
    /// summed at once are kept.
    void release()
    {
        const std::lock_guard<std::mutex> lock(forming_);
        if (!p_ || !ne_) return;
        MatrixPool::give(std::move(ne_->G));
        ne_.reset();
    }

    /// The shared cells' plan these equations are added from; null when they were summed at once.
    const CellPlan* plan() const { return p_ ? &plan_ : nullptr; }

private:
    const PointFeatures* p_ = nullptr;
    CellPlan plan_;
    TargetCoding coding_;
    bool whole_ = true;
    std::optional<NormalEquations> ne_;
    std::mutex forming_;
};

/// The normal equations of the training rows with coded targets Y: the shared cells' when `train`
/// is a union of them (added when a dealt task first asks, FitEquations; G's lower triangle only
/// unless `whole`), else summed over the run's row blocks and ranks now.
std::shared_ptr<FitEquations> trainingEquations(const PointFeatures& p, const Indices& train, const TargetCoding& coding,
                                                const Eigen::MatrixXd& Y, const RowPartition& rows, FitClock& clock,
                                                const Progress& progress, bool whole);

/// The normal equations of the raw targets of every shared set into p.cells and p.removable, once
/// per fold or run (TrainLearner::shareCells), when the fits are primal (D <= the cells' rows); else none.
void computeCells(const Dataset& data, const PointFeatures& p, const SharedRowSets& sets, const RowPartition& rows,
                  const Progress& poll);

/// The shared cells that the tasks dealt to each rank (owners[t] of task[t] = (fit, piece)) add, from
/// the rank that summed each (rootOfSum) to the ranks that do not hold them yet, in rank and then
/// cell order (every rank walks the same loop, so all know who holds what). Only lower triangles
/// travel.
void sendCells(const PointFeatures& p, const std::vector<std::shared_ptr<FitEquations>>& equations,
               const std::vector<int>& owners, const std::vector<std::pair<std::size_t, std::size_t>>& task,
               const Ranks& ranks);

} // namespace orbit::detail
