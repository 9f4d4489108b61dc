// The Predict panel's molecule controls (issue 44): two atom pickers and a Swap button that
// exchanges them in the input, and a jitter slider that moves the atoms (standard deviation in
// Angstrom) and recomputes the Coulomb matrix where the data have positions (extended XYZ).
#include "window/predict/PredictPanel.hpp"

#include "state/LabState.hpp"

#include "orbit/data/MoleculeMoves.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>

#include <array>
#include <cmath>

namespace orbitui {

namespace {

/// The element symbol of atomic number z (periods 1-4 and the heavier ones the loader knows).
QString elementOf(int z)
{
    static const std::array<const char*, 37> light = {
        "",   "H",  "He", "Li", "Be", "B",  "C",  "N",  "O",  "F",  "Ne", "Na", "Mg", "Al", "Si", "P",  "S",  "Cl", "Ar",
        "K",  "Ca", "Sc", "Ti", "V",  "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr"};
    if (z >= 1 && z < int(light.size()))
        return QString::fromLatin1(light[std::size_t(z)]);
    return QStringLiteral("Z=%1").arg(z);
}

} // namespace

QWidget* PredictPanel::buildMolecule()
{
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Swap atom")));
    for (std::size_t k = 0; k < 2; ++k) {
        atoms_[k] = new QComboBox;
        atoms_[k]->setObjectName(k == 0 ? "predictAtomI" : "predictAtomJ");
        atoms_[k]->setToolTip(tr("An atom of the molecule, numbered as the file lists them"));
        row->addWidget(atoms_[k]);
        if (k == 0)
            row->addWidget(new QLabel(tr("with")));
    }
    swap_ = new QPushButton(tr("Swap"));
    swap_->setObjectName("predictSwap");
    swap_->setCheckable(true);
    swap_->setToolTip(tr("Exchange the two atoms in the input (their rows and columns of the Coulomb matrix): the "
                         "same molecule, listed in another order"));
    row->addWidget(swap_);
    row->addSpacing(16);
    row->addWidget(new QLabel(tr("Jitter")));
    jitter_ = new QSlider(Qt::Horizontal);
    jitter_->setObjectName("predictJitter");
    jitter_->setRange(0, int(std::lround(kMaxJitter / kJitterStep)));
    jitter_->setPageStep(5);
    row->addWidget(jitter_, 1);
    jitterText_ = new QLabel;
    jitterText_->setMinimumWidth(70);
    row->addWidget(jitterText_);

    auto changed = [this] {
        if (applying_)
            return;
        const int i = atoms_[0]->currentIndex(), j = atoms_[1]->currentIndex();
        settings_.swap = swap_->isChecked() && i >= 0 && j >= 0 ? QList<int>{i, j} : QList<int>{};
        settings_.jitter = jitter_->value() * kJitterStep;
        updateMoleculeText();
        inputStale_ = true;
        refresh();
    };
    for (QComboBox* c : atoms_)
        connect(c, &QComboBox::currentIndexChanged, this, [this, changed] {
            if (swap_->isChecked())
                changed();
        });
    connect(swap_, &QPushButton::toggled, this, [this](bool on) { swap_->setText(on ? tr("Swapped ✓") : tr("Swap")); });
    connect(swap_, &QPushButton::toggled, this, changed);
    connect(jitter_, &QSlider::valueChanged, this, changed);
    return box;
}

void PredictPanel::updateMolecule()
{
    const auto ds = state_->dataset();
    const bool molecule = ds && ds->kind == orbit::DataKind::Coulomb;
    molecule_->setVisible(molecule);
    if (!molecule)
        return;
    const bool fromRow = settings_.input == "row";
    const std::size_t index = std::size_t(std::max(0, state_->selectedIndex()));
    const std::vector<int> none;
    const std::vector<int>& charges = index < ds->charges.size() ? ds->charges[index] : none;
    if (settings_.swap.size() == 2 && std::max(settings_.swap[0], settings_.swap[1]) >= int(charges.size()))
        settings_.swap.clear();  // another, smaller molecule: its atoms are not there
    applying_ = true;
    for (std::size_t k = 0; k < 2; ++k) {
        const QSignalBlocker block(atoms_[k]);
        atoms_[k]->clear();
        for (std::size_t a = 0; a < charges.size(); ++a)
            atoms_[k]->addItem(QStringLiteral("%1 %2").arg(a).arg(elementOf(charges[a])));
        const int wanted = settings_.swap.size() == 2 ? settings_.swap[int(k)] : int(k);
        atoms_[k]->setCurrentIndex(std::min(wanted, atoms_[k]->count() - 1));
    }
    {
        const QSignalBlocker block(swap_);
        swap_->setChecked(settings_.swap.size() == 2);
        swap_->setText(swap_->isChecked() ? tr("Swapped ✓") : tr("Swap"));
    }
    const bool positions = index < ds->count() && orbit::hasPositions(*ds, index);
    {
        const QSignalBlocker block(jitter_);
        jitter_->setValue(positions ? int(std::lround(settings_.jitter / kJitterStep)) : 0);
    }
    applying_ = false;
    for (QWidget* w : std::initializer_list<QWidget*>{atoms_[0], atoms_[1], swap_})
        w->setEnabled(fromRow && charges.size() >= 2);
    jitter_->setEnabled(fromRow && positions);
    jitter_->setToolTip(positions ? tr("Move every atom by a Gaussian step of this standard deviation (Å) in each "
                                       "coordinate and recompute the Coulomb matrix (0.5 Z^2.4 on the diagonal, "
                                       "Z_i Z_j / |r_i − r_j| off it)")
                                  : tr("These data have no atom positions: Coulomb matrices read from CSV or .mat "
                                       "files carry none (extended XYZ files keep them)"));
    updateMoleculeText();
}

void PredictPanel::updateMoleculeText()
{
    jitterText_->setText(QStringLiteral("%1 Å").arg(settings_.jitter, 0, 'f', 2));
}

} // namespace orbitui
