#pragma once
#include "orbit/data/Dataset.hpp"
#include "orbit/groups/Group.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace orbit {

/// A fixed finite set G0 = {Q_0, ..., Q_{K-1}} of Haar-random orthogonal d x d matrices acting on
/// flattened samples by x -> Q_k x (Pal & Savvides' "partially observed group").
/// Q_k is the Q of a QR decomposition of a d x d standard Gaussian matrix drawn from stream k of
/// `seed`, with the signs of the columns fixed so that diag(R) > 0 (which makes Q Haar-distributed).
///
/// G0 is not closed under products. Honest representation: element k in [0, K) is Q_k, k in
/// [K, 2K) is Q_{k-K}^T = Q_{k-K}^-1, and k = -1 is the identity. inverse() is exact; compose()
/// works when one factor is the identity or the two are mutual inverses, and otherwise throws
/// SpecError (the product is not in the set). elements() lists the K matrices Q_k.
/// Requires d <= 2048 (K d^2 floats are held in memory); throws SpecError naming the memory needed.
/// The matrices are drawn at their first use (matrix(), apply()) or by prepare(), once, from any
/// thread: building the group to check a setting (the window does, on its GUI thread) costs
/// nothing. Groups built with the same K, d and seed share one drawing while any of them lives
/// (the window's panels and workers each build their own group from the same setting; drawing
/// K = 400 matrices of 784 x 784 takes about a minute).
class OrthogonalSetGroup final : public Group {
public:
    OrthogonalSetGroup(int count, int dim, std::uint64_t seed);
    int count() const { return count_; }
    int dim() const { return dim_; }
    /// Q_k, row-major d x d.
    const MatrixXfR& matrix(int k) const { return matrices().at(static_cast<std::size_t>(k)); }

    GroupKind kind() const override { return GroupKind::Orthogonal; }
    std::string spec() const override;
    void checkShape(DataKind kind, const Shape& shape) const override;
    GroupElement identity(const Shape&) const override;
    GroupElement inverse(const GroupElement& g) const override;
    GroupElement compose(const GroupElement& a, const GroupElement& b) const override;
    void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const override;
    bool isUnitary() const override { return true; }
    bool isFinite() const override { return true; }
    std::vector<GroupElement> elements(const Shape& shape, std::size_t limit = 1u << 20) const override;
    std::string describe(const GroupElement& g) const override;
    ElementCoordinates coordinates(const GroupElement& g) const override { return {{double(g.k)}, false, true}; }
    bool hasHaarProbability() const override { return true; }
    bool isClosed() const override { return false; }
    GroupElement sampleHaar(Rng& rng, const Shape& shape) const override;
    std::string curveUnavailable() const override
    {
        return "an orthogonal set has no ordered parameter: there is no curve over t";
    }
    /// Draws the matrices not drawn yet, a team's worth at a time, reporting the fraction drawn;
    /// a cancel keeps the ones drawn (each Q_k comes from its own stream, so the bits do not depend
    /// on where a drawing stopped).
    void prepare(const Progress& progress) const override;

    static constexpr int kMaxDim = kOrthogonalSetMaxDim;

    /// The drawing shared by the groups of one (K, d, seed) (defined in the .cpp).
    struct Drawing;

private:
    /// Q_0 .. Q_{K-1}, all drawn (prepare() without progress on the first call).
    const std::vector<MatrixXfR>& matrices() const;

    int count_, dim_;
    std::uint64_t seed_;
    std::shared_ptr<Drawing> drawing_;
};

} // namespace orbit
