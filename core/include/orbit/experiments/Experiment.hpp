#pragma once
// `orbitlab-cli experiment CONFIG.json`: a table of training runs (settings) on one dataset.
// The config format is documented in docs/experiments.md.
#include "orbit/data/Dataset.hpp"
#include "orbit/experiments/Training.hpp"

#include <cstdint>
#include <optional>
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
/// dist, deriveSeed(seed, 9)) instead of rotated.
Dataset prepareDataset(Dataset data, const DataRecipe& recipe);
Dataset prepareDataset(Dataset data, std::size_t n, bool rotate, int pad, std::uint64_t seed,
                       double rotateMaxDegrees = 0.0);
/// The rows of the seeded subset of n of count samples that prepareDataset keeps: the first n of
/// seededPermutation(count, seed, 7) in ascending order; all rows when n >= count.
Indices subsetRows(std::size_t count, std::size_t n, std::uint64_t seed);

/// One row of the table: a name, the training configuration, and optionally the paper's number.
struct ExperimentSetting {
    std::string name;
    TrainConfig config;
    std::optional<double> paper;   ///< the published value of the same metric, when known
    std::string note;              ///< free text (e.g. "Table 1, LGIKA RF")
};

struct ExperimentConfig {
    std::string title;
    std::string path;              ///< the config file it was read from
    DataRecipe data;
    std::vector<ExperimentSetting> settings;
};

/// Everything a setting's result depends on, as canonical JSON text: the data recipe (file, format,
/// n, rotate, pad, seed) and every field of the setting's TrainConfig. Runs are seeded, so the same
/// fingerprint gives the same result: `experiment --resume` reuses a finished row only when its
/// saved fingerprint equals this one, and runs a row whose config changed again.
std::string settingFingerprint(const DataRecipe& data, const TrainConfig& config);

/// Parses a config file (JSON, docs/experiments.md). Relative data paths resolve against the config
/// file's folder; `${shared}` expands to the `shared` folder beside the repository (the first
/// ancestor A of the config folder with A/shared/data, or $ORBIT_SHARED_DIR when set);
/// `${fashion}` to $ORBIT_FASHION_DIR or /usr/share/datasets/fashion-mnist. Settings inherit the
/// top-level `defaults` object; their names are distinct. Throws LoadError(BadValue) naming the file
/// and the JSON field.
ExperimentConfig loadExperimentConfig(const std::string& path);

/// Parses `name=v1,v2;name=v3` (the grid syntax) into axes. Throws SpecError("grid" or "grid NAME").
std::vector<ParamAxis> parseGrid(const std::string& text);

} // namespace orbit
