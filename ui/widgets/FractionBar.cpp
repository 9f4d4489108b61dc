#include "widgets/FractionBar.hpp"

#include <algorithm>
#include <cmath>

namespace orbitui {

FractionBar::FractionBar(QWidget* parent) : QProgressBar(parent)
{
    setRange(0, kSteps);
    setValue(0);
}

void FractionBar::setFraction(double fraction)
{
    const double f = std::isnan(fraction) ? 0.0 : std::clamp(fraction, 0.0, 1.0);
    setValue(static_cast<int>(std::lround(kSteps * f)));
}

} // namespace orbitui
