#pragma once
// A picture of an orbit: the r transformed copies of one input as a grid (`orbitlab-cli orbit`).
#include "orbit/data/Dataset.hpp"

#include <opencv2/core.hpp>

namespace orbit {

/// Where the copies go: a rows x cols grid of cells of cellWidth x cellHeight pixels, separated
/// (and framed) by `separator`-pixel lines; width x height is the whole picture.
struct GalleryLayout {
    int rows = 0, cols = 0;
    int cellWidth = 0, cellHeight = 0;
    int separator = 2;
    int width = 0, height = 0;
};

/// The layout of `count` copies: cols = ceil(sqrt(count)), rows = ceil(count / cols); every sample
/// pixel becomes a factor x factor block (nearest neighbour, factor = max(1, cellPx / max(h, w)),
/// cellPx <= 0 picks about 96 px). Vectors are drawn as 1 x d strips 16 px high.
/// Throws SpecError("cell") when the picture would exceed 2^26 pixels or 32767 px per side.
GalleryLayout galleryLayout(int count, DataKind kind, const Shape& shape, int cellPx);

/// Renders the copies (one per row of `copies`, each shape.dim() values) as an 8-bit BGR image:
/// images in grey (1 channel) or colour (3 channels, stored RGB), values clamped to [0, 1]
/// (other channel counts show channel 0); Coulomb matrices as viridis heatmaps of log(1 + C) on one
/// scale shared by all copies; vectors as viridis strips on the shared [min, max].
cv::Mat renderGallery(const MatrixXfR& copies, DataKind kind, const Shape& shape, const GalleryLayout& layout);

} // namespace orbit
