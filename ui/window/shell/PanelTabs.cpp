#include "window/shell/PanelTabs.hpp"

#include "widgets/Panel.hpp"

#include <QTabBar>

namespace orbitui {

PanelTabs::PanelTabs(QWidget* parent) : QTabWidget(parent)
{
    setDocumentMode(true);
    QFont tabFont = tabBar()->font();
    tabFont.setPointSizeF(tabFont.pointSizeF() + 1);
    tabBar()->setFont(tabFont);
}

void PanelTabs::add(Panel* panel)
{
    panels_.push_back(panel);
    addTab(panel, panel->title());
    // Only the panel in sight speaks (Panel::whenInSight): a hidden one's results, and their news,
    // wait until it is shown.
    connect(panel, &Panel::statusMessage, this, [this, panel](const QString& text) {
        if (panel->isVisible())
            emit statusMessage(text);
    });
}

Panel* PanelTabs::panel(const QString& name) const
{
    for (Panel* p : panels_)
        if (p->name() == name)
            return p;
    return nullptr;
}

Panel* PanelTabs::current() const { return qobject_cast<Panel*>(currentWidget()); }

bool PanelTabs::show(const QString& name)
{
    Panel* p = panel(name);
    if (!p)
        return false;
    setCurrentWidget(p);
    return true;
}

} // namespace orbitui
