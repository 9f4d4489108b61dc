// The panels register themselves (window/shell/PanelList.cpp, window/panels/PanelDescriptor.hpp):
// the registry lists every panel once, in tab order, and the window's tabs, --panel, the session,
// Copy as command, the A/B views and the lessons go over it instead of naming each panel. A lesson
// naming a panel nobody registered is refused until one registers it.
#include "WindowFixture.hpp"

#include "state/PredictSettings.hpp"
#include "state/AnalysisSettings.hpp"
#include "state/Lessons.hpp"
#include "state/PanelRegistry.hpp"
#include "state/commands/CliCommand.hpp"
#include "widgets/Panel.hpp"
#include "window/compare/ComparisonViews.hpp"
#include "window/kernels/KernelsPanel.hpp"
#include "window/panels/PanelDescriptor.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/shell/HeadlessRun.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"

#include "orbit/util/Error.hpp"

#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <QTabWidget>
#include <QTest>

#include <algorithm>
#include <memory>
#include <stdexcept>

using namespace orbitui;
using orbittest::WindowFixture;

namespace {

// The panels as the window showed them before they registered themselves (fe928f4): names and tab titles.
const QStringList kNames{"data", "group", "orbits", "kernels", "approximation", "training", "predict"};
const QStringList kTitles{"Data", "Group && distribution", "Orbits", "Kernels", "Approximation", "Training", "&Predict"};

QStringList descriptorNames()
{
    QStringList names;
    for (const PanelDescriptor& d : panelDescriptors())
        names << d.name();
    return names;
}

/// A lesson file whose first step shows `first` and whose next steps show each of `then`.
QByteArray lessonVisiting(const QString& first, const QStringList& then)
{
    QString steps;
    for (const QString& p : then)
        steps += QString(R"(, {"title": "To %1", "set": {"panel": "%1"}, "text": "<p>%1</p>"})").arg(p);
    return QString(R"({"name": "tour", "title": "A tour", "data": "digits.png", "start": {"panel": "%1"},
                      "steps": [{"title": "First", "text": "<p>One.</p>"}%2]})")
        .arg(first, steps)
        .toUtf8();
}

