#include "state/PanelRegistry.hpp"

#include <utility>

namespace orbitui {

namespace {

std::vector<PanelEntry>& panelEntries()
{
    static std::vector<PanelEntry> entries;  // built at first use: registrations may run at static initialisation
    return entries;
}

} // namespace

void registerPanel(PanelEntry entry)
{
    std::vector<PanelEntry>& entries = panelEntries();
    for (PanelEntry& e : entries)
        if (e.name == entry.name) {
            e = std::move(entry);
            return;
        }
    entries.push_back(std::move(entry));
}

const std::vector<PanelEntry>& registeredPanels() { return panelEntries(); }

const PanelEntry* registeredPanel(const QString& name)
{
    for (const PanelEntry& e : panelEntries())
        if (e.name == name)
            return &e;
    return nullptr;
}

QStringList registeredPanelNames()
{
    QStringList names;
    for (const PanelEntry& e : panelEntries())
        names << e.name;
    return names;
}

} // namespace orbitui
