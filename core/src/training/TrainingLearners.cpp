#include "training/TrainingLearners.hpp"
#include "training/CellEquations.hpp"

#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/linalg/MatrixPool.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/learn/LinearSvm.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <algorithm>
#include <memory>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace orbit::detail {

Coded codeTargets(const Dataset& data, const Indices& train)
{
    Coded c;
    if (data.isClassification()) {
        c.coding = TargetCoding::classes(data.numClasses);
        c.Y = c.coding.encode(select(data.labels, train));
    } else {
        const std::vector<double> t = select(data.targets, train);
        c.coding = TargetCoding::regression(t);
        c.Y = c.coding.encode(t);
    }
    return c;
}

std::optional<Eigen::MatrixXd> solveOrNothing(const Eigen::MatrixXd& G, const Eigen::MatrixXd& B, double lambda,
                                              const Progress& progress)
{
    Eigen::MatrixXd A = MatrixPool::take(G.rows(), G.cols());  // the last factor's memory, paged in
    A = G;
    A.diagonal().array() += lambda;
    std::optional<Eigen::MatrixXd> W;
    if (choleskyInPlace(A, progress)) {
        reportProgress(progress, 1.0, "solve");  // the solves with the factor take a moment for a large system
        W = choleskySolve(A, B);
    }
    MatrixPool::give(std::move(A));
    return W;
}

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// The outcome of decision values; `keep` (classes): they stay in Outcome::decisions.
Outcome decode(const TargetCoding& coding, Eigen::MatrixXd decision, bool keep = false)
{
    Outcome o;
    o.logEvidence = kNaN;
    if (coding.isClassification()) {
        o.classes = TargetCoding::argmax(decision);
        if (keep) o.decisions = std::move(decision);
    } else {
        o.targets = coding.decode(decision);
    }
    return o;
}

/// `poll` held at `fraction` and `step` whatever its callee reports: the callee's units are short
/// parts of one step of the fit. Never empty (the callee then polls in groups, as it does for any
/// progress).
Progress heldAt(const Progress& poll, double fraction, std::string step)
{
    return [&poll, fraction, step = std::move(step)](double, const std::string&) { return poll && poll(fraction, step); };
}

/// An outcome as one column of doubles (exact for the class indices), to travel between ranks.
Eigen::MatrixXd packed(const Outcome& o)
{
    const std::size_t n =
        8 + o.classes.size() + o.targets.size() + std::size_t(o.weights.size()) + std::size_t(o.decisions.size());
    Eigen::MatrixXd m(Eigen::Index(n), 1);
    m(0) = o.failed ? 1.0 : 0.0;
    m(1) = o.logEvidence;
    m(2) = double(o.classes.size());
    m(3) = double(o.targets.size());
    m(4) = double(o.weights.rows());
    m(5) = double(o.weights.cols());
    m(6) = double(o.decisions.rows());
    m(7) = double(o.decisions.cols());
    Eigen::Index at = 8;
    for (int c : o.classes) m(at++) = c;
    for (double t : o.targets) m(at++) = t;
    m.middleRows(at, o.weights.size()) = o.weights.reshaped();
    at += o.weights.size();
    m.middleRows(at, o.decisions.size()) = o.decisions.reshaped();
    return m;
}

Outcome unpacked(const Eigen::MatrixXd& m)
{
    Outcome o;
    o.failed = m(0) != 0.0;
    o.logEvidence = m(1);
    const auto classes = std::size_t(m(2)), targets = std::size_t(m(3));
    const auto D = Eigen::Index(m(4)), C = Eigen::Index(m(5)), N = Eigen::Index(m(6)), Cd = Eigen::Index(m(7));
    Eigen::Index at = 8;
    for (std::size_t i = 0; i < classes; ++i) o.classes.push_back(int(m(at++)));
    for (std::size_t i = 0; i < targets; ++i) o.targets.push_back(m(at++));
    o.weights = m.middleRows(at, D * C).reshaped(D, C);
    at += D * C;
    o.decisions = m.middleRows(at, N * Cd).reshaped(N, Cd);
    return o;
}

Outcome failedOutcome()
{
    Outcome o;
    o.logEvidence = kNaN;
    o.failed = true;
    return o;
}

/// A matrix that goes back to the computation's MatrixPool when the fit holding it is done.
struct PooledMatrix {
    Eigen::MatrixXd m;
    explicit PooledMatrix(Eigen::MatrixXd matrix) : m(std::move(matrix)) {}
    PooledMatrix(PooledMatrix&&) = default;
    PooledMatrix& operator=(PooledMatrix&&) = default;
    ~PooledMatrix() { MatrixPool::give(std::move(m)); }
};

