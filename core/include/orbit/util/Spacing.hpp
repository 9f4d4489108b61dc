#pragma once
// The spacing of a sweep, once: `count` values from `from` to `to`, evenly in the value or in its
// logarithm. The evidence curves' LO:HI:N[:log], the Learn locality landscape and the Sweep panel's
// frames all take their values from here.
#include <vector>

namespace orbit {

/// count values from `from` to `to`, both included exactly: v_i = from + (to - from) i / (count - 1)
/// (Linear) or v_i = exp(log from + (log to - log from) i / (count - 1)) (Log). One value: the
/// midpoint (arithmetic or geometric).
/// Requires count >= 1, and from > 0, to > 0 for Log (callers validate and name their own fields).
struct Spacing {
    enum class Scale { Linear, Log };
    double from = 0.0;
    double to = 1.0;
    int count = 2;
    Scale scale = Scale::Linear;

    /// Value i, clamped to [0, count - 1].
    double value(int i) const;
    std::vector<double> values() const;
    /// The step between neighbours: (to - from) / (count - 1) (Linear) or the factor
    /// (to / from)^(1 / (count - 1)) (Log); 0 (Linear) or 1 (Log) for one value.
    double step() const;
    /// Where `v` lies on the index axis: 0 at `from`, count - 1 at `to`, fractional between and
    /// outside [0, count - 1] beyond them (Log: v <= 0 lies at -(count - 1), below every value); 0
    /// for one value.
    double position(double v) const;
};

} // namespace orbit
