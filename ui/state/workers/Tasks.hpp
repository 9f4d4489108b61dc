#pragma once
// The config structs of the long tasks and the tasks built from them (run by a TaskRunner).
// Each request is copied into its task: the worker never touches GUI state.
#include "state/OrbitSettings.hpp"
#include "state/workers/Worker.hpp"

#include "orbit/data/Dataset.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/figures/DensitySummary.hpp"

#include <QImage>
#include <QMetaType>
#include <QPointF>
#include <QString>
#include <QVector>

#include <memory>
#include <string>
#include <vector>

namespace orbitui {

struct LoadRequest {
    QString path;
    orbit::LoadOptions options;
};

struct LoadResult {
    std::shared_ptr<const orbit::Dataset> dataset;
    QString path;
    double seconds = 0.0;
};

/// Loads the dataset at request.path (orbit::loadDataset).
Task makeLoadTask(LoadRequest request);

/// The orbit of one input and the orbit embedding of a few inputs.
struct OrbitRequest {
    std::shared_ptr<const orbit::Dataset> dataset;
    int index = 0;                    ///< the input whose gallery is drawn
    std::vector<int> embeddingInputs; ///< inputs whose orbits are projected together (may be empty)
    OrbitSettings settings;
};

struct OrbitResult {
    OrbitRequest request;
    orbit::MatrixXfR gallery;                  ///< r x dim: g_k x for the selected input
    std::vector<std::string> elementText;      ///< describe(g_k) per copy
    std::vector<QImage> images;                ///< the gallery rows rendered (renderSample), on the worker
    /// Orbit embedding: for input j (embeddingInputs[j]), rows [j r, (j+1) r) of scores are its
    /// orbit; inputScores row j is the input itself, projected on the same axes.
    orbit::MatrixXfR scores;
    orbit::MatrixXfR inputScores;
    double explained[2] = {0.0, 0.0};
    QString embeddingError;                    ///< why there is no embedding (e.g. one sample)
    double seconds = 0.0;
};

/// Samples the orbit (OrbitSampler with settings.seed) and its 2-D PCA embedding (orbit::orbitEmbedding).
Task makeOrbitTask(OrbitRequest request);

/// A density curve and a histogram of samples of one factor of the distribution (orbit::densitySummary).
struct DensityRequest {
    OrbitSettings settings;
    std::string factor;       ///< the group factor to plot (for affine: rotation, translation, scale)
    int samples = 20000;
    int bins = 40;  ///< at least; narrow densities get more
    std::shared_ptr<const orbit::Dataset> dataset;  ///< for input-dependent distributions
    int index = 0;
};

struct DensityResult {
    DensityRequest request;
    QString parameter;             ///< x-axis name, e.g. "θ (rad)"
    orbit::DensitySummary summary; ///< the core's numbers behind the chart
    bool hasDensity = false;
    QVector<QPointF> curve;        ///< (t, q(t))
    QVector<QPointF> histogram;    ///< step outline of the normalised histogram of the samples
    double binWidth = 0.0;
    double xMin = 0.0, xMax = 1.0, yMax = 1.0;
    QString note;                  ///< shown when nothing can be plotted
};

Task makeDensityTask(DensityRequest request);

} // namespace orbitui

Q_DECLARE_METATYPE(orbitui::LoadResult)
Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::OrbitResult>)
Q_DECLARE_METATYPE(std::shared_ptr<const orbitui::DensityResult>)
