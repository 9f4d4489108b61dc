#pragma once
// One numeric parameter as a slider AND a spin box kept in step. The slider may be "log-ish":
// position u in [0, 1] maps to min + (max - min) (1001^u - 1) / 1000, fine near the minimum.
#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace orbitui {

class ParameterControl : public QWidget {
    Q_OBJECT
public:
    ParameterControl(const QString& label, double minimum, double maximum, bool logish, int decimals,
                     const QString& tooltip, QWidget* parent = nullptr);

    double value() const;
    /// Sets the value without emitting valueChanged.
    void setValue(double v);
    QSlider* slider() const { return slider_; }
    QDoubleSpinBox* spinBox() const { return spin_; }

    static constexpr int kSteps = 1000;
    /// Slider position <-> value (public for tests).
    static double toValue(int position, double minimum, double maximum, bool logish);
    static int toPosition(double value, double minimum, double maximum, bool logish);

signals:
    void valueChanged(double value);

private:
    QLabel* label_;
    QSlider* slider_;
    QDoubleSpinBox* spin_;
    double min_, max_;
    bool logish_;
};

} // namespace orbitui
