#pragma once
// The user's settings of the Kernels and Approximation panels (saved in sessions). Their defaults,
// like their ranges and words, are the registry's figure descriptors' (orbit/registry/Figures.hpp).
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
    int n = kernelsDefault("n");
    int r = 0;
    QString method = kernelsDefaultMethod();  ///< an approximation of the Kernels figure: rf, nystrom, gicdf
    int s = kernelsDefault("s");
    QString kernel = QStringLiteral("gaussian");  ///< "gaussian", "laplacian", "matern:nu=2.5", "laplacian:sigma=3", ...
    double bandwidth = figuresDefaultBandwidth();
    bool autoApply = true;
    bool operator==(const KernelsSettings&) const = default;
};

/// Approximation panel (LGIKA Figure 1): n points, the s and r lists, the reference kernel's r,
/// the method, repeats per (r, s).
struct ApproximationSettings {
    int n = approximationDefault("n");
    QString method = approximationDefaultMethod();  ///< an approximation the error figure draws: rf, nystrom
    std::vector<int> sList = approximationDefaultList("s");
    std::vector<int> rList = approximationDefaultList("r");
    int refR = approximationDefault("ref_r");
    int repeats = approximationDefault("repeats");
    double bandwidth = figuresDefaultBandwidth();
    bool autoApply = true;
    bool operator==(const ApproximationSettings&) const = default;
};

} // namespace orbitui
