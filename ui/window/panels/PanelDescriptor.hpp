#pragma once
// A panel as the window registers it (Qt Creator's plugin pattern): its name, how it is made, the
// part of the session it keeps, what Copy as command and Copy as Python give on it, its view of the
// pinned A and what `--export` presses on it. The shell, the headless run, the A/B views, the
// session and the lessons go over the registered panels (window/shell/PanelList.cpp, in tab order)
// instead of naming each. A panel is added as its folder and one line there:
//
//   panelOf<KernelsPanel>("kernels").session<KernelsSettings>().command(kernelsCommand).compared<KernelsComparison>(),
//
// session() needs the panel's settings() and applySettings() (or setSettings()); its settings are a
// part of the session (state/SessionParts.hpp), which the session reads and writes without naming
// it. A panel with `void startForExport(const ExportStart&)` has it called by `orbitlab --export`
// (what a user would press before its charts are drawn).
#include "state/PanelRegistry.hpp"
#include "state/Session.hpp"
#include "state/commands/CliCommand.hpp"

#include <QObject>
#include <QString>

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace orbitui {

class Comparison;
class LabState;
class Panel;

/// What `orbitlab --export` hands a panel's startForExport.
struct ExportStart {
    /// Runs the function once the data have loaded (now when they have).
    std::function<void(std::function<void()>)> whenData;
    /// Runs the function if the data fail to load.
    std::function<void(std::function<void()>)> ifLoadFails;
};

struct PanelDescriptor {
    /// The state layer's part: name, Copy as command, Copy as Python (registerPanel).
    PanelEntry entry;
    /// Makes the panel (a tab of the window).
    std::function<Panel*(LabState*)> create;
    /// Writes the panel's part of the session; null for a panel whose settings are the LabState's.
    std::function<void(const Panel*, SessionState&)> capture;
    /// Applies the session's part to the panel; null as capture.
    std::function<void(Panel*, const SessionState&)> apply;
    /// Makes the panel's view of the pinned A (state/Comparison.hpp); null when it has none.
    std::function<QObject*(Comparison*, LabState*, Panel*, QObject* parent)> compare;
    /// Whether that view waits for A's result.
    std::function<bool(const QObject*)> compareIdle;
    /// What `--export` presses on the panel; null: nothing (it draws by itself).
    std::function<void(Panel*, const ExportStart&)> startForExport;

    QString name() const { return entry.name; }
};

namespace panel_detail {

template <typename T, typename S, typename = void>
struct HasApplySettings : std::false_type {};
template <typename T, typename S>
struct HasApplySettings<T, S, std::void_t<decltype(std::declval<T&>().applySettings(std::declval<const S&>()))>>
    : std::true_type {};

template <typename T, typename = void>
struct HasStartForExport : std::false_type {};
template <typename T>
struct HasStartForExport<T, std::void_t<decltype(std::declval<T&>().startForExport(std::declval<const ExportStart&>()))>>
    : std::true_type {};

} // namespace panel_detail

/// The one-line registration of panel class T (made as `new T(LabState*)`), converted to a
/// PanelDescriptor where the list is written.
template <typename T>
class PanelLine {
public:
    explicit PanelLine(const QString& name)
    {
        d_.entry.name = name;
        d_.create = [](LabState* state) -> Panel* { return new T(state); };
        if constexpr (panel_detail::HasStartForExport<T>::value)
            d_.startForExport = [](Panel* p, const ExportStart& start) { static_cast<T*>(p)->startForExport(start); };
    }

    /// The panel keeps its own part S of the session (state/SessionParts.hpp: S names its key and
    /// reads and writes its JSON): settings() captures it, applySettings() (or setSettings()) applies it.
    template <typename S>
    PanelLine&& session() &&
    {
        d_.capture = [](const Panel* p, SessionState& s) { s.part<S>() = static_cast<const T*>(p)->settings(); };
        d_.apply = [](Panel* p, const SessionState& s) { applyTo(p, s.part<S>()); };
        return std::move(*this);
    }
    /// The panel keeps the session's `member`, which other panels share (SessionState::training).
    template <typename S>
    PanelLine&& session(S SessionState::*member) &&
    {
        d_.capture = [member](const Panel* p, SessionState& s) { s.*member = static_cast<const T*>(p)->settings(); };
        d_.apply = [member](Panel* p, const SessionState& s) { applyTo(p, s.*member); };
        return std::move(*this);
    }
    /// Copy as command on this panel.
    PanelLine&& command(CliCommand (*build)(const SessionState&, const CommandContext&)) &&
    {
        d_.entry.command = build;
        return std::move(*this);
    }
    PanelLine&& command(CliCommand (*build)(const SessionState&)) &&
    {
        d_.entry.command = [build](const SessionState& s, const CommandContext&) { return build(s); };
        return std::move(*this);
    }
    /// Copy as Python on this panel (else the Training panel's run).
    PanelLine&& python(std::string (*build)(const SessionState&)) &&
    {
        d_.entry.python = [build](const SessionState& s, const CommandContext&) { return build(s); };
        return std::move(*this);
    }
    /// The panel's view of the pinned A: `new V(comparison, state, panel, parent)`, with isIdle().
    template <typename V>
    PanelLine&& compared() &&
    {
        d_.compare = [](Comparison* c, LabState* state, Panel* p, QObject* parent) -> QObject* {
            return new V(c, state, static_cast<T*>(p), parent);
        };
        d_.compareIdle = [](const QObject* view) { return static_cast<const V*>(view)->isIdle(); };
        return std::move(*this);
    }

    operator PanelDescriptor() && { return std::move(d_); }

private:
    template <typename S>
    static void applyTo(Panel* p, const S& settings)
    {
        if constexpr (panel_detail::HasApplySettings<T, S>::value)
            static_cast<T*>(p)->applySettings(settings);
        else
            static_cast<T*>(p)->setSettings(settings);
    }

    PanelDescriptor d_;
};

template <typename T>
PanelLine<T> panelOf(const QString& name)
{
    return PanelLine<T>(name);
}

/// The registered panels in tab order (window/shell/PanelList.cpp); the first call also registers
/// their state-layer entries (registerPanel), as the list does at static initialisation.
const std::vector<PanelDescriptor>& panelDescriptors();
/// The descriptor of the panel called `name`, or null.
const PanelDescriptor* panelDescriptor(const QString& name);

} // namespace orbitui
