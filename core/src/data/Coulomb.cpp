#include "orbit/data/Coulomb.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace orbit {

std::optional<int> atomicNumber(const std::string& symbol)
{
    // Periods 1-5 complete, plus the heavier elements common in chemistry data sets.
    static const std::unordered_map<std::string, int> table = {
        {"H", 1},   {"He", 2},  {"Li", 3},  {"Be", 4},  {"B", 5},   {"C", 6},   {"N", 7},   {"O", 8},
        {"F", 9},   {"Ne", 10}, {"Na", 11}, {"Mg", 12}, {"Al", 13}, {"Si", 14}, {"P", 15},  {"S", 16},
        {"Cl", 17}, {"Ar", 18}, {"K", 19},  {"Ca", 20}, {"Sc", 21}, {"Ti", 22}, {"V", 23},  {"Cr", 24},
        {"Mn", 25}, {"Fe", 26}, {"Co", 27}, {"Ni", 28}, {"Cu", 29}, {"Zn", 30}, {"Ga", 31}, {"Ge", 32},
        {"As", 33}, {"Se", 34}, {"Br", 35}, {"Kr", 36}, {"Rb", 37}, {"Sr", 38}, {"Y", 39},  {"Zr", 40},
        {"Nb", 41}, {"Mo", 42}, {"Tc", 43}, {"Ru", 44}, {"Rh", 45}, {"Pd", 46}, {"Ag", 47}, {"Cd", 48},
        {"In", 49}, {"Sn", 50}, {"Sb", 51}, {"Te", 52}, {"I", 53},  {"Xe", 54}, {"Cs", 55}, {"Ba", 56},
        {"W", 74},  {"Pt", 78}, {"Au", 79}, {"Hg", 80}, {"Pb", 82}, {"Bi", 83}};
    const auto it = table.find(symbol);
    if (it == table.end()) return std::nullopt;
    return it->second;
}

std::optional<std::array<int, 2>> coulombMatrix(const std::vector<int>& charges,
                                                const std::vector<std::array<double, 3>>& positionsBohr,
                                                int padTo, float* out)
{
    const int n = static_cast<int>(charges.size());
    if (positionsBohr.size() != charges.size())
        throw std::invalid_argument("coulombMatrix: " + std::to_string(charges.size()) + " charges but " +
                                    std::to_string(positionsBohr.size()) + " positions");
    if (padTo < n)
        throw std::invalid_argument("coulombMatrix: padTo " + std::to_string(padTo) + " < " + std::to_string(n) + " atoms");
    // Closer than this (Bohr) counts as the same position: Z_i Z_j / d would overflow float32.
    constexpr double kMinDistance = 1e-8;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            const double dx = positionsBohr[i][0] - positionsBohr[j][0];
            const double dy = positionsBohr[i][1] - positionsBohr[j][1];
            const double dz = positionsBohr[i][2] - positionsBohr[j][2];
            if (std::sqrt(dx * dx + dy * dy + dz * dz) < kMinDistance) return std::array<int, 2>{i, j};
        }
    const std::size_t m = static_cast<std::size_t>(padTo);
    std::fill(out, out + m * m, 0.0f);
    for (int i = 0; i < n; ++i) {
        out[i * m + i] = static_cast<float>(0.5 * std::pow(static_cast<double>(charges[i]), 2.4));
        for (int j = i + 1; j < n; ++j) {
            const double dx = positionsBohr[i][0] - positionsBohr[j][0];
            const double dy = positionsBohr[i][1] - positionsBohr[j][1];
            const double dz = positionsBohr[i][2] - positionsBohr[j][2];
            const float c = static_cast<float>(charges[i] * charges[j] / std::sqrt(dx * dx + dy * dy + dz * dz));
            out[i * m + j] = c;
            out[j * m + i] = c;
        }
    }
    return std::nullopt;
}

} // namespace orbit
