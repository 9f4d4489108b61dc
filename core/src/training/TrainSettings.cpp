#include "orbit/training/TrainSettings.hpp"

#include "orbit/training/Experiment.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <limits>

namespace orbit {

namespace {

std::string learnerChoices()
{
    std::string out;
    for (const LearnerDescriptor& d : learnerDescriptors()) out += (out.empty() ? "" : "|") + d.name;
    return out;
}

std::string evaluationChoices()
{
    std::string out;
    for (const EvaluationDescriptor& d : evaluationDescriptors()) out += (out.empty() ? "" : "|") + d.synopsis();
    return out;
}

std::vector<TrainSetting> makeTrainSettings()
{
    const TrainConfig defaults;
    // One row per setting: adding a setting to TrainConfig means adding its row here.
    return {
        {.key = "features", .flag = "features", .valueName = "SPEC",
         .help = "feature map (as for `features`; default " + defaults.features + "); for krr the kernel's inputs",
         .alwaysWritten = true,
         .get = [](const TrainConfig& c) { return c.features; },
         .set = [](TrainConfig& c, const SettingValue& v) { c.features = v.text; }},
        {.key = "group", .flag = "group", .valueName = "SPEC",
         .help = "the transformation group of invariant features (none for plain features)",
         .get = [](const TrainConfig& c) { return c.group; },
         .set = [](TrainConfig& c, const SettingValue& v) { c.group = v.text; }},
        {.key = "dist", .flag = "dist", .valueName = "SPEC",
         .help = "the distribution over the group (the locality of the invariance)",
         .get = [](const TrainConfig& c) { return c.dist; },
         .set = [](TrainConfig& c, const SettingValue& v) { c.dist = v.text; }},
        {.key = "kernel", .flag = "kernel", .valueName = "SPEC",
         .help = "fixed base kernel; without it the Gaussian bandwidth is searched (median multiples)",
         .get = [](const TrainConfig& c) { return c.kernel; },
         .set = [](TrainConfig& c, const SettingValue& v) { c.kernel = v.text; }},
        {.key = "learner", .flag = "learner", .valueName = learnerChoices(),
         .help = "learner (default " + defaults.learner + ")", .alwaysWritten = true,
         .get = [](const TrainConfig& c) { return c.learner; },
         .set = [](TrainConfig& c, const SettingValue& v) { c.learner = v.text; }},
        {.key = "mean", .flag = "mean", .valueName = "constant|composition",
         .help = "the exact kernel machines' mean function: constant, or composition (linear in each element's "
                 "number of atoms, fitted on the training rows; molecules)",
         .get = [](const TrainConfig& c) { return c.mean; },
         .set = [](TrainConfig& c, const SettingValue& v) { c.mean = v.text; }},
        {.key = "eval", .flag = "eval", .valueName = evaluationChoices(),
         .help = "outer evaluation (default " + defaults.eval + ")", .alwaysWritten = true,
         .get = [](const TrainConfig& c) { return c.eval; },
         .set = [](TrainConfig& c, const SettingValue& v) { c.eval = v.text; }},
        {.key = "grid", .flag = "grid", .type = SettingType::Grid, .valueName = "AXES",
         .help = "search grid, e.g. \"lambda=1e-4,1e-3;median=0.5,1,2\"",
         .get = [](const TrainConfig& c) { return gridText(c.grid); },
         .set = [](TrainConfig& c, const SettingValue& v) { c.grid = v.grid; }},
        {.key = "validation", .flag = "validation", .type = SettingType::Number, .valueName = "F",
         .help = "inner validation fraction of each training fold (default " + formatNumber(defaults.validationFraction) + ")",
         .minimum = 0.0, .maximum = 1.0,
         .get = [](const TrainConfig& c) { return formatNumber(c.validationFraction); },
         .set = [](TrainConfig& c, const SettingValue& v) { c.validationFraction = v.number; }},
        {.key = "inner_folds", .flag = "inner-folds", .type = SettingType::Integer, .valueName = "K",
         .help = "select on a K-fold cross-validation inside each training fold instead (0: off)",
         .minimum = 0, .maximum = 50,
         .get = [](const TrainConfig& c) { return std::to_string(c.innerFolds); },
         .set = [](TrainConfig& c, const SettingValue& v) { c.innerFolds = int(v.integer); }},
        {.key = "learning_curve", .flag = "learning-curve", .type = SettingType::Numbers, .valueName = "a,b,..",
         .help = "training-set fractions for a learning curve (first fold)", .minimum = 0.0, .maximum = 1.0,
         .get = [](const TrainConfig& c) { return numbersText(c.learningCurve); },
         .set = [](TrainConfig& c, const SettingValue& v) { c.learningCurve = v.numbers; }},
        {.key = "block_rows", .flag = "block-rows", .type = SettingType::Integer, .valueName = "N",
         .help = "rows per block of the fixed row partition (default " + std::to_string(kDefaultBlockRows) +
                 "); results depend on it, never on the number of processes",
         .minimum = 1, .maximum = double(kMaxBlockRows),
         .get = [](const TrainConfig& c) { return std::to_string(c.blockRows); },
         .set = [](TrainConfig& c, const SettingValue& v) { c.blockRows = v.integer; }},
        {.key = "seed", .flag = "seed", .type = SettingType::Integer, .valueName = "S",
         .help = "the seed of every random choice of the run (splits, group samples, templates)",
         .minimum = 0, .maximum = double(std::numeric_limits<long long>::max()), .alwaysWritten = true,
         .get = [](const TrainConfig& c) { return std::to_string(c.seed); },
         .set = [](TrainConfig& c, const SettingValue& v) { c.seed = static_cast<std::uint64_t>(v.integer); }},
    };
}

std::string rangeOf(const TrainSetting& s)
{
    if (s.type != SettingType::Integer) return "[" + formatNumber(s.minimum) + ", " + formatNumber(s.maximum) + "]";
    // The largest seed, 2^63 - 1, is not a double: write the integer the parser takes.
    const auto whole = [](double v) {
        return v >= double(std::numeric_limits<long long>::max()) ? std::to_string(std::numeric_limits<long long>::max())
                                                                  : std::to_string(static_cast<long long>(v));
    };
    return "[" + whole(s.minimum) + ", " + whole(s.maximum) + "]";
}

double numberIn(const TrainSetting& s, const std::string& part)
{
    const auto x = parseDouble(trim(part));
    if (!x) throw SpecError(s.flag, "not a finite number", part);
    if (*x < s.minimum || *x > s.maximum) throw SpecError(s.flag, "must be in " + rangeOf(s), part);
    return *x;
}

} // namespace

const char* toString(SettingType type)
{
    switch (type) {
    case SettingType::Text: return "text";
    case SettingType::Integer: return "integer";
    case SettingType::Number: return "number";
    case SettingType::Numbers: return "numbers";
    case SettingType::Grid: return "grid";
    }
    return "?";
}

std::string TrainSetting::defaultText() const { return get(TrainConfig{}); }

std::string TrainSetting::rangeText() const
{
    switch (type) {
    case SettingType::Text: return "a spec or a name";
    case SettingType::Integer: return "an integer in " + rangeOf(*this);
    case SettingType::Number: return "a number in " + rangeOf(*this);
    case SettingType::Numbers: return "numbers in " + rangeOf(*this) + ", separated by ','";
    case SettingType::Grid: return "axes name=v1,v2 separated by ';'";
    }
    return {};
}

const std::vector<TrainSetting>& trainSettings()
{
    static const std::vector<TrainSetting> table = makeTrainSettings();
    return table;
}

const TrainSetting* findTrainSetting(const std::string& keyOrFlag)
{
    for (const TrainSetting& s : trainSettings())
        if (s.key == keyOrFlag || s.flag == keyOrFlag) return &s;
    return nullptr;
}

SettingValue readSetting(const TrainSetting& s, const std::string& text)
{
    SettingValue v;
    switch (s.type) {
    case SettingType::Text:
        v.text = trim(text);
        return v;
    case SettingType::Integer: {
        const auto x = parseInteger(trim(text));
        if (!x) throw SpecError(s.flag, "not an integer", text);
        if (double(*x) < s.minimum || double(*x) > s.maximum) throw SpecError(s.flag, "must be in " + rangeOf(s), text);
        v.integer = *x;
        v.text = std::to_string(*x);
        return v;
    }
    case SettingType::Number:
        v.number = numberIn(s, text);
        v.text = formatNumber(v.number);
        return v;
    case SettingType::Numbers:
        if (!trim(text).empty())
            for (const std::string& part : split(text, ',')) v.numbers.push_back(numberIn(s, part));
        v.text = numbersText(v.numbers);
        return v;
    case SettingType::Grid:
        v.grid = parseGrid(text);
        v.text = gridText(v.grid);
        return v;
    }
    return v;
}

void applySetting(TrainConfig& config, const TrainSetting& setting, const std::string& text)
{
    setting.set(config, readSetting(setting, text));
}

SettingValue settingValue(const TrainSetting& setting, const TrainConfig& config)
{
    return readSetting(setting, setting.get(config));
}

bool writesSetting(const TrainSetting& setting, const TrainConfig& config)
{
    return setting.alwaysWritten || setting.get(config) != setting.defaultText();
}

std::string numbersText(const std::vector<double>& values)
{
    std::string out;
    for (double v : values) out += (out.empty() ? "" : ",") + formatNumber(v);
    return out;
}

std::string gridText(const std::vector<ParamAxis>& grid)
{
    std::string out;
    for (const ParamAxis& a : grid) out += (out.empty() ? "" : ";") + a.name + "=" + numbersText(a.values);
    return out;
}

} // namespace orbit
