#include "orbit/training/TrainingPython.hpp"

#include "orbit/training/TrainSettings.hpp"
#include "orbit/util/Spec.hpp"

#include <cstdio>
#include <vector>

namespace orbit {

namespace {

std::string numberList(const std::vector<double>& values)
{
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + formatNumber(values[i]);
    return out + "]";
}

/// A training setting's value as a Python literal of the type orbitlab.train takes for it.
std::string pythonValue(const TrainSetting& s, const TrainConfig& c)
{
    const SettingValue v = settingValue(s, c);
    switch (s.type) {
    case SettingType::Text: return pythonString(v.text);
    case SettingType::Integer:
    case SettingType::Number: return v.text;
    case SettingType::Numbers: return numberList(v.numbers);
    case SettingType::Grid: {
        std::string grid = "{";
        for (std::size_t i = 0; i < v.grid.size(); ++i)
            grid += (i ? ", " : "") + pythonString(v.grid[i].name) + ": " + numberList(v.grid[i].values);
        return grid + "}";
    }
    }
    return {};
}

/// `name=value` arguments, wrapped after about 100 columns with a hanging indent.
std::string call(const std::string& head, const std::vector<std::string>& args)
{
    std::string out = head + "(", line = out;
    const std::string indent(head.size() + 1, ' ');
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string piece = args[i] + (i + 1 < args.size() ? "," : ")");
        if (line.size() + piece.size() + 1 > 100 && line.size() > indent.size()) {
            out += "\n" + indent;
            line = indent;
        } else if (i > 0) {
            out += " ";
            line += " ";
        }
        out += piece;
        line += piece;
    }
    if (args.empty()) out += ")";
    return out + "\n";
}

} // namespace

std::string pythonString(const std::string& text)
{
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += char(c);  // UTF-8 passes through: Python 3 source is UTF-8
        }
    }
    return out + "\"";
}

std::string trainingAsPython(const TrainConfig& c, const DataRecipe& d)
{
    const DataRecipe plain;
    std::vector<std::string> load = {pythonString(d.file)};
    if (!d.format.empty()) load.push_back("format=" + pythonString(d.format));
    if (d.n > 0) load.push_back("n=" + std::to_string(d.n));
    if (d.rotate) load.push_back("rotate=True");
    if (d.rotateMaxDegrees != plain.rotateMaxDegrees) load.push_back("rotate_max=" + formatNumber(d.rotateMaxDegrees));
    if ((d.rotate || !d.transformGroup.empty()) && d.pad != plain.pad) load.push_back("pad=" + std::to_string(d.pad));
    if (!d.transformGroup.empty())
        load.insert(load.end(), {"transform_group=" + pythonString(d.transformGroup), "transform_dist=" + pythonString(d.transformDist)});
    load.push_back("seed=" + std::to_string(d.seed));

    std::vector<std::string> train = {"data"};
    for (const TrainSetting& s : trainSettings())  // orbit/training/TrainSettings.hpp
        if (writesSetting(s, c)) train.push_back(s.key + "=" + pythonValue(s, c));

    return "# Orbit Lab, Training panel: this run in Python (the orbitlab module calls the same core: the panel's numbers)\n"
           "import orbitlab\n\n" +
           call("data = orbitlab.load", load) + call("run = orbitlab.train", train) +
           "print(run.metric, run.mean, run.chosen)\n"
           "model = run.model()  # the fitted Pipeline(map, learner) of the first split, at the chosen point\n";
}

} // namespace orbit