QString refusal(const QByteArray& text)
{
    try {
        parseLesson(text, "tour.json");
    } catch (const std::logic_error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// A new panel with settings of its own, as its folder would bring them.
struct HelloSettings {
    static constexpr const char* kSessionKey = "hello";
    static constexpr bool kPinned = false;
    int count = 3;
    bool operator==(const HelloSettings&) const = default;
    QJsonObject toJson() const { return {{"count", count}}; }
    static HelloSettings fromJson(const QJsonObject& o) { return {o.value("count").toInt(3)}; }
};

class HelloPanel : public Panel {
public:
    explicit HelloPanel(LabState*) : Panel("hello", "Hello") {}
    HelloSettings settings() const { return settings_; }
    void applySettings(const HelloSettings& s) { settings_ = s; }

private:
    HelloSettings settings_;
};

/// The field of the SpecError panelCommand throws for `panel`, or empty when it gives a command.
QString commandRefusal(const SessionState& s, const QString& panel)
{
    try {
        panelCommand(s, panel.toStdString());
    } catch (const orbit::SpecError& e) {
        return QString::fromStdString(e.field());
    }
    return {};
}

} // namespace

class TestPanelRegistry : public QObject {
    Q_OBJECT
private slots:
    void theRegistryListsEveryPanelInTabOrder()
    {
        QCOMPARE(descriptorNames(), kNames);
        QCOMPARE(registeredPanelNames(), kNames);  // the state layer's view, registered at start
        QCOMPARE(lessonPanelNames(), kNames);
        for (const QString& name : kNames) {
            QVERIFY(panelDescriptor(name));
            QCOMPARE(registeredPanel(name)->name, name);
        }
        QVERIFY(!panelDescriptor("hello") && !registeredPanel("hello"));
    }

    void theWindowMakesItsTabsFromTheRegistry()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        auto* tabs = qobject_cast<QTabWidget*>(w.centralWidget());
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), int(kNames.size()));
        QCOMPARE(w.panels().size(), std::size_t(kNames.size()));
        for (int i = 0; i < tabs->count(); ++i) {
            Panel* p = w.panels()[std::size_t(i)];
            QVERIFY(tabs->widget(i) == p);
            QCOMPARE(p->name(), kNames[i]);  // the line's name is the one the panel gives itself
            QCOMPARE(tabs->tabText(i), kTitles[i]);
            QVERIFY(w.showPanel(kNames[i]));
            QVERIFY(w.currentPanel() == p);
        }
        QVERIFY(!w.showPanel("hello"));
        // The typed accessors are the registered panels.
        QVERIFY(static_cast<Panel*>(w.kernelsPanel()) == w.panel("kernels"));
        QVERIFY(static_cast<Panel*>(w.predictPanel()) == w.panel("predict"));
    }

    void theHeadlessRunNamesTheRegisteredPanels()
    {
        WindowFixture fx;
        StartOptions o;
        o.data = orbittest::digitsPng();
        o.panel = "hello";
        const QString message = HeadlessRun(fx.window.get(), o).start();
        QVERIFY2(message.startsWith("--panel: unknown panel"), qPrintable(message));
        QVERIFY2(message.endsWith("panels: " + kNames.join(' ')), qPrintable(message));
        QVERIFY(QTest::qWaitFor([&] { return !fx.window->session()->isLoading() && fx.window->isIdle(); }, 120000));
    }

    void theSessionGoesOverTheRegisteredPanels()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        // The panels that keep a part of the session, and only they, capture and apply it.
        const QStringList keepers{"kernels", "approximation", "training", "predict"};
        for (const PanelDescriptor& d : panelDescriptors()) {
            QCOMPARE(bool(d.capture), keepers.contains(d.name()));
            QCOMPARE(bool(d.apply), keepers.contains(d.name()));
        }
        SessionState s = w.session()->capture();
        s.training.more = {{"inner_folds", "4"}};  // a row of the table the Training panel has no field for
        s.part<KernelsSettings>().autoApply = !s.part<KernelsSettings>().autoApply;
        s.part<ApproximationSettings>().autoApply = !s.part<ApproximationSettings>().autoApply;
        for (const QString& name : kNames) {
            s.panel = name;
            w.session()->apply(s);
            QCOMPARE(w.currentPanel()->name(), name);
            const SessionState back = w.session()->capture();
            QCOMPARE(back.panel, name);
            QVERIFY(back.part<KernelsSettings>() == s.part<KernelsSettings>());
            QVERIFY(back.part<ApproximationSettings>() == s.part<ApproximationSettings>());
            QVERIFY(back.training == s.training);
            QVERIFY(back.part<PredictSettings>() == s.part<PredictSettings>());
        }
    }

    void aNewPanelsLineKeepsItsSettingsInTheSession()
    {
        // Its line alone: the session reads, writes and compares its part without naming it.
        const PanelDescriptor d = panelOf<HelloPanel>("hello").session<HelloSettings>();
        std::unique_ptr<Panel> panel(d.create(nullptr));
        QCOMPARE(panel->name(), QString("hello"));
        static_cast<HelloPanel*>(panel.get())->applySettings({11});
        SessionState s;
        d.capture(panel.get(), s);
        QCOMPARE(s.part<HelloSettings>().count, 11);
        const SessionState back = sessionFromJson(toJson(s));
        QVERIFY(back == s);
        QCOMPARE(sessionDifferences(SessionState{}, back), QStringList{"hello.count"});
        std::unique_ptr<Panel> other(d.create(nullptr));
        d.apply(other.get(), back);
        QCOMPARE(static_cast<HelloPanel*>(other.get())->settings().count, 11);
    }

    void copyAsCommandAndTheViewsOfAGoOverTheRegistry()
    {
        WindowFixture fx;
        MainWindow& w = *fx.window;
        SessionState s = w.session()->capture();
        s.dataPath = orbittest::digitsPng();
        s.training.more = {{"inner_folds", "4"}};
        const std::vector<std::string> train = panelCommand(s, "training").args;
        const auto flag = std::find(train.begin(), train.end(), "--inner-folds");
        QVERIFY(flag != train.end() && flag + 1 != train.end() && *(flag + 1) == "4");
        // Every registered panel has its command (Predict's needs a saved model: field "model").
        for (const QString& name : kNames)
            QVERIFY2(commandRefusal(s, name) != "panel", qPrintable(name));
        QCOMPARE(commandRefusal(s, "hello"), QString("panel"));
        // A view of the pinned A for each panel whose line has one, and for no other.
        const QStringList compared{"group", "kernels", "approximation", "training"};
        for (const QString& name : kNames)
            QCOMPARE(w.comparisonViews()->view(name) != nullptr, compared.contains(name));
        QVERIFY(w.comparisonViews()->kernels());
    }

    void lessonsNameRegisteredPanelsOnly()
    {
        // Every registered panel, in a tour through all of them.
        QCOMPARE(refusal(lessonVisiting(kNames.front(), kNames.mid(1))), QString());
        QCOMPARE(refusal(lessonVisiting(kNames.back(), {kNames.front()})), QString());
        // A panel nobody registered is refused, at the start and in a step.
        QVERIFY(refusal(lessonVisiting("hello", {"data"})).contains("no panel hello"));
        QVERIFY(refusal(lessonVisiting("data", {"hello"})).contains("no panel hello"));
        // Registered (as a new panel's line does), it is a panel a lesson may show, after the others.
        registerPanel({"hello", {}, {}});
        QCOMPARE(lessonPanelNames(), QStringList(kNames) << "hello");
        QCOMPARE(refusal(lessonVisiting("data", {"hello"})), QString());
        QCOMPARE(refusal(lessonVisiting("hello", {"data"})), QString());
        // Without a command of its own, Copy as command says so.
        QCOMPARE(commandRefusal(SessionState{}, "hello"), QString("panel"));
    }
};

QTEST_MAIN(TestPanelRegistry)
#include "test_panel_registry.moc"
