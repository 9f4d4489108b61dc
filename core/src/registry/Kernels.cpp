// The registry's table of base kernels: the built-in ones (kernels/RegisteredKernels.cpp) and those
// registered after them (registerKernel).
#include "orbit/registry/Registry.hpp"

#include "orbit/util/Error.hpp"
#include "registry/Builders.hpp"

namespace orbit {

using namespace registry;

namespace {

/// The one table: built on first use (static initialisation may reach it first), then appended to.
std::vector<KernelDescriptor>& kernelTable()
{
    static std::vector<KernelDescriptor> all = builtinKernels();
    return all;
}

} // namespace

void registerKernel(KernelDescriptor descriptor)
{
    if (descriptor.name.empty() || !descriptor.make)
        throw ContractError("registerKernel", "a kernel needs a name and a factory: " + descriptor.name);
    std::vector<KernelDescriptor>& all = kernelTable();
    if (findIn(all, descriptor.name))
        throw ContractError("registerKernel", "the kernel " + descriptor.name + " is already registered");
    all.push_back(std::move(descriptor));
}

const std::vector<KernelDescriptor>& kernelDescriptors() { return kernelTable(); }

const KernelDescriptor* findKernel(const std::string& name) { return findIn(kernelDescriptors(), name); }

} // namespace orbit
