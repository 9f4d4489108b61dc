#include "render/DistributionCatalog.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

#include <cmath>

namespace orbitui {

ParameterInfo parameterInfo(const orbit::ParamDescriptor& p)
{
    ParameterInfo info;
    info.key = QString::fromStdString(p.key);
    info.label = QString::fromStdString(p.label);
    // A spin box rounds to `decimals`: an open end is its nearest representable value inside.
    const double step = std::pow(10.0, -p.decimals);
    info.minimum = p.minimumOpen ? p.minimum + step : p.minimum;
    info.maximum = p.maximumOpen ? p.maximum - step : p.maximum;
    info.sliderMinimum = p.learnMinimum;
    info.sliderMaximum = p.learnMaximum;
    info.logScale = p.logScale && p.learnMinimum > 0;
    info.decimals = p.decimals;
    info.tooltip = QStringLiteral("%1: %2 Accepts %3; the slider spans %4 to %5%6.")
                       .arg(info.label, QString::fromStdString(p.doc), QString::fromStdString(p.rangeText()),
                            QString::fromStdString(orbit::formatNumber(p.learnMinimum)),
                            QString::fromStdString(orbit::formatNumber(p.learnMaximum)),
                            info.logScale ? QStringLiteral(" (log scale)") : QString());
    return info;
}

std::vector<ParameterInfo> parametersOf(const std::string& name, const std::string& group)
{
    const orbit::GroupDescriptor* g = orbit::findGroup(group);
    if (!g)
        return {};
    std::vector<ParameterInfo> out;
    for (const orbit::ParamDescriptor& p : orbit::distributionParameters(name, g->kind))
        out.push_back(parameterInfo(p));
    return out;
}

QString displayName(const std::string& name)
{
    const orbit::DistributionDescriptor* d = orbit::findDistribution(name);
    return QString::fromStdString(d ? d->displayName : name);
}

QString describeDistribution(const std::string& name)
{
    const orbit::DistributionDescriptor* d = orbit::findDistribution(name);
    return d ? QString::fromStdString(d->doc) : QString();
}

QString groupDisplayName(const std::string& group)
{
    const orbit::GroupDescriptor* g = orbit::findGroup(group);
    return QString::fromStdString(g ? g->displayName : group);
}

QString describeGroup(const std::string& group)
{
    const orbit::GroupDescriptor* g = orbit::findGroup(group);
    return g ? QString::fromStdString(g->doc) : QString();
}

} // namespace orbitui
