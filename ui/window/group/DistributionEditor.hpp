#pragma once
// Editor of the orbit settings bound to the LabState: group, distribution per factor (only those
// the core accepts for the group), each parameter as slider + spin box, r and the seed. Several
// editors may show the same state; they stay in step. A hidden editor builds the controls of a new
// group, distribution or kind of data when it is shown, or when one of them is asked for
// (parameterControl, groupCombo, the fields of registerFields): never twice for one lesson start.
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

    /// The control of parameter `key` ("kappa", "sigma", ...) of factor `factor`, or null (for the
    /// current settings: a structure change deferred while hidden is built first).
    ParameterControl* parameterControl(const QString& factor, const QString& key);
    ParameterControl* rControl() const { return r_; }
    /// The group box, offering the groups of the current data (built first when deferred).
    QComboBox* groupCombo()
    {
        ensureBuilt();
        return group_;
    }
    /// Registers the controls of the core's fields group (with cyclic.n, orthogonal.k),
    /// distribution (a parameter's control for "distribution NAME.KEY", else the first factor's
    /// choice) and r with `fields`.
    void registerFields(FieldHighlight* fields);

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct FactorControls {
        QString factor;
        QComboBox* dist = nullptr;
        QLabel* description = nullptr;
        std::vector<ParameterControl*> params;
    };

    QString structureKey() const;
    /// Rebuilds when the settings or the data changed the structure while the editor was hidden.
    void ensureBuilt();
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
    /// One spin box per editor parameter of every group (groupEditorParameters: cyclic's n,
    /// orthogonal's k), shown while its group is chosen.
    struct GroupParameterBox {
        std::string group, key;
        QSpinBox* box;
    };
    std::vector<GroupParameterBox> groupParameters_;
    QWidget* factorsHost_;
    QVBoxLayout* factorsLayout_;
    std::vector<FactorControls> factors_;
    ParameterControl* r_;
    QLineEdit* seed_;
};

} // namespace orbitui
