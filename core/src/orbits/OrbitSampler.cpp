#include "orbit/orbits/OrbitSampler.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <limits>

namespace orbit {

namespace {
/// The stream of the shared element set: no dataset index reaches it.
constexpr std::uint64_t kSharedStream = std::numeric_limits<std::uint64_t>::max();
} // namespace

OrbitSampler::OrbitSampler(std::shared_ptr<const Group> group, std::shared_ptr<const Distribution> dist, Shape shape,
                           int r, std::uint64_t seed)
    : group_(std::move(group)), dist_(std::move(dist)), shape_(shape), r_(r), seed_(seed)
{
    if (!group_ || !dist_) throw ContractError("OrbitSampler", "needs a group and a distribution");
    if (r < 1) throw SpecError("r", "the number of group samples per input must be >= 1", std::to_string(r));
    dist_->checkGroup(*group_);
}

std::vector<GroupElement> OrbitSampler::draw(std::uint64_t stream, const float* x, const std::vector<std::string>* params,
                                             std::vector<std::vector<GroupTangent>>* tangents) const
{
    Rng rng = makeRng(seed_, stream);
    std::vector<GroupElement> g;
    g.reserve(static_cast<std::size_t>(r_));
    if (tangents) tangents->assign(static_cast<std::size_t>(r_), {});
    for (int k = 0; k < r_; ++k) {
        if (params)
            g.push_back(dist_->sampleWithTangents(rng, *group_, shape_, x, *params, (*tangents)[static_cast<std::size_t>(k)]));
        else
            g.push_back(dist_->sample(rng, *group_, shape_, x));
    }
    return g;
}

std::vector<GroupElement> OrbitSampler::elementsFor(std::size_t index, const float* x) const
{
    return draw(index, x, nullptr, nullptr);
}

std::vector<GroupElement> OrbitSampler::elementsFor(std::size_t index, const float* x, const std::vector<std::string>& params,
                                                    std::vector<std::vector<GroupTangent>>& tangents) const
{
    return draw(index, x, &params, &tangents);
}

std::vector<GroupElement> OrbitSampler::sharedElements() const
{
    std::vector<std::vector<GroupTangent>> none;
    return sharedElements({}, none);
}

std::vector<GroupElement> OrbitSampler::sharedElements(const std::vector<std::string>& params,
                                                       std::vector<std::vector<GroupTangent>>& tangents) const
{
    if (dist_->dependsOnInput())
        throw SpecError("distribution", "a shared set of group elements needs a distribution that does not depend on the input",
                        dist_->spec());
    return params.empty() ? draw(kSharedStream, nullptr, nullptr, nullptr) : draw(kSharedStream, nullptr, &params, &tangents);
}

void OrbitSampler::orbit(const float* x, const std::vector<GroupElement>& elements, MatrixXfR& out) const
{
    const int d = shape_.dim();
    out.resize(static_cast<Eigen::Index>(elements.size()), d);
    for (std::size_t k = 0; k < elements.size(); ++k)
        group_->apply(elements[k], x, out.data() + k * static_cast<std::size_t>(d), shape_);
}

void OrbitSampler::transformBlock(const MatrixXfR& X, std::size_t begin, std::size_t end, MatrixXfR& out) const
{
    const int d = shape_.dim();
    if (X.cols() != d)
        throw ContractError("OrbitSampler::transformBlock", "samples have " + std::to_string(X.cols()) +
                                                                " values, the shape needs " + std::to_string(d));
    if (begin > end || end > static_cast<std::size_t>(X.rows()))
        throw ContractError("OrbitSampler::transformBlock", "block [" + std::to_string(begin) + ", " +
                                                                std::to_string(end) + ") outside the " +
                                                                std::to_string(X.rows()) + " samples");
    const std::size_t n = end - begin;
    const std::size_t r = static_cast<std::size_t>(r_);
    out.resize(static_cast<Eigen::Index>(n * r), d);
    const long long count = static_cast<long long>(n);
#pragma omp parallel for schedule(dynamic, 4) num_threads(orbit::teamSize())
    for (long long i = 0; i < count; ++i) {
        const std::size_t idx = begin + static_cast<std::size_t>(i);
        const float* x = X.data() + idx * static_cast<std::size_t>(d);
        const std::vector<GroupElement> g = elementsFor(idx, x);
        float* base = out.data() + static_cast<std::size_t>(i) * r * static_cast<std::size_t>(d);
        for (std::size_t k = 0; k < r; ++k) group_->apply(g[k], x, base + k * static_cast<std::size_t>(d), shape_);
    }
}

} // namespace orbit
