#include "window/group/DistributionEditor.hpp"

#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"
#include "state/SweepPacer.hpp"
#include "widgets/FieldHighlight.hpp"
#include "widgets/ParameterControl.hpp"
#include "window/sweep/SweepControl.hpp"
#include "window/sweep/SweepExportDialog.hpp"

#include "orbit/registry/Registry.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QShowEvent>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>


namespace orbitui {

namespace {

QString factorTitle(const std::string& group, const std::string& factor)
{
    const orbit::GroupDescriptor* g = orbit::findGroup(group);
    if (!g || !g->isProduct())
        return QObject::tr("Distribution over the group");
    return QObject::tr("%1 factor").arg(groupDisplayName(factor));
}

} // namespace

DistributionEditor::DistributionEditor(LabState* state, bool compact, QWidget* parent)
    : QWidget(parent), state_(state), compact_(compact), group_(new QComboBox), groupDescription_(new QLabel),
      factorsHost_(new QWidget),
      factorsLayout_(new QVBoxLayout(factorsHost_)),
      r_(new ParameterControl(tr("r (copies)"), 1, 1000, 1, 1000, true, 0,
                              tr("r is the number of group elements drawn per input: the orbit gallery shows r "
                                 "copies, and invariant features average over r transformed copies."))),
      seed_(new QLineEdit)
{
    r_->setObjectName("r");
    {
        SweepPlan rPlan;  // r doubling: 1, 2, 4, ..., 64
        rPlan.from = 1;
        rPlan.to = 64;
        rPlan.frames = 7;
        rPlan.spacing = SweepPlan::Spacing::Log;
        attachSweep(r_)->setPlan(rPlan);
    }
    group_->setToolTip(tr("The transformation group G whose elements act on the input."));
    groupDescription_->setWordWrap(true);
    groupDescription_->setVisible(!compact);
    groupDescription_->setStyleSheet("color: #444;");
    // The groups' integer parameters: their labels, ranges and docs are the registry's.
    for (const auto& [group, param] : groupEditorParameters()) {
        const orbit::ParamDescriptor& p = *param;
        auto* box = new QSpinBox;
        groupParameters_.push_back({group, p.key, box});
        box->setObjectName(QString::fromStdString(group + "." + p.key));
        box->setRange(static_cast<int>(p.minimum), static_cast<int>(p.maximum));
        box->setToolTip(QStringLiteral("%1: %2 (%3)")
                            .arg(QString::fromStdString(p.key), QString::fromStdString(p.doc),
                                 QString::fromStdString(p.rangeText())));
    }
    seed_->setValidator(new QRegularExpressionValidator(QRegularExpression("[0-9]{1,19}"), seed_));
    seed_->setToolTip(tr("The seed of every random draw: the same seed gives the same orbit, bit for bit."));
    factorsLayout_->setContentsMargins(0, 0, 0, 0);

    auto* groupBox = new QGroupBox(tr("Group"));
    auto* groupForm = new QFormLayout(groupBox);
    groupForm->addRow(tr("Group"), group_);
    groupForm->addRow(groupDescription_);
    for (const auto& [group, key, box] : groupParameters_) {
        const orbit::ParamDescriptor& p = *orbit::findGroup(group)->parameter(key);
        groupForm->addRow(QString::fromStdString(p.label.empty() ? p.key : p.label), box);
    }

    auto* sampling = new QGroupBox(tr("Sampling"));
    auto* samplingForm = new QFormLayout(sampling);
    samplingForm->addRow(r_);
    samplingForm->addRow(tr("Seed"), seed_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(groupBox);
    layout->addWidget(factorsHost_);
    layout->addWidget(sampling);
    layout->addStretch();

    connect(group_, &QComboBox::currentIndexChanged, this, [this] {
        const std::string g = group_->currentData().toString().toStdString();
        if (g.empty())
            return;
        edit([&](OrbitSettings& s) {
            if (s.group == g)
                return;
            s.group = g;
            if (!s.isProduct()) {  // pick a distribution the new group accepts
                const auto valid = validDistributions(s.groupSpec());
                if (!valid.empty() && std::find(valid.begin(), valid.end(), s.dist.name) == valid.end())
                    s.dist.choose(valid.front(), s.factorKind(g));
            }
        });
    });
    for (const auto& [group, key, box] : groupParameters_)
        connect(box, &QSpinBox::valueChanged, this,
                [this, name = group + "." + key](int v) { edit([&](OrbitSettings& s) { s.groupValues[name] = v; }); });
    connect(r_, &ParameterControl::valueChanged, this,
            [this](double r) { edit([r](OrbitSettings& s) { s.r = static_cast<int>(std::lround(r)); }); });
    connect(seed_, &QLineEdit::editingFinished, this, [this] {
        bool ok = false;
        const quint64 seed = seed_->text().toULongLong(&ok);
        if (ok)
            edit([seed](OrbitSettings& s) { s.seed = seed; });
    });
    connect(state_, &LabState::orbitSettingsChanged, this, &DistributionEditor::refreshValues);
    // refreshValues rebuilds when the dataset changed what the group box offers (its kind, its shape).
    connect(state_, &LabState::datasetChanged, this, &DistributionEditor::refreshValues);
    rebuild();
}

void DistributionEditor::showEvent(QShowEvent* event)
{
    ensureBuilt();  // before it paints: a structure change that came while it was hidden
    QWidget::showEvent(event);
}

void DistributionEditor::ensureBuilt()
{
    if (structureKey() != builtKey_)
        rebuild();
}

void DistributionEditor::edit(const std::function<void(OrbitSettings&)>& change)
{
    OrbitSettings s = state_->orbitSettings();
    change(s);
    state_->setOrbitSettings(s);
}

QString DistributionEditor::structureKey() const
{
    const OrbitSettings& s = state_->orbitSettings();
    QString key = QString::fromStdString(s.group);
    for (const auto& f : s.factors())
        key += "|" + QString::fromStdString(s.factor(f).name);
    if (auto ds = state_->dataset())
        key += QStringLiteral("|%1:%2x%3x%4").arg(int(ds->kind)).arg(ds->shape.height).arg(ds->shape.width).arg(ds->shape.channels);
    return key;
}

void DistributionEditor::rebuild()
{
    const OrbitSettings& s = state_->orbitSettings();
    {
        const QSignalBlocker block(group_);
        group_->clear();
        std::vector<std::string> groups;
        if (auto ds = state_->dataset())
            groups = validGroups(ds->kind, ds->shape);
        else
            groups = {s.group};
        if (std::find(groups.begin(), groups.end(), s.group) == groups.end())
            groups.insert(groups.begin(), s.group);
        for (const auto& g : groups) {
            group_->addItem(groupDisplayName(g), QString::fromStdString(g));
            group_->setItemData(group_->count() - 1, describeGroup(g), Qt::ToolTipRole);
        }
        group_->setCurrentIndex(group_->findData(QString::fromStdString(s.group)));
    }
    groupDescription_->setText(describeGroup(s.group));
    for (const auto& [group, key, box] : groupParameters_) {
        box->setVisible(s.group == group);
        if (auto* form = qobject_cast<QFormLayout*>(box->parentWidget()->layout()))
            form->setRowVisible(box, s.group == group);
    }

    // Factor boxes: one per factor of the group.
    for (auto& f : factors_) {  // deleteLater: a combo of the old box may be the signal's sender
        QWidget* box = f.dist->parentWidget();
        box->hide();
        factorsLayout_->removeWidget(box);
        box->deleteLater();
    }
    factors_.clear();
    for (const std::string& factor : s.factors()) {
        FactorControls fc;
        fc.factor = QString::fromStdString(factor);
        auto* box = new QGroupBox(factorTitle(s.group, factor));
        auto* layout = new QVBoxLayout(box);
        fc.dist = new QComboBox;
        fc.dist->setToolTip(tr("The distribution q over the group: how local the invariance is."));
        const std::string groupSpec = s.isProduct() ? factor : s.groupSpec();
        std::vector<std::string> names = validDistributions(groupSpec);
        const std::string current = s.factor(factor).name;
        if (std::find(names.begin(), names.end(), current) == names.end())
            names.insert(names.begin(), current);
        for (const auto& n : names) {
            fc.dist->addItem(displayName(n), QString::fromStdString(n));
            fc.dist->setItemData(fc.dist->count() - 1, describeDistribution(n), Qt::ToolTipRole);
        }
        fc.dist->setCurrentIndex(fc.dist->findData(QString::fromStdString(current)));
        layout->addWidget(fc.dist);
        fc.description = new QLabel(describeDistribution(current));
        fc.description->setWordWrap(true);
        fc.description->setStyleSheet("color: #444;");
        fc.description->setVisible(!compact_);
        layout->addWidget(fc.description);
        const std::string paramGroup = s.isProduct() ? factor : s.group;
        for (const ParameterInfo& info : parametersOf(current, paramGroup)) {
            auto* control = new ParameterControl(info);
            control->setObjectName(fc.factor + "/" + info.key);
            control->setValue(s.factor(factor).value(info.key.toStdString()));
            attachSweep(control);
            const QString key = info.key;
            connect(control, &ParameterControl::valueChanged, this, [this, factor, key](double v) {
                // A control of a hidden editor outlives a change of group until it is rebuilt (a
                // sweep may still play it): its factor's value is then no one's.
                if (!state_->orbitSettings().hasFactor(factor)) return;
                edit([&](OrbitSettings& st) { st.factor(factor).setValue(key.toStdString(), v); });
            });
            layout->addWidget(control);
            fc.params.push_back(control);
        }
        connect(fc.dist, &QComboBox::currentIndexChanged, this, [this, factor, combo = fc.dist] {
            const std::string name = combo->currentData().toString().toStdString();
            if (!state_->orbitSettings().hasFactor(factor)) return;  // a stale box, as above
            edit([&](OrbitSettings& st) { st.factor(factor).choose(name, st.factorKind(factor)); });
        });
        factorsLayout_->addWidget(box);
        // Shown with the editor now, not by the layout's queued show in a later pass: built in the
        // editor's Show event (ensureBuilt), the panel would be laid out twice, its charts resized twice.
        box->show();
        factors_.push_back(fc);
    }
    builtKey_ = structureKey();
    refreshValues();
}

void DistributionEditor::refreshValues()
{
    const bool stale = structureKey() != builtKey_;
    if (stale && isVisible()) {
        rebuild();  // ends here again, with the new boxes
        return;
    }
    const OrbitSettings& s = state_->orbitSettings();
    for (const auto& [group, key, box] : groupParameters_) {
        const QSignalBlocker block(box);
        box->setValue(s.groupValue(group, key));
    }
    r_->setValue(s.r);
    if (!seed_->hasFocus())
        seed_->setText(QString::number(s.seed));
    // Hidden and stale: the boxes of the new group, distribution or data wait until the editor is
    // shown or one of them is asked for (ensureBuilt); a lesson or a session that changes the group
    // and then the data builds no hidden editor's boxes twice.
    if (stale)
        return;
    for (auto& fc : factors_) {
        const DistributionParams& p = s.factor(fc.factor.toStdString());
        for (ParameterControl* c : fc.params) {
            const QString key = c->objectName().section('/', 1);
            const double v = p.value(key.toStdString());
            if (std::abs(c->value() - v) > 1e-12)
                c->setValue(v);
        }
    }
}

void DistributionEditor::registerFields(FieldHighlight* fields)
{
    fields->add("group", group_);
    for (const auto& [group, key, box] : groupParameters_)  // "group cyclic.n", as the core's errors name it
        fields->add(QString::fromStdString("group " + group + "." + key), box);
    fields->add("r", r_);
    // The factor controls are rebuilt with the group: looked up when an error names them.
    fields->add("distribution", [this](const QString& field) -> QWidget* {
        ensureBuilt();
        const qsizetype dot = field.lastIndexOf('.');
        if (dot > 0)
            for (const FactorControls& f : factors_)
                if (ParameterControl* c = parameterControl(f.factor, field.mid(dot + 1)))
                    return c;
        return factors_.empty() ? nullptr : factors_.front().dist;
    });
}

SweepControl* DistributionEditor::attachSweep(ParameterControl* control)
{
    auto* sweep = new SweepControl(control, SweepPacer::of(state_));
    connect(sweep, &SweepControl::exportRequested, sweep, [sweep] { showSweepExportDialog(sweep); });
    return sweep;
}

ParameterControl* DistributionEditor::parameterControl(const QString& factor, const QString& key)
{
    ensureBuilt();
    for (const auto& fc : factors_)
        for (ParameterControl* c : fc.params)
            if (c->objectName() == factor + "/" + key)
                return c;
    return nullptr;
}

} // namespace orbitui
