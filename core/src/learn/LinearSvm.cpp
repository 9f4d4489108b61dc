#include "orbit/learn/LinearSvm.hpp"

#include "orbit/linalg/Gram.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/learn/TargetCoding.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include <linear.h>

#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace orbit {
namespace {

/// The progress of the fit under way (one fit at a time, under liblinearMutex).
const Progress* currentProgress = nullptr;

/// liblinear's print function: its solvers print "." every ten passes, which is where a fit polls.
void silent(const char*)
{
    if (currentProgress) reportProgress(*currentProgress, 0.0, "SVM passes");
}

std::mutex& liblinearMutex()
{
    static std::mutex m;
    return m;
}

struct ModelDeleter {
    void operator()(model* m) const { free_and_destroy_model(&m); }
};

} // namespace

LinearSvm::LinearSvm(double C, double tolerance, std::uint64_t seed) : C_(C), tolerance_(tolerance), seed_(seed)
{
    requirePositive("C", C);
    requirePositive("tolerance", tolerance);
}

void LinearSvm::fit(const MatrixXfR& X, const std::vector<int>& labels, int numClasses) { fit(X, labels, numClasses, {}); }

void LinearSvm::fit(const MatrixXfR& X, const std::vector<int>& labels, int numClasses, const Progress& progress)
{
    requireSize("LinearSvm", "number of labels", static_cast<long long>(labels.size()), X.rows());
    if (X.rows() == 0 || X.cols() == 0)
        throw SpecError("features", "empty feature matrix");
    TargetCoding::classes(numClasses);  // validates numClasses
    const int D = static_cast<int>(X.cols());
    std::set<int> present;
    for (int y : labels) {
        if (y < 0 || y >= numClasses)
            throw ContractError("LinearSvm", "label " + std::to_string(y) + " outside [0, " + std::to_string(numClasses) + ")");
        present.insert(y);
    }
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(D, numClasses);
    Eigen::VectorXd b = Eigen::VectorXd::Constant(numClasses, -std::numeric_limits<double>::infinity());
    if (present.size() == 1) {  // nothing to separate: always predict the one class seen
        b(*present.begin()) = 0.0;
        W_ = std::move(W);
        b_ = std::move(b);
        return;
    }

    // liblinear's sparse rows: nonzero features (1-based), the bias feature D+1 = 1, terminator -1.
    std::vector<std::size_t> start(static_cast<std::size_t>(X.rows()));
    std::vector<feature_node> nodes;
    nodes.reserve(static_cast<std::size_t>(X.size()) + 2 * static_cast<std::size_t>(X.rows()));
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        start[static_cast<std::size_t>(i)] = nodes.size();
        for (int j = 0; j < D; ++j)
            if (X(i, j) != 0.0f)
                nodes.push_back({j + 1, static_cast<double>(X(i, j))});
        nodes.push_back({D + 1, 1.0});
        nodes.push_back({-1, 0.0});
    }
    std::vector<feature_node*> rows(static_cast<std::size_t>(X.rows()));
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = nodes.data() + start[i];
    std::vector<double> y(labels.begin(), labels.end());

    problem prob{};
    prob.l = static_cast<int>(X.rows());
    prob.n = D + 1;
    prob.y = y.data();
    prob.x = rows.data();
    prob.bias = 1.0;
    parameter param{};
    param.solver_type = L2R_L2LOSS_SVC_DUAL;
    param.eps = tolerance_;
    param.C = C_;
    param.nr_weight = 0;
    param.weight_label = nullptr;
    param.weight = nullptr;
    param.p = 0.1;
    param.init_sol = nullptr;
    if (const char* err = check_parameter(&prob, &param))
        throw ContractError("LinearSvm", std::string("liblinear rejected the parameters: ") + err);

    reportProgress(progress, 0.0, "SVM passes");  // building liblinear's rows of a large matrix takes a moment
    std::unique_ptr<model, ModelDeleter> m;
    {
        std::lock_guard<std::mutex> lock(liblinearMutex());
        struct ProgressScope {  // restores "no progress" however train() ends
            explicit ProgressScope(const Progress* p) { currentProgress = p; }
            ~ProgressScope() { currentProgress = nullptr; }
        } scope(&progress);
        set_print_string_function(&silent);
        std::srand(static_cast<unsigned>(deriveSeed(seed_, 0x5f3) & 0x7fffffffu));
        m.reset(train(&prob, &param));
    }
    const int nrClass = get_nr_class(m.get());
    std::vector<int> modelLabels(static_cast<std::size_t>(nrClass));
    get_labels(m.get(), modelLabels.data());
    for (int k = 0; k < nrClass; ++k) {
        const int c = modelLabels[static_cast<std::size_t>(k)];
        for (int j = 0; j < D; ++j)
            W(j, c) = get_decfun_coef(m.get(), j + 1, k);
        b(c) = get_decfun_bias(m.get(), k);
    }
    W_ = std::move(W);
    b_ = std::move(b);
}

Eigen::MatrixXd LinearSvm::decisionValues(const MatrixXfR& X) const
{
    if (!fitted())
        throw ContractError("LinearSvm", "predict called before fit");
    requireSize("LinearSvm", "feature dimension", X.cols(), W_.rows());
    Eigen::MatrixXd F = timesDouble(X, W_);
    F.rowwise() += b_.transpose();
    return F;
}

std::vector<int> LinearSvm::predictClasses(const MatrixXfR& X) const
{
    return TargetCoding::argmax(decisionValues(X));
}

} // namespace orbit
