#pragma once
// The A of an A/B comparison: a whole setting (orbit, kernels, approximation, training; not the
// dataset, which A and B share) pinned by the user. Whatever is set now is B. The panels' comparison
// views (ui/window/compare/ComparisonViews.hpp and each feature's) observe it and compute A's results with A's settings.
#include "state/Session.hpp"

#include <QObject>
#include <QString>

#include <optional>

namespace orbitui {

class LabState;

class Comparison : public QObject {
    Q_OBJECT
public:
    /// Watches `state`'s dataset: when new data arrive, A stays pinned if its group can act on them
    /// (LabState::suits), else it is unpinned with a message saying why.
    explicit Comparison(LabState* state, QObject* parent = nullptr);

    bool isPinned() const { return pinned_.has_value(); }
    const std::optional<PinnedSetting>& pinned() const { return pinned_; }
    /// Pins `a` as A (replacing an earlier A).
    void pin(const PinnedSetting& a);
    /// Forgets A; `reason` (when given) goes out as message().
    void unpin(const QString& reason = {});
    /// Pins or unpins as a session says; the same A as pinned keeps its pin (and A's run).
    void setPinned(const std::optional<PinnedSetting>& a);
    /// Counts the pins: a view's cache of A's results is valid for one generation.
    quint64 generation() const { return generation_; }

    /// "rotation, vonmises κ=0, r=16": the group, its distribution(s) with the parameters in symbols, r.
    static QString describe(const OrbitSettings& s);
    /// "A: rotation, vonmises κ=0, r=16" (status bar, legends); empty when nothing is pinned.
    QString label() const;
    /// Names a loaded dataset object in the key of a cache of A's results (they are for one dataset).
    static QString datasetKey(const orbit::Dataset* dataset);

signals:
    void pinnedChanged();
    /// A one-line note for the status bar (e.g. why A was unpinned).
    void message(const QString& text);

private:
    LabState* state_;
    std::optional<PinnedSetting> pinned_;
    quint64 generation_ = 0;
};

} // namespace orbitui
