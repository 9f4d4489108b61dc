#pragma once
// The base-kernel choice of a panel, built from the registry's kernel descriptors (the Kernels
// panel's and the Training form's): a box of the kernels (display name, doc as tooltip) and, for
// the chosen one, a control per parameter as the registry describes it: the bandwidth rule
// (× median distance or a fixed σ, the descriptor's sigma | median alternative) with σ's spin box,
// a Choice as a box of its words (Matérn's ν), a number as a spin box with its range and doc. The
// median multiple itself stays the host's control (the Kernels bandwidth, the Training grid), so
// the editor's value is a kernel spec without it (state/KernelChoice.hpp): "gaussian",
// "matern:nu=2.5", "laplacian:sigma=3", "polynomial:degree=2,c=1".
#include <QString>
#include <QWidget>

#include <map>

class QComboBox;
class QHBoxLayout;

namespace orbit {
struct KernelDescriptor;
}

namespace orbitui {

class KernelEditor : public QWidget {
    Q_OBJECT
public:
    explicit KernelEditor(QWidget* parent = nullptr);

    /// The spec of the choice, without the median multiple.
    QString choice() const;
    /// Shows `choice` (a kernel the registry has; else the first kernel with its defaults) without
    /// emitting changed().
    void setChoice(const QString& choice);
    /// True when the bandwidth is the median rule's (the host's multiple applies).
    bool usesMedian() const;

    QComboBox* kernelBox() const { return kernel_; }
    /// The bandwidth rule ("median" or "sigma" as item data), null for a kernel without one.
    QComboBox* ruleBox() const { return rule_; }
    /// The control of parameter `key` ("sigma", "nu", "degree", "c") of the kernel shown, or null.
    QWidget* control(const QString& key) const;

signals:
    /// The user changed the kernel or one of its parameters.
    void changed();

private:
    /// The controls of kernel `d` at its defaults (the previous ones are deleted).
    void build(const orbit::KernelDescriptor& d);
    void updateRule();

    QComboBox* kernel_;
    QComboBox* rule_ = nullptr;
    QHBoxLayout* params_;
    std::map<QString, QWidget*> controls_;  ///< by key, in the layout with their captions
};

} // namespace orbitui
