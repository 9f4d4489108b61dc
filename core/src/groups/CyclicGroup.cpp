#include "orbit/groups/CyclicGroup.hpp"

#include "groups/GroupSupport.hpp"
#include "orbit/util/Error.hpp"

#include <numbers>

namespace orbit {

namespace {
bool isSignal(const Shape& shape, int n)
{
    return shape.height == 1 && shape.channels == 1 && shape.width % n == 0;
}
} // namespace

CyclicGroup::CyclicGroup(int n) : n_(n)
{
    if (n < 1) throw SpecError("group cyclic.n", "must be >= 1", std::to_string(n));
}

std::string CyclicGroup::spec() const { return "cyclic:n=" + std::to_string(n_); }

void CyclicGroup::checkShape(DataKind kind, const Shape& shape) const
{
    if (kind == DataKind::Vectors) {
        if (!isSignal(shape, n_))
            throw SpecError("group", "cyclic:n=N on vectors shifts by d/n positions, so n must divide d = " +
                                           std::to_string(shape.dim()),
                            spec());
        return;
    }
    detail::requireImages(*this, kind, shape);
}

GroupElement CyclicGroup::inverse(const GroupElement& g) const
{
    GroupElement r;
    r.k = ((n_ - g.k % n_) % n_);
    return r;
}

GroupElement CyclicGroup::compose(const GroupElement& a, const GroupElement& b) const
{
    GroupElement r;
    r.k = static_cast<int>((static_cast<long long>(a.k) + b.k) % n_);
    if (r.k < 0) r.k += n_;
    return r;
}

void CyclicGroup::apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const
{
    const int k = ((g.k % n_) + n_) % n_;
    if (isSignal(shape, n_)) {
        const int d = shape.width;
        const int shift = k * (d / n_);
        for (int j = 0; j < d; ++j) out[(j + shift) % d] = in[j];
        return;
    }
    GroupElement e;
    e.theta = detail::wrapAngle(2.0 * std::numbers::pi * k / n_);
    detail::warpSimilarity(e, in, out, shape);
}

bool CyclicGroup::permutesCoordinates(const Shape& shape) const
{
    if (isSignal(shape, n_)) return true;
    return (n_ == 1 || n_ == 2 || n_ == 4) && shape.height == shape.width;
}

std::vector<GroupElement> CyclicGroup::elements(const Shape&, std::size_t limit) const
{
    if (static_cast<std::size_t>(n_) > limit)
        throw SpecError("group", "more than " + std::to_string(limit) + " elements to enumerate", spec());
    std::vector<GroupElement> all(static_cast<std::size_t>(n_));
    for (int k = 0; k < n_; ++k) all[static_cast<std::size_t>(k)].k = k;
    return all;
}

std::string CyclicGroup::describe(const GroupElement& g) const { return std::to_string(g.k); }

} // namespace orbit
