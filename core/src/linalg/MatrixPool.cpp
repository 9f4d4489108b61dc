#include "orbit/linalg/MatrixPool.hpp"

#include <algorithm>
#include <deque>

namespace orbit {

namespace {

constexpr std::size_t kMaxMatrices = 16;
constexpr double kMaxBytes = 2.0 * 1024 * 1024 * 1024;

struct Pool {
    int scopes = 0;
    std::deque<Eigen::MatrixXd> kept;  // oldest first
};

Pool& pool()
{
    thread_local Pool p;
    return p;
}

double bytesOf(const Eigen::MatrixXd& m) { return 8.0 * double(m.size()); }

} // namespace

MatrixPool::Scope::Scope() { ++pool().scopes; }

MatrixPool::Scope::~Scope()
{
    if (--pool().scopes == 0) pool().kept.clear();
}

namespace {

/// MatrixPool::take, saying whether the matrix is fresh (its pages not yet touched).
Eigen::MatrixXd takeKept(Eigen::Index rows, Eigen::Index cols, bool& fresh)
{
    fresh = false;
    auto& kept = pool().kept;
    for (auto it = kept.rbegin(); it != kept.rend(); ++it)
        if (it->rows() == rows && it->cols() == cols) {
            Eigen::MatrixXd m = std::move(*it);
            kept.erase(std::next(it).base());
            return m;
        }
    // Else the smallest kept one at most an eighth larger, shrunk where it lies: realloc keeps the
    // pages (glibc shrinks a mapped block in place), so a D x D cell takes a D x (D + targets) sum's
    // memory instead of fresh pages. Fresh pages are dear on some machines: QM7, two ranks on a VM
    // whose faults cost 4-6 times more while two processes take them.
    const Eigen::Index want = rows * cols;
    auto best = kept.end();
    for (auto it = kept.begin(); it != kept.end(); ++it)
        if (it->size() > want && it->size() - want <= want / 8 && (best == kept.end() || it->size() < best->size())) best = it;
    if (best == kept.end() || want == 0) {
        fresh = true;
        return Eigen::MatrixXd(rows, cols);
    }
    Eigen::MatrixXd m = std::move(*best);
    kept.erase(best);
    // One row, so that only the columns change: Eigen then reallocs a column-major matrix (a change
    // of rows would copy into a fresh one).
    m.resize(1, m.size());          // the same entries: no allocation
    m.conservativeResize(1, want);  // realloc, shrinking in place
    m.resize(rows, cols);           // the same entries again
    return m;
}

} // namespace

Eigen::MatrixXd MatrixPool::take(Eigen::Index rows, Eigen::Index cols)
{
    bool fresh = false;
    return takeKept(rows, cols, fresh);
}

Eigen::MatrixXd MatrixPool::takePagedIn(Eigen::Index rows, Eigen::Index cols)
{
    bool fresh = false;
    Eigen::MatrixXd m = takeKept(rows, cols, fresh);
    if (fresh) {
        constexpr Eigen::Index kPerPage = 4096 / sizeof(double);
        double* d = m.data();
        for (Eigen::Index i = 0; i < m.size(); i += kPerPage) d[i] = 0.0;
    }
    return m;
}

Eigen::MatrixXd MatrixPool::takeAny()
{
    auto& kept = pool().kept;
    if (kept.empty()) return {};
    auto best = std::max_element(kept.begin(), kept.end(),
                                 [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return a.size() < b.size(); });
    Eigen::MatrixXd m = std::move(*best);
    kept.erase(best);
    return m;
}

void MatrixPool::give(Eigen::MatrixXd&& m)
{
    Pool& p = pool();
    if (p.scopes == 0 || m.size() == 0) {
        m.resize(0, 0);
        return;
    }
    p.kept.push_back(std::move(m));
    double total = 0.0;
    for (const auto& k : p.kept) total += bytesOf(k);
    while (p.kept.size() > kMaxMatrices || (total > kMaxBytes && p.kept.size() > 1)) {
        total -= bytesOf(p.kept.front());
        p.kept.pop_front();
    }
}

} // namespace orbit
