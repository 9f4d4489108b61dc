#include "orbit/learn/CompositionMean.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <map>

namespace orbit {

std::vector<int> atomCharges(const float* coulomb, int n)
{
    int atoms = n;
    while (atoms > 0 && coulomb[std::size_t(atoms - 1) * std::size_t(n + 1)] == 0.0f) --atoms;
    std::vector<int> z(static_cast<std::size_t>(atoms));
    for (int i = 0; i < atoms; ++i) {
        const double c = coulomb[std::size_t(i) * std::size_t(n + 1)];
        const double charge = std::pow(2.0 * c, 1.0 / 2.4);
        const long z0 = std::lround(charge);
        if (!(c > 0) || z0 < 1 || z0 > 118 || std::abs(0.5 * std::pow(double(z0), 2.4) - c) > 0.01 * c)
            throw SpecError("data", "a Coulomb matrix's diagonal must be 0.5 Z^2.4 of a nuclear charge Z (atom " +
                                        std::to_string(i) + ")",
                            formatNumber(c));
        z[std::size_t(i)] = int(z0);
    }
    return z;
}

void checkMeanFunction(const std::string& mean)
{
    if (mean != "constant" && mean != "composition")
        throw SpecError("mean", "must be constant (the training targets' mean) or composition (a linear mean in the "
                                "numbers of atoms of each element)",
                        mean);
}

namespace {

std::map<int, int> countsOf(const float* coulomb, int n)
{
    std::map<int, int> counts;
    for (int z : atomCharges(coulomb, n)) ++counts[z];
    return counts;
}

} // namespace

CompositionMean CompositionMean::fit(const Dataset& data, const Indices& rows)
{
    if (data.kind != DataKind::Coulomb || data.isClassification())
        throw SpecError("mean", "composition is the mean of a regression on Coulomb matrices (molecules)", "composition");
    if (rows.empty()) throw SpecError("mean", "no training rows to fit the composition mean on", "composition");
    const int n = data.shape.height;
    std::vector<std::map<int, int>> counts;
    std::map<int, int> seen;
    for (std::size_t r : rows) {
        counts.push_back(countsOf(data.X.row(Eigen::Index(r)).data(), n));
        for (const auto& [z, k] : counts.back()) seen[z] += k;
    }
    CompositionMean m;
    for (const auto& [z, k] : seen) m.charges_.push_back(z);
    const Eigen::Index p = Eigen::Index(m.charges_.size()) + 1;
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(Eigen::Index(rows.size()), p);
    Eigen::VectorXd y(Eigen::Index(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        H(Eigen::Index(i), 0) = 1.0;
        for (std::size_t c = 0; c < m.charges_.size(); ++c) {
            const auto it = counts[i].find(m.charges_[c]);
            if (it != counts[i].end()) H(Eigen::Index(i), Eigen::Index(c) + 1) = it->second;
        }
        y(Eigen::Index(i)) = data.targets[rows[i]];
    }
    Eigen::MatrixXd A = H.transpose() * H;
    A.diagonal().array() += 1e-8 * A.diagonal().mean();
    m.weights_ = A.ldlt().solve(H.transpose() * y);
    return m;
}

double CompositionMean::at(const float* coulomb, int n) const
{
    if (empty()) return 0.0;
    double v = weights_(0);
    for (const auto& [z, k] : countsOf(coulomb, n)) {
        const auto it = std::find(charges_.begin(), charges_.end(), z);
        if (it != charges_.end()) v += weights_(1 + (it - charges_.begin())) * k;
    }
    return v;
}

std::vector<double> CompositionMean::at(const Dataset& data, const Indices& rows) const
{
    std::vector<double> out;
    out.reserve(rows.size());
    for (std::size_t r : rows) out.push_back(at(data.X.row(Eigen::Index(r)).data(), data.shape.height));
    return out;
}

} // namespace orbit
