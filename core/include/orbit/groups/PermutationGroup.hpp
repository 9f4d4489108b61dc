#pragma once
#include "orbit/groups/Group.hpp"

namespace orbit {

/// The symmetric group S_n acting on n x n Coulomb matrices by C -> P C P^T (rows and columns
/// together): out(i, j) = in(perm[i], perm[j]). Exact; compose(a, b).perm[i] = b.perm[a.perm[i]].
/// Requires: Coulomb samples n x n (and n == size() when the group was built with a size).
/// elements() lists all n! permutations in lexicographic order when n! <= limit.
class PermutationGroup final : public Group {
public:
    /// size 0: any n (taken from the shape).
    explicit PermutationGroup(int size = 0) : size_(size) {}
    int size() const { return size_; }
    GroupKind kind() const override { return GroupKind::Permutation; }
    std::string spec() const override;
    void checkShape(DataKind kind, const Shape& shape) const override;
    GroupElement identity(const Shape& shape) const override;
    GroupElement inverse(const GroupElement& g) const override;
    GroupElement compose(const GroupElement& a, const GroupElement& b) const override;
    void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const override;
    bool isUnitary() const override { return true; }
    bool permutesCoordinates(const Shape&) const override { return true; }
    bool isFinite() const override { return true; }
    bool sumsHaarOverElements() const override { return false; }  // n! elements: sampled
    std::vector<GroupElement> elements(const Shape& shape, std::size_t limit = 1u << 20) const override;
    std::string describe(const GroupElement& g) const override;
    ElementCoordinates coordinates(const GroupElement& g) const override;
    bool hasHaarProbability() const override { return true; }
    /// A uniform permutation (Fisher-Yates).
    GroupElement sampleHaar(Rng& rng, const Shape& shape) const override;
    ParameterAxis parameterAxis() const override { return {.name = "atoms moved", .title = "atoms moved from the reference order", .discrete = true, .movedAtoms = true}; }
    /// A chain of random transpositions, one more at each point.
    ElementPath probePath(const Shape& shape, int points, std::uint64_t seed) const override;
    std::string curveUnavailable() const override
    {
        return "permutations have no one-parameter path through them: there is no curve over t, only the kernel "
               "values and the orbits";
    }

private:
    int size_;
};

} // namespace orbit
