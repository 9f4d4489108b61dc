#include "Flags.hpp"

#include <map>

namespace orbit::cli {

namespace {

/// Fields whose option has another name, with the candidates in order of preference: the first
/// the command has wins (the kernel command's number of points is --n, the probe's --points).
const std::map<std::string, std::vector<std::string>>& aliases()
{
    static const std::map<std::string, std::vector<std::string>> table = {
        {"distribution", {"dist"}},
        {"transform-distribution", {"transform-dist"}},
        {"output", {"out"}},
        {"subset", {"n"}},
        {"points", {"points", "n"}},
        {"samples", {"n"}},
        {"inputs", {"indices"}},
    };
    return table;
}

const Option* findLong(const std::vector<Option>& options, const std::string& name)
{
    for (const Option& o : options)
        if (o.name == name) return &o;
    return nullptr;
}

} // namespace

std::string flagOf(const std::string& field, const std::vector<Option>& options)
{
    if (field.empty() || field[0] == '-') return field;
    const std::string head = field.substr(0, field.find_first_of(" ."));
    std::vector<std::string> candidates = {head};
    if (const auto it = aliases().find(head); it != aliases().end()) candidates = it->second;
    for (const std::string& name : candidates) {
        const Option* o = findLong(options, name);
        if (!o) continue;
        const bool shortForm = o->name.size() == 1 && o->shortName == o->name;
        return (shortForm ? "-" : "--") + o->name + field.substr(head.size());
    }
    return field;
}

SpecError withFlag(const SpecError& e, const std::vector<Option>& options)
{
    return SpecError(flagOf(e.field(), options), e.detail(), e.value());
}

} // namespace orbit::cli
