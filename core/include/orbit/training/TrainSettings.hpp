#pragma once
// The one table of training settings (docs/design.md, "One table of training settings"): every field
// of TrainConfig a user sets, with its name in each front end, its type, range, default and help.
// The CLI's `train` options and parser, the experiment files (`experiment`), Copy as command, Copy
// as Python, the Python module's `orbitlab.train` and the session's run fields all read it, so a
// new setting is one row in core/src/training/TrainSettings.cpp.
#include "orbit/training/Training.hpp"

#include <string>
#include <vector>

namespace orbit {

/// How a setting's value is written.
enum class SettingType {
    Text,     ///< a spec or a name ("rf:s=1000", "ridge"); empty may mean "none"
    Integer,  ///< a whole number within [minimum, maximum]
    Number,   ///< a finite number within [minimum, maximum]
    Numbers,  ///< a comma-separated list of numbers, each within [minimum, maximum]
    Grid,     ///< the grid syntax "name=v1,v2;name=v3" (parseGrid)
};
const char* toString(SettingType type);

/// A value read from any front end, in the one form the rows' setters take: `text` is always the
/// CLI's text of the value; the member of the setting's type holds it parsed.
struct SettingValue {
    std::string text;
    long long integer = 0;
    double number = 0.0;
    std::vector<double> numbers;
    std::vector<ParamAxis> grid;
};

/// One training setting.
struct TrainSetting {
    std::string key;        ///< experiment files, Python keyword, session field: "inner_folds"
    std::string flag;       ///< the CLI's option without dashes: "inner-folds"
    SettingType type = SettingType::Text;
    std::string valueName;  ///< in --help: "K"
    std::string help;       ///< one line: what it sets
    double minimum = 0.0, maximum = 0.0;  ///< Integer, Number, Numbers: the valid range (both included)
    /// Copy as command / Python write it even at its default (the run's identity: features, learner, ...).
    bool alwaysWritten = false;
    std::string (*get)(const TrainConfig&) = nullptr;          ///< the value as the CLI writes it
    void (*set)(TrainConfig&, const SettingValue&) = nullptr;  ///< stores a value readSetting made

    /// The default, as the CLI writes it (get of a default TrainConfig).
    std::string defaultText() const;
    /// The valid values in words: "an integer in [0, 50]", "numbers in [0, 1]", "a spec".
    std::string rangeText() const;
};

/// Every setting, in the order the CLI's help and Copy as command list them.
const std::vector<TrainSetting>& trainSettings();
/// The row with this key or flag, or null.
const TrainSetting* findTrainSetting(const std::string& keyOrFlag);

/// Parses `text` as the setting's type and range. Throws SpecError(setting.flag) naming the value.
SettingValue readSetting(const TrainSetting& setting, const std::string& text);
/// readSetting, then stores the value in `config`.
void applySetting(TrainConfig& config, const TrainSetting& setting, const std::string& text);
/// The setting's value in `config`, parsed (the text and the member of its type).
SettingValue settingValue(const TrainSetting& setting, const TrainConfig& config);
/// Whether Copy as command / Python write the setting for `config`: alwaysWritten or not at its default.
bool writesSetting(const TrainSetting& setting, const TrainConfig& config);

/// The CLI's text of a list of numbers ("0.1,0.5", shortest round trip) and of grid axes.
std::string numbersText(const std::vector<double>& values);
std::string gridText(const std::vector<ParamAxis>& grid);

} // namespace orbit
