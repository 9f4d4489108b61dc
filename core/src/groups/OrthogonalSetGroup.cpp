#include "orbit/groups/OrthogonalSetGroup.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "util/Deterministic.hpp"

#include <Eigen/QR>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

namespace orbit {

namespace {

/// Haar-random orthogonal d x d matrix (Mezzadri 2007): Q R = A with A standard Gaussian, then
/// column j of Q times sign(R_jj).
MatrixXfR haarOrthogonal(int d, Rng& rng)
{
    Eigen::MatrixXd a(d, d);
    for (int j = 0; j < d; ++j)
        for (int i = 0; i < d; ++i) a(i, j) = standardNormal(rng);
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(a);
    Eigen::MatrixXd q = qr.householderQ();
    const Eigen::MatrixXd& r = qr.matrixQR();
    for (int j = 0; j < d; ++j)
        if (r(j, j) < 0) q.col(j) = -q.col(j);
    return q.cast<float>();
}

} // namespace

struct OrthogonalSetGroup::Drawing {
    std::mutex mutex;                   ///< held while one team of matrices is drawn
    std::vector<MatrixXfR> q;           ///< Q_k, empty until drawn (written under mutex)
    std::atomic<std::size_t> drawn{0};  ///< Q_0 .. Q_{drawn-1} are drawn; all drawn: q is only read
};

namespace {

/// The drawing of (K, d, seed), shared while a group holds it.
std::shared_ptr<OrthogonalSetGroup::Drawing> sharedDrawing(int count, int dim, std::uint64_t seed)
{
    using Key = std::tuple<int, int, std::uint64_t>;
    static std::mutex mutex;
    static std::map<Key, std::weak_ptr<OrthogonalSetGroup::Drawing>> drawings;
    const std::lock_guard lock(mutex);
    std::erase_if(drawings, [](const auto& entry) { return entry.second.expired(); });
    std::weak_ptr<OrthogonalSetGroup::Drawing>& slot = drawings[Key{count, dim, seed}];
    std::shared_ptr<OrthogonalSetGroup::Drawing> drawing = slot.lock();
    if (!drawing) {
        drawing = std::make_shared<OrthogonalSetGroup::Drawing>();
        slot = drawing;
    }
    return drawing;
}

} // namespace

OrthogonalSetGroup::OrthogonalSetGroup(int count, int dim, std::uint64_t seed)
    : count_(count), dim_(dim), seed_(seed)
{
    if (count < 1) throw SpecError("group orthogonal.k", "must be >= 1", std::to_string(count));
    if (dim < 1) throw SpecError("group", "orthogonal needs samples of positive dimension", std::to_string(dim));
    const double bytes = 4.0 * count * static_cast<double>(dim) * dim;
    const std::string need = std::to_string(static_cast<long long>(bytes / (1 << 20))) + " MiB";
    if (dim > kMaxDim)
        throw SpecError("group", "orthogonal:k=" + std::to_string(count) + " on d = " + std::to_string(dim) +
                                       " would hold " + std::to_string(count) + " dense d x d matrices (" + need +
                                       "); d must be <= " + std::to_string(kMaxDim),
                        std::to_string(dim));
    if (bytes > 4.0 * (1ull << 30))
        throw SpecError("group orthogonal.k", "the " + std::to_string(count) + " matrices of size " +
                                                    std::to_string(dim) + " x " + std::to_string(dim) + " need " +
                                                    need + " (limit 4 GiB)",
                        std::to_string(count));
    drawing_ = sharedDrawing(count, dim, seed);
}

void OrthogonalSetGroup::prepare(const Progress& progress) const
{
    Drawing& d = *drawing_;
    const auto count = static_cast<std::size_t>(count_);
    // A team's worth of matrices at a time, the lock held for one team only: whoever else draws
    // or waits (another worker preparing the same set) sees its own cancel within a team's time.
    const auto step = static_cast<std::size_t>(std::max(1, teamSize()));
    for (std::size_t done = d.drawn.load(std::memory_order_acquire); done < count;
         done = d.drawn.load(std::memory_order_acquire)) {
        reportProgress(progress, double(done) / double(count),
                       "drawing orthogonal matrices " + std::to_string(done) + "/" + std::to_string(count));
        const std::lock_guard lock(d.mutex);
        d.q.resize(count);
        const std::size_t begin = d.drawn.load(std::memory_order_relaxed), end = std::min(count, begin + step);
        detail::forEachBlock(end - begin, 1, [&](std::size_t i, std::size_t) {
            const std::size_t k = begin + i;
            Rng rng = makeRng(seed_, static_cast<std::uint64_t>(k));
            d.q[k] = haarOrthogonal(dim_, rng);
        });
        d.drawn.store(end, std::memory_order_release);
    }
}

const std::vector<MatrixXfR>& OrthogonalSetGroup::matrices() const
{
    prepare({});
    return drawing_->q;
}

std::string OrthogonalSetGroup::spec() const { return "orthogonal:k=" + std::to_string(count_); }

void OrthogonalSetGroup::checkShape(DataKind, const Shape& shape) const
{
    if (shape.dim() != dim_)
        throw SpecError("group", "the orthogonal matrices are " + std::to_string(dim_) + " x " +
                                       std::to_string(dim_) + " but the samples have dimension " +
                                       std::to_string(shape.dim()),
                        spec());
}

GroupElement OrthogonalSetGroup::identity(const Shape&) const
{
    GroupElement g;
    g.k = -1;
    return g;
}

GroupElement OrthogonalSetGroup::inverse(const GroupElement& g) const
{
    GroupElement r;
    r.k = g.k < 0 ? -1 : (g.k < count_ ? g.k + count_ : g.k - count_);
    return r;
}

GroupElement OrthogonalSetGroup::compose(const GroupElement& a, const GroupElement& b) const
{
    if (a.k < 0) return b;
    if (b.k < 0) return a;
    if (inverse(a).k == b.k) return identity({});
    throw SpecError("group", "orthogonal:k=K is a finite set of matrices, not a group: the product of elements " +
                                   std::to_string(a.k) + " and " + std::to_string(b.k) + " is not in it",
                    spec());
}

void OrthogonalSetGroup::apply(const GroupElement& g, const float* in, float* out, const Shape&) const
{
    Eigen::Map<const Eigen::VectorXf> x(in, dim_);
    Eigen::Map<Eigen::VectorXf> y(out, dim_);
    if (g.k < 0) {
        y = x;
    } else if (g.k < count_) {
        y.noalias() = matrices().at(static_cast<std::size_t>(g.k)) * x;
    } else {
        y.noalias() = matrices().at(static_cast<std::size_t>(g.k - count_)).transpose() * x;
    }
}

std::vector<GroupElement> OrthogonalSetGroup::elements(const Shape&, std::size_t limit) const
{
    if (static_cast<std::size_t>(count_) > limit)
        throw SpecError("group", "more than " + std::to_string(limit) + " elements to enumerate", spec());
    std::vector<GroupElement> all(static_cast<std::size_t>(count_));
    for (int k = 0; k < count_; ++k) all[static_cast<std::size_t>(k)].k = k;
    return all;
}

std::string OrthogonalSetGroup::describe(const GroupElement& g) const { return std::to_string(g.k); }

} // namespace orbit
