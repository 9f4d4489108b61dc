#pragma once
// What each distribution parameter means, its range and its slider scale, for the editors.
#include <QString>

#include <string>
#include <vector>

namespace orbitui {

struct DistributionParams;

/// One numeric parameter of a distribution: how to show and edit it.
struct ParameterInfo {
    QString key;        ///< "kappa", "a", "sigma", "mu"
    QString label;      ///< "κ"
    double minimum = 0.0;
    double maximum = 1.0;
    bool logish = false;  ///< slider position u maps to min + (max-min) (exp(u ln 1001) - 1) / 1000
    int decimals = 3;
    QString tooltip;    ///< one sentence: what the parameter does
};

/// Parameters of distribution `name` on the (factor) group `group`, in display order.
std::vector<ParameterInfo> parametersOf(const std::string& name, const std::string& group);

/// Human-readable name of a distribution ("von Mises", "noisy sort", ...).
QString displayName(const std::string& name);
/// One-sentence description of a distribution.
QString describeDistribution(const std::string& name);
/// Human-readable name of a group.
QString groupDisplayName(const std::string& group);
QString describeGroup(const std::string& group);

double parameterValue(const DistributionParams& p, const QString& key);
void setParameterValue(DistributionParams& p, const QString& key, double value);

} // namespace orbitui
