#pragma once
// Invariant random Fourier features as a differentiable function of the distribution's parameters.
#include "orbit/util/Progress.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/features/InvariantRandomFourier.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace orbit {

/// The features of InvariantRandomFourier (LGIKA eq. 7), cos form
///   psi_j(x) = c sum_k cos(<w_j, g_k x> + b_j),   c = sqrt(2/s) / r,
/// (complex form: [cos, sin] pairs with c = sqrt(1/s) / r), seen as a function of the parameters
/// theta of the distribution q_theta the elements come from. Each g_k = g(u_k; theta) is a
/// deterministic function of fixed base noise u_k (Distribution::sampleWithTangents), so
///   d psi_j(x) / d theta_m = -c sum_k sin(<w_j, g_k x> + b_j) <w_j, d(g_k x) / d theta_m>,
/// with d(g x)/d theta = (image gradient at the sampling positions) x (the action's generator)
/// (Group::applyTangent). With the template trick (shared g_k, unitary action, symmetric q):
/// <w, g x> = <g^-1 w, x>, so the moved templates g_k^-1 w_j and their tangents are differentiated
/// instead of the inputs; otherwise (mode=data) every input has its own g_{i,k} from the sub-stream
/// of its dataset index and its orbit copies are differentiated.
///
/// The templates, phases and elements are those InvariantRandomFourier::fit(X, seed) draws for the
/// same context, s, r, form, mode and seed. Requires a differentiable group (rotation, translation,
/// scale, affine) and a Gaussian kernel. Guarantees: for given rows, seed and parameter values the
/// output is bit-identical at any thread count (fixed row blocks, elements summed in order k = 1..r).
class InvariantFourierTangents {
public:
    using Form = InvariantRandomFourier::Form;
    /// Throws SpecError naming the field (`features`, `group`, `kernel`) when the context does not fit.
    InvariantFourierTangents(FeatureContext context, int s, int r, Form form, std::string mode, std::uint64_t seed);

    Eigen::Index dim() const { return form_ == Form::Complex ? 2 * Eigen::Index(s_) : Eigen::Index(s_); }
    int templates() const { return s_; }
    bool usesTemplateTrick() const { return templateTrick_; }
    /// The same map on its first `s` templates and phases (1 <= s <= templates()), scaled for s:
    /// the features of the first s random directions, a cheaper estimate of the same kernel with
    /// the same group elements (a pilot's).
    InvariantFourierTangents firstTemplates(int s) const;

    /// Phi (rows.size() x dim()): the features of rows `rows` of X (dataset indices) with the
    /// elements drawn from `dist` (the context's distribution with other parameter values; null:
    /// the context's own), and dPhi[m] their derivative with respect to params[m] (names as in
    /// Distribution::parameters(); none for an empty list). The templates and the base noise are the
    /// same for every dist. The rows go in fixed blocks that restart at every multiple of
    /// `segmentRows` rows of the call (0: never), so a call over several segments gives each the
    /// bits of a call of its own (a process's run of row blocks, computed at once: the group elements
    /// and moved templates are made once per call). Progress reports once per group element
    /// (template trick: per chunk of elements) or 64 blocks of inputs; throws Cancelled. Throws SpecError("distribution")
    /// when dist is of another group or changes whether the template trick applies (give mode=data
    /// or mode=templates).
    void compute(const std::shared_ptr<const Distribution>& dist, const MatrixXfR& X, const Indices& rows,
                 const std::vector<std::string>& params, MatrixXfR& Phi, std::vector<MatrixXfR>& dPhi,
                 const Progress& progress = {}, Eigen::Index segmentRows = 0) const;
    /// The same in double precision throughout (templates, products, cos / sin), for derivative
    /// checks against finite differences that float rounding would drown.
    void compute(const std::shared_ptr<const Distribution>& dist, const MatrixXfR& X, const Indices& rows,
                 const std::vector<std::string>& params, MatrixXdR& Phi, std::vector<MatrixXdR>& dPhi,
                 const Progress& progress = {}, Eigen::Index segmentRows = 0) const;

private:
    template <class Scalar> struct Work;
    template <class Mat>
    void computeAny(const std::shared_ptr<const Distribution>& dist, const MatrixXfR& X, const Indices& rows,
                    const std::vector<std::string>& params, Mat& Phi, std::vector<Mat>& dPhi,
                    const Progress& progress, Eigen::Index segmentRows) const;

    FeatureContext context_;
    int s_, r_;
    Form form_;
    std::string mode_;
    std::uint64_t seed_;
    bool templateTrick_ = true;
    MatrixXfR W_;
    Eigen::VectorXf b_;
};

} // namespace orbit
