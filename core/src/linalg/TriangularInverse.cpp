#include "orbit/linalg/TriangularInverse.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include "util/Deterministic.hpp"

#include <algorithm>
#include <string>

namespace orbit {

MatrixXfR inverseLower(const Eigen::MatrixXd& C, const Progress& progress)
{
    constexpr Eigen::Index kColumns = 64;
    const Eigen::Index s = C.rows();
    MatrixXfR L = MatrixXfR::Zero(s, s);
    const Eigen::Index tiles = (s + kColumns - 1) / kColumns;
    const Eigen::Index group = 2 * std::max(1, orbit::teamSize());
    for (Eigen::Index G0 = 0; G0 < tiles; G0 += group) {
        reportProgress(progress, double(G0) / double(tiles),
                       "triangular inverse columns " + std::to_string(G0 * kColumns) + "/" + std::to_string(s));
        const Eigen::Index G1 = std::min(tiles, G0 + group);
        detail::forEachBlock(std::size_t(G1 - G0), 1, [&](std::size_t b, std::size_t) {
            const Eigen::Index j0 = (G0 + Eigen::Index(b)) * kColumns, w = std::min(kColumns, s - j0), m = s - j0;
            Eigen::MatrixXd E = Eigen::MatrixXd::Identity(m, w);
            C.block(j0, j0, m, m).triangularView<Eigen::Lower>().solveInPlace(E);
            L.block(j0, j0, m, w) = E.cast<float>();
        });
    }
    return L;
}

} // namespace orbit
