#include "widgets/ParameterControl.hpp"

#include "orbit/util/Spacing.hpp"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace orbitui {

double ParameterControl::toValue(int position, double sliderMinimum, double sliderMaximum, bool logScale)
{
    const double u = std::clamp(position, 0, kSteps) / double(kSteps);
    return orbit::spacedValue(sliderMinimum, sliderMaximum, u, logScale && sliderMinimum > 0 && sliderMaximum > sliderMinimum);
}

int ParameterControl::toPosition(double value, double sliderMinimum, double sliderMaximum, bool logScale)
{
    if (!(sliderMaximum > sliderMinimum))
        return 0;
    const double u = orbit::spacedFraction(sliderMinimum, sliderMaximum, value, logScale && sliderMinimum > 0);
    return static_cast<int>(std::lround(std::clamp(u, 0.0, 1.0) * kSteps));
}

ParameterControl::ParameterControl(const ParameterInfo& info, QWidget* parent)
    : ParameterControl(info.label, info.minimum, info.maximum, info.sliderMinimum, info.sliderMaximum, info.logScale,
                       info.decimals, info.tooltip, parent)
{
}

ParameterControl::ParameterControl(const QString& label, double minimum, double maximum, double sliderMinimum,
                                   double sliderMaximum, bool logScale, int decimals, const QString& tooltip,
                                   QWidget* parent)
    : QWidget(parent), label_(new QLabel(label)), header_(new QHBoxLayout), slider_(new QSlider(Qt::Horizontal)), spin_(new QDoubleSpinBox),
      sliderMin_(sliderMinimum), sliderMax_(sliderMaximum), logScale_(logScale)
{
    slider_->setRange(0, kSteps);
    slider_->setMinimumWidth(120);
    spin_->setRange(minimum, maximum);
    spin_->setDecimals(decimals);
    spin_->setSingleStep(decimals == 0 ? 1.0 : std::pow(10.0, -std::min(decimals, 2)));
    spin_->setKeyboardTracking(false);
    spin_->setMinimumWidth(90);
    for (QWidget* w : {static_cast<QWidget*>(label_), static_cast<QWidget*>(slider_), static_cast<QWidget*>(spin_)})
        w->setToolTip(tooltip);
    setToolTip(tooltip);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(slider_, 1);
    row->addWidget(spin_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    header_->setContentsMargins(0, 0, 0, 0);
    header_->addWidget(label_, 1);
    layout->addLayout(header_);
    layout->addLayout(row);

    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
        const double v = toValue(pos, sliderMin_, sliderMax_, logScale_);
        {
            const QSignalBlocker block(spin_);
            spin_->setValue(v);
        }
        emit valueChanged(spin_->value());
    });
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        {
            const QSignalBlocker block(slider_);
            slider_->setValue(toPosition(v, sliderMin_, sliderMax_, logScale_));
        }
        emit valueChanged(v);
    });
}

QString ParameterControl::label() const { return label_->text(); }
double ParameterControl::minimum() const { return spin_->minimum(); }
double ParameterControl::maximum() const { return spin_->maximum(); }

double ParameterControl::value() const { return spin_->value(); }

void ParameterControl::setValue(double v)
{
    const QSignalBlocker blockSpin(spin_);
    const QSignalBlocker blockSlider(slider_);
    spin_->setValue(v);
    slider_->setValue(toPosition(v, sliderMin_, sliderMax_, logScale_));
}

} // namespace orbitui
