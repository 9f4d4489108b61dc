#include "models/DistributionCatalog.hpp"

#include "models/OrbitSettings.hpp"

#include <QtMath>

namespace orbitui {

std::vector<ParameterInfo> parametersOf(const std::string& name, const std::string& group)
{
    if (name == "vonmises")
        return {{"kappa", QStringLiteral("κ (concentration)"), 0.0, 1000.0, true, 3,
                 QStringLiteral("κ sets how concentrated the rotation angles are around 0: κ = 0 is the uniform "
                                "(Haar) measure over all angles, large κ keeps the copies close to the input.")}};
    if (name == "uniform") {
        if (group == "translation")
            return {{"a", QStringLiteral("a (half-width, px)"), 0.0, 100.0, true, 2,
                     QStringLiteral("a is the half-width of the window: shifts are drawn uniformly from [-a, a] "
                                    "pixels on each axis.")}};
        return {{"a", QStringLiteral("a (half-width, rad)"), 0.0, M_PI, false, 3,
                 QStringLiteral("a is the half-width of the window: angles are drawn uniformly from [-a, a] "
                                "radians (π = all rotations).")}};
    }
    if (name == "gaussian")
        return {{"sigma", QStringLiteral("σ (px)"), 0.0, 100.0, true, 3,
                 QStringLiteral("σ is the standard deviation of the shift in pixels on each axis: larger σ "
                                "moves the copies further from the input.")}};
    if (name == "lognormal")
        return {{"mu", QStringLiteral("μ (log-scale mean)"), -3.0, 3.0, false, 3,
                 QStringLiteral("μ is the mean of log s: μ = 0 centres the zoom factors on 1 (no zoom).")},
                {"sigma", QStringLiteral("σ (log-scale spread)"), 0.0, 5.0, true, 3,
                 QStringLiteral("σ is the standard deviation of log s: larger σ gives stronger zooms in and "
                                "out.")}};
    if (name == "noisysort")
        return {{"sigma", QStringLiteral("σ (row-norm noise)"), 0.0, 1000.0, true, 3,
                 QStringLiteral("σ is the noise added to the row norms before sorting: σ = 0 always gives the "
                                "sorted Coulomb matrix, larger σ mixes atoms of similar norm.")}};
    return {};
}

QString displayName(const std::string& name)
{
    if (name == "vonmises") return QStringLiteral("von Mises");
    if (name == "uniform") return QStringLiteral("uniform window");
    if (name == "gaussian") return QStringLiteral("Gaussian");
    if (name == "lognormal") return QStringLiteral("log-normal");
    if (name == "noisysort") return QStringLiteral("noisy sort");
    if (name == "haar") return QStringLiteral("Haar (uniform over the group)");
    if (name == "delta") return QStringLiteral("delta (identity only)");
    return QString::fromStdString(name);
}

QString describeDistribution(const std::string& name)
{
    if (name == "vonmises") return QStringLiteral("Angles with density ∝ exp(κ cos θ): a bump around the identity whose width falls as κ grows.");
    if (name == "uniform") return QStringLiteral("A hard window: every element within distance a of the identity is equally likely.");
    if (name == "gaussian") return QStringLiteral("Shifts drawn from N(0, σ² I) pixels.");
    if (name == "lognormal") return QStringLiteral("Zoom factors s with log s ~ N(μ, σ²).");
    if (name == "noisysort") return QStringLiteral("Sort atoms by row norm plus Gaussian noise (Montavon et al. 2012); depends on the input.");
    if (name == "haar") return QStringLiteral("Every group element equally likely: full invariance.");
    if (name == "delta") return QStringLiteral("Only the identity: no invariance, the plain base kernel.");
    return {};
}

QString groupDisplayName(const std::string& group)
{
    if (group == "rotation") return QStringLiteral("rotation SO(2)");
    if (group == "translation") return QStringLiteral("translation R²");
    if (group == "scale") return QStringLiteral("isotropic scale");
    if (group == "affine") return QStringLiteral("affine (rotation × translation × scale)");
    if (group == "cyclic") return QStringLiteral("cyclic Cₙ");
    if (group == "permutation") return QStringLiteral("permutation Sₙ (atoms)");
    if (group == "orthogonal") return QStringLiteral("random orthogonal set");
    return QString::fromStdString(group);
}

QString describeGroup(const std::string& group)
{
    if (group == "rotation") return QStringLiteral("Rotates the image about its centre (bilinear, zero border).");
    if (group == "translation") return QStringLiteral("Shifts the image by (dx, dy) pixels, sub-pixel bilinear.");
    if (group == "scale") return QStringLiteral("Zooms about the centre, intensities divided by s to keep the norm.");
    if (group == "affine") return QStringLiteral("Scale, then translate, then rotate; each factor has its own distribution.");
    if (group == "cyclic") return QStringLiteral("The n rotations by multiples of 2π/n: a finite group with exact averages.");
    if (group == "permutation") return QStringLiteral("Reorders the atoms of a molecule: C → P C Pᵀ.");
    if (group == "orthogonal") return QStringLiteral("A fixed set of k Haar-random orthogonal matrices acting on vectors.");
    return {};
}

double parameterValue(const DistributionParams& p, const QString& key)
{
    if (key == "kappa") return p.kappa;
    if (key == "a") return p.a;
    if (key == "mu") return p.mu;
    return p.sigma;
}

void setParameterValue(DistributionParams& p, const QString& key, double value)
{
    if (key == "kappa") p.kappa = value;
    else if (key == "a") p.a = value;
    else if (key == "mu") p.mu = value;
    else p.sigma = value;
}

} // namespace orbitui