/// K(rows, cols), in a matrix from the computation's MatrixPool (the same cut of the previous fold
/// or grid point, already paged in).
Eigen::MatrixXd subMatrix(const Eigen::MatrixXd& K, const Indices& rows, const Indices& cols)
{
    Eigen::MatrixXd S = MatrixPool::take(Eigen::Index(rows.size()), Eigen::Index(cols.size()));
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
    for (long long j = 0; j < static_cast<long long>(cols.size()); ++j)
        for (std::size_t i = 0; i < rows.size(); ++i)
            S(Eigen::Index(i), Eigen::Index(j)) = K(Eigen::Index(rows[i]), Eigen::Index(cols[std::size_t(j)]));
    return S;
}

/// What one fit leaves to be dealt out once its collective parts are done: `tasks` independent
/// pieces of work (one per value, or one) of `cost` each (flops, roughly), piece k computed by
/// run(k) on the rank it is dealt to. `run` holds what it needs; it is called only within fitAll.
struct DealtFit {
    std::size_t tasks = 0;
    double cost = 1.0;
    std::function<Outcome(std::size_t)> run;
    /// Spread features: run gives the weights, and the predictions x W are decoded by this.
    TargetCoding coding;
    /// The fit's normal equations, if it has any: the ranks its tasks go to need their cells.
    std::shared_ptr<FitEquations> equations;
};

/// A primal fit's piece on spread features: the weights W (or failed), predictions left to
/// predictHeld.
Outcome weightsOnly(std::optional<Eigen::MatrixXd> W, double logEvidence)
{
    Outcome o;
    o.logEvidence = logEvidence;
    if (!W) return failedOutcome();
    o.weights = std::move(*W);
    return o;
}

/// The predictions of fits on spread features (their outcomes hold weights W): each rank computes
/// x W for the test rows it holds, block by block (the same products at any number of ranks), the
/// ranks' pieces go to every rank, and each is decoded by its fit's coding (`keep`: the decision
/// values stay in the outcomes).
void predictHeld(const PointFeatures& p, const std::vector<Split>& splits, const std::vector<DealtFit>& fits,
                 const Ranks& ranks, bool keep, std::vector<std::vector<Outcome>>& out)
{
    const auto q0 = std::size_t(ranks.rank());
    const Eigen::Index offset = p.blocks.begin(p.starts[q0]);
    // Positions in each test set of its rows, block by block, in row order.
    std::vector<std::vector<std::vector<std::size_t>>> byBlock;
    for (const Split& s : splits) byBlock.push_back(positionsByBlock(s.test, p.blocks));
    std::vector<std::vector<Eigen::MatrixXd>> decision(splits.size());
    for (std::size_t j = 0; j < splits.size(); ++j)
        for (const Outcome& o : out[j]) decision[j].emplace_back(Eigen::Index(splits[j].test.size()), o.weights.cols());
    // Each rank's piece: for every fit, outcome and block it holds in turn, the decision rows of
    // the block's test rows.
    std::vector<Eigen::MatrixXd> parts;
    Eigen::Index rowsOfPiece = 0, width = 0;
    for (std::size_t j = 0; j < splits.size(); ++j)
        for (Eigen::Index b = p.starts[q0]; b < p.starts[q0 + 1]; ++b) {
            const std::vector<std::size_t>& ks = byBlock[j][std::size_t(b)];
            if (ks.empty()) continue;
            MatrixXfR Fb(Eigen::Index(ks.size()), p.F.cols());
            for (std::size_t i = 0; i < ks.size(); ++i) Fb.row(Eigen::Index(i)) = p.F.row(Eigen::Index(splits[j].test[ks[i]]) - offset);
            for (const Outcome& o : out[j]) {
                if (o.failed) continue;
                parts.push_back(timesDouble(Fb, o.weights));
                rowsOfPiece += parts.back().rows();
                width = std::max(width, parts.back().cols());
            }
        }
    Eigen::MatrixXd mine = Eigen::MatrixXd::Zero(rowsOfPiece, width);
    for (Eigen::Index at = 0; const Eigen::MatrixXd& m : parts) {
        mine.block(at, 0, m.rows(), m.cols()) = m;
        at += m.rows();
    }
    const std::vector<Eigen::MatrixXd> pieces = ranks.allPieces(mine);
    for (std::size_t q = 0; q < pieces.size(); ++q) {
        Eigen::Index at = 0;
        for (std::size_t j = 0; j < splits.size(); ++j)
            for (Eigen::Index b = p.starts[q]; b < p.starts[q + 1]; ++b) {
                const std::vector<std::size_t>& ks = byBlock[j][std::size_t(b)];
                if (ks.empty()) continue;
                for (std::size_t k = 0; k < out[j].size(); ++k) {
                    if (out[j][k].failed) continue;
                    Eigen::MatrixXd& d = decision[j][k];
                    for (std::size_t i = 0; i < ks.size(); ++i) d.row(Eigen::Index(ks[i])) = pieces[q].row(at + Eigen::Index(i)).head(d.cols());
                    at += Eigen::Index(ks.size());
                }
            }
    }
    for (std::size_t j = 0; j < splits.size(); ++j)
        for (std::size_t k = 0; k < out[j].size(); ++k) {
            Outcome& o = out[j][k];
            if (o.failed) continue;
            Outcome predicted = decode(fits[j].coding, std::move(decision[j][k]), keep);
            predicted.logEvidence = o.logEvidence;
            o = std::move(predicted);
        }
}

