#include "widgets/RegistryControls.hpp"

#include "render/ParameterLabels.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace orbitui {

void configureCount(QSpinBox* box, const orbit::ParamDescriptor& p)
{
    box->setObjectName(QString::fromStdString(p.key));
    box->setRange(static_cast<int>(p.minimum), static_cast<int>(p.learnMaximum));
    box->setValue(static_cast<int>(p.defaultValue));
    box->setToolTip(QString::fromStdString(p.doc));
}

void configureReal(QDoubleSpinBox* box, const orbit::ParamDescriptor& p)
{
    const ParameterInfo info = parameterInfo(p);
    box->setObjectName(QString::fromStdString(p.key));
    box->setDecimals(info.decimals);
    box->setRange(info.minimum, info.maximum);
    box->setValue(p.defaultValue);
    box->setToolTip(QString::fromStdString(p.doc));
}

void configureChoice(QComboBox* box, const orbit::ParamDescriptor& setting,
                     const std::vector<const orbit::SpecDescriptor*>& choices)
{
    box->setObjectName(QString::fromStdString(setting.key));
    for (const orbit::SpecDescriptor* d : choices) {
        box->addItem(QString::fromStdString(d->displayName), QString::fromStdString(d->name));
        box->setItemData(box->count() - 1, QString::fromStdString(d->doc), Qt::ToolTipRole);
    }
    box->setCurrentIndex(std::max(0, box->findData(QString::fromStdString(setting.defaultText))));
    box->setToolTip(QString::fromStdString(setting.doc));
}

} // namespace orbitui
