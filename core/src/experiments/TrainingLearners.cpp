#include "experiments/TrainingLearners.hpp"

#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/Gram.hpp"
#include "orbit/learn/LinearSvm.hpp"
#include "orbit/learn/NormalEquations.hpp"
#include "orbit/linalg/ParallelCholesky.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace orbit::detail {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// Targets of the training rows in the least-squares coding (one-vs-all +-1 or standardised).
struct Coded {
    TargetCoding coding;
    Eigen::MatrixXd Y;
};

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

Outcome decode(const TargetCoding& coding, const Eigen::MatrixXd& decision)
{
    Outcome o;
    o.logEvidence = kNaN;
    if (coding.isClassification())
        o.classes = TargetCoding::argmax(decision);
    else
        o.targets = coding.decode(decision);
    return o;
}

/// `poll` held at `fraction` and `step` whatever its callee reports: the callee's units are short
/// parts of one step of the fit. Never empty (the callee then polls in groups, as it does for any
/// progress).
Progress heldAt(const Progress& poll, double fraction, std::string step)
{
    return [&poll, fraction, step = std::move(step)](double, const std::string&) { return poll && poll(fraction, step); };
}

/// (G + lambda I)^{-1} B, or nullopt when the Cholesky factorisation fails (lambda too small).
std::optional<Eigen::MatrixXd> solveOrNothing(const Eigen::MatrixXd& G, const Eigen::MatrixXd& B, double lambda,
                                              const Progress& progress)
{
    Eigen::MatrixXd A = G;
    A.diagonal().array() += lambda;
    if (!choleskyInPlace(A, progress)) return std::nullopt;
    reportProgress(progress, 1.0, "solve");  // the solves with the factor take a moment for a large system
    return choleskySolve(A, B);
}

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
    }
    BlockSumTimes sums;

private:
    StageSeconds* seconds_;
    std::chrono::steady_clock::time_point t0_;
};

/// The normal equations of the training rows, summed over the run's row blocks and ranks.
NormalEquations trainingEquations(const PointFeatures& p, const Indices& train, const Eigen::MatrixXd& Y,
                                  const RowPartition& rows, FitClock& clock, const Progress& progress)
{
    return normalEquations(p.F, train, Y, RowBlocks{p.F.rows(), rows.blockRows}, *rows.ranks, &clock.sums, progress);
}

Eigen::MatrixXd subMatrix(const Eigen::MatrixXd& K, const Indices& rows, const Indices& cols)
{
    Eigen::MatrixXd S(Eigen::Index(rows.size()), Eigen::Index(cols.size()));
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
    for (long long j = 0; j < static_cast<long long>(cols.size()); ++j)
        for (std::size_t i = 0; i < rows.size(); ++i)
            S(Eigen::Index(i), Eigen::Index(j)) = K(Eigen::Index(rows[i]), Eigen::Index(cols[std::size_t(j)]));
    return S;
}

/// Ridge on F (primal when D <= n_train, else dual through F F^T) or kernel ridge with a Gaussian
/// kernel on F (always dual). Every lambda costs one parallel Cholesky.
class RidgeLearner : public TrainLearner {
public:
    RidgeLearner(const Dataset& data, bool gaussianKernel, const RowPartition& rows)
        : data_(data), gaussian_(gaussianKernel), rows_(rows)
    {
    }
    std::string axis() const override { return "lambda"; }

