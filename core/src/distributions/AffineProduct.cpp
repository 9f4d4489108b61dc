#include "orbit/distributions/AffineProduct.hpp"

#include "distributions/DistributionSupport.hpp"
#include "orbit/distributions/Delta.hpp"
#include "orbit/distributions/GaussianTranslation.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <array>

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
        throw SpecError("--dist", "affine factors cannot depend on the input", spec());
}

std::shared_ptr<const AffineProduct> AffineProduct::parse(const std::string& text)
{
    if (trim(text) == "delta") return std::make_shared<AffineProduct>(nullptr, nullptr, nullptr);
    std::array<std::string, 3> specs;
    std::array<bool, 3> given{false, false, false};
    for (const auto& chunk : split(text, ';')) {
        int current = -1;
        for (const auto& raw : split(chunk, ',')) {
            const std::string part = trim(raw);
            const int f = factorOf(part);
            if (f >= 0) {
                if (given[static_cast<std::size_t>(f)])
                    throw SpecError("--dist", std::string("the factor ") + kFactors[static_cast<std::size_t>(f)] +
                                                  "= is given twice",
                                    text);
                given[static_cast<std::size_t>(f)] = true;
                current = f;
                specs[static_cast<std::size_t>(f)] = part.substr(std::string(kFactors[static_cast<std::size_t>(f)]).size() + 1);
            } else if (current < 0) {
                throw SpecError("--dist", kSyntax, text);
            } else {
                specs[static_cast<std::size_t>(current)] += "," + part;
            }
        }
    }
    const std::array<GroupKind, 3> kinds = {GroupKind::Rotation, GroupKind::Translation, GroupKind::Scale};
    std::array<std::shared_ptr<const Distribution>, 3> dists;
    for (std::size_t f = 0; f < 3; ++f)
        if (given[f]) dists[f] = detail::makeSingleDistribution(specs[f], "--dist", kinds[f]);
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
