#pragma once
// The data of a training run as `train` and `experiment` prepare it (the seeded subset the Training
// panel takes too), and the --grid syntax. The experiment config file (JSON) is the CLI's:
// cli/include/orbit/cli/ExperimentConfig.hpp.
#include "orbit/data/Dataset.hpp"
#include "orbit/training/Training.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace orbit {

/// How the dataset of a run is prepared from a file: optional seeded subset of n samples (0 = all),
/// then optionally rotated (rotatedImages with `pad`). Used by `train` and `experiment` alike.
struct DataRecipe {
    std::string file;            ///< resolved path
    std::string format;          ///< loader name, empty = detect
    std::size_t n = 0;           ///< seeded subset size (0 = every sample)
    bool rotate = false;
    int pad = 28;
    double rotateMaxDegrees = 0.0;  ///< 0: angles uniform over the circle; else in [-this, this] degrees
    /// With rotate: only the images of these classes are rotated, the others padded upright (each
    /// image draws the angle it would draw with every class rotated); empty: every class.
    std::vector<int> rotateClasses;
    std::string transformGroup;     ///< non-empty: pad, then move each image by one element of this group
    std::string transformDist;      ///< ... drawn from this distribution (transformedImages)
    std::uint64_t seed = 0;
};

/// Loads and prepares the data of a recipe. The subset keeps the first n of
/// seededPermutation(count, seed, 7), in ascending row order; the rotation uses
/// rotatedImages(subset, pad, deriveSeed(seed, 8), rotateMaxDegrees in radians). Throws LoadError /
/// SpecError ("subset" when n exceeds the count or is below 4).
Dataset prepareDataset(const DataRecipe& recipe);
/// The same on an already loaded dataset (recipe.file and recipe.format are not used). With
/// transformGroup set, the subset is padded and moved by transformedImages(subset, pad, group,
/// dist, deriveSeed(seed, 9)) instead of rotated. SpecError("rotate-classes") for a label that is no
/// class of the data, or classes without rotate.
Dataset prepareDataset(Dataset data, const DataRecipe& recipe);
Dataset prepareDataset(Dataset data, std::size_t n, bool rotate, int pad, std::uint64_t seed,
                       double rotateMaxDegrees = 0.0);
/// The rows of the seeded subset of n of count samples that prepareDataset keeps: the first n of
/// seededPermutation(count, seed, 7) in ascending order; all rows when n >= count.
Indices subsetRows(std::size_t count, std::size_t n, std::uint64_t seed);
/// The rows of a file of fileCount samples that the prepared rows `prepared` marks come from (for
/// LoadOptions::rows): the same rows without a subset, else the subset's rows (subsetRows).
std::vector<char> fileRowsOf(const std::vector<char>& prepared, std::size_t fileCount, const DataRecipe& recipe);

/// Parses `name=v1,v2;name=v3` (the grid syntax) into axes. Throws SpecError("grid" or "grid NAME").
std::vector<ParamAxis> parseGrid(const std::string& text);

} // namespace orbit
