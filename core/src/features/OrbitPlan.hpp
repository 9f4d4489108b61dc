#pragma once
// Private: how an invariant feature map averages over the group, shared by irf, inystrom, gicdf
// and kif (all OrbitFeatureMap). This is the one place the template trick is decided and done.
//
// The template trick. An invariant map averages a function of <g x, t> (or of k(g x, t)) over
// g ~ q, for templates t (random Fourier directions, landmarks, CDF templates, training rows).
//  - When the action is unitary, <g x, t> = <x, g^-1 t>, and so is k(g x, t) = k(x, g^-1 t) for
//    the base kernels of inner products and norms (Gaussian, Matérn, polynomial). The Laplacian's
//    L1 distances keep it only when g permutes coordinates (Group::permutesCoordinates).
//  - When q is symmetric (q(g) = q(g^-1)) and does not depend on x, g^-1 ~ q as well.
// Then E_g f(<g x, t>) = E_g f(<x, g t>): the group moves onto the templates. fit() moves them once
// (prepareTemplates: r blocks, block k = g_k^-1 T, the same r shared elements for every input), and
// a transform is one product of the inputs with the r s moved templates, then a pooling over each
// template's r columns. Cost: r s d values kept, no per-input group action.
// Otherwise (scaling is not unitary; noisy sort depends on x; mode=data) each input is transformed:
// prepareInputs gives r rows g_{x,i} x per input, drawn from the input's own sub-stream (so the
// features depend on the row's dataset index: usesRowIndex()). Both paths give estimates of the
// same kernel; OrbitPlan::make picks the path (mode auto | templates | data).
#include "orbit/features/FeatureMap.hpp"
#include "orbit/orbits/OrbitSampler.hpp"

#include "features/Pooling.hpp"
#include "util/ValuesPerReport.hpp"

#include <memory>
#include <string>

namespace orbit::detail {

/// Values of moved templates (r s d in all) written between two progress reports of prepareTemplates.
constexpr long long kTemplateChunkValues = kValuesPerReport;

struct OrbitPlan {
    std::shared_ptr<const OrbitSampler> sampler;  ///< null: no group (plain map, r = 1)
    bool templateTrick = true;
    int r = 1;
    SymmetricFold fold;
    /// When non-empty (template trick only): the elements used instead of r shared samples.
    std::vector<GroupElement> elements;

    /// Template trick with a finite group and the Haar distribution: use every element once (an
    /// exact Haar average, r = |G|) when there are at most `limit` of them. Returns true if it did.
    bool useWholeFiniteGroup(std::size_t limit = 4096);

    /// mode: "auto" (template trick when the action is unitary and q symmetric and independent
    /// of x), "templates" (required, else SpecError) or "data". Without a group in the context,
    /// a plain plan (r = 1). `field` names the option in errors.
    /// kernelValues: the map evaluates the base kernel at (g x, t) (Nystrom, kif) rather than a
    /// function of <g x, t>. A kernel of L1 distances (the Laplacian) keeps k(g x, t) = k(x, g^-1 t)
    /// only when g permutes coordinates (Group::permutesCoordinates), so otherwise auto takes the
    /// data path and templates is refused.
    static OrbitPlan make(const FeatureContext& context, int r, const std::string& mode, std::uint64_t seed,
                          const std::string& field, bool needGroup, bool kernelValues = false);

    /// Whether make(context, r, mode, ..., kernelValues) would take the template trick (no checks,
    /// no throw).
    static bool wouldUseTemplates(const FeatureContext& context, const std::string& mode, bool kernelValues = false);
    /// Whether the template trick holds for the kernel values of the context's base kernel: true
    /// unless it is a kernel of L1 distances and the group does not permute coordinates.
    static bool kernelMovesWithGroup(const FeatureContext& context);

    /// Template trick: r blocks of T.rows() rows, block k = g_k^-1 t for the shared elements,
    /// folded when the inputs are symmetric. Data path / plain: T itself (folded).
    /// Reports "templates i/(r s)" to `progress` every kTemplateChunkValues moved values (tens of
    /// milliseconds) and throws Cancelled when it asks to; the result does not depend on it.
    MatrixXfR prepareTemplates(const MatrixXfR& T, const Progress& progress = {}) const;
    /// Rows [begin, end) of X as the product sees them: folded inputs (template trick), or their r
    /// transformed copies each (data path), r consecutive rows per input.
    MatrixXfR prepareInputs(const MatrixXfR& X, std::size_t begin, std::size_t end) const;
    /// The same for the rows idx[0..count) (dataset indices), in that order.
    MatrixXfR prepareInputs(const MatrixXfR& X, const std::size_t* idx, std::size_t count) const;
    /// The same bits as a view of `buffer` (grown only when needed): the hot loops' version, which
    /// allocates nothing per block (a thread's buffer, threadScratch(ScratchRole::Inputs)).
    Eigen::Map<MatrixXfR> prepareInputs(const MatrixXfR& X, const std::size_t* idx, std::size_t count,
                                        ScratchBuffer& buffer) const;
    /// The order in which rows [begin, end) are cut into blocks: for folded (Coulomb) inputs, by
    /// the number of non-zero rows (stable), so molecules of similar size share a block and the
    /// products skip their zero padding; otherwise the natural order. Depends on X only.
    std::vector<std::size_t> inputOrder(const MatrixXfR& X, std::size_t begin, std::size_t end) const;
    /// Inputs per block of the fixed partition.
    std::size_t blockInputs() const;
    /// For kernel() descriptions: ", rotation, vonmises:kappa=0.2, r=10".
    std::string describe() const;
};

} // namespace orbit::detail
