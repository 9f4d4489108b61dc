// The registry's table of feature maps: the built-in ones (features/RegisteredMaps.cpp) and those
// registered after them (registerFeatureMap).
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

namespace orbit {

using namespace registry;

namespace {

/// The one table: built on first use (static initialisation may reach it first), then appended to.
std::vector<FeatureMapDescriptor>& featureMapTable()
{
    static std::vector<FeatureMapDescriptor> all = builtinFeatureMaps();
    return all;
}

} // namespace

bool FeatureMapDescriptor::fitReadsRows(const Spec& spec) const
{
    if (!seedOnlyFit) return true;
    for (const auto& [key, value] : fitReadsRowsWith)
        if (spec.has(key) && spec.text(key, "") == value) return true;
    return false;
}

void registerFeatureMap(FeatureMapDescriptor descriptor)
{
    if (descriptor.name.empty() || (!descriptor.make && !descriptor.secondLayer))
        throw ContractError("registerFeatureMap", "a feature map needs a name and a factory: " + descriptor.name);
    std::vector<FeatureMapDescriptor>& all = featureMapTable();
    if (findIn(all, descriptor.name))
        throw ContractError("registerFeatureMap", "the feature map " + descriptor.name + " is already registered");
    all.push_back(std::move(descriptor));
}

const std::vector<FeatureMapDescriptor>& featureMapDescriptors() { return featureMapTable(); }

const FeatureMapDescriptor* findFeatureMap(const std::string& name) { return findIn(featureMapDescriptors(), name); }

} // namespace orbit
