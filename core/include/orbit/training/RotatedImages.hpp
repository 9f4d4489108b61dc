#pragma once
// "Rotated digits" / "rotated Fashion": the benchmark datasets of LGIKA Table 2, made from an image set.
#include "orbit/data/Dataset.hpp"

#include <cstdint>
#include <string>

namespace orbit {

/// Every image zero-padded (centred) to pad x pad pixels and rotated about the centre
/// ((pad - 1) / 2, (pad - 1) / 2) by an angle theta_i uniform in [0, 2 pi) (maxAngle = 0), or in
/// [-maxAngle, maxAngle] (0 < maxAngle <= pi: partially rotated data, van der Wilk et al. 5.1),
/// drawn from makeRng(seed, i) (one stream per sample, so a subset keeps its angles), with
/// bilinear interpolation and zero outside the image.
///
/// Requires kind == Images, pad >= max(height, width), pad <= 4096. Guarantees: same count,
/// labels, targets, class names, folds; shape pad x pad x channels; values in [0, 1]; the same seed
/// gives the same bits. Throws SpecError("pad" / "rotate" / "rotate-max") otherwise.
Dataset rotatedImages(const Dataset& images, int pad, std::uint64_t seed, double maxAngle = 0.0);

/// Every image zero-padded (centred) to pad x pad pixels and moved by its own element g_i of `group`
/// drawn from `dist` (its own stream: makeRng(seed, i)), with the group's bilinear warp, values
/// clamped to [0, 1]: data with a known distribution of transformations (e.g. affine, to check that
/// learning the locality recovers it). Requires images; group a similarity group (rotation,
/// translation, scale, affine) and dist one of its distributions independent of the input. Throws
/// SpecError("transform-group" / "transform-distribution" / "pad").
Dataset transformedImages(const Dataset& images, int pad, const std::string& group, const std::string& dist,
                          std::uint64_t seed);

/// The angle (radians) rotatedImages gives to sample i.
double rotationAngle(std::uint64_t seed, std::size_t i, double maxAngle = 0.0);

} // namespace orbit
