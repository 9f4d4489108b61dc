#include "state/Comparison.hpp"

#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"

#include "orbit/util/Spec.hpp"

namespace orbitui {

Comparison::Comparison(LabState* state, QObject* parent) : QObject(parent), state_(state)
{
    connect(state_, &LabState::datasetChanged, this, [this] {
        const auto ds = state_->dataset();
        if (pinned_ && ds && !LabState::suits(pinned_->orbit, *ds))
            unpin(tr("A was unpinned: its group (%1) cannot act on the new data (%2).")
                      .arg(QString::fromStdString(pinned_->orbit.groupSpec()), QString::fromUtf8(orbit::toString(ds->kind))));
    });
}

void Comparison::pin(const PinnedSetting& a)
{
    pinned_ = a;
    ++generation_;
    emit pinnedChanged();
}

void Comparison::unpin(const QString& reason)
{
    if (!pinned_)
        return;
    pinned_.reset();
    ++generation_;
    emit pinnedChanged();
    if (!reason.isEmpty())
        emit message(reason);
}

void Comparison::setPinned(const std::optional<PinnedSetting>& a)
{
    // A session (a lesson's next step, an undo) that keeps the same A keeps its pin and A's run: a
    // lesson pins A, then asks for a run and for the Predict panel, which asks A's run.
    if (a && pinned_ && *a == *pinned_)
        return;
    if (a)
        pin(*a);
    else
        unpin();
}

QString Comparison::describe(const OrbitSettings& s)
{
    QStringList dists;
    for (const std::string& f : s.factors()) {
        // "vonmises:kappa=0" -> "vonmises κ=0": each key by its symbol, numbers as readableSpec writes them.
        QStringList words;
        for (const std::string& part : orbit::split(readableSpec(s.factor(f).spec()), ':')) {
            for (const std::string& entry : orbit::split(part, ',')) {
                const auto eq = entry.find('=');
                words << (eq == std::string::npos ? QString::fromStdString(entry)
                                                  : symbolOf(entry.substr(0, eq)) + QString::fromStdString(entry.substr(eq)));
            }
        }
        const QString spec = words.join(' ');
        dists << (s.factors().size() > 1 ? QString::fromStdString(f) + " " + spec : spec);
    }
    return QStringLiteral("%1, %2, r=%3").arg(QString::fromStdString(s.groupSpec()), dists.join(", ")).arg(s.r);
}

QString Comparison::label() const { return pinned_ ? QStringLiteral("A: ") + describe(pinned_->orbit) : QString(); }

QString Comparison::datasetKey(const orbit::Dataset* dataset)
{
    return QString::number(reinterpret_cast<quintptr>(dataset), 16);
}

} // namespace orbitui
