#pragma once
// The panel switcher of the main window: one tab per panel, in the order they were added, found by
// the name the command line and sessions use ("data", "group", "orbits", ...).
#include <QTabWidget>

#include <vector>

namespace orbitui {

class Panel;

class PanelTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit PanelTabs(QWidget* parent = nullptr);

    /// Adds `panel` as the last tab; its status messages go out as statusMessage() while it is in sight.
    void add(Panel* panel);
    const std::vector<Panel*>& panels() const { return panels_; }
    /// The panel called `name`, or null.
    Panel* panel(const QString& name) const;
    Panel* current() const;
    /// Shows the panel called `name`; false when there is none.
    bool show(const QString& name);

signals:
    /// A panel's short message for the status bar.
    void statusMessage(const QString& text);

private:
    std::vector<Panel*> panels_;
};

} // namespace orbitui
