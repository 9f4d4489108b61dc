#pragma once
// The panels as the state layer knows them: by name (the command line's --panel, a session's
// "panel", a lesson's panel), in the order of their tabs, with what Copy as command and Copy as
// Python give on each. The window registers them (window/shell/PanelList.cpp, one line a panel:
// window/panels/PanelDescriptor.hpp); nothing here names a panel, so a program that links the state
// layer alone has none until it registers its own.
#include "state/commands/CliCommand.hpp"

#include <QString>
#include <QStringList>

#include <functional>
#include <string>
#include <vector>

namespace orbitui {

/// One registered panel.
struct PanelEntry {
    /// Panel::name(): the --panel value, a session's and a lesson's "panel".
    QString name;
    /// Copy as command: the orbitlab-cli command that recomputes what the panel shows (panelCommand);
    /// null when none does.
    std::function<CliCommand(const SessionState&, const CommandContext&)> command;
    /// Copy as Python on this panel; null: the Training panel's run (trainingPython).
    std::function<std::string(const SessionState&, const CommandContext&)> python;
};

/// Adds `entry` after the panels registered so far (the tab order), or replaces the entry of the same
/// name where it stands. Not thread-safe: called at start, before any worker runs.
void registerPanel(PanelEntry entry);
/// The registered panels in tab order.
const std::vector<PanelEntry>& registeredPanels();
/// The registered panel called `name`, or null.
const PanelEntry* registeredPanel(const QString& name);
/// Their names in tab order ("data", "group", ... as the window registers them).
QStringList registeredPanelNames();

} // namespace orbitui