    std::vector<Outcome> fit(const PointFeatures& p, const Indices& train, const Indices& test,
                             const std::vector<double>& lambdas, const Progress& poll) const override
    {
        for (double l : lambdas)
            if (!std::isfinite(l) || !(l > 0)) throw SpecError("grid lambda", "must be > 0", std::to_string(l));
        FitClock clock(rows_);
        const Coded c = codeTargets(data_, train);
        std::vector<std::optional<Eigen::MatrixXd>> decisions;  // nullopt: G + lambda I not positive definite
        // The Gram matrix takes the first third of the progress, the lambdas the rest.
        const double L = double(lambdas.size());
        auto solving = [&](std::size_t k) {
            return heldAt(poll, (1.0 + 2.0 * double(k) / L) / 3.0, "Cholesky λ=" + shortNumber(lambdas[k]));
        };
        if (!gaussian_ && std::size_t(p.F.cols()) <= train.size()) {
            const NormalEquations ne = trainingEquations(p, train, c.Y, rows_, clock, heldAt(poll, 0.0, "Gram matrix"));
            const MatrixXfR Fs = selectRows(p.F, test);
            for (std::size_t k = 0; k < lambdas.size(); ++k) {
                const auto W = solveOrNothing(ne.G, ne.B, lambdas[k], solving(k));
                decisions.push_back(W ? std::optional(timesDouble(Fs, *W)) : std::nullopt);
            }
        } else {
            const Eigen::MatrixXd& K = kernel(p, heldAt(poll, 0.0, "Gram matrix"));
            reportProgress(poll, 1.0 / 3.0, "kernel rows");
            const Eigen::MatrixXd Ktt = subMatrix(K, train, train);
            reportProgress(poll, 1.0 / 3.0, "kernel rows");
            const Eigen::MatrixXd Kst = subMatrix(K, test, train);
            for (std::size_t k = 0; k < lambdas.size(); ++k) {
                const auto A = solveOrNothing(Ktt, c.Y, lambdas[k], solving(k));
                if (!A) {
                    decisions.push_back(std::nullopt);
                    continue;
                }
                Eigen::MatrixXd D(Kst.rows(), A->cols());
                for (Eigen::Index c = 0; c < A->cols(); ++c) D.col(c).noalias() = Kst * A->col(c);  // GEMV: one thread
                decisions.push_back(std::move(D));
            }
        }
        std::vector<Outcome> out;
        for (const auto& D : decisions) {
            if (D) {
                out.push_back(decode(c.coding, *D));
            } else {
                Outcome o;
                o.logEvidence = kNaN;
                o.failed = true;
                out.push_back(std::move(o));
            }
        }
        return out;
    }

private:
    /// F F^T (float products over 2048-column blocks summed in double, polling between tiles),
    /// then the Gaussian map for krr (exact double Gram there: distances cancel digits).
    const Eigen::MatrixXd& kernel(const PointFeatures& p, const Progress& poll) const
    {
        if (p.K) return *p.K;
        Eigen::MatrixXd K = Eigen::MatrixXd::Zero(p.F.rows(), p.F.rows());
        constexpr Eigen::Index kBlock = 2048;
        for (Eigen::Index c0 = 0; c0 < p.F.cols(); c0 += kBlock) {
            reportProgress(poll, 0.0, "Gram matrix");
            const MatrixXfR B = p.F.middleCols(c0, std::min(kBlock, p.F.cols() - c0));
            const Eigen::MatrixXd part = gaussian_ ? gramOfRows(B, poll) : gramOfRowsMixed(B, kBlock, poll);
            reportProgress(poll, 0.0, "Gram matrix");  // adding an N x N block takes a moment for large N
            K += part;
        }
        if (gaussian_) {
            if (!(p.kernelSigma > 0)) throw SpecError("kernel", "krr needs a positive bandwidth", std::to_string(p.kernelSigma));
            const Eigen::VectorXd n2 = K.diagonal();
            const BaseKernel k = BaseKernel::gaussian(p.kernelSigma);
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
            for (long long j = 0; j < static_cast<long long>(K.cols()); ++j)
                for (Eigen::Index i = 0; i < K.rows(); ++i) K(i, j) = k.fromInnerProduct(K(i, j), n2[i], n2[j]);
        }
        p.K = std::move(K);
        return *p.K;
    }

    const Dataset& data_;
    bool gaussian_;
    RowPartition rows_;
};

/// liblinear's L2-loss SVM, one fit per C (classes only).
class SvmLearner : public TrainLearner {
public:
    SvmLearner(const Dataset& data, std::uint64_t seed, const RowPartition& rows) : data_(data), seed_(seed), rows_(rows) {}
    std::string axis() const override { return "C"; }

