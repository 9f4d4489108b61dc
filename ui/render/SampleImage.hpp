#pragma once
// Pictures of samples: images as they are, Coulomb matrices and vectors as heatmaps.
#include "orbit/data/Dataset.hpp"

#include <QColor>
#include <QImage>
#include <QString>

namespace orbitui {

/// The sample's picture at its natural resolution (one pixel per value). Images: grey or RGB,
/// values clamped to [0, 1]. Coulomb matrices: heatmap of log(1 + |C_ij|) / log(1 + max |C|).
/// Vectors: a near-square heatmap of the values scaled by max |x|.
/// `atoms` > 0 crops a Coulomb matrix to its top-left atoms x atoms block (drops the padding).
QImage renderSample(const float* x, const orbit::Shape& shape, orbit::DataKind kind, int atoms = 0);

/// The number of atoms of molecule i (0 when unknown or not a molecule): the crop for renderSample.
int atomCount(const orbit::Dataset& dataset, std::size_t i);

/// renderSample for sample i of a dataset (molecules cropped to their atoms).
QImage renderSample(const orbit::Dataset& dataset, std::size_t i);

/// The magma-like colour map used for heatmaps, t in [0, 1].
QColor heatColor(double t);

/// A target value as shown to the user: one decimal, then the data's unit when it states one.
QString targetText(const orbit::Dataset& dataset, double target);

/// The caption of sample i: class name or number, or the target and its unit (after the molecule name).
QString sampleCaption(const orbit::Dataset& dataset, std::size_t i);

/// A palette of well-separated colours for series / classes.
QColor seriesColor(int i);

} // namespace orbitui
