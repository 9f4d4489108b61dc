#pragma once
// The papers' settings, offered under Presets: a group, its distribution (one per factor for the
// affine group) and r, each read from one row of a table.
#include "state/OrbitSettings.hpp"

#include <QString>

#include <vector>

namespace orbitui {

/// A named setting from the papers.
struct Preset {
    QString name;
    OrbitSettings settings;
};
/// Rotated MNIST (LGIKA: von Mises κ = 0.2, r = 100), QM7 (noisy sort σ = 1, r = 70), CIFAR-10
/// (log-normal (0, 0.3) × Gaussian translation σ = 0.3 × von Mises κ = 9, r = 50). Every name and
/// parameter is checked against the registry (std::logic_error otherwise).
std::vector<Preset> presets();

} // namespace orbitui
