#pragma once
// A group the core does not know: the test-only library tests/toy registers it, as a plugin would,
// to show that its class and one registration make it known to makeGroup, --help, sample, the
// invariant feature maps, the figures and Python (issue 45 item 3). Link the object library orbit_toy.
#include "orbit/groups/Group.hpp"

namespace orbittest {

/// "flipx": the two-element group {identity, horizontal mirror} acting on images, element k in
/// {0, 1}: (T_1 x)(row, col) = x(row, w - 1 - col), every channel alike. Finite, exact (a pixel
/// permutation), unitary; its Haar measure is each element with probability 1/2.
class FlipXGroup final : public orbit::Group {
public:
    FlipXGroup();
    orbit::GroupKind kind() const override { return kind_; }
    std::string spec() const override;
    void checkShape(orbit::DataKind kind, const orbit::Shape& shape) const override;
    orbit::GroupElement identity(const orbit::Shape&) const override { return {}; }
    orbit::GroupElement inverse(const orbit::GroupElement& g) const override { return g; }
    orbit::GroupElement compose(const orbit::GroupElement& a, const orbit::GroupElement& b) const override;
    void apply(const orbit::GroupElement& g, const float* in, float* out, const orbit::Shape& shape) const override;
    bool isUnitary() const override { return true; }
    bool permutesCoordinates(const orbit::Shape&) const override { return true; }
    bool isFinite() const override { return true; }
    std::vector<orbit::GroupElement> elements(const orbit::Shape& shape, std::size_t limit = 1u << 20) const override;
    std::string describe(const orbit::GroupElement& g) const override { return std::to_string(g.k); }
    orbit::ElementCoordinates coordinates(const orbit::GroupElement& g) const override { return {{double(g.k)}, false, true}; }
    bool hasHaarProbability() const override { return true; }
    orbit::GroupElement sampleHaar(orbit::Rng& rng, const orbit::Shape& shape) const override;
    orbit::ParameterAxis parameterAxis() const override { return {.name = "k", .discrete = true}; }
    double parameterOf(const orbit::GroupElement& g) const override { return g.k; }
    std::string curveUnavailable() const override { return {}; }
    orbit::ElementPath curvePath(const orbit::Shape& shape, int points, const std::pair<double, double>* range) const override;

private:
    orbit::GroupKind kind_;
};

/// Its name in specs, "flipx".
inline constexpr const char* kFlipXName = "flipx";

} // namespace orbittest
