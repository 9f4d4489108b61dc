#include "models/OrbitSettings.hpp"

#include "orbit/groups/OrthogonalSetGroup.hpp"
#include "orbit/util/Error.hpp"

#include <sstream>
#include <stdexcept>

namespace orbitui {

namespace {

std::string number(double v)
{
    std::ostringstream os;
    os.precision(10);
    os << v;
    return os.str();
}

const std::vector<std::string>& allGroups()
{
    static const std::vector<std::string> groups{"rotation", "translation", "scale",      "affine",
                                                 "cyclic",   "permutation", "orthogonal"};
    return groups;
}

const std::vector<std::string>& allDistributions()
{
    static const std::vector<std::string> names{"vonmises", "uniform", "gaussian", "lognormal",
                                                "noisysort", "haar", "delta"};
    return names;
}

} // namespace

std::string DistributionParams::spec() const
{
    if (name == "vonmises")
        return "vonmises:kappa=" + number(kappa);
    if (name == "uniform")
        return "uniform:a=" + number(a);
    if (name == "gaussian")
        return "gaussian:sigma=" + number(sigma);
    if (name == "lognormal")
        return "lognormal:mu=" + number(mu) + ",sigma=" + number(sigma);
    if (name == "noisysort")
        return "noisysort:sigma=" + number(sigma);
    return name;  // haar, delta
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
    if (group == "affine")
        return {"rotation", "translation", "scale"};
    return {group};
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
    for (const std::string& name : allGroups()) {
        if (name == "orthogonal") {
            // Building it draws k Haar-random d x d matrices (seconds on the GUI thread for images):
            // its constructor's size condition decides instead; it suits samples of any kind.
            if (shape.dim() >= 1 && shape.dim() <= orbit::OrthogonalSetGroup::kMaxDim)
                out.push_back(name);
            continue;
        }
        OrbitSettings s;
        s.group = name;
        try {
            orbit::makeGroup(s.groupSpec(), shape, 0)->checkShape(kind, shape);
            out.push_back(name);
        } catch (const std::exception&) {
        }
    }
    return out;
}

std::vector<std::string> validDistributions(const std::string& factorGroupSpec)
{
    std::vector<std::string> out;
    std::shared_ptr<const orbit::Group> group;
    try {
        // Shape only matters for the orthogonal set; a tiny one keeps this instant.
        group = orbit::makeGroup(factorGroupSpec, orbit::Shape{1, 4, 1}, 0);
    } catch (const std::exception&) {
        return out;
    }
    for (const std::string& name : allDistributions()) {
        DistributionParams p;
        p.name = name;
        try {
            orbit::makeDistribution(p.spec(), *group);
            out.push_back(name);
        } catch (const std::exception&) {
        }
    }
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

} // namespace orbitui
