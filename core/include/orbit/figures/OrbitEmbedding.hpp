#pragma once
// The orbit embedding: a 2-D PCA of the orbit samples of a few inputs (docs/design.md, "Diagnostics the window draws"; the Orbits
// panel's chart and `orbitlab-cli embed`).
#include "orbit/analysis/Pca.hpp"
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/orbits/OrbitSampler.hpp"

#include <array>
#include <vector>

namespace orbit {

/// The orbits {g_{j,k} x_j : k < r} of m inputs x_j stacked into m r rows, projected on the two
/// leading principal axes of the stack (principalComponents(stack, 2)); the inputs themselves
/// projected on the same axes (centred by the stack's mean).
/// Guarantees: scores row j r + k is copy k of input j, with g_{j,k} = sampler.elementsFor(row
/// index of x_j)[k] (the elements `orbit` and the gallery show); explained[0] >= explained[1] >= 0
/// and explained[0] + explained[1] <= 1 (fractions of the stack's total variance).
struct OrbitEmbedding {
    std::vector<std::size_t> inputs;  ///< the dataset rows x_j, in order
    int r = 0;
    MatrixXfR scores;                 ///< (m r) x 2
    MatrixXfR inputScores;            ///< m x 2
    std::array<double, 2> explained{0.0, 0.0};
};

/// Requires: inputs non-empty and each < data.count() (else SpecError("inputs")), m r >= 2 (else
/// SpecError("r")), a sampler built for data.shape. `progress` is asked once per input (it may cancel).
OrbitEmbedding orbitEmbedding(const Dataset& data, const std::vector<std::size_t>& inputs, const OrbitSampler& sampler,
                              const Progress& progress = {});

} // namespace orbit
