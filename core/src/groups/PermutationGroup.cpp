#include "orbit/groups/PermutationGroup.hpp"

#include "orbit/util/Error.hpp"

#include "util/SimdDispatch.hpp"

#include <algorithm>
#include <numeric>

#if ORBIT_SIMD_DISPATCH
#include <immintrin.h>
#endif

namespace orbit {

namespace {

#if ORBIT_SIMD_DISPATCH
/// out row i = in row perm[i] with its columns in the order perm, 16 columns a gather (the
/// noisy-sort orbits of the QM7 features: a baseline build's scalar loop took twice as long).
ORBIT_TARGET_AVX512 void permuteAvx512(const int* perm, std::size_t n, const float* in, float* out)
{
    for (std::size_t i = 0; i < n; ++i) {
        const float* src = in + static_cast<std::size_t>(perm[i]) * n;
        float* dst = out + i * n;
        for (std::size_t j = 0; j < n; j += 16) {
            const unsigned left = unsigned(std::min<std::size_t>(16, n - j));
            const __mmask16 lanes = __mmask16((1u << left) - 1u);
            const __m512i at = _mm512_maskz_loadu_epi32(lanes, perm + j);
            _mm512_mask_storeu_ps(dst + j, lanes,
                                  _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lanes, at, src, 4));
        }
    }
}
#endif

} // namespace

std::string PermutationGroup::spec() const
{
    return size_ > 0 ? "permutation:n=" + std::to_string(size_) : std::string("permutation");
}

void PermutationGroup::checkShape(DataKind kind, const Shape& shape) const
{
    if (kind != DataKind::Coulomb)
        throw SpecError("group", std::string("permutation acts on Coulomb matrices only, not on ") +
                                       (kind == DataKind::Images ? "images" : "vectors"),
                        spec());
    if (shape.height != shape.width || shape.channels != 1 || shape.height < 1)
        throw SpecError("group", "permutation needs square n x n matrices",
                        std::to_string(shape.height) + "x" + std::to_string(shape.width));
    if (size_ > 0 && shape.height != size_)
        throw SpecError("group", "the data holds " + std::to_string(shape.height) + " x " +
                                       std::to_string(shape.width) + " matrices",
                        spec());
}

GroupElement PermutationGroup::identity(const Shape& shape) const
{
    GroupElement g;
    g.perm.resize(static_cast<std::size_t>(size_ > 0 ? size_ : shape.height));
    std::iota(g.perm.begin(), g.perm.end(), 0);
    return g;
}

GroupElement PermutationGroup::inverse(const GroupElement& g) const
{
    GroupElement r;
    r.perm.resize(g.perm.size());
    for (std::size_t i = 0; i < g.perm.size(); ++i) r.perm[static_cast<std::size_t>(g.perm[i])] = static_cast<int>(i);
    return r;
}

GroupElement PermutationGroup::compose(const GroupElement& a, const GroupElement& b) const
{
    if (a.perm.size() != b.perm.size())
        throw ContractError("PermutationGroup::compose", "permutations of " + std::to_string(a.perm.size()) + " and " +
                                                             std::to_string(b.perm.size()) + " indices");
    GroupElement r;
    r.perm.resize(a.perm.size());
    for (std::size_t i = 0; i < a.perm.size(); ++i)
        r.perm[i] = b.perm[static_cast<std::size_t>(a.perm[i])];
    return r;
}

void PermutationGroup::apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const
{
    const std::size_t n = static_cast<std::size_t>(shape.height);
    if (g.perm.size() != n)
        throw ContractError("PermutationGroup::apply", "a permutation of " + std::to_string(g.perm.size()) +
                                                           " indices applied to " + std::to_string(n) + " x " +
                                                           std::to_string(n) + " matrices");
#if ORBIT_SIMD_DISPATCH
    if (simdLevel() == SimdLevel::Avx512) return permuteAvx512(g.perm.data(), n, in, out);
#endif
    for (std::size_t i = 0; i < n; ++i) {
        const float* src = in + static_cast<std::size_t>(g.perm[i]) * n;
        float* dst = out + i * n;
        for (std::size_t j = 0; j < n; ++j) dst[j] = src[static_cast<std::size_t>(g.perm[j])];
    }
}

std::vector<GroupElement> PermutationGroup::elements(const Shape& shape, std::size_t limit) const
{
    const int n = size_ > 0 ? size_ : shape.height;
    std::size_t total = 1;
    for (int i = 2; i <= n; ++i) {
        total *= static_cast<std::size_t>(i);
        if (n > 8 || total > limit)
            throw SpecError("group", "S_" + std::to_string(n) + " has " + std::to_string(n) +
                                           "! elements: too many to enumerate (at most n = 8)",
                            spec());
    }
    std::vector<GroupElement> all;
    all.reserve(total);
    GroupElement g = identity(shape);
    do {
        all.push_back(g);
    } while (std::next_permutation(g.perm.begin(), g.perm.end()));
    return all;
}

std::string PermutationGroup::describe(const GroupElement& g) const
{
    std::string s;
    for (std::size_t i = 0; i < g.perm.size(); ++i) s += (i ? " " : "") + std::to_string(g.perm[i]);
    return s;
}

} // namespace orbit
