#include "orbit/figures/OrbitEmbedding.hpp"

#include "orbit/util/Error.hpp"

#include <string>

namespace orbit {

OrbitEmbedding orbitEmbedding(const Dataset& data, const std::vector<std::size_t>& inputs, const OrbitSampler& sampler,
                              const Progress& progress)
{
    if (inputs.empty()) throw SpecError("inputs", "choose at least one input for the orbit embedding");
    for (std::size_t i : inputs)
        if (i >= data.count())
            throw SpecError("inputs", "no such sample (the data hold " + std::to_string(data.count()) + ")",
                            std::to_string(i));
    const int r = sampler.r();
    const auto m = static_cast<Eigen::Index>(inputs.size());
    if (m * r < 2)
        throw SpecError("r", "the embedding needs at least two orbit samples: raise r or add inputs", std::to_string(r));
    const Eigen::Index dim = data.shape.dim();
    OrbitEmbedding result;
    result.inputs = inputs;
    result.r = r;
    MatrixXfR stack(m * r, dim), block;
    for (Eigen::Index j = 0; j < m; ++j) {
        reportProgress(progress, double(j) / double(m), "orbit " + std::to_string(j + 1) + "/" + std::to_string(m));
        const std::size_t i = inputs[static_cast<std::size_t>(j)];
        sampler.orbit(data.sample(i), sampler.elementsFor(i, data.sample(i)), block);
        stack.middleRows(j * r, r) = block;
    }
    const PcaResult pca = principalComponents(stack, 2);
    result.scores = pca.scores;
    MatrixXfR originals(m, dim);
    for (Eigen::Index j = 0; j < m; ++j)
        originals.row(j) = Eigen::Map<const Eigen::RowVectorXf>(data.sample(inputs[static_cast<std::size_t>(j)]), dim);
    result.inputScores = (originals.rowwise() - pca.mean) * pca.axes.transpose();
    result.explained = {pca.explained(0), pca.explained(1)};
    reportProgress(progress, 1.0, "done");
    return result;
}

} // namespace orbit
