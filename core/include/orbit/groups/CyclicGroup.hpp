#pragma once
#include "orbit/groups/Group.hpp"

namespace orbit {

/// The finite cyclic group C_n, element k in [0, n).
/// Images: rotation by 2 pi k / n about the centre (as RotationGroup; exact pixel permutations for
/// n in {1, 2, 4} on square images, bilinear otherwise).
/// Vectors (1-D signals of length d, n dividing d): the cyclic shift out[j] = in[(j - k d/n) mod d];
/// with n = d all d shifts. Exact.
/// Guarantees: compose adds k mod n; elements() lists all n elements for exact Haar sums.
class CyclicGroup final : public Group {
public:
    explicit CyclicGroup(int n);
    int order() const { return n_; }
    GroupKind kind() const override { return GroupKind::Cyclic; }
    std::string spec() const override;
    void checkShape(DataKind kind, const Shape& shape) const override;
    GroupElement identity(const Shape&) const override { return {}; }
    GroupElement inverse(const GroupElement& g) const override;
    GroupElement compose(const GroupElement& a, const GroupElement& b) const override;
    /// Vectors are recognised by height == 1 and channels == 1 with n dividing the width; every
    /// other shape is treated as an image.
    void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const override;
    bool isUnitary() const override { return true; }
    /// Shifts of vectors, and on square images the quarter and half turns (n in {1, 2, 4}).
    bool permutesCoordinates(const Shape& shape) const override;
    bool isFinite() const override { return true; }
    std::vector<GroupElement> elements(const Shape& shape, std::size_t limit = 1u << 20) const override;
    std::string describe(const GroupElement& g) const override;
    ElementCoordinates coordinates(const GroupElement& g) const override { return {{double(g.k)}, false, true}; }
    bool hasHaarProbability() const override { return true; }
    GroupElement sampleHaar(Rng& rng, const Shape& shape) const override;
    ParameterAxis parameterAxis() const override { return {.name = "k", .title = "rotation index k (× 2π/n)", .discrete = true}; }
    double parameterOf(const GroupElement& g) const override { return g.k; }
    std::string curveUnavailable() const override { return {}; }
    ElementPath curvePath(const Shape& shape, int points, const std::pair<double, double>* range) const override;

private:
    int n_;
};

} // namespace orbit
