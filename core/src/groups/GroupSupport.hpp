#pragma once
// Pieces shared by the group implementations (private to core/src/groups).
#include "orbit/groups/Group.hpp"
#include "orbit/util/Spec.hpp"  // formatNumber, for the describe() texts

#include <string>

namespace orbit::detail {

/// The spec number format, orbit::formatNumber (util/Spec.hpp), under the name core code used
/// before it moved there.
inline std::string formatNumber(double v) { return orbit::formatNumber(v); }

/// The angle t mapped to (-pi, pi].
double wrapAngle(double t);

/// Throws SpecError("group", ...) unless the samples are images of at least 1 x 1 pixels.
void requireImages(const Group& group, DataKind kind, const Shape& shape);

/// The action of the similarity p -> c + s R(theta) (p - c) + R(theta) t on an image, c the centre
/// ((w-1)/2, (h-1)/2), R(theta) a counter-clockwise turn on screen (x right, y down):
///   (T_g x)(p) = (1/s) x(c + (1/s) R(-theta)(p - c) - t/s),
/// bilinear, zero outside the image, every channel of an HWC image alike. Maps that send the pixel
/// grid onto itself (quarter turns of square images, integer shifts, s = 1) are exact index copies.
void warpSimilarity(const GroupElement& g, const float* in, float* out, const Shape& shape);
/// The same in double precision.
void warpSimilarity(const GroupElement& g, const double* in, double* out, const Shape& shape);

/// d/de warpSimilarity(g + e dg, in) at e = 0 (the bilinear interpolation's own derivative with
/// respect to the sampling position, and of the 1/s gain); zero where the sample falls outside.
void warpSimilarityTangent(const GroupElement& g, const GroupTangent& dg, const float* in, float* out, const Shape& shape);
void warpSimilarityTangent(const GroupElement& g, const GroupTangent& dg, const double* in, double* out, const Shape& shape);

/// d/de inverseSimilarity(g + e dg) at e = 0.
GroupTangent inverseSimilarityTangent(const GroupElement& g, const GroupTangent& dg);

/// a * b for elements of the similarity group (affine elements, scale applied first).
GroupElement composeSimilarity(const GroupElement& a, const GroupElement& b);
GroupElement inverseSimilarity(const GroupElement& g);

} // namespace orbit::detail
