#pragma once
// The progress bar of a long task: the workers report the fraction done (0..1); the bar shows it
// in kSteps steps, so it moves smoothly and "%p%" reads as a whole percent.
#include <QProgressBar>

namespace orbitui {

class FractionBar : public QProgressBar {
    Q_OBJECT
public:
    static constexpr int kSteps = 1000;

    /// A bar at 0 of kSteps.
    explicit FractionBar(QWidget* parent = nullptr);

    /// Shows `fraction` clamped to [0, 1] as round(kSteps fraction) (NaN: 0).
    void setFraction(double fraction);
    /// The fraction shown.
    double fraction() const { return static_cast<double>(value()) / kSteps; }
};

} // namespace orbitui
