#include "state/OrbitSettings.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace orbitui {

std::string DistributionParams::spec() const
{
    const orbit::DistributionDescriptor* d = orbit::findDistribution(name);
    if (!d)
        return name;  // the core's parser names the unknown distribution
    std::vector<std::pair<std::string, double>> values;
    for (const orbit::ParamDescriptor& p : d->parameters)
        values.emplace_back(p.key, value(p.key));
    return orbit::formatSpec(name, values);
}

double DistributionParams::value(const std::string& key) const
{
    if (key == "kappa")
        return kappa;
    if (key == "a")
        return a;
    if (key == "sigma")
        return sigma;
    if (key == "mu")
        return mu;
    throw std::logic_error("DistributionParams has no field for the parameter " + key);
}

void DistributionParams::setValue(const std::string& key, double v)
{
    if (key == "kappa")
        kappa = v;
    else if (key == "a")
        a = v;
    else if (key == "sigma")
        sigma = v;
    else if (key == "mu")
        mu = v;
    else
        throw std::logic_error("DistributionParams has no field for the parameter " + key);
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

std::string OrbitSettings::groupSpec() const
{
    if (group == "cyclic")
        return "cyclic:n=" + std::to_string(cyclicN);
    if (group == "orthogonal")
        return "orthogonal:k=" + std::to_string(orthogonalK);
    return group;
}

std::string OrbitSettings::distSpec() const
{
    if (group != "affine")
        return dist.spec();
    return "rotation=" + rotation.spec() + ",translation=" + translation.spec() + ",scale=" + scale.spec();
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

DistributionParams& OrbitSettings::factor(const std::string& name)
{
    if (group != "affine")
        return dist;
    if (name == "rotation")
        return rotation;
    if (name == "translation")
        return translation;
    return scale;
}

const DistributionParams& OrbitSettings::factor(const std::string& name) const
{
    return const_cast<OrbitSettings*>(this)->factor(name);
}

namespace {

/// ("rotation", "kappa") for "rotation.kappa" on affine; (group, "kappa") for "kappa" otherwise.
std::pair<std::string, std::string> splitParameter(const OrbitSettings& s, const std::string& name)
{
    const auto dot = name.find('.');
    if (dot == std::string::npos) return {s.group, name};
    if (s.group != "affine") throw std::logic_error("factor parameter " + name + " of the group " + s.group);
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
        s.dist = DistributionParams{"vonmises", 1.0};
        break;
    case orbit::DataKind::Coulomb:
        s.group = "permutation";
        s.dist = DistributionParams{"noisysort", 1.0, 0.5, 1.0};
        break;
    case orbit::DataKind::Vectors:
        s.group = "orthogonal";
        s.dist = DistributionParams{"haar"};
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
