#include "orbit/distributions/AffineProduct.hpp"

#include "distributions/DistributionSupport.hpp"
#include "orbit/distributions/Delta.hpp"
#include "orbit/distributions/GaussianTranslation.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <array>
#include <map>

namespace orbit {

namespace {

const RotationGroup kRotation;
const TranslationGroup kTranslation;
const ScaleGroup kScale;

constexpr std::array<const char*, 3> kFactors = {"rotation", "translation", "scale"};

bool isDelta(const Distribution& d) { return dynamic_cast<const Delta*>(&d) != nullptr; }

/// The factor a part starts, or -1: "rotation=..." -> 0, "translation=..." -> 1, "scale=..." -> 2.
int factorOf(const std::string& part)
{
    for (int f = 0; f < 3; ++f) {
        const std::string prefix = std::string(kFactors[static_cast<std::size_t>(f)]) + "=";
        if (part.rfind(prefix, 0) == 0) return f;
    }
    return -1;
}

const char* kSyntax = "affine needs rotation=D1,translation=D2,scale=D3 (any factor may be left out), "
                      "e.g. rotation=vonmises:kappa=9,translation=gaussian:sigma=1,scale=lognormal:mu=0,sigma=0.3";

} // namespace

AffineProduct::AffineProduct(std::shared_ptr<const Distribution> rotation,
                             std::shared_ptr<const Distribution> translation, std::shared_ptr<const Distribution> scale)
    : rotation_(rotation ? std::move(rotation) : std::make_shared<Delta>())
    , translation_(translation ? std::move(translation) : std::make_shared<Delta>())
    , scale_(scale ? std::move(scale) : std::make_shared<Delta>())
{
    rotation_->checkGroup(kRotation);
    translation_->checkGroup(kTranslation);
    scale_->checkGroup(kScale);
    if (rotation_->dependsOnInput() || translation_->dependsOnInput() || scale_->dependsOnInput())
        throw SpecError("distribution", "affine factors cannot depend on the input", spec());
}

std::shared_ptr<const AffineProduct> AffineProduct::parse(const std::string& text)
{
    // A distribution registered for the whole affine group, named alone (delta), is every factor's.
    if (const DistributionDescriptor* whole = findDistribution(trim(text)); whole && whole->appliesTo(GroupKind::Affine)) {
        auto factor = [&](GroupKind k) { return detail::makeSingleDistribution(text, "distribution", k); };
        return std::make_shared<AffineProduct>(factor(GroupKind::Rotation), factor(GroupKind::Translation),
                                               factor(GroupKind::Scale));
    }
    std::array<std::string, 3> specs;
    std::array<bool, 3> given{false, false, false};
    for (const auto& chunk : split(text, ';')) {
        int current = -1;
        for (const auto& raw : split(chunk, ',')) {
            const std::string part = trim(raw);
            const int f = factorOf(part);
            if (f >= 0) {
                if (given[static_cast<std::size_t>(f)])
                    throw SpecError("distribution", std::string("the factor ") + kFactors[static_cast<std::size_t>(f)] +
                                                  "= is given twice",
                                    text);
                given[static_cast<std::size_t>(f)] = true;
                current = f;
                specs[static_cast<std::size_t>(f)] = part.substr(std::string(kFactors[static_cast<std::size_t>(f)]).size() + 1);
            } else if (current < 0) {
                throw SpecError("distribution", kSyntax, text);
            } else {
                specs[static_cast<std::size_t>(current)] += "," + part;
            }
        }
    }
    const std::array<GroupKind, 3> kinds = {GroupKind::Rotation, GroupKind::Translation, GroupKind::Scale};
    std::array<std::shared_ptr<const Distribution>, 3> dists;
    for (std::size_t f = 0; f < 3; ++f)
        if (given[f]) dists[f] = detail::makeSingleDistribution(specs[f], "distribution", kinds[f]);
    return std::make_shared<AffineProduct>(dists[0], dists[1], dists[2]);
}

std::string AffineProduct::spec() const
{
    return "rotation=" + rotation_->spec() + ",translation=" + translation_->spec() + ",scale=" + scale_->spec();
}

void AffineProduct::checkGroup(const Group& group) const
{
    if (group.kind() != GroupKind::Affine) detail::groupMismatch(*this, group, "the affine group");
}

GroupElement AffineProduct::sample(Rng& rng, const Group&, const Shape& shape, const float* x) const
{
    GroupElement g;
    g.theta = rotation_->sample(rng, kRotation, shape, x).theta;
    const GroupElement t = translation_->sample(rng, kTranslation, shape, x);
    g.dx = t.dx;
    g.dy = t.dy;
    g.scale = scale_->sample(rng, kScale, shape, x).scale;
    return g;
}

const Distribution& AffineProduct::factor(int f) const
{
    return f == 0 ? *rotation_ : f == 1 ? *translation_ : *scale_;
}

std::pair<int, std::string> AffineProduct::splitName(const std::string& name) const
{
    const auto dot = name.find('.');
    const int f = dot == std::string::npos ? -1 : factorOf(name.substr(0, dot) + "=");
    if (f < 0) {
        std::string names;
        for (const auto& [n, v] : parameters()) names += (names.empty() ? "" : ", ") + n;
        throw SpecError("distribution",
                        "affine parameters are named factor.key (it has: " + (names.empty() ? "none" : names) + ")", name);
    }
    return {f, name.substr(dot + 1)};
}

std::vector<std::pair<std::string, double>> AffineProduct::parameters() const
{
    std::vector<std::pair<std::string, double>> out;
    for (int f = 0; f < 3; ++f)
        for (const auto& [key, value] : factor(f).parameters())
            out.emplace_back(std::string(kFactors[static_cast<std::size_t>(f)]) + "." + key, value);
    return out;
}

const ParamDescriptor& AffineProduct::parameterDescriptor(const std::string& name) const
{
    const auto [f, key] = splitName(name);
    try {
        return factor(f).parameterDescriptor(key);
    } catch (const SpecError&) {  // name the parameter as the caller did, with the affine ones
    }
    std::string names;
    for (const auto& [n, v] : parameters()) names += (names.empty() ? "" : ", ") + n;
    throw SpecError("distribution", "the affine distribution has no parameter of that name (it has: " +
                                        (names.empty() ? std::string("none") : names) + ")",
                    name);
}

std::shared_ptr<const Distribution> AffineProduct::withParameters(const std::map<std::string, double>& values) const
{
    std::array<std::map<std::string, double>, 3> perFactor;
    for (const auto& [name, value] : values) {
        parameterDescriptor(name);  // throws naming the parameter
        const auto [f, key] = splitName(name);
        perFactor[static_cast<std::size_t>(f)][key] = value;
    }
    std::array<std::shared_ptr<const Distribution>, 3> dists = {rotation_, translation_, scale_};
    for (std::size_t f = 0; f < 3; ++f)
        if (!perFactor[f].empty()) dists[f] = factor(int(f)).withParameters(perFactor[f]);
    return std::make_shared<AffineProduct>(dists[0], dists[1], dists[2]);
}

GroupElement AffineProduct::sampleWithTangents(Rng& rng, const Group&, const Shape& shape, const float* x,
                                               const std::vector<std::string>& params,
                                               std::vector<GroupTangent>& tangents) const
{
    const std::array<const Group*, 3> groups = {&kRotation, &kTranslation, &kScale};
    std::array<std::vector<std::string>, 3> keys;
    std::array<std::vector<std::size_t>, 3> slots;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto [f, key] = splitName(params[i]);
        keys[static_cast<std::size_t>(f)].push_back(key);
        slots[static_cast<std::size_t>(f)].push_back(i);
    }
    tangents.assign(params.size(), GroupTangent{});
    GroupElement g;
    std::vector<GroupTangent> part;
    for (std::size_t f = 0; f < 3; ++f) {
        const GroupElement e = factor(int(f)).sampleWithTangents(rng, *groups[f], shape, x, keys[f], part);
        if (f == 0) g.theta = e.theta;
        if (f == 1) {
            g.dx = e.dx;
            g.dy = e.dy;
        }
        if (f == 2) g.scale = e.scale;
        for (std::size_t j = 0; j < part.size(); ++j) tangents[slots[f][j]] = part[j];
    }
    return g;
}

bool AffineProduct::isSymmetric() const
{
    if (!rotation_->isSymmetric() || !translation_->isSymmetric() || !scale_->isSymmetric()) return false;
    const bool fixedT = isDelta(*translation_);
    if (!fixedT && !isDelta(*scale_)) return false;  // t -> -t / s mixes the two
    if (!fixedT && !isDelta(*rotation_) && dynamic_cast<const GaussianTranslation*>(translation_.get()) == nullptr)
        return false;  // t -> -R(theta) t needs a rotation-invariant translation law
    return true;
}

} // namespace orbit
