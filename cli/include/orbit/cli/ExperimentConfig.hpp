#pragma once
// The config file of `orbitlab-cli experiment CONFIG.json` (JSON, docs/experiments.md): a table of
// training runs (settings) on one dataset. The JSON stays in the CLI: the core only sees DataRecipe
// and TrainConfig.
#include "orbit/training/Experiment.hpp"
#include "orbit/training/Training.hpp"

#include <optional>
#include <string>
#include <vector>

namespace orbit::cli {

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

} // namespace orbit::cli
