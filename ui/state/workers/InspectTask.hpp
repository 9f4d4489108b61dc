#pragma once
// The inspector's work on the worker: the pictures of the samples it lists, each with the first copies
// of its orbit (the Orbits gallery's sampler), and for a pair of a Kernels cell the curve
// k(g_t x_i, x_j) over t with the density under it (orbit::kernelCurve), or why there is none.
#include "state/OrbitSettings.hpp"
#include "state/workers/Worker.hpp"

#include "orbit/data/Dataset.hpp"
#include "orbit/figures/KernelCurve.hpp"

#include <QImage>
#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace orbitui {

struct InspectRequest {
    std::shared_ptr<const orbit::Dataset> dataset;
    OrbitSettings settings;       ///< group, distribution, r and seed of the orbits (and of the curve)
    std::vector<int> indices;     ///< the dataset rows to draw, in order
    int copies = 6;               ///< orbit copies beside each sample
    int cell = 40;                ///< about this many pixels per picture
    /// For a pair (indices i, j): the base kernel of the curve k(g_t x_i, x_j); empty: no curve.
    std::string kernelSpec;
    int curvePoints = 360;        ///< as orbit::KernelCurveConfig::points
};

struct InspectResult {
    InspectRequest request;
    std::vector<QImage> strips;               ///< one per index: [x | g_1 x | ... | g_copies x]
    std::optional<orbit::KernelCurve> curve;  ///< a pair's curve, when its group has one parameter
    QString noCurve;                          ///< a pair without a curve: why
};

/// The strip [x | g_1 x | .. | g_copies x] of sample `index`: the first copies of the Orbits
/// gallery (OrbitSampler with the settings' r and seed), each picture scaled to about `cell` px;
/// the input alone when the settings cannot act on the data.
QImage orbitStrip(const orbit::Dataset& dataset, const OrbitSettings& settings, int index, int copies, int cell = 44);

Task makeInspectTask(InspectRequest request);

} // namespace orbitui

Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::InspectResult>)
