#pragma once
// A molecule moved by hand (the Predict view's "swap two atoms" and "jitter", `orbitlab-cli predict
// --swap / --jitter`, orbitlab.molecule_input; issue 44): its Coulomb matrix with two atoms' rows and
// columns exchanged, or recomputed from its atoms moved by Gaussian noise.
#include "orbit/data/Dataset.hpp"

#include <cstdint>
#include <vector>

namespace orbit {

/// Whether molecule `index` of `data` has atom positions: extended XYZ keeps them; Coulomb matrices
/// read from CSV or .mat have none.
bool hasPositions(const Dataset& data, std::size_t index);

/// The Coulomb matrix x (shape.height x shape.height, row-major) with atoms i and j exchanged: row and
/// column i of the result are row and column j of x and the other way round (the PermutationGroup's
/// action of the transposition; exact copies). i == j gives x. SpecError("swap") naming the value
/// unless both are atoms of x (0 <= i, j < its number of atoms, orbit::atomsOf).
std::vector<float> swappedAtoms(const float* x, const Shape& shape, int i, int j);

/// Molecule `index` of `data` with every coordinate of every atom moved by sigma * N(0, 1) Angstrom,
/// the normals drawn from makeRng(seed, index) (three per atom, in the file's atom order: a larger
/// sigma moves the atoms further along the same directions), and its Coulomb matrix recomputed with
/// the loader's formula (coulombMatrix: 0.5 Z^2.4 on the diagonal, Z_i Z_j / |r_i - r_j| off it) and
/// padding. sigma = 0 gives the row's own bits. SpecError("jitter") naming the value when the data
/// have no positions, sigma is negative or not finite, or two moved atoms coincide.
std::vector<float> jitteredMolecule(const Dataset& data, std::size_t index, double sigmaAngstrom, std::uint64_t seed);

} // namespace orbit
