#include "render/ParameterLabels.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

#include <cmath>

namespace orbitui {

ParameterInfo parameterInfo(const orbit::ParamDescriptor& p)
{
    ParameterInfo info;
    info.key = QString::fromStdString(p.key);
    info.label = QString::fromStdString(p.label);
    // A spin box rounds to `decimals`: each end is the nearest value it can show inside the valid
    // range (π, a closed end, is 3.141 at three decimals: 3.142 would be refused by the core).
    const double scale = std::pow(10.0, p.decimals), step = 1.0 / scale;
    const auto inward = [&](double end, bool open, bool upper) {
        if (!std::isfinite(end * scale))
            return end;
        double v = (upper ? std::floor(end * scale + 1e-9) : std::ceil(end * scale - 1e-9)) / scale;
        if (open && v == end)
            v += upper ? -step : step;
        return v;
    };
    info.minimum = inward(p.minimum, p.minimumOpen, false);
    info.maximum = inward(p.maximum, p.maximumOpen, true);
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

QString symbolOf(const orbit::ParamDescriptor& p)
{
    const std::string& label = p.label;
    return QString::fromStdString(label.substr(0, label.find(' ')));
}

QString symbolOf(const std::string& key)
{
    for (const orbit::DistributionDescriptor& d : orbit::distributionDescriptors())
        for (const orbit::ParamDescriptor& p : d.parameters)
            if (p.key == key)
                return symbolOf(p);
    for (const orbit::LearnerDescriptor& l : orbit::learnerDescriptors())
        if (l.axis() == key)
            return symbolOf(l.parameters.front());
    return QString::fromStdString(key);
}

QString axisLabel(const std::string& name)
{
    const auto dot = name.find('.');
    const std::string key = dot == std::string::npos ? name : name.substr(dot + 1);
    const QString label = key == "median" ? QStringLiteral("bandwidth (× median distance)") : symbolOf(key);
    return dot == std::string::npos ? label : QString::fromStdString(name.substr(0, dot)) + " " + label;
}

QString axisLabel(const std::string& name, const orbit::ParamDescriptor& p)
{
    QString label = symbolOf(p);
    const auto dot = name.find('.');
    if (dot != std::string::npos)
        label = QString::fromStdString(name.substr(0, dot)) + " " + label;
    if (!p.unit.empty())
        label += " (" + QString::fromStdString(p.unit) + ")";
    return label;
}

} // namespace orbitui
