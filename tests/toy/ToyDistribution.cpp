#include "ToyDistribution.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

namespace orbittest {

ToyShift::ToyShift(double d) : d_(d)
{
    orbit::requireDistributionParameter(kToyShiftName, orbit::GroupKind::Translation, "d", d);
}

std::string ToyShift::spec() const { return orbit::formatSpec(kToyShiftName, {{"d", d_}}); }

orbit::GroupElement ToyShift::sample(orbit::Rng& rng, const orbit::Group& group, const orbit::Shape& shape,
                                     const float*) const
{
    orbit::GroupElement g = group.identity(shape);
    g.dx = orbit::uniform01(rng) < 0.5 ? -d_ : d_;
    return g;
}

namespace {

orbit::DistributionDescriptor toyShiftDescriptor()
{
    orbit::DistributionDescriptor d;
    d.name = kToyShiftName;
    d.displayName = "toy shift";
    d.doc = "A test-only distribution: shifts of plus or minus d pixels along x.";
    d.groups = {orbit::GroupKind::Translation};
    d.parameters = {{.key = "d", .label = "d (shift, px)", .unit = "px", .minimum = 0.0, .maximum = 100.0,
                     .defaultValue = 1.0, .learnMinimum = 0.1, .learnMaximum = 10.0, .logScale = true,
                     .doc = "How far each copy is shifted along x, in pixels."}};
    d.make = [](const orbit::DistributionArguments& a) { return std::make_shared<ToyShift>(a.number("d")); };
    return d;
}

} // namespace

// The one registration: at static initialisation, before main.
const orbit::DistributionRegistration toyShiftRegistration{toyShiftDescriptor()};

} // namespace orbittest