/// The Cholesky of value k of `lambdas` held at its share of a ridge fit's progress: the Gram
/// matrix takes the first third, the lambdas the rest.
Progress solving(const Progress& poll, const std::vector<double>& lambdas, std::size_t k)
{
    return heldAt(poll, (1.0 + 2.0 * double(k) / double(lambdas.size())) / 3.0, "Cholesky λ=" + shortNumber(lambdas[k]));
}

/// A learner whose fits are prepared (the collective parts: normal equations, the kernel) and then
/// dealt out (TrainLearner::fitAll): all the fits' tasks in one turn, in contiguous runs of about
/// equal cost (contiguousOwners). The turn runs on over the whole training run, so that the first
/// run goes to the next rank each time and the ranks get equal shares.
class DealtLearner : public TrainLearner {
public:
    /// keepDecisions: the outcomes of classes hold their decision values (Outcome::decisions).
    DealtLearner(const RowPartition& rows, bool keepDecisions) : rows_(rows), keep_(keepDecisions) {}

    std::vector<std::vector<Outcome>> fitAll(const PointFeatures& p, const std::vector<Split>& splits,
                                             const std::vector<double>& values, const Progress& poll) const final
    {
        FitClock clock(rows_);
        // Fit j's progress f, as its prepare and its tasks report it, within the whole: the
        // preparations fill the first third, fit after fit, and the dealt tasks the rest. Tasks
        // run in dealing order, not fit order, so what is reported never goes back.
        const double J = double(splits.size());
        bool dealing = false;
        double last = 0.0;
        std::vector<Progress> polls;
        polls.reserve(splits.size());
        for (std::size_t j = 0; j < splits.size(); ++j)
            polls.push_back([&, j](double f, const std::string& step) {
                const double at = dealing ? (1.0 + 2.0 * (double(j) + f) / J) / 3.0 : (double(j) + std::min(1.0, 3.0 * f)) / (3.0 * J);
                last = std::max(last, at);
                return poll && poll(last, step);
            });
        std::vector<DealtFit> fits;
        fits.reserve(splits.size());
        for (std::size_t j = 0; j < splits.size(); ++j) fits.push_back(prepare(p, splits[j], values, polls[j], clock));
        std::vector<double> costs;
        std::vector<std::pair<std::size_t, std::size_t>> task;  // (fit, piece) of each dealt task
        for (std::size_t j = 0; j < fits.size(); ++j)
            for (std::size_t k = 0; k < fits[j].tasks; ++k) {
                costs.push_back(fits[j].cost);
                task.emplace_back(j, k);
            }
        dealing = true;
        const Ranks& ranks = *rows_.ranks;
        // A fit's values in a run on one rank where possible: its equations (a sum of shared cells)
        // are then formed on that rank alone (FitEquations).
        const std::vector<int> owners = contiguousOwners(costs, ranks.size(), turn_);
        turn_ += costs.size();
        // This rank's last task of each fit: its equations are released after it.
        std::vector<std::size_t> lastOfFit(fits.size(), costs.size());
        for (std::size_t t = 0; t < task.size(); ++t)
            if (owners[t] == ranks.rank()) lastOfFit[task[t].first] = t;
        if (ranks.size() > 1) {
            const auto t = std::chrono::steady_clock::now();
            std::vector<std::shared_ptr<FitEquations>> equations;
            for (const DealtFit& f : fits) equations.push_back(f.equations);
            sendCells(p, equations, owners, task, ranks);
            clock.sums.reduction += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
        }
        const std::vector<Eigen::MatrixXd> all =
            ranks.dealTo(owners, [&](std::size_t t) {
                Eigen::MatrixXd o = packed(fits[task[t].first].run(task[t].second));
                if (t == lastOfFit[task[t].first] && fits[task[t].first].equations) fits[task[t].first].equations->release();
                return o;
            });
        std::vector<std::vector<Outcome>> out(splits.size());
        for (std::size_t t = 0; t < all.size(); ++t) out[task[t].first].push_back(unpacked(all[t]));
        if (p.spread()) predictHeld(p, splits, fits, ranks, keep_, out);
        return out;
    }

protected:
    /// The collective parts of the fit of `split` (every rank calls it, in the same order), and
    /// the tasks left to deal. `poll` and `values` outlive the returned run.
    virtual DealtFit prepare(const PointFeatures& p, const Split& split, const std::vector<double>& values,
                             const Progress& poll, FitClock& clock) const = 0;

