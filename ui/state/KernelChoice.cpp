#include "state/KernelChoice.hpp"

#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

namespace orbitui {

namespace {

/// The registry's descriptor of the choice's kernel; SpecError(field) for an unknown one.
const orbit::KernelDescriptor& kernelOf(const orbit::Spec& spec, const std::string& field)
{
    const orbit::KernelDescriptor* d = orbit::findKernel(spec.name);
    if (!d)
        throw orbit::SpecError(field, "unknown kernel (expected " + orbit::synopsisList(orbit::kernelDescriptors()) + ")",
                               spec.name);
    return *d;
}

} // namespace

std::string kernelName(const std::string& choice) { return orbit::parseSpec(choice, "kernel").name; }

bool usesMedianBandwidth(const std::string& choice)
{
    const orbit::Spec spec = orbit::parseSpec(choice, "kernel");
    const orbit::KernelDescriptor* d = orbit::findKernel(spec.name);
    return d && d->parameter("median") && !spec.has("sigma");
}

bool isGridGaussian(const std::string& choice)
{
    // Asked of the kernel itself, not its name; an unknown name is not the grid's Gaussian.
    return orbit::findKernel(kernelName(choice)) && usesMedianBandwidth(choice) &&
           orbit::kernelFamily(choice).kind() == orbit::BaseKernel::Kind::Gaussian;
}

std::string baseKernelSpec(const std::string& choice, double medianMultiple)
{
    orbit::Spec spec = orbit::parseSpec(choice, "kernel");
    const orbit::KernelDescriptor& d = kernelOf(spec, "kernel");
    if (d.parameter("median") && !spec.has("sigma") && !spec.has("median"))
        spec.params["median"] = orbit::formatNumber(medianMultiple);
    // formatSpec writes the keys in the map's order; the registry's spec order reads better.
    std::string text = spec.name;
    char sep = ':';
    for (const orbit::ParamDescriptor& p : d.parameters)
        if (const auto it = spec.params.find(p.key); it != spec.params.end()) {
            text += sep + p.key + "=" + it->second;
            sep = ',';
        }
    for (const auto& [key, value] : spec.params)
        if (!d.parameter(key)) {  // checkSpecKeys names it
            text += sep + key + "=" + value;
            sep = ',';
        }
    return text;
}

void checkKernelChoice(const std::string& choice)
{
    const orbit::Spec spec = orbit::parseSpec(baseKernelSpec(choice, 1.0), "kernel");
    const orbit::KernelDescriptor& d = kernelOf(spec, "kernel");
    orbit::checkSpecKeys(spec, d);
    for (const orbit::ParamDescriptor& p : d.parameters)
        if (spec.has(p.key) && p.type == orbit::ParamType::Integer)
            orbit::readInteger(spec, p);
        else if (spec.has(p.key) && p.type == orbit::ParamType::Real)
            orbit::readReal(spec, p);
}

} // namespace orbitui
