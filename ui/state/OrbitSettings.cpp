#include "state/OrbitSettings.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace orbitui {

DistributionParams DistributionParams::of(const std::string& name, orbit::GroupKind kind, std::map<std::string, double> given)
{
    DistributionParams p{name, std::move(given)};
    p.choose(name, kind);
    return p;
}

void DistributionParams::choose(const std::string& chosen, orbit::GroupKind kind)
{
    name = chosen;
    for (const orbit::ParamDescriptor& p : orbit::distributionParameters(name, kind))
        values.try_emplace(p.key, p.defaultValue);
}

std::string DistributionParams::spec() const
{
    const orbit::DistributionDescriptor* d = orbit::findDistribution(name);
    if (!d)
        return name;  // the core's parser names the unknown distribution
    std::vector<std::pair<std::string, double>> out;
    for (const orbit::ParamDescriptor& p : d->parameters)
        out.emplace_back(p.key, value(p.key));
    return orbit::formatSpec(name, out);
}

double DistributionParams::value(const std::string& key) const
{
    if (const auto it = values.find(key); it != values.end())
        return it->second;
    if (const orbit::DistributionDescriptor* d = orbit::findDistribution(name))
        if (const orbit::ParamDescriptor* p = d->parameter(key))
            return p->defaultValue;
    throw std::logic_error("the distribution " + name + " has no value for the parameter " + key);
}

void DistributionParams::setValue(const std::string& key, double v)
{
    if (std::find(keys().begin(), keys().end(), key) == keys().end())
        throw std::logic_error("no registered distribution has the parameter " + key);
    values[key] = v;
}

const std::vector<std::string>& DistributionParams::keys()
{
    static const std::vector<std::string> all = [] {
        std::vector<std::string> out;
        for (const orbit::DistributionDescriptor& d : orbit::distributionDescriptors())
            for (orbit::GroupKind g : d.groups)
                for (const orbit::ParamDescriptor& p : d.parametersOn(g))
                    if (std::find(out.begin(), out.end(), p.key) == out.end())
                        out.push_back(p.key);
        return out;
    }();
    return all;
}

std::map<std::string, DistributionParams> OrbitSettings::defaultFactorDistributions()
{
    using enum orbit::GroupKind;
    return {{"rotation", DistributionParams::of("vonmises", Rotation, {{"kappa", 9.0}})},
            {"translation", DistributionParams::of("gaussian", Translation, {{"sigma", 0.3}})},
            {"scale", DistributionParams::of("lognormal", Scale, {{"mu", 0.0}, {"sigma", 0.3}})}};
}

std::vector<std::pair<std::string, const orbit::ParamDescriptor*>> groupEditorParameters()
{
    std::vector<std::pair<std::string, const orbit::ParamDescriptor*>> out;
    for (const orbit::GroupDescriptor& g : orbit::groupDescriptors())
        for (const orbit::ParamDescriptor* p : g.editorParameters())
            out.emplace_back(g.name, p);
    return out;
}

std::map<std::string, int> OrbitSettings::defaultGroupValues()
{
    std::map<std::string, int> out;
    for (const auto& [g, p] : groupEditorParameters())
        out[g + "." + p->key] = static_cast<int>(p->defaultValue);
    return out;
}

int OrbitSettings::groupValue(const std::string& groupName, const std::string& key) const
{
    const auto it = groupValues.find(groupName + "." + key);
    if (it != groupValues.end())
        return it->second;
    const orbit::GroupDescriptor* g = orbit::findGroup(groupName);
    const orbit::ParamDescriptor* p = g ? g->parameter(key) : nullptr;
    return p ? static_cast<int>(p->defaultValue) : 0;
}

bool OrbitSettings::isProduct() const
{
    const orbit::GroupDescriptor* g = orbit::findGroup(group);
    return g && g->isProduct();
}

std::string OrbitSettings::groupSpec() const
{
    const orbit::GroupDescriptor* g = orbit::findGroup(group);
    if (!g)
        return group;
    std::string out = group;
    char sep = ':';
    for (const orbit::ParamDescriptor* p : g->editorParameters()) {
        out += sep + p->key + "=" + std::to_string(groupValue(group, p->key));
        sep = ',';
    }
    return out;
}

std::string OrbitSettings::distSpec() const
{
    if (!isProduct())
        return dist.spec();
    std::string out;
    for (const std::string& f : factors())
        out += (out.empty() ? "" : ",") + f + "=" + factor(f).spec();
    return out;
}

