#include "state/Presets.hpp"

#include "render/ParameterLabels.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

#include <QStringList>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace orbitui {

namespace {

/// One distribution of a preset: the factor of the affine group it sets (empty: the group's one
/// distribution), the registry's name and values of its parameters (the others take their defaults).
struct DistributionEntry {
    const char* factor;
    const char* name;
    std::vector<std::pair<std::string, double>> values;
};

/// One preset: the data and paper it comes from, the group, its distributions (named in this order)
/// and r.
struct PresetRow {
    const char* data;
    const char* paper;
    orbit::GroupKind group;
    std::vector<DistributionEntry> distributions;
    int r;
};

const std::vector<PresetRow>& presetTable()
{
    static const std::vector<PresetRow> rows{
        {.data = "Rotated MNIST",
         .paper = "LGIKA",
         .group = orbit::GroupKind::Rotation,
         .distributions = {{.factor = "", .name = "vonmises", .values = {{"kappa", 0.2}}}},
         .r = 100},
        {.data = "QM7",
         .paper = "LGIKA",
         .group = orbit::GroupKind::Permutation,
         .distributions = {{.factor = "", .name = "noisysort", .values = {{"sigma", 1.0}}}},
         .r = 70},
        // The affine factors in the order they act: scale × translation × rotation.
        {.data = "CIFAR-10",
         .paper = "LGIKA",
         .group = orbit::GroupKind::Affine,
         .distributions = {{.factor = "scale", .name = "lognormal", .values = {{"mu", 0.0}, {"sigma", 0.3}}},
                           {.factor = "translation", .name = "gaussian", .values = {{"sigma", 0.3}}},
                           {.factor = "rotation", .name = "vonmises", .values = {{"kappa", 9.0}}}},
         .r = 50},
    };
    return rows;
}

/// The entry's distribution on a group of `kind` with its values: the name and every key must be
/// registered (a preset cannot name what the core does not have).
DistributionParams registered(const DistributionEntry& entry, orbit::GroupKind kind)
{
    const orbit::DistributionDescriptor* d = orbit::findDistribution(entry.name);
    if (!d)
        throw std::logic_error(std::string("preset: no distribution ") + entry.name + " in the registry");
    std::map<std::string, double> values;
    for (const auto& [key, value] : entry.values) {
        if (!d->parameter(key))
            throw std::logic_error(std::string("preset: ") + entry.name + " has no parameter " + key);
        values[key] = value;
    }
    return DistributionParams::of(entry.name, kind, values);
}

/// "von Mises κ = 0.2": the registry's display name and the symbol of each parameter's label.
QString describe(const DistributionParams& p)
{
    QStringList parts;
    for (const orbit::ParamDescriptor& d : orbit::findDistribution(p.name)->parameters)
        parts << QStringLiteral("%1 = %2").arg(symbolOf(d), QString::fromStdString(orbit::formatNumber(p.value(d.key))));
    return displayName(p.name) + " " + parts.join(", ");
}

} // namespace

std::vector<Preset> presets()
{
    std::vector<Preset> out;
    for (const PresetRow& row : presetTable()) {
        OrbitSettings s;
        s.group = orbit::toString(row.group);
        QStringList distributions;
        for (const DistributionEntry& entry : row.distributions) {
            const std::string factor = *entry.factor ? entry.factor : s.group;
            DistributionParams& p = s.factor(factor);
            p = registered(entry, s.factorKind(factor));
            distributions << describe(p);
        }
        s.r = row.r;
        const QString name = QStringLiteral("%1 — %2: %3, r = %4")
                                 .arg(QString::fromUtf8(row.data), QString::fromUtf8(row.paper), distributions.join(" × "))
                                 .arg(s.r);
        out.push_back({.name = name, .settings = s});
    }
    return out;
}

} // namespace orbitui
