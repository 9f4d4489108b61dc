#pragma once
// The base kernel a panel offers (the registry's kernels: gaussian, laplacian, matern, polynomial)
// as a session keeps it: the kernel's spec without the median multiple, which stays the panel's own
// control (the Kernels panel's bandwidth, the Training grid's bandwidth list), e.g. "gaussian",
// "matern:nu=2.5", "laplacian:sigma=3" (a fixed bandwidth), "polynomial:degree=2,c=1".
#include <string>

namespace orbitui {

/// The choice of every session that has none: the Gaussian, its bandwidth by the median rule.
inline const char* const kDefaultKernelChoice = "gaussian";

/// The base kernel's spec: `choice` with median=B added when its kernel takes the median rule and
/// the choice fixes no sigma ("laplacian", 2 -> "laplacian:median=2"). Throws SpecError("kernel")
/// for a kernel the registry does not have or a key it does not take.
std::string baseKernelSpec(const std::string& choice, double medianMultiple);
/// The kernel's name: "matern:nu=2.5" -> "matern".
std::string kernelName(const std::string& choice);
/// Whether the choice takes its bandwidth from the median rule (no sigma given, a kernel with one).
bool usesMedianBandwidth(const std::string& choice);
/// Whether the choice is the Gaussian whose bandwidth the Training grid searches over the median
/// multiples (the grid's `median` axis is the Gaussian's; other kernels take one fixed spec).
bool isGridGaussian(const std::string& choice);
/// Throws the registry's SpecError (field "kernel", or "kernel NAME.KEY" for a value) when `choice`
/// is not a kernel it takes, its keys and values checked as baseKernelSpec would send them.
void checkKernelChoice(const std::string& choice);

} // namespace orbitui