    RowPartition rows_;
    bool keep_;

private:
    mutable std::size_t turn_ = 0;
};

/// Ridge on F (primal when D <= n_train, else dual through F F^T) or kernel ridge with a Gaussian
/// kernel on F (always dual). Every lambda costs one parallel Cholesky.
class RidgeLearner : public DealtLearner {
public:
    RidgeLearner(const Dataset& data, bool gaussianKernel, const RowPartition& rows, bool keepDecisions)
        : DealtLearner(rows, keepDecisions), data_(data), gaussian_(gaussianKernel)
    {
    }
    std::string axis() const override { return "lambda"; }
    bool sumsOverRows() const override { return !gaussian_; }

    DealtFit prepare(const PointFeatures& p, const Split& split, const std::vector<double>& lambdas, const Progress& poll,
                     FitClock& clock) const override
    {
        for (double l : lambdas)
            if (!std::isfinite(l) || !(l > 0)) throw SpecError("grid lambda", "must be > 0", std::to_string(l));
        Coded c = codeTargets(data_, split.train);
        if (primal(p, split.train)) {
            // A Cholesky reads G's lower triangle alone: the cells' sum is never mirrored.
            std::shared_ptr<FitEquations> ne =
                trainingEquations(p, split.train, c.coding, c.Y, rows_, clock, heldAt(poll, 0.0, "Gram matrix"), false);
            const double D = double(p.F.cols());
            if (p.spread())
                return {lambdas.size(), D * D * D,
                        [&lambdas, &poll, ne](std::size_t k) {
                            const NormalEquations& e = ne->get();
                            return weightsOnly(solveOrNothing(e.G, e.B, lambdas[k], solving(poll, lambdas, k)), kNaN);
                        },
                        c.coding, ne};
            return {lambdas.size(), D * D * D,
                    [&lambdas, &poll, ne, Fs = selectRows(p.F, split.test), coding = c.coding,
                     keep = keep_](std::size_t k) {
                        const NormalEquations& e = ne->get();
                        const auto W = solveOrNothing(e.G, e.B, lambdas[k], solving(poll, lambdas, k));
                        return W ? decode(coding, timesDouble(Fs, *W), keep) : failedOutcome();
                    },
                    {}, ne};
        }
        if (p.spread()) throw ContractError("RidgeLearner", "a dual fit on features spread over the ranks");
        const Eigen::MatrixXd& K = kernel(p, &clock.sums, heldAt(poll, 0.0, "Gram matrix"));
        reportProgress(poll, 1.0 / 3.0, "kernel rows");
        auto Ktt = std::make_shared<PooledMatrix>(subMatrix(K, split.train, split.train));
        reportProgress(poll, 1.0 / 3.0, "kernel rows");
        auto Kst = std::make_shared<PooledMatrix>(subMatrix(K, split.test, split.train));
        const double n = double(split.train.size());
        return {lambdas.size(), n * n * n,
                [&lambdas, &poll, Ktt = std::move(Ktt), Kst = std::move(Kst), c = std::move(c),
                 gaussian = gaussian_, keep = keep_](std::size_t k) {
                    const auto A = solveOrNothing(Ktt->m, c.Y, lambdas[k], solving(poll, lambdas, k));
                    if (!A) return failedOutcome();
                    if (gaussian) return decode(c.coding, dualScores(Kst->m, *A));  // a saved krr model's bits
                    Eigen::MatrixXd D(Kst->m.rows(), A->cols());
                    for (Eigen::Index j = 0; j < A->cols(); ++j) D.col(j).noalias() = Kst->m * A->col(j);  // GEMV: one thread
                    return decode(c.coding, std::move(D), keep);
                },
                {}, nullptr};
    }