    std::vector<Outcome> fit(const PointFeatures& p, const Indices& train, const Indices& test,
                             const std::vector<double>& values, const Progress& poll) const override
    {
        const FitClock clock(rows_);
        const MatrixXfR Ft = selectRows(p.F, train), Fs = selectRows(p.F, test);
        const std::vector<int> labels = select(data_.labels, train);
        std::vector<Outcome> out;
        for (double C : values) {
            if (!std::isfinite(C) || !(C > 0)) throw SpecError("grid C", "must be > 0", std::to_string(C));
            LinearSvm svm(C, 0.1, seed_);
            const std::string step = "SVM C=" + shortNumber(C);
            const double f = double(out.size()) / double(values.size());
            reportProgress(poll, f, step);
            svm.fit(Ft, labels, data_.numClasses, heldAt(poll, f, step));
            Outcome o;
            o.logEvidence = kNaN;
            o.classes = svm.predictClasses(Fs);
            out.push_back(std::move(o));
        }
        return out;
    }

private:
    const Dataset& data_;
    std::uint64_t seed_;
    RowPartition rows_;
};

/// Bayesian linear regression with alpha, beta maximising the evidence (no learner axis).
class BlrLearner : public TrainLearner {
public:
    BlrLearner(const Dataset& data, const RowPartition& rows) : data_(data), rows_(rows) {}
    std::string axis() const override { return {}; }

    std::vector<Outcome> fit(const PointFeatures& p, const Indices& train, const Indices& test,
                             const std::vector<double>&, const Progress& poll) const override
    {
        FitClock clock(rows_);
        reportProgress(poll, 0.0, "Bayesian evidence");  // the evidence itself (one tridiagonalisation) does not poll
        const MatrixXfR Fs = selectRows(p.F, test);
        BayesianLinearRegression blr;
        if (std::size_t(p.F.cols()) <= train.size()) {  // primal: the normal equations are sums over row blocks
            const TargetCoding coding = data_.isClassification()
                                            ? TargetCoding::classes(data_.numClasses, TargetCoding::Kind::OneHot)
                                            : TargetCoding::regression(select(data_.targets, train));
            const Eigen::MatrixXd T = data_.isClassification() ? coding.encode(select(data_.labels, train))
                                                               : coding.encode(select(data_.targets, train));
            blr.fit(trainingEquations(p, train, T, rows_, clock, heldAt(poll, 0.0, "Gram matrix")), T.squaredNorm(), coding);
        } else if (data_.isClassification()) {
            blr.fit(selectRows(p.F, train), select(data_.labels, train), data_.numClasses);
        } else {
            blr.fit(selectRows(p.F, train), select(data_.targets, train));
        }
        Outcome o;
        if (data_.isClassification())
            o.classes = blr.predictClasses(Fs);
        else
            o.targets = blr.predictTargets(Fs);
        o.logEvidence = blr.logEvidence();
        return {o};
    }

private:
    const Dataset& data_;
    RowPartition rows_;
};

} // namespace

std::unique_ptr<TrainLearner> makeTrainLearner(const std::string& name, const Dataset& data, std::uint64_t seed,
                                               const RowPartition& rows)
{
    const Learner learner = parseLearner(name);
    if (learnerDescriptor(learner).classesOnly && !data.isClassification()) {
        std::vector<std::string> others;
        for (const LearnerDescriptor& l : learnerDescriptors())
            if (!l.classesOnly) others.push_back(l.name);
        std::string list;
        for (std::size_t i = 0; i < others.size(); ++i)
            list += (i == 0 ? "" : i + 1 == others.size() ? " or " : ", ") + others[i];
        throw SpecError("learner", name + " needs class labels (use " + list + ")", name);
    }
    switch (learner) {
    case Learner::Ridge: return std::make_unique<RidgeLearner>(data, false, rows);
    case Learner::Krr: return std::make_unique<RidgeLearner>(data, true, rows);
    case Learner::Blr: return std::make_unique<BlrLearner>(data, rows);
    case Learner::Svm: return std::make_unique<SvmLearner>(data, seed, rows);
    }
    throw ContractError("makeTrainLearner", "no learner for " + name);
}

} // namespace orbit::detail
