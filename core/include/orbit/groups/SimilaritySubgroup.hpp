#pragma once
#include "orbit/groups/Group.hpp"

namespace orbit {

/// Base of the subgroups of the similarity group of the image plane (rotation, translation, scale
/// and their product): an element acts as p -> c + s R(theta)(p - c) + R(theta) t about the centre
/// c = ((w-1)/2, (h-1)/2), intensities times 1/s, bilinear, zero border, every channel alike.
/// compose() and inverse() use the similarity group's formulas and keep only the subgroup's own
/// parameters (project(): the subgroup's own parameters, fixed by its constructor), so each subgroup
/// is closed by construction; apply() is one warp for all.
/// Requires: Images. Guarantees: unitary up to interpolation and the border; maps that send the pixel
/// grid onto itself (quarter turns of square images, integer shifts, s = 1) are exact index copies.
class SimilaritySubgroup : public Group {
public:
    void checkShape(DataKind kind, const Shape& shape) const final;
    GroupElement identity(const Shape&) const final { return {}; }
    GroupElement inverse(const GroupElement& g) const final;
    GroupElement compose(const GroupElement& a, const GroupElement& b) const final;
    void apply(const GroupElement& g, const float* in, float* out, const Shape& shape) const final;
    void apply(const GroupElement& g, const double* in, double* out, const Shape& shape) const final;
    bool isUnitary() const final { return true; }
    bool isDifferentiable() const final { return true; }
    void applyTangent(const GroupElement& g, const GroupTangent& dg, const float* in, float* out,
                      const Shape& shape) const final;
    void applyTangent(const GroupElement& g, const GroupTangent& dg, const double* in, double* out,
                      const Shape& shape) const final;
    GroupTangent inverseTangent(const GroupElement& g, const GroupTangent& dg) const final;

protected:
    /// A subgroup with the rotation angle, the shift and / or the zoom factor as its parameters.
    SimilaritySubgroup(bool rotates, bool shifts, bool scales) : rotates_(rotates), shifts_(shifts), scales_(scales) {}
    /// g with every parameter outside this subgroup reset to its identity value.
    GroupElement project(const GroupElement& g) const;
    /// dg with every parameter outside this subgroup set to 0 (project()'s derivative).
    GroupTangent projectTangent(const GroupTangent& dg) const;

private:
    /// g (an element or a tangent) with only this subgroup's parameters; the others keep their
    /// defaults (identity, or 0 for a tangent).
    template <class Parameters>
    Parameters keepOwn(const Parameters& g) const
    {
        Parameters r;
        if (rotates_) r.theta = g.theta;
        if (shifts_) {
            r.dx = g.dx;
            r.dy = g.dy;
        }
        if (scales_) r.scale = g.scale;
        return r;
    }

    bool rotates_, shifts_, scales_;
};

} // namespace orbit
