#pragma once
// Sessions: every user setting (dataset path, selection, group, distributions, r, seeds, the
// training, the panels' own parts, the panel shown) as one JSON document, written atomically. (The
// papers' presets are in Presets.hpp.)
#include "state/OrbitSettings.hpp"
#include "state/SessionParts.hpp"
#include "state/TrainingSettings.hpp"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace orbitui {

/// The setting pinned as A of an A/B comparison (state/Comparison.hpp): the whole setting but the
/// dataset, which A and B share, and the panels' parts that are not pinned (PredictSettings).
struct PinnedSetting {
    OrbitSettings orbit;
    TrainingSettings training;
    /// The panels' pinned parts (kPinned: KernelsSettings, ApproximationSettings).
    SessionParts parts;
    /// Part S of A (state/SessionParts.hpp), at its defaults when A has none.
    template <typename S>
    const S& part() const { return parts.get<S>(); }
    template <typename S>
    S& part() { return parts.edit<S>(); }
    bool operator==(const PinnedSetting&) const = default;
};

/// Everything needed to bring the application back to where the user was.
struct SessionState {
    QString dataPath;
    int selectedIndex = 0;
    std::vector<int> embeddingInputs;
    /// What every panel shares: the group and distributions, and the training (its models are what
    /// Predict and Compare ask).
    OrbitSettings orbit;
    TrainingSettings training;
    QString panel;
    /// Each panel's own settings, under its key: "kernels", "approximation", "predict" (the Predict
    /// view's input, transformation and models) and any part a panel registers.
    SessionParts parts;
    /// A of the A/B comparison while one is pinned (the optional "pinned" object of the file).
    std::optional<PinnedSetting> pinned;
    /// Part S (state/SessionParts.hpp): s.part<KernelsSettings>().n.
    template <typename S>
    const S& part() const { return parts.get<S>(); }
    template <typename S>
    S& part() { return parts.edit<S>(); }
    bool operator==(const SessionState&) const = default;
};

/// A as the session stands: its orbit, training and pinned parts.
PinnedSetting pinnedOf(const SessionState& s);

/// {"format": "orbitlab-session", "version": 1, "data": {...}, "orbit": {...}, "training": {...},
/// "panel": ..., and each part under its key: "kernels": {...}, ...}. Seeds are written as decimal
/// strings (64-bit values do not fit a JSON double). A pinned setting is "pinned": {"orbit": {...},
/// "training": {...}, and its pinned parts: "kernels": {...}, "approximation": {...}}, its fields read
/// as the session's own and named "pinned.orbit.r" etc. in errors.
QJsonObject toJson(const SessionState& s);
/// toJson without what the settings imply (orbit.group_spec, orbit.dist_spec, the training features
/// of a preset): the settings alone, written but never read back.
QJsonObject settingsJson(const SessionState& s);
/// The fields in which `a` and `b` differ, as the paths of their settingsJson leaves: "data.embedding",
/// "orbit.distribution.kappa", "orbit.rotation.a", "kernels.s", "approximation.r_list",
/// "training.learner", "panel", "pinned.orbit.r", ... in order. Empty when a == b.
QStringList sessionDifferences(const SessionState& a, const SessionState& b);
/// Reads a session object; missing fields keep their defaults. Throws orbit::SpecError naming the
/// field and the offending value when a present field is malformed (state/JsonFields.hpp).
SessionState sessionFromJson(const QJsonObject& json);

/// Writes the session all or nothing, flushed to the disk before it replaces the old file
/// (writeAtomically, state/AtomicWrite.hpp): a kill during the save leaves the old or the new file.
/// Returns an error message or empty.
QString saveSession(const QString& path, const SessionState& s);
/// Reads a session file; on failure returns nullopt and sets `error` (file, field, value).
std::optional<SessionState> loadSession(const QString& path, QString* error);

} // namespace orbitui
