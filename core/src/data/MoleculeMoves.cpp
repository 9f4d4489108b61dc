#include "orbit/data/MoleculeMoves.hpp"

#include "orbit/data/Coulomb.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <cmath>
#include <numeric>
#include <string>

namespace orbit {

namespace {

/// The atoms of a Coulomb matrix: its rows up to the last one with a non-zero diagonal.
int atomsOfMatrix(const float* x, int n)
{
    int atoms = 0;
    for (int i = 0; i < n; ++i)
        if (x[std::size_t(i) * std::size_t(n) + std::size_t(i)] != 0.0f) atoms = i + 1;
    return atoms;
}

} // namespace

bool hasPositions(const Dataset& data, std::size_t index)
{
    return data.kind == DataKind::Coulomb && index < data.positions.size() && index < data.charges.size() &&
           data.positions[index].size() == data.charges[index].size() && !data.positions[index].empty();
}

std::vector<float> swappedAtoms(const float* x, const Shape& shape, int i, int j)
{
    const int n = shape.height;
    const int atoms = atomsOfMatrix(x, n);
    for (int a : {i, j})
        if (a < 0 || a >= atoms)
            throw SpecError("swap", "an atom number from 0 to " + std::to_string(atoms - 1) + " (the molecule has " +
                                        std::to_string(atoms) + " atoms)",
                            std::to_string(a));
    std::vector<int> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[std::size_t(i)], perm[std::size_t(j)]);
    std::vector<float> out(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            out[std::size_t(a) * std::size_t(n) + std::size_t(b)] =
                x[std::size_t(perm[std::size_t(a)]) * std::size_t(n) + std::size_t(perm[std::size_t(b)])];
    return out;
}

std::vector<float> jitteredMolecule(const Dataset& data, std::size_t index, double sigmaAngstrom, std::uint64_t seed)
{
    if (!(std::isfinite(sigmaAngstrom) && sigmaAngstrom >= 0))
        throw SpecError("jitter", "a standard deviation in Angstrom, finite and >= 0", formatNumber(sigmaAngstrom));
    if (!hasPositions(data, index))
        throw SpecError("jitter", "the data have no atom positions (Coulomb matrices read as such; extended XYZ keeps them)",
                        data.source);
    const std::vector<int>& charges = data.charges[index];
    std::vector<std::array<double, 3>> moved = data.positions[index];
    Rng rng = makeRng(seed, index);
    const double step = sigmaAngstrom * kBohrPerAngstrom;
    for (auto& r : moved)
        for (double& c : r) c += step * standardNormal(rng);
    std::vector<float> out(static_cast<std::size_t>(data.shape.dim()));
    if (const auto clash = coulombMatrix(charges, moved, data.shape.height, out.data()))
        throw SpecError("jitter", "atoms " + std::to_string((*clash)[0]) + " and " + std::to_string((*clash)[1]) +
                                      " land on the same position",
                        formatNumber(sigmaAngstrom));
    return out;
}

} // namespace orbit
