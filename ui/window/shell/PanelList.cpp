// The window's panels, one line each, in the order of their tabs (and of the View menu's Ctrl+1...).
// Adding a panel: its folder under window/, its header here and its line below
// (window/panels/PanelDescriptor.hpp says what a line may add).
#include "window/panels/PanelDescriptor.hpp"

#include "window/approximation/ApproximationComparison.hpp"
#include "window/approximation/ApproximationPanel.hpp"
#include "window/data/DataPanel.hpp"
#include "window/group/GroupComparison.hpp"
#include "window/group/GroupPanel.hpp"
#include "window/kernels/KernelsComparison.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/orbits/OrbitsPanel.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/training/TrainingComparison.hpp"
#include "window/training/TrainingPanel.hpp"

namespace orbitui {

namespace {

std::vector<PanelDescriptor> writtenPanels()
{
    std::vector<PanelDescriptor> list;
    list.push_back(panelOf<DataPanel>("data").command(dataCommand));
    list.push_back(panelOf<GroupPanel>("group").command(groupCommand).compared<GroupComparison>());
    list.push_back(panelOf<OrbitsPanel>("orbits").command(orbitsCommand));
    list.push_back(panelOf<KernelsPanel>("kernels").session<KernelsSettings>().command(kernelsCommand).compared<KernelsComparison>());
    list.push_back(panelOf<ApproximationPanel>("approximation").session<ApproximationSettings>().command(approximationCommand).compared<ApproximationComparison>());
    list.push_back(panelOf<TrainingPanel>("training").session(&SessionState::training).command(trainingCommand).compared<TrainingComparison>());
    list.push_back(panelOf<PredictPanel>("predict").session<PredictSettings>().command(predictCommand).python(predictPython));  // the last: it asks the trained models
    return list;
}

// At static initialisation, so that the state layer knows the panels before main() reads the
// command line (a lesson's panel, --lesson's help).
[[maybe_unused]] const bool kPanelsRegistered = !panelDescriptors().empty();

} // namespace

const std::vector<PanelDescriptor>& panelDescriptors()
{
    static const std::vector<PanelDescriptor> list = [] {
        std::vector<PanelDescriptor> l = writtenPanels();
        for (const PanelDescriptor& d : l)
            registerPanel(d.entry);
        return l;
    }();
    return list;
}

const PanelDescriptor* panelDescriptor(const QString& name)
{
    for (const PanelDescriptor& d : panelDescriptors())
        if (d.name() == name)
            return &d;
    return nullptr;
}

} // namespace orbitui
