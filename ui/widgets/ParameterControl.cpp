#include "widgets/ParameterControl.hpp"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace orbitui {

double ParameterControl::toValue(int position, double minimum, double maximum, bool logish)
{
    const double u = std::clamp(position, 0, kSteps) / double(kSteps);
    const double f = logish ? (std::pow(1001.0, u) - 1.0) / 1000.0 : u;
    return minimum + (maximum - minimum) * f;
}

int ParameterControl::toPosition(double value, double minimum, double maximum, bool logish)
{
    if (!(maximum > minimum))
        return 0;
    const double f = std::clamp((value - minimum) / (maximum - minimum), 0.0, 1.0);
    const double u = logish ? std::log1p(1000.0 * f) / std::log(1001.0) : f;
    return static_cast<int>(std::lround(u * kSteps));
}

ParameterControl::ParameterControl(const QString& label, double minimum, double maximum, bool logish, int decimals,
                                   const QString& tooltip, QWidget* parent)
    : QWidget(parent), label_(new QLabel(label)), slider_(new QSlider(Qt::Horizontal)), spin_(new QDoubleSpinBox),
      min_(minimum), max_(maximum), logish_(logish)
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
    layout->addWidget(label_);
    layout->addLayout(row);

    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
        const double v = toValue(pos, min_, max_, logish_);
        {
            const QSignalBlocker block(spin_);
            spin_->setValue(v);
        }
        emit valueChanged(spin_->value());
    });
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        {
            const QSignalBlocker block(slider_);
            slider_->setValue(toPosition(v, min_, max_, logish_));
        }
        emit valueChanged(v);
    });
}

double ParameterControl::value() const { return spin_->value(); }

void ParameterControl::setValue(double v)
{
    const QSignalBlocker blockSpin(spin_);
    const QSignalBlocker blockSlider(slider_);
    spin_->setValue(v);
    slider_->setValue(toPosition(v, min_, max_, logish_));
}

} // namespace orbitui
