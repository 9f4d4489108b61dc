#include "state/SweepPlan.hpp"

#include "orbit/util/Spacing.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace orbitui {

namespace {

constexpr int kMaxFrames = 1000;
/// Tolerance of position(): a value within it of a frame counts as on the frame.
constexpr double kOnFrame = 1e-6;

QString number(double v) { return QString::number(v, 'g', 8); }

} // namespace

QString SweepPlan::validate(const QString& label, double minimum, double maximum) const
{
    const auto outside = [&](const char* field, double v) -> QString {
        if (!std::isfinite(v))
            return QObject::tr("Sweep of %1: %2 = %3 is not a number").arg(label, field, number(v));
        if (v < minimum)
            return QObject::tr("Sweep of %1: %2 = %3 is below the smallest valid value %4")
                .arg(label, field, number(v), number(minimum));
        if (v > maximum)
            return QObject::tr("Sweep of %1: %2 = %3 is above the largest valid value %4")
                .arg(label, field, number(v), number(maximum));
        return {};
    };
    if (QString e = outside("from", from); !e.isEmpty())
        return e;
    if (QString e = outside("to", to); !e.isEmpty())
        return e;
    if (from == to)
        return QObject::tr("Sweep of %1: from = to = %2, nothing to sweep").arg(label, number(from));
    if (frames < 2 || frames > kMaxFrames)
        return QObject::tr("Sweep of %1: frames = %2 is outside [2, %3]").arg(label).arg(frames).arg(kMaxFrames);
    if (spacing == Spacing::Log && (from <= 0.0 || to <= 0.0))
        return QObject::tr("Sweep of %1: log spacing needs from > 0 and to > 0 (from = %2, to = %3)")
            .arg(label, number(from), number(to));
    if (intervalMs < 0)
        return QObject::tr("Sweep of %1: interval = %2 ms is negative").arg(label).arg(intervalMs);
    return {};
}

double SweepPlan::value(int i) const
{
    i = std::clamp(i, 0, frames - 1);
    if (i == 0)
        return from;
    if (i == frames - 1)
        return to;
    return orbit::spacedValue(from, to, double(i) / double(frames - 1), spacing == Spacing::Log);
}

double SweepPlan::step() const
{
    if (spacing == Spacing::Log)
        return std::pow(to / from, 1.0 / double(frames - 1));
    return (to - from) / double(frames - 1);
}

int SweepPlan::next(int i, int& direction) const
{
    if (mode == Mode::Loop)
        return i + 1 >= frames ? 0 : i + 1;
    if (direction == 0)
        direction = 1;
    if (i + direction < 0 || i + direction >= frames)
        direction = -direction;
    return std::clamp(i + direction, 0, frames - 1);
}

double SweepPlan::position(double v) const
{
    return orbit::spacedFraction(from, to, v, spacing == Spacing::Log) * double(frames - 1);
}

int SweepPlan::stepFrom(double v, int direction) const
{
    const double p = position(v);
    const int i = direction > 0 ? static_cast<int>(std::floor(p + kOnFrame)) + 1
                                : static_cast<int>(std::ceil(p - kOnFrame)) - 1;
    return std::clamp(i, 0, frames - 1);
}

} // namespace orbitui
