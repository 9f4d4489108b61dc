#include "orbit/cli/ExperimentConfig.hpp"

#include "orbit/training/TrainSettings.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace orbit::cli {
namespace {

namespace fs = std::filesystem;
using ConfigJson = nlohmann::json;

[[noreturn]] void bad(const std::string& file, const std::string& field, const std::string& detail,
                      const std::string& value = {})
{
    throw LoadError(LoadErrorKind::BadValue, file, field, detail, value);
}

std::string sharedDir(const fs::path& configDir)
{
    if (const char* env = std::getenv("ORBIT_SHARED_DIR"); env && *env) return env;
    for (fs::path a = fs::absolute(configDir); !a.empty(); a = a.parent_path()) {
        if (fs::is_directory(a / "shared" / "data")) return (a / "shared").string();
        if (a == a.parent_path()) break;
    }
    return (fs::absolute(configDir) / ".." / ".." / ".." / "shared").lexically_normal().string();
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to)
{
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::string resolvePath(const std::string& text, const fs::path& configDir)
{
    std::string s = text;
    if (s.find("${shared}") != std::string::npos) s = replaceAll(s, "${shared}", sharedDir(configDir));
    if (s.find("${fashion}") != std::string::npos) {
        const char* env = std::getenv("ORBIT_FASHION_DIR");
        s = replaceAll(s, "${fashion}", env && *env ? env : "/usr/share/datasets/fashion-mnist");
    }
    const fs::path p(s);
    return p.is_absolute() ? p.string() : (configDir / p).lexically_normal().string();
}

template <class T>
T get(const ConfigJson& j, const std::string& key, const T& fallback, const std::string& file, const std::string& where)
{
    if (!j.contains(key)) return fallback;
    try {
        return j.at(key).get<T>();
    } catch (const ConfigJson::exception&) {
        bad(file, where + "." + key, "has the wrong type", j.at(key).dump());
    }
}

std::vector<ParamAxis> gridOf(const ConfigJson& j, const std::string& file, const std::string& where)
{
    if (j.is_string()) {
        try {
            return parseGrid(j.get<std::string>());
        } catch (const SpecError& e) {
            bad(file, where, e.what(), j.get<std::string>());
        }
    }
    if (!j.is_object()) bad(file, where, "must be an object {\"lambda\": [..], ..} or a grid string \"lambda=..;median=..\"", j.dump());
    std::vector<ParamAxis> axes;
    for (const auto& [name, values] : j.items()) {
        ParamAxis a{name, {}};
        if (values.is_number()) {
            a.values.push_back(values.get<double>());
        } else if (values.is_array()) {
            for (const auto& v : values) {
                if (!v.is_number()) bad(file, where + "." + name, "values must be numbers", v.dump());
                a.values.push_back(v.get<double>());
            }
        } else {
            bad(file, where + "." + name, "must be a number or a list of numbers", values.dump());
        }
        axes.push_back(std::move(a));
    }
    return axes;
}

/// A training setting's JSON value as the CLI's text: its type says which JSON it takes (a string, an
/// integer, a number, a list of numbers, a grid object or string).
std::string settingTextOf(const TrainSetting& s, const ConfigJson& v, const std::string& file, const std::string& field)
{
    switch (s.type) {
    case SettingType::Text:
        if (!v.is_string()) bad(file, field, "must be a string", v.dump());
        return v.get<std::string>();
    case SettingType::Integer:
        if (!v.is_number_integer()) bad(file, field, "must be an integer", v.dump());
        return v.dump();
    case SettingType::Number:
        if (!v.is_number()) bad(file, field, "must be a number", v.dump());
        return formatNumber(v.get<double>());
    case SettingType::Numbers: {
        if (!v.is_array()) bad(file, field, "must be a list of numbers", v.dump());
        std::vector<double> values;
        for (const auto& x : v) {
            if (!x.is_number()) bad(file, field, "must be a list of numbers", v.dump());
            values.push_back(x.get<double>());
        }
        return numbersText(values);
    }
    case SettingType::Grid: return gridText(gridOf(v, file, field));
    }
    return {};
}

/// The settings of the table (orbit/training/TrainSettings.hpp) that `j` gives, over `c`.
TrainConfig trainConfigOf(const ConfigJson& j, TrainConfig c, const std::string& file, const std::string& where)
{
    for (const TrainSetting& s : trainSettings()) {
        if (!j.contains(s.key)) continue;
        const std::string field = where + "." + s.key;
        const std::string text = settingTextOf(s, j.at(s.key), file, field);
        try {
            applySetting(c, s, text);
        } catch (const SpecError& e) {
            bad(file, field, e.detail(), e.value());
        }
    }
    return c;
}

/// A setting's value in `config` as JSON, in the type settingTextOf reads.
ConfigJson settingJson(const TrainSetting& s, const TrainConfig& config)
{
    const SettingValue v = settingValue(s, config);
    switch (s.type) {
    case SettingType::Text: return v.text;
    case SettingType::Integer: return v.integer;
    case SettingType::Number: return v.number;
    case SettingType::Numbers: return v.numbers;
    case SettingType::Grid: {
        ConfigJson grid = ConfigJson::array();
        for (const ParamAxis& a : v.grid) grid.push_back({{"name", a.name}, {"values", a.values}});
        return grid;
    }
    }
    return nullptr;
}

} // namespace

std::string settingFingerprint(const DataRecipe& data, const TrainConfig& config)
{
    ConfigJson j = {{"data", {{"file", data.file}, {"format", data.format}, {"n", data.n}, {"rotate", data.rotate},
                              {"pad", data.pad}, {"seed", data.seed}}}};
    for (const TrainSetting& s : trainSettings()) j[s.key] = settingJson(s, config);
    return j.dump();  // nlohmann::json sorts object keys: the same settings give the same text
}

ExperimentConfig loadExperimentConfig(const std::string& path)
{
    std::error_code ec;
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))  // a FIFO would block the open below
        throw LoadError(LoadErrorKind::NotAFile, path, "file", "the experiment config is not a regular file");
    std::ifstream in(path);
    if (!in) throw LoadError(LoadErrorKind::FileNotFound, path, "file", "cannot open the experiment config", path);
    ConfigJson j;
    try {
        j = ConfigJson::parse(in);
    } catch (const ConfigJson::parse_error& e) {
        throw LoadError(LoadErrorKind::BadValue, path, "byte " + std::to_string(e.byte), "not valid JSON", e.what());
    }
    if (!j.is_object()) bad(path, "top level", "must be a JSON object");
    const fs::path dir = fs::absolute(fs::path(path)).parent_path();
    ExperimentConfig c;
    c.path = path;
    c.title = get<std::string>(j, "title", fs::path(path).stem().string(), path, "config");
    if (!j.contains("data") || !j.at("data").is_object()) bad(path, "data", "missing object {\"file\": ...}");
    const ConfigJson& d = j.at("data");
    const std::string file = get<std::string>(d, "file", "", path, "data");
    if (file.empty()) bad(path, "data.file", "is required");
    c.data.file = resolvePath(file, dir);
    c.data.format = get<std::string>(d, "format", "", path, "data");
    const long long n = get<long long>(d, "n", 0, path, "data");
    if (n < 0) bad(path, "data.n", "must be >= 0", std::to_string(n));
    c.data.n = std::size_t(n);
    c.data.rotate = get<bool>(d, "rotate", false, path, "data");
    c.data.pad = get<int>(d, "pad", 28, path, "data");
    c.data.rotateMaxDegrees = get<double>(d, "rotate_max_degrees", 0.0, path, "data");
    c.data.transformGroup = get<std::string>(d, "transform_group", "", path, "data");
    c.data.transformDist = get<std::string>(d, "transform_dist", "", path, "data");
    c.data.seed = get<std::uint64_t>(d, "seed", 0, path, "data");

    TrainConfig defaults;
    defaults.seed = c.data.seed;
    defaults.eval = get<std::string>(d, "eval", defaults.eval, path, "data");
    if (j.contains("defaults")) {
        if (!j.at("defaults").is_object()) bad(path, "defaults", "must be an object");
        defaults = trainConfigOf(j.at("defaults"), defaults, path, "defaults");
    }
    if (!j.contains("settings") || !j.at("settings").is_array() || j.at("settings").empty())
        bad(path, "settings", "must be a non-empty list");
    std::size_t i = 0;
    std::set<std::string> names;
    for (const ConfigJson& s : j.at("settings")) {
        const std::string where = "settings[" + std::to_string(i++) + "]";
        if (!s.is_object()) bad(path, where, "must be an object");
        ExperimentSetting e;
        e.name = get<std::string>(s, "name", where, path, where);
        if (e.name.find(',') != std::string::npos)  // --only takes a comma-separated list of names
            bad(path, where + ".name", "must not contain ',' (a comma-separated list of names could not select it)", e.name);
        if (!names.insert(e.name).second)  // --only and --resume find a setting by its name
            bad(path, where + ".name", "is the name of an earlier setting too", e.name);
        e.config = trainConfigOf(s, defaults, path, where);
        if (s.contains("paper")) {
            if (!s.at("paper").is_number()) bad(path, where + ".paper", "must be a number", s.at("paper").dump());
            e.paper = s.at("paper").get<double>();
        }
        e.note = get<std::string>(s, "note", "", path, where);
        try {
            e.config.validate();
        } catch (const SpecError& err) {
            bad(path, where, err.what(), err.value());
        }
        c.settings.push_back(std::move(e));
    }
    return c;
}

} // namespace orbit::cli
