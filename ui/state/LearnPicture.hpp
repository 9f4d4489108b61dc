#pragma once
// The picture of the last Learn locality, as data: what the Training panel's chart was fed (the
// landscape grid and its points, the optimiser's path, or the learn's own evaluations as the curve).
// The working state keeps it, so the chart comes back after a quit or a crash without a new learn.
#include "orbit/locality/EvidenceObjective.hpp"

#include <QJsonObject>
#include <QString>

#include <string>
#include <vector>

namespace orbitui {

struct LearnPicture {
    std::vector<std::string> parameters;          ///< the learned parameters, as the distribution names them
    std::vector<std::vector<double>> landscape;   ///< the landscape grid, one list per parameter; empty: none
    /// The landscape's evaluations (params and log evidence), or with learnedLandscape the learn's
    /// own evaluations drawn as the curve (pilots already on the full scale).
    std::vector<orbit::EvidencePoint> landscapePoints;
    bool learnedLandscape = false;
    std::vector<orbit::EvidencePoint> path;      ///< the optimiser's evaluations in order (params, log evidence, stage)
    int best = -1;                                ///< index into path of the best; -1: none
    /// The exact GP's curve: its points are log marginal likelihoods, not the BLR evidence.
    bool marginalLikelihood = false;

    bool empty() const { return parameters.empty(); }
};

/// {"parameters": [...], "landscape": [[...]], "landscape_points": [{"params": {...}, "log_evidence"}],
/// "learned_landscape": bool, "path": [{"params", "log_evidence", "stage"}], "best": int} and, for the
/// GP's curve only, "marginal_likelihood": true.
QJsonObject toJson(const LearnPicture& p);
/// Throws orbit::SpecError naming the field under `field` (e.g. "learned.picture.path[3].log_evidence")
/// and the value: a point without a value for each parameter, a non-finite grid value, a best out of range.
LearnPicture learnPictureFromJson(const QJsonObject& json, const QString& field);

} // namespace orbitui
