// The one table of training settings (orbit/training/TrainSettings.hpp) is what every front end
// reads: each row set to a value other than its default reaches TrainConfig alike through the CLI's
// flags, an experiment file's keys and the table's own parser; `train --help` lists every row;
// Copy as Python writes every row that is not at its default; bad values name the row's flag.
// The sample values are made from each row's type and range, so a new row is covered unchanged.
#include "CliRunner.hpp"
#include "TestPaths.hpp"

#include "orbit/cli/ExperimentConfig.hpp"
#include "orbit/training/TrainSettings.hpp"
#include "orbit/training/TrainingPython.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QObject>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace {

/// A valid value of the row that is not its default: from its type and range alone (a text row
/// keeps its default; a grid is the default learner's axis).
std::string sampleText(const orbit::TrainSetting& s)
{
    switch (s.type) {
    case orbit::SettingType::Text: return s.defaultText();
    case orbit::SettingType::Integer: return std::to_string(static_cast<long long>(s.minimum) + 2);
    case orbit::SettingType::Number: return orbit::formatNumber((s.minimum + s.maximum) / 2);
    case orbit::SettingType::Numbers: return orbit::formatNumber(s.maximum);
    case orbit::SettingType::Grid: return "lambda=0.5,2";
    }
    return {};
}

/// The sample as JSON, in the type an experiment file gives it.
nlohmann::json sampleJson(const orbit::TrainSetting& s)
{
    const orbit::SettingValue v = orbit::readSetting(s, sampleText(s));
    switch (s.type) {
    case orbit::SettingType::Text: return v.text;
    case orbit::SettingType::Integer: return v.integer;
    case orbit::SettingType::Number: return v.number;
    case orbit::SettingType::Numbers: return v.numbers;
    case orbit::SettingType::Grid: {
        nlohmann::json grid = nlohmann::json::object();
        for (const orbit::ParamAxis& a : v.grid) grid[a.name] = a.values;
        return grid;
    }
    }
    return nullptr;
}

} // namespace

class TestCliTrainSettings : public QObject {
    Q_OBJECT

private slots:
    void rowsAreNamedOnceAndSay()
    {
        std::set<std::string> keys, flags;
        for (const orbit::TrainSetting& s : orbit::trainSettings()) {
            QVERIFY2(keys.insert(s.key).second, s.key.c_str());
            QVERIFY2(flags.insert(s.flag).second, s.flag.c_str());
            QVERIFY2(!s.help.empty() && s.get && s.set, s.key.c_str());
            QCOMPARE(orbit::findTrainSetting(s.key), &s);
            QCOMPARE(orbit::findTrainSetting(s.flag), &s);
            // The default is a value of the row's own type and range, and reads back as itself.
            QCOMPARE(orbit::readSetting(s, s.defaultText()).text, s.defaultText());
            QCOMPARE(orbit::writesSetting(s, orbit::TrainConfig{}), s.alwaysWritten);
        }
    }

    // Each row's sample, set through the table, is what get() gives back, and makes the row written.
    void everyRowSetsItsField()
    {
        for (const orbit::TrainSetting& s : orbit::trainSettings()) {
            if (s.type == orbit::SettingType::Text) continue;  // no invented specs
            orbit::TrainConfig c;
            orbit::applySetting(c, s, sampleText(s));
            QVERIFY2(s.get(c) != s.defaultText(), s.key.c_str());
            QCOMPARE(s.get(c), orbit::readSetting(s, sampleText(s)).text);
            QVERIFY(orbit::writesSetting(s, c));
            // The other rows are untouched.
            for (const orbit::TrainSetting& other : orbit::trainSettings())
                if (&other != &s) QCOMPARE(other.get(c), other.defaultText());
        }
    }

    void badValuesNameTheRow()
    {
        for (const orbit::TrainSetting& s : orbit::trainSettings()) {
            std::string bad;
            switch (s.type) {
            case orbit::SettingType::Text: continue;
            case orbit::SettingType::Integer: bad = "2.5"; break;
            case orbit::SettingType::Number:
            case orbit::SettingType::Numbers: bad = orbit::formatNumber(s.maximum + 1); break;
            case orbit::SettingType::Grid: bad = "lambda"; break;
            }
            try {
                orbit::readSetting(s, bad);
                QFAIL(("no error for " + s.key + " = " + bad).c_str());
            } catch (const orbit::SpecError& e) {
                QVERIFY2(e.field().rfind(s.flag, 0) == 0 || e.field().rfind("grid", 0) == 0, e.what());
            }
        }
        // Through the CLI: the flag and the value in one line.
        const auto r = orbittest::runCli({"train", "--data", orbittest::bundledFile("digits.png"), "--inner-folds", "99"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.find("--inner-folds") != std::string::npos && r.err.find("99") != std::string::npos, r.err.c_str());
    }

    void trainHelpListsEveryRow()
    {
        const auto r = orbittest::runCli({"train", "--help"});
        QCOMPARE(r.status, 0);
        for (const orbit::TrainSetting& s : orbit::trainSettings())
            QVERIFY2(r.out.find("--" + s.flag) != std::string::npos, s.flag.c_str());
    }

    // An experiment file with every row's key gives the config the table's parser gives, and Copy as
    // Python writes every row of it under its key.
    void experimentFilesAndPythonReadTheTable()
    {
        QTemporaryDir dir;
        nlohmann::json setting = {{"name", "all"}};
        orbit::TrainConfig expected;
        for (const orbit::TrainSetting& s : orbit::trainSettings()) {
            setting[s.key] = sampleJson(s);
            orbit::applySetting(expected, s, sampleText(s));
        }
        const nlohmann::json file = {{"data", {{"file", orbittest::bundledFile("digits.png")}}}, {"settings", {setting}}};
        const std::string path = dir.filePath("e.json").toStdString();
        std::ofstream(path) << file.dump();
        const orbit::cli::ExperimentConfig c = orbit::cli::loadExperimentConfig(path);
        QCOMPARE(c.settings.size(), std::size_t(1));
        QCOMPARE(orbit::cli::settingFingerprint(c.data, c.settings[0].config),
                 orbit::cli::settingFingerprint(c.data, expected));

        const std::string python = orbit::trainingAsPython(expected, c.data);
        for (const orbit::TrainSetting& s : orbit::trainSettings())
            if (orbit::writesSetting(s, expected))
                QVERIFY2(python.find(s.key + "=") != std::string::npos, (s.key + "\n" + python).c_str());

        // A value of the wrong type names the file and the key.
        nlohmann::json wrong = file;
        wrong["settings"][0]["inner_folds"] = "three";
        std::ofstream(path) << wrong.dump();
        try {
            orbit::cli::loadExperimentConfig(path);
            QFAIL("a string for inner_folds was taken");
        } catch (const orbit::LoadError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("inner_folds") != std::string::npos && what.find("e.json") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliTrainSettings)
#include "test_cli_train_settings.moc"
