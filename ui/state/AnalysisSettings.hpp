#pragma once
// The user's settings of the Kernels and Approximation panels (saved in sessions).
#include <QString>

#include <vector>

namespace orbitui {

/// Kernels panel: N points, r group samples (0: the orbit settings' r), the approximating map and
/// its size s, the Gaussian bandwidth as a multiple of the median pairwise distance.
struct KernelsSettings {
    int n = 100;
    int r = 0;
    QString method = QStringLiteral("rf");  ///< rf, nystrom, gicdf
    int s = 200;
    double bandwidth = 1.0;
    bool autoApply = true;
    bool operator==(const KernelsSettings&) const = default;
};

/// Approximation panel (LGIKA Figure 1): n points, the s and r lists, the reference kernel's r,
/// the method, repeats per (r, s).
struct ApproximationSettings {
    int n = 100;
    QString method = QStringLiteral("rf");  ///< rf, nystrom
    std::vector<int> sList{10, 20, 50, 100, 200, 500};
    std::vector<int> rList{1, 4, 16};
    int refR = 20;
    int repeats = 3;
    double bandwidth = 1.0;
    bool autoApply = true;
    bool operator==(const ApproximationSettings&) const = default;
};

} // namespace orbitui
