#include "orbit/training/Experiment.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/evaluation/Splits.hpp"
#include "orbit/training/RotatedImages.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>

namespace orbit {

std::vector<ParamAxis> parseGrid(const std::string& text)
{
    std::vector<ParamAxis> axes;
    if (trim(text).empty()) return axes;
    for (const std::string& part : split(text, ';')) {
        if (trim(part).empty()) continue;
        const auto eq = part.find('=');
        if (eq == std::string::npos) throw SpecError("grid", "expected name=v1,v2,.. (axes separated by ';')", part);
        ParamAxis a{trim(part.substr(0, eq)), {}};
        if (a.name.empty()) throw SpecError("grid", "an axis has no name", part);
        for (const std::string& v : split(part.substr(eq + 1), ',')) {
            const auto x = parseDouble(trim(v));
            if (!x) throw SpecError("grid " + a.name, "not a finite number", v);
            a.values.push_back(*x);
        }
        axes.push_back(std::move(a));
    }
    return axes;
}

Dataset prepareDataset(Dataset data, std::size_t n, bool rotate, int pad, std::uint64_t seed, double rotateMaxDegrees)
{
    DataRecipe r;
    r.n = n;
    r.rotate = rotate;
    r.pad = pad;
    r.seed = seed;
    r.rotateMaxDegrees = rotateMaxDegrees;
    return prepareDataset(std::move(data), r);
}

Dataset prepareDataset(Dataset data, const DataRecipe& recipe)
{
    const std::size_t n = recipe.n;
    const std::uint64_t seed = recipe.seed;
    if (recipe.rotate && !recipe.transformGroup.empty())
        throw SpecError("transform-group", "rotate or transform, not both", recipe.transformGroup);
    if (recipe.transformGroup.empty() != recipe.transformDist.empty())
        throw SpecError(recipe.transformGroup.empty() ? "transform-group" : "transform-distribution",
                        recipe.transformGroup.empty() ? "is needed with a transform distribution"
                                                      : "is needed with a transform group");
    if (n > 0) {
        if (n > data.count() || n < 4)
            throw SpecError("subset", "must be in [4, " + std::to_string(data.count()) + "] (the dataset size)",
                            std::to_string(n));
        if (n < data.count()) data = data.subset(subsetRows(data.count(), n, seed));
    }
    if (!recipe.rotateClasses.empty() && !recipe.rotate)
        throw SpecError("rotate-classes", "only used with rotate", std::to_string(recipe.rotateClasses.front()));
    for (int c : recipe.rotateClasses)
        if (!data.isClassification() || c < 0 || c >= data.numClasses)
            throw SpecError("rotate-classes", "is not a class of the data (" + std::to_string(data.numClasses) + " classes)",
                            std::to_string(c));
    if (recipe.rotate) {
        Dataset turned = rotatedImages(data, recipe.pad, deriveSeed(seed, 8), recipe.rotateMaxDegrees * M_PI / 180.0);
        if (!recipe.rotateClasses.empty()) {  // the other classes padded, upright
            const Dataset upright = transformedImages(data, recipe.pad, "rotation", "delta", deriveSeed(seed, 8));
            for (std::size_t i = 0; i < turned.count(); ++i)
                if (std::find(recipe.rotateClasses.begin(), recipe.rotateClasses.end(), turned.labels[i]) == recipe.rotateClasses.end())
                    turned.X.row(Eigen::Index(i)) = upright.X.row(Eigen::Index(i));
        }
        data = std::move(turned);
    }
    if (!recipe.transformGroup.empty())
        data = transformedImages(data, recipe.pad, recipe.transformGroup, recipe.transformDist, deriveSeed(seed, 9));
    return data;
}

Indices subsetRows(std::size_t count, std::size_t n, std::uint64_t seed)
{
    Indices keep = seededPermutation(count, seed, 7);
    if (n < count) keep.resize(n);
    std::sort(keep.begin(), keep.end());
    return keep;
}

std::vector<char> fileRowsOf(const std::vector<char>& prepared, std::size_t fileCount, const DataRecipe& recipe)
{
    if (recipe.n == 0 || recipe.n >= fileCount) return prepared;
    const Indices rows = subsetRows(fileCount, recipe.n, recipe.seed);
    std::vector<char> file(fileCount, 0);
    for (std::size_t j = 0; j < rows.size() && j < prepared.size(); ++j) file[rows[j]] = prepared[j];
    return file;
}

Dataset prepareDataset(const DataRecipe& recipe)
{
    LoadOptions options;
    if (!recipe.format.empty()) options.format = parseFormat(recipe.format);
    return prepareDataset(loadDataset(recipe.file, options), recipe);
}

} // namespace orbit
