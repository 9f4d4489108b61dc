#pragma once
// The user's settings of the Kernels and Approximation panels: their parts of a session
// (state/SessionParts.hpp) and of A in an A/B comparison. Their defaults, like their ranges and words,
// are the registry's figure descriptors' (orbit/registry/Figures.hpp).
#include <QJsonObject>
#include <QString>

#include <vector>

namespace orbitui {

/// The default of the figure setting `key` (kernels or approximation) as a whole number.
int kernelsDefault(const char* key);
int approximationDefault(const char* key);
/// The default approximation method of a figure (its `method` choice's first word), and a list's values.
QString kernelsDefaultMethod();
QString approximationDefaultMethod();
std::vector<int> approximationDefaultList(const char* key);
/// The default σ / median distance of both figures.
double figuresDefaultBandwidth();

/// Kernels panel: N points, r group samples (0: the orbit settings' r), the approximating map and
/// its size s, the base kernel (a registry kernel without its median multiple, state/KernelChoice.hpp)
/// and its bandwidth as a multiple of the median pairwise distance (when the kernel takes the median rule).
struct KernelsSettings {
    static constexpr const char* kSessionKey = "kernels";
    static constexpr bool kPinned = true;
    int n = kernelsDefault("n");
    int r = 0;
    QString method = kernelsDefaultMethod();  ///< an approximation of the Kernels figure: rf, nystrom, gicdf
    int s = kernelsDefault("s");
    QString kernel = QStringLiteral("gaussian");  ///< "gaussian", "laplacian", "matern:nu=2.5", "laplacian:sigma=3", ...
    double bandwidth = figuresDefaultBandwidth();
    bool autoApply = true;
    bool operator==(const KernelsSettings&) const = default;
    /// {"n", "r", "method", "s", "kernel", "bandwidth", "auto_apply"}.
    QJsonObject toJson() const;
    /// Each present field in the figure's range (orbit::kernelsFigure); SpecError "kernels.<field>".
    static KernelsSettings fromJson(const QJsonObject& o);
};

/// Approximation panel (LGIKA Figure 1): n points, the s and r lists, the reference kernel's r,
/// the method, repeats per (r, s).
struct ApproximationSettings {
    static constexpr const char* kSessionKey = "approximation";
    static constexpr bool kPinned = true;
    int n = approximationDefault("n");
    QString method = approximationDefaultMethod();  ///< an approximation the error figure draws: rf, nystrom
    std::vector<int> sList = approximationDefaultList("s");
    std::vector<int> rList = approximationDefaultList("r");
    int refR = approximationDefault("ref_r");
    int repeats = approximationDefault("repeats");
    double bandwidth = figuresDefaultBandwidth();
    bool autoApply = true;
    bool operator==(const ApproximationSettings&) const = default;
    /// {"n", "method", "s_list", "r_list", "ref_r", "repeats", "bandwidth", "auto_apply"}.
    QJsonObject toJson() const;
    /// Each present field in the figure's range (orbit::approximationFigure); SpecError "approximation.<field>".
    static ApproximationSettings fromJson(const QJsonObject& o);
};

} // namespace orbitui
