#pragma once
// One numeric parameter as a slider AND a spin box kept in step. The spin box accepts the whole
// valid range; the slider spans the typical range, linearly or in log space: position u in [0, 1]
// maps to lo (hi / lo)^u. Values outside the slider's span put it at its end.
#include <QWidget>

#include "render/ParameterLabels.hpp"

class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QSlider;

namespace orbitui {

class ParameterControl : public QWidget {
    Q_OBJECT
public:
    ParameterControl(const QString& label, double minimum, double maximum, double sliderMinimum,
                     double sliderMaximum, bool logScale, int decimals, const QString& tooltip,
                     QWidget* parent = nullptr);
    /// A registry parameter (parameterInfo): its label, ranges, scale, decimals and tooltip.
    explicit ParameterControl(const ParameterInfo& info, QWidget* parent = nullptr);

    double value() const;
    /// Sets the value without emitting valueChanged.
    void setValue(double v);
    QSlider* slider() const { return slider_; }
    QDoubleSpinBox* spinBox() const { return spin_; }
    /// The label's row: accessories (e.g. a SweepControl's buttons) go on its right.
    QHBoxLayout* header() const { return header_; }
    QString label() const;
    /// The spin box's whole valid range and the slider's span.
    double minimum() const;
    double maximum() const;
    double sliderMinimum() const { return sliderMin_; }
    double sliderMaximum() const { return sliderMax_; }
    bool logScale() const { return logScale_; }

    static constexpr int kSteps = 1000;
    /// Slider position <-> value over the slider's span (public for tests).
    static double toValue(int position, double sliderMinimum, double sliderMaximum, bool logScale);
    static int toPosition(double value, double sliderMinimum, double sliderMaximum, bool logScale);

signals:
    void valueChanged(double value);

private:
    QLabel* label_;
    QHBoxLayout* header_;
    QSlider* slider_;
    QDoubleSpinBox* spin_;
    double sliderMin_, sliderMax_;
    bool logScale_;
};

} // namespace orbitui
