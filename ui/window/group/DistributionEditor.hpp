#pragma once
// Editor of the orbit settings bound to the LabState: group, distribution per factor (only those
// the core accepts for the group), each parameter as slider + spin box, r and the seed. Several
// editors may show the same state; they stay in step.
#include "state/OrbitSettings.hpp"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QVBoxLayout;

namespace orbitui {

class FieldHighlight;
class LabState;
class ParameterControl;
class SweepControl;

class DistributionEditor : public QWidget {
    Q_OBJECT
public:
    /// `compact` hides the one-line descriptions (for the side of the orbit gallery).
    DistributionEditor(LabState* state, bool compact, QWidget* parent = nullptr);

    /// The control of parameter `key` ("kappa", "sigma", ...) of factor `factor`, or null.
    ParameterControl* parameterControl(const QString& factor, const QString& key) const;
    ParameterControl* rControl() const { return r_; }
    QComboBox* groupCombo() const { return group_; }
    /// Registers the controls of the core's fields group (with cyclic.n, orthogonal.k),
    /// distribution (a parameter's control for "distribution NAME.KEY", else the first factor's
    /// choice) and r with `fields`.
    void registerFields(FieldHighlight* fields) const;

private:
    struct FactorControls {
        QString factor;
        QComboBox* dist = nullptr;
        QLabel* description = nullptr;
        std::vector<ParameterControl*> params;
    };

    QString structureKey() const;
    void rebuild();
    void refreshValues();
    void edit(const std::function<void(OrbitSettings&)>& change);
    /// Gives `control` play / step buttons (SweepControl) paced by the state's SweepPacer.
    SweepControl* attachSweep(ParameterControl* control);

    LabState* state_;
    bool compact_;
    QString builtKey_;
    QComboBox* group_;
    QLabel* groupDescription_;
    QSpinBox* cyclicN_;
    QSpinBox* orthogonalK_;
    QWidget* factorsHost_;
    QVBoxLayout* factorsLayout_;
    std::vector<FactorControls> factors_;
    ParameterControl* r_;
    QLineEdit* seed_;
};

} // namespace orbitui
