#include "widgets/FieldHighlight.hpp"

#include "render/SafeText.hpp"
#include "widgets/ParameterControl.hpp"

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollArea>
#include <QSpinBox>
#include <QPointer>
#include <QTextDocument>

#include <algorithm>

namespace orbitui {

namespace {

/// The rule that draws the frame; added to the control's own style sheet while it is marked.
const QString kFrameRule = QStringLiteral("*[fieldError=\"true\"] { border: 2px solid #b3261e; border-radius: 3px; }");

/// `field` without its last " part" or ".part", or empty when nothing is left to cut.
QString parentField(const QString& field)
{
    const qsizetype cut = std::max(field.lastIndexOf(' '), field.lastIndexOf('.'));
    return cut > 0 ? field.left(cut) : QString();
}

} // namespace

FieldHighlight::FieldHighlight(QObject* parent) : QObject(parent) {}

void FieldHighlight::add(const QString& field, QWidget* control)
{
    QPointer<QWidget> guarded(control);
    fields_.insert(field, [guarded](const QString&) { return guarded.data(); });
}

void FieldHighlight::add(const QString& field, std::function<QWidget*(const QString& field)> resolve)
{
    fields_.insert(field, std::move(resolve));
}

QWidget* FieldHighlight::controlFor(const QString& field) const
{
    for (QString f = field.trimmed(); !f.isEmpty(); f = parentField(f)) {
        const auto it = fields_.constFind(f);
        if (it != fields_.constEnd())
            if (QWidget* w = (*it)(field))
                return w;
    }
    return nullptr;
}

QWidget* FieldHighlight::mark(const QString& field, const QString& message, bool focus)
{
    QWidget* control = controlFor(field);
    if (!control)
        return nullptr;
    if (!marked_.contains(control))
        marked_.insert(control, Saved{control->toolTip(), control->styleSheet()});
    const Saved& saved = marked_[control];
    control->setProperty(kProperty, true);
    // A sheet of bare declarations ("color: #555;") is a rule for the widget itself; beside another
    // rule it needs its braces, or Qt cannot parse the whole sheet and drops both.
    const QString own = saved.styleSheet.contains('{') ? saved.styleSheet : "* { " + saved.styleSheet + " }";
    control->setStyleSheet(saved.styleSheet.isEmpty() ? kFrameRule : own + "\n" + kFrameRule);
    // The message quotes values from the user or from files: shown as plain text, never as markup.
    control->setToolTip(Qt::convertFromPlainText(safeText(message), Qt::WhiteSpaceNormal));
    watch(control);
    for (QWidget* p = control->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p))
            area->ensureWidgetVisible(control);
    if (focus)
        control->setFocus(Qt::OtherFocusReason);
    return control;
}

void FieldHighlight::clear()
{
    const QList<QWidget*> controls = marked_.keys();
    for (QWidget* control : controls)
        clear(control);
}

void FieldHighlight::clear(QWidget* control)
{
    const auto it = marked_.find(control);
    if (it == marked_.end())
        return;
    control->setProperty(kProperty, false);
    control->setStyleSheet(it->styleSheet);
    control->setToolTip(it->toolTip);
    marked_.erase(it);
}

bool FieldHighlight::isMarked(const QWidget* control) { return control && control->property(kProperty).toBool(); }

void FieldHighlight::watch(QWidget* control)
{
    if (watched_.contains(control))
        return;
    watched_.insert(control);
    connect(control, &QObject::destroyed, this, [this, control] {
        marked_.remove(control);
        watched_.remove(control);
    });
    const auto unmark = [this, control] { clear(control); };
    if (auto* edit = qobject_cast<QLineEdit*>(control))
        connect(edit, &QLineEdit::textChanged, this, unmark);
    else if (auto* spin = qobject_cast<QSpinBox*>(control))
        connect(spin, &QSpinBox::valueChanged, this, unmark);
    else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(control))
        connect(dspin, &QDoubleSpinBox::valueChanged, this, unmark);
    else if (auto* combo = qobject_cast<QComboBox*>(control))
        connect(combo, &QComboBox::currentIndexChanged, this, unmark);
    else if (auto* button = qobject_cast<QAbstractButton*>(control))
        connect(button, &QAbstractButton::toggled, this, unmark);
    else if (auto* list = qobject_cast<QListWidget*>(control))
        connect(list, &QListWidget::itemChanged, this, unmark);
    else if (auto* parameter = qobject_cast<ParameterControl*>(control))
        connect(parameter, &ParameterControl::valueChanged, this, unmark);
}

} // namespace orbitui
