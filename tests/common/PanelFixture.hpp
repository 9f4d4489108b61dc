#pragma once
// Helpers of the GUI suites that test one panel without a main window (tests/ui/window/training): a bundled
// sample file loaded once per suite, and a Training panel over a LabState holding it.
#include "state/LabState.hpp"
#include "state/TrainingSettings.hpp"
#include "window/training/TrainingPanel.hpp"

#include "orbit/data/Loaders.hpp"

#include "TestPaths.hpp"

#include <QString>
#include <QTest>

#include <map>
#include <memory>
#include <string>

namespace orbittest {

/// resources/data/<name> loaded with the default options, once per suite (the panels only read it).
inline std::shared_ptr<const orbit::Dataset> bundledDataset(const std::string& name)
{
    static std::map<std::string, std::shared_ptr<const orbit::Dataset>> loaded;
    auto& ds = loaded[name];
    if (!ds)
        ds = std::make_shared<const orbit::Dataset>(orbit::loadDataset(bundledFile(name), {}));
    return ds;
}

/// A Training panel whose lab state holds the bundled file `file`.
struct TrainingPanelFixture {
    orbitui::LabState state;
    orbitui::TrainingPanel panel{&state};

    explicit TrainingPanelFixture(const std::string& file = "digits.png")
    {
        state.setDataset(bundledDataset(file), QString::fromStdString(bundledFile(file)));
    }
    /// Shows `s`, presses Run and waits (up to two minutes) for the result to be drawn.
    bool runAndSettle(const orbitui::TrainingSettings& s)
    {
        panel.setSettings(s);
        const int before = panel.drawCount();
        return panel.run() && QTest::qWaitFor([&] { return panel.drawCount() > before && panel.isIdle(); }, 120000);
    }
};

} // namespace orbittest
