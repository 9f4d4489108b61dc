#include "widgets/KernelEditor.hpp"

#include "render/ParameterLabels.hpp"
#include "widgets/RegistryControls.hpp"

#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace orbitui {

namespace {

/// The bandwidth alternative of a kernel (gaussian's sigma | median), or null.
const orbit::KeyAlternatives* bandwidthAlternative(const orbit::KernelDescriptor& d)
{
    for (const orbit::KeyAlternatives& a : d.alternatives)
        if (std::find(a.keys.begin(), a.keys.end(), "median") != a.keys.end())
            return &a;
    return nullptr;
}

/// A caption: the parameter's symbol ("σ", "ν"), its doc as the tooltip.
QLabel* symbolCaption(const orbit::ParamDescriptor& p)
{
    auto* label = new QLabel(symbolOf(p));
    label->setToolTip(QString::fromStdString(p.doc));
    return label;
}

} // namespace

KernelEditor::KernelEditor(QWidget* parent) : QWidget(parent), kernel_(new QComboBox), params_(new QHBoxLayout)
{
    kernel_->setObjectName("kernel");
    kernel_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const orbit::KernelDescriptor& d : orbit::kernelDescriptors()) {
        kernel_->addItem(QString::fromStdString(d.displayName), QString::fromStdString(d.name));
        kernel_->setItemData(kernel_->count() - 1, QString::fromStdString(d.doc), Qt::ToolTipRole);
    }
    kernel_->setToolTip(tr("The base kernel k(x, y) the invariant kernel averages over the orbits (the registry's "
                           "kernels; the Laplacian is the L1 kernel of the molecule papers)."));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(kernel_);
    params_->setContentsMargins(0, 0, 0, 0);
    params_->setSpacing(4);
    layout->addLayout(params_);
    connect(kernel_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (const orbit::KernelDescriptor* d = orbit::findKernel(kernel_->itemData(i).toString().toStdString()))
            build(*d);
        emit changed();
    });
    build(orbit::kernelDescriptors().front());
}

void KernelEditor::build(const orbit::KernelDescriptor& d)
{
    while (QLayoutItem* item = params_->takeAt(0)) {
        if (QWidget* w = item->widget()) {
            w->hide();
            w->deleteLater();  // a box of it may be the sender of the change that rebuilds
        }
        delete item;
    }
    controls_.clear();
    rule_ = nullptr;
    const orbit::KeyAlternatives* bandwidth = bandwidthAlternative(d);
    if (bandwidth) {
        rule_ = new QComboBox;
        rule_->setObjectName("bandwidthRule");
        for (const std::string& key : bandwidth->keys)
            if (const orbit::ParamDescriptor* p = d.parameter(key)) {
                rule_->addItem(key == "median" ? tr("median rule") : tr("fixed σ"), QString::fromStdString(key));
                rule_->setItemData(rule_->count() - 1, QString::fromStdString(p->doc), Qt::ToolTipRole);
            }
        rule_->setCurrentIndex(std::max(0, rule_->findData(QStringLiteral("median"))));
        rule_->setToolTip(tr("The bandwidth: a multiple of the median distance of the data (set beside it), or a fixed σ."));
        params_->addWidget(rule_);
        connect(rule_, &QComboBox::currentIndexChanged, this, [this] {
            updateRule();
            emit changed();
        });
    }
    for (const orbit::ParamDescriptor& p : d.parameters) {
        if (p.key == "median")
            continue;  // the host's multiple
        const QString key = QString::fromStdString(p.key);
        QWidget* control = nullptr;
        if (p.type == orbit::ParamType::Choice) {
            auto* box = new QComboBox;
            for (const std::string& word : p.choices)
                box->addItem(QString::fromStdString(word), QString::fromStdString(word));
            box->setCurrentIndex(std::max(0, box->findData(QString::fromStdString(p.defaultText))));
            box->setToolTip(QString::fromStdString(p.doc));
            connect(box, &QComboBox::currentIndexChanged, this, &KernelEditor::changed);
            control = box;
        } else if (p.type == orbit::ParamType::Integer) {
            auto* box = new QSpinBox;
            configureCount(box, p);
            box->setMaximum(static_cast<int>(p.maximum));
            connect(box, &QSpinBox::valueChanged, this, &KernelEditor::changed);
            control = box;
        } else {
            auto* box = new QDoubleSpinBox;
            configureReal(box, p);
            box->setMaximumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("0000.000")) + 40);  // not the range's width
            connect(box, &QDoubleSpinBox::valueChanged, this, &KernelEditor::changed);
            control = box;
        }
        control->setObjectName(key);
        auto* cell = new QWidget;
        auto* cellLayout = new QHBoxLayout(cell);
        cellLayout->setContentsMargins(0, 0, 0, 0);
        cellLayout->setSpacing(2);
        cellLayout->addWidget(symbolCaption(p));
        cellLayout->addWidget(control);
        params_->addWidget(cell);
        controls_[key] = control;
    }
    updateRule();
}

