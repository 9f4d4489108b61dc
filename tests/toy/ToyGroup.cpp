#include "ToyGroup.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

namespace orbittest {

FlipXGroup::FlipXGroup() : kind_(orbit::registeredGroupKind(kFlipXName)) {}

std::string FlipXGroup::spec() const { return kFlipXName; }

void FlipXGroup::checkShape(orbit::DataKind kind, const orbit::Shape& shape) const
{
    if (kind != orbit::DataKind::Images || shape.dim() < 1)
        throw orbit::SpecError("group", "flipx mirrors images: it needs image data", spec());
}

orbit::GroupElement FlipXGroup::compose(const orbit::GroupElement& a, const orbit::GroupElement& b) const
{
    orbit::GroupElement g;
    g.k = a.k ^ b.k;
    return g;
}

void FlipXGroup::apply(const orbit::GroupElement& g, const float* in, float* out, const orbit::Shape& shape) const
{
    const int w = shape.width, ch = shape.channels;
    for (int y = 0; y < shape.height; ++y)
        for (int x = 0; x < w; ++x) {
            const int from = g.k ? w - 1 - x : x;
            for (int c = 0; c < ch; ++c)
                out[(std::size_t(y) * w + x) * ch + c] = in[(std::size_t(y) * w + from) * ch + c];
        }
}

std::vector<orbit::GroupElement> FlipXGroup::elements(const orbit::Shape&, std::size_t) const
{
    orbit::GroupElement flip;
    flip.k = 1;
    return {orbit::GroupElement{}, flip};
}

orbit::GroupElement FlipXGroup::sampleHaar(orbit::Rng& rng, const orbit::Shape&) const
{
    orbit::GroupElement g;
    g.k = orbit::uniform01(rng) < 0.5 ? 1 : 0;
    return g;
}

orbit::ElementPath FlipXGroup::curvePath(const orbit::Shape& shape, int, const std::pair<double, double>*) const
{
    orbit::ElementPath p;
    p.parameter = "k";
    p.elements = elements(shape);
    p.t = {0.0, 1.0};
    return p;
}

namespace {

orbit::GroupDescriptor flipXDescriptor()
{
    orbit::GroupDescriptor d;
    d.name = kFlipXName;
    d.displayName = "horizontal flip";
    d.doc = "A test-only group: an image and its mirror image (left and right swapped).";
    d.dataKinds = {orbit::DataKind::Images};
    d.haarProbability = true;
    d.make = [](const orbit::Spec&, const orbit::GroupDescriptor&, const orbit::Shape&, std::uint64_t) {
        return std::make_shared<FlipXGroup>();
    };
    return d;
}

} // namespace

// The one registration: at static initialisation, before main.
const orbit::GroupRegistration flipXRegistration{flipXDescriptor()};

} // namespace orbittest
