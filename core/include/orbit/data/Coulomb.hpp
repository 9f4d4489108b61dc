#pragma once
// Coulomb matrices (Rupp et al. 2012): C_ii = 0.5 Z_i^2.4, C_ij = Z_i Z_j / |R_i - R_j| (Bohr).
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

constexpr double kBohrPerAngstrom = 1.8897259886;

/// Atomic number of an element symbol (H..Ar and common heavier ones), or nullopt.
std::optional<int> atomicNumber(const std::string& symbol);

/// Writes the n x n Coulomb matrix (row-major, zero-padded to `padTo` >= charges.size()) of a
/// molecule with positions in Bohr into `out` (padTo * padTo floats). Requires distinct positions;
/// returns the index pair of the first coincident atoms instead of writing infinities.
std::optional<std::array<int, 2>> coulombMatrix(const std::vector<int>& charges,
                                                const std::vector<std::array<double, 3>>& positionsBohr,
                                                int padTo, float* out);

} // namespace orbit