    void shareCells(const PointFeatures& p, const SharedRowSets& sets, const Progress& poll) const override
    {
        if (gaussian_)
            TrainLearner::shareCells(p, sets, poll);
        else
            computeCells(data_, p, sets, rows_, heldAt(poll, 0.0, "Gram matrix"));
    }

private:
    /// F F^T (float products over column chunks summed in double, polling between tiles), or for
    /// krr the Gaussian of featureGram (exact double Gram there: distances cancel digits; each
    /// entry's bits depend only on its two rows, so a saved krr model predicts the run's bits). The
    /// chunks are featureChunks' blocks of feature columns, at most 6 of them (P = 2 and 3 get
    /// equal shares): each rank computes its own chunks' lower triangles, added in the fixed tree of
    /// orbit/parallel/BlockSum.hpp (at most 4 N x N partial sums at once) and mirrored once.
    /// (Packing the triangles to halve the bytes was tried: the packing cost more than it saved.)
    const Eigen::MatrixXd& kernel(const PointFeatures& p, BlockSumTimes* times, const Progress& poll) const
    {
        if (p.K) return *p.K;
        if (gaussian_) {
            p.K = gaussianGram(p.F, p.kernelSigma, *rows_.ranks, times, poll);
            return *p.K;
        }
        const RowBlocks chunks = featureChunks(p.F.cols());
        // The chunks' N x N sums go into buffers the block sum recycles (no fresh pages per chunk).
        const BlockLeafInto leaf = [&](Eigen::Index c, Eigen::MatrixXd& out) {
            reportProgress(poll, 0.0, "Gram matrix");
            const MatrixXfR B = p.F.middleCols(chunks.begin(c), chunks.end(c) - chunks.begin(c));
            out.resize(B.rows(), B.rows());
            lowerGramOfRowsMixed(B, std::min<Eigen::Index>(chunks.blockRows, 2048), poll, out);
        };
        Eigen::MatrixXd K = sumOverBlocks(*rows_.ranks, chunks.count(), leaf, times);
        mirrorLower(K);
        p.K = std::move(K);
        return *p.K;
    }

    /// Ridge on F in the primal (normal equations, D x D) when D <= n_train, else in the dual.
    bool primal(const PointFeatures& p, const Indices& train) const { return !gaussian_ && std::size_t(p.F.cols()) <= train.size(); }

    const Dataset& data_;
    bool gaussian_;
};

/// liblinear's L2-loss SVM, one fit per C (classes only).
class SvmLearner : public DealtLearner {
public:
    SvmLearner(const Dataset& data, std::uint64_t seed, const RowPartition& rows, bool keepDecisions)
        : DealtLearner(rows, keepDecisions), data_(data), seed_(seed)
    {
    }
    std::string axis() const override { return "C"; }

    DealtFit prepare(const PointFeatures& p, const Split& split, const std::vector<double>& values, const Progress& poll,
                     FitClock&) const override
    {
        for (double C : values)
            if (!std::isfinite(C) || !(C > 0)) throw SpecError("grid C", "must be > 0", std::to_string(C));
        return {values.size(), double(split.train.size()) * double(p.F.cols()),
                [this, &values, &poll, Ft = selectRows(p.F, split.train), Fs = selectRows(p.F, split.test),
                 labels = select(data_.labels, split.train)](std::size_t k) {
                    LinearSvm svm(values[k], 0.1, seed_);
                    const std::string step = "SVM C=" + shortNumber(values[k]);
                    const double f = double(k) / double(values.size());
                    reportProgress(poll, f, step);
                    svm.fit(Ft, labels, data_.numClasses, heldAt(poll, f, step));
                    Outcome o;
                    o.logEvidence = kNaN;
                    if (keep_) {
                        o.decisions = svm.decisionValues(Fs);
                        o.classes = TargetCoding::argmax(o.decisions);  // predictClasses' argmax
                    } else {
                        o.classes = svm.predictClasses(Fs);
                    }
                    return o;
                },
                {}, nullptr};
    }

private:
    const Dataset& data_;
    std::uint64_t seed_;
};