std::vector<std::string> OrbitSettings::factors() const
{
    const orbit::GroupDescriptor* d = orbit::findGroup(group);
    if (!d || d->factors.empty())
        return {group};
    std::vector<std::string> out;
    for (orbit::GroupKind k : d->factors)
        out.push_back(orbit::toString(k));
    return out;
}

bool OrbitSettings::hasFactor(const std::string& name) const
{
    const std::vector<std::string> all = factors();
    return std::find(all.begin(), all.end(), name) != all.end();
}

DistributionParams& OrbitSettings::factor(const std::string& name)
{
    if (!isProduct())
        return dist;
    const auto it = factorDists.find(name);
    if (it == factorDists.end())
        throw std::logic_error("the group " + group + " has no factor " + name);
    return it->second;
}

const DistributionParams& OrbitSettings::factor(const std::string& name) const
{
    return const_cast<OrbitSettings*>(this)->factor(name);
}

orbit::GroupKind OrbitSettings::factorKind(const std::string& name) const
{
    const orbit::GroupDescriptor* g = orbit::findGroup(isProduct() ? name : group);
    return g ? g->kind : orbit::GroupKind::Rotation;
}

namespace {

/// ("rotation", "kappa") for "rotation.kappa" on affine; (group, "kappa") for "kappa" otherwise.
std::pair<std::string, std::string> splitParameter(const OrbitSettings& s, const std::string& name)
{
    const auto dot = name.find('.');
    if (dot == std::string::npos) return {s.group, name};
    if (!s.isProduct()) throw std::logic_error("factor parameter " + name + " of the group " + s.group);
    return {name.substr(0, dot), name.substr(dot + 1)};
}

} // namespace

double OrbitSettings::parameter(const std::string& name) const
{
    const auto [factorName, key] = splitParameter(*this, name);
    return factor(factorName).value(key);
}

void OrbitSettings::setParameter(const std::string& name, double value)
{
    const auto [factorName, key] = splitParameter(*this, name);
    factor(factorName).setValue(key, value);
}

BuiltOrbit buildOrbit(const OrbitSettings& s, orbit::DataKind kind, const orbit::Shape& shape)
{
    if (s.r < 1)
        throw orbit::SpecError("r", "needs at least one group sample", std::to_string(s.r));
    BuiltOrbit built;
    built.group = orbit::makeGroup(s.groupSpec(), shape, s.seed);
    built.group->checkShape(kind, shape);
    built.dist = orbit::makeDistribution(s.distSpec(), *built.group);
    return built;
}

std::vector<std::string> validGroups(orbit::DataKind kind, const orbit::Shape& shape)
{
    std::vector<std::string> out;
    for (const orbit::GroupDescriptor* g : orbit::groupsFor(kind, shape))
        out.push_back(g->name);
    return out;
}

std::vector<std::string> validDistributions(const std::string& factorGroupSpec)
{
    std::vector<std::string> out;
    const orbit::GroupDescriptor* g = orbit::findGroup(factorGroupSpec.substr(0, factorGroupSpec.find(':')));
    if (!g)
        return out;
    for (const orbit::DistributionDescriptor* d : orbit::distributionsFor(g->kind))
        out.push_back(d->name);
    return out;
}

OrbitSettings defaultSettingsFor(orbit::DataKind kind)
{
    OrbitSettings s;
    switch (kind) {
    case orbit::DataKind::Images:
        s.group = "rotation";
        s.dist = DistributionParams::of("vonmises", orbit::GroupKind::Rotation);
        break;
    case orbit::DataKind::Coulomb:
        s.group = "permutation";
        s.dist = DistributionParams::of("noisysort", orbit::GroupKind::Permutation);
        break;
    case orbit::DataKind::Vectors:
        s.group = "orthogonal";
        s.dist = DistributionParams::of("haar", orbit::GroupKind::Orthogonal);
        break;
    }
    return s;
}

std::string readableSpec(const std::string& spec)
{
    std::string out;
    std::size_t i = 0;
    while (i < spec.size()) {
        const std::size_t eq = spec.find('=', i);
        if (eq == std::string::npos) {
            out += spec.substr(i);
            break;
        }
        out += spec.substr(i, eq + 1 - i);
        const std::size_t end = spec.find_first_of(",;:", eq + 1);
        const std::string value = spec.substr(eq + 1, end == std::string::npos ? std::string::npos : end - eq - 1);
        char* stop = nullptr;
        const double v = std::strtod(value.c_str(), &stop);
        if (value.size() > 6 && stop && *stop == '\0' && !value.empty()) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.4g", v);
            out += buf;
        } else {
            out += value;
        }
        if (end == std::string::npos) break;
        i = end;
        out += spec[i++];
    }
    return out;
}

} // namespace orbitui