void KernelEditor::updateRule()
{
    // σ is shown only when it is the rule: the median multiple is the host's.
    if (const auto it = controls_.find(QStringLiteral("sigma")); it != controls_.end())
        it->second->parentWidget()->setVisible(!usesMedian());
}

bool KernelEditor::usesMedian() const { return rule_ && rule_->currentData().toString() == "median"; }

QWidget* KernelEditor::control(const QString& key) const
{
    const auto it = controls_.find(key);
    return it == controls_.end() ? nullptr : it->second;
}

QString KernelEditor::choice() const
{
    std::string text = kernel_->currentData().toString().toStdString();
    const orbit::KernelDescriptor* d = orbit::findKernel(text);
    if (!d)
        return QString::fromStdString(text);
    char sep = ':';
    for (const orbit::ParamDescriptor& p : d->parameters) {
        const auto it = controls_.find(QString::fromStdString(p.key));
        if (it == controls_.end() || (p.key == "sigma" && usesMedian()))
            continue;
        std::string value;
        if (auto* box = qobject_cast<QComboBox*>(it->second))
            value = box->currentData().toString().toStdString();
        else if (auto* spin = qobject_cast<QSpinBox*>(it->second))
            value = std::to_string(spin->value());
        else if (auto* real = qobject_cast<QDoubleSpinBox*>(it->second))
            value = orbit::formatNumber(real->value());
        text += sep + p.key + "=" + value;
        sep = ',';
    }
    return QString::fromStdString(text);
}

void KernelEditor::setChoice(const QString& choice)
{
    orbit::Spec spec;
    try {
        spec = orbit::parseSpec(choice.toStdString(), "kernel");
    } catch (const orbit::SpecError&) {
        return;
    }
    const orbit::KernelDescriptor* d = orbit::findKernel(spec.name);
    if (!d)
        d = &orbit::kernelDescriptors().front();
    const QSignalBlocker block(this);
    {
        const QSignalBlocker blockKernel(kernel_);
        kernel_->setCurrentIndex(std::max(0, kernel_->findData(QString::fromStdString(d->name))));
    }
    build(*d);  // its defaults, then the choice's values
    if (rule_) {
        const QSignalBlocker b(rule_);
        rule_->setCurrentIndex(std::max(0, rule_->findData(spec.has("sigma") ? QStringLiteral("sigma") : QStringLiteral("median"))));
    }
    for (const auto& [key, value] : spec.params) {
        QWidget* w = control(QString::fromStdString(key));
        if (auto* box = qobject_cast<QComboBox*>(w)) {
            const QSignalBlocker b(box);
            box->setCurrentIndex(std::max(0, box->findData(QString::fromStdString(value))));
        } else if (auto* spin = qobject_cast<QSpinBox*>(w)) {
            const QSignalBlocker b(spin);
            spin->setValue(static_cast<int>(orbit::parseInteger(value).value_or(spin->value())));
        } else if (auto* real = qobject_cast<QDoubleSpinBox*>(w)) {
            const QSignalBlocker b(real);
            real->setValue(orbit::parseDouble(value).value_or(real->value()));
        }
    }
    updateRule();
}

} // namespace orbitui
