#pragma once
// The frames of a parameter sweep: `frames` values from `from` to `to` (both included), evenly
// spaced in the value (linear) or in its logarithm (log: v_i = from (to / from)^(i / (frames - 1))),
// played in a loop (0, 1, ..., n-1, 0, ...) or back and forth (0, ..., n-1, n-2, ..., 1, 0, 1, ...).
// Requires validate() to return "" before values are read.
#include <QString>

namespace orbitui {

struct SweepPlan {
    enum class Spacing { Linear, Log };
    enum class Mode { Loop, Bounce };

    double from = 0.0;
    double to = 1.0;
    int frames = 20;
    Spacing spacing = Spacing::Linear;
    Mode mode = Mode::Bounce;
    int intervalMs = 150;  ///< the least time between two frames (a slow frame makes it longer); a GIF shows each frame this long (150 ms for 0)

    /// "" when the plan can be played for a parameter called `label` whose valid values are
    /// [minimum, maximum]; else one line naming the field ("from", "to", "frames", "spacing",
    /// "interval") and the offending value.
    QString validate(const QString& label, double minimum, double maximum) const;

    /// The value of frame i (0 <= i < frames); frame 0 is `from`, frame frames-1 is `to` exactly.
    double value(int i) const;
    /// The step between frames: to - from over frames - 1 (linear) or the factor (to / from)^(1 / (frames - 1)) (log).
    double step() const;
    /// The frame after `i` when playing, with `direction` (+1 or -1, bounce only) updated in place.
    int next(int i, int& direction) const;
    /// Where `v` lies on the frame axis: 0 at `from`, frames-1 at `to`, fractional in between (may
    /// lie outside [0, frames-1] when v is outside the range).
    double position(double v) const;
    /// The frame one step forward (+1) or back (-1) from value `v`: the nearest frame strictly beyond
    /// v in that direction, clamped to [0, frames-1] (a step never leaves the range).
    int stepFrom(double v, int direction) const;
};

} // namespace orbitui