/// Bayesian linear regression with alpha, beta maximising the evidence (no learner axis).
class BlrLearner : public DealtLearner {
public:
    BlrLearner(const Dataset& data, const RowPartition& rows) : DealtLearner(rows, false), data_(data) {}
    std::string axis() const override { return {}; }
    bool sumsOverRows() const override { return true; }

    DealtFit prepare(const PointFeatures& p, const Split& split, const std::vector<double>&, const Progress& poll,
                     FitClock& clock) const override
    {
        reportProgress(poll, 0.0, "Bayesian evidence");  // the evidence itself (one tridiagonalisation) does not poll
        // Primal: the normal equations are sums over row blocks (collective); the evidence
        // maximisation and the predictions then run on one rank (dealt).
        const Indices& train = split.train;
        std::shared_ptr<FitEquations> ne;  // none for a dual fit
        TargetCoding coding;
        Eigen::MatrixXd T;
        const double n = double(train.size()), D = double(p.F.cols());
        if (std::size_t(p.F.cols()) <= train.size()) {
            coding = data_.isClassification() ? TargetCoding::classes(data_.numClasses, TargetCoding::Kind::OneHot)
                                              : TargetCoding::regression(select(data_.targets, train));
            T = data_.isClassification() ? coding.encode(select(data_.labels, train)) : coding.encode(select(data_.targets, train));
            ne = trainingEquations(p, train, coding, T, rows_, clock, heldAt(poll, 0.0, "Gram matrix"), true);
        } else if (p.spread()) {
            throw ContractError("BlrLearner", "a dual fit on features spread over the ranks");
        }
        if (p.spread())
            return {1, D * D * D,
                    [ne, coding, sumT2 = T.squaredNorm()](std::size_t) {
                        BayesianLinearRegression blr;
                        blr.fit(ne->get(), sumT2, coding);
                        return weightsOnly(blr.weights(), blr.logEvidence());
                    },
                    coding, ne};
        return {1, ne ? D * D * D : n * D * std::min(n, D),
                [this, &p, train, ne, coding, sumT2 = T.squaredNorm(),
                 Fs = selectRows(p.F, split.test)](std::size_t) {
                    BayesianLinearRegression blr;
                    if (ne)
                        blr.fit(ne->get(), sumT2, coding);
                    else if (data_.isClassification())
                        blr.fit(selectRows(p.F, train), select(data_.labels, train), data_.numClasses);
                    else
                        blr.fit(selectRows(p.F, train), select(data_.targets, train));
                    Outcome o;
                    if (data_.isClassification())
                        o.classes = blr.predictClasses(Fs);
                    else
                        o.targets = blr.predictTargets(Fs);
                    o.logEvidence = blr.logEvidence();
                    return o;
                },
                {}, ne};
    }

    void shareCells(const PointFeatures& p, const SharedRowSets& sets, const Progress& poll) const override
    {
        computeCells(data_, p, sets, rows_, heldAt(poll, 0.0, "Gram matrix"));
    }

private:
    const Dataset& data_;
};

} // namespace

std::unique_ptr<TrainLearner> makeRidgeLearner(const Dataset& data, bool gaussianKernel, const RowPartition& rows,
                                               bool keepDecisions)
{
    return std::make_unique<RidgeLearner>(data, gaussianKernel, rows, keepDecisions);
}

std::unique_ptr<TrainLearner> makeSvmLearner(const Dataset& data, std::uint64_t seed, const RowPartition& rows,
                                             bool keepDecisions)
{
    return std::make_unique<SvmLearner>(data, seed, rows, keepDecisions);
}

std::unique_ptr<TrainLearner> makeBlrLearner(const Dataset& data, const RowPartition& rows)
{
    return std::make_unique<BlrLearner>(data, rows);
}

std::unique_ptr<TrainLearner> makeTrainLearner(const std::string& name, const Dataset& data, std::uint64_t seed,
                                               const RowPartition& rows, bool keepDecisions)
{
    const LearnerDescriptor& learner = parseLearner(name);
    if (learner.classesOnly && !data.isClassification())
        throw SpecError("learner", name + " needs class labels (use " +
                                       learnerList([](const LearnerDescriptor& l) { return !l.classesOnly; }) + ")", name);
    if (!learner.make)
        throw SpecError("learner", name + " runs on the exact invariant kernel only: give it the features exact:r=R", name);
    return learner.make(LearnerArguments{data, seed, rows, keepDecisions, learner});
}

} // namespace orbit::detail
