#pragma once
// A regression's mean as a linear function of a molecule's composition (the "dressed atom"
// baseline of the quantum-chemistry literature): target ~ w_0 + sum_Z w_Z n_Z(x), n_Z the number of
// atoms of nuclear charge Z, read off the Coulomb matrix's diagonal (C_ii = 0.5 Z^2.4). The kernel
// machine then models what the composition does not explain. Fitted by least squares on training
// rows only; the exact kernel machines take it as their mean function (`--mean composition`).
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace orbit {

/// The nuclear charges of a Coulomb matrix's atoms (n x n, row-major): Z_i = (2 C_ii)^(1/2.4)
/// rounded, for the rows up to the last non-zero diagonal (the rest is padding). SpecError("data")
/// when a diagonal entry is not 0.5 Z^2.4 of a whole Z in [1, 118] within 1 %.
std::vector<int> atomCharges(const float* coulomb, int n);

class CompositionMean {
public:
    CompositionMean() = default;
    /// Least squares of the targets of `rows` on [1, n_Z(x) for each Z seen in those rows], with a
    /// ridge of 1e-8 times the mean diagonal so that a charge always paired with another stays
    /// determined. SpecError("mean") unless the data are Coulomb matrices with targets.
    static CompositionMean fit(const Dataset& data, const Indices& rows);

    /// The mean at one Coulomb matrix (n x n): w_0 + sum_Z w_Z n_Z; a charge the fit never saw counts 0.
    double at(const float* coulomb, int n) const;
    /// The mean of the rows `rows` of data.
    std::vector<double> at(const Dataset& data, const Indices& rows) const;

    const std::vector<int>& charges() const { return charges_; }
    const Eigen::VectorXd& weights() const { return weights_; }  ///< w_0, then w_Z in charges() order
    bool empty() const { return weights_.size() == 0; }

private:
    std::vector<int> charges_;
    Eigen::VectorXd weights_;
};

/// SpecError("mean") naming the value unless `mean` is "constant" or "composition".
void checkMeanFunction(const std::string& mean);

} // namespace orbit
