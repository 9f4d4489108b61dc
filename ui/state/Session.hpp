#pragma once
// Sessions: every user setting (dataset path, selection, group, distributions, r, seeds, panel)
// as one JSON document, written atomically. (The papers' presets are in Presets.hpp.)
#include "state/AnalysisSettings.hpp"
#include "state/OrbitSettings.hpp"
#include "state/PredictSettings.hpp"
#include "state/TrainingSettings.hpp"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace orbitui {

/// The setting pinned as A of an A/B comparison (state/Comparison.hpp): the whole setting but the
/// dataset, which A and B share.
struct PinnedSetting {
    OrbitSettings orbit;
    KernelsSettings kernels;
    ApproximationSettings approximation;
    TrainingSettings training;
    bool operator==(const PinnedSetting&) const = default;
};

/// Everything needed to bring the application back to where the user was.
struct SessionState {
    QString dataPath;
    int selectedIndex = 0;
    std::vector<int> embeddingInputs;
    OrbitSettings orbit;
    KernelsSettings kernels;
    ApproximationSettings approximation;
    TrainingSettings training;
    QString panel;
    /// The Predict view's input, transformation and models (the optional "predict" object).
    PredictSettings predict;
    /// A of the A/B comparison while one is pinned (the optional "pinned" object of the file).
    std::optional<PinnedSetting> pinned;
    bool operator==(const SessionState&) const = default;
};

/// {"format": "orbitlab-session", "version": 1, "data": {...}, "orbit": {...}, "panel": ...}.
/// Seeds are written as decimal strings (64-bit values do not fit a JSON double). A pinned setting
/// is "pinned": {"orbit": {...}, "kernels": {...}, "approximation": {...}, "training": {...}}, its
/// fields read as the session's own and named "pinned.orbit.r" etc. in errors.
QJsonObject toJson(const SessionState& s);
/// toJson without what the settings imply (orbit.group_spec, orbit.dist_spec, the training features
/// of a preset): the settings alone, written but never read back.
QJsonObject settingsJson(const SessionState& s);
/// The fields in which `a` and `b` differ, as the paths of their settingsJson leaves: "data.embedding",
/// "orbit.distribution.kappa", "orbit.rotation.a", "kernels.s", "approximation.r_list",
/// "training.learner", "panel", "pinned.orbit.r", ... in order. Empty when a == b.
QStringList sessionDifferences(const SessionState& a, const SessionState& b);
/// Reads a session object; missing fields keep their defaults. Throws orbit::SpecError naming the
/// field and the offending value when a present field is malformed.
SessionState sessionFromJson(const QJsonObject& json);
/// Throws orbit::SpecError naming `field` ("orbit.r"), with `value` as its JSON text (a string as
/// itself): how the session and working-state readers report a malformed field.
[[noreturn]] void badSessionField(const QString& field, const QString& detail, const QJsonValue& value);

/// Writes the session all or nothing, flushed to the disk before it replaces the old file
/// (writeAtomically, state/AtomicWrite.hpp): a kill during the save leaves the old or the new file.
/// Returns an error message or empty.
QString saveSession(const QString& path, const SessionState& s);
/// Reads a session file; on failure returns nullopt and sets `error` (file, field, value).
std::optional<SessionState> loadSession(const QString& path, QString* error);

} // namespace orbitui
