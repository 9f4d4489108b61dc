// The command line with the test-only toy distribution and learner linked in (tests/toy):
// registered by its library alone, "toyshift" is in `sample --help`, parses, samples and is refused
// on a group it does not apply to, and "toymean" is in `train --help` and trains, like a built-in
// distribution and learner; the group "flipx" is in `sample --help`, samples its two elements under
// haar and gives invariant features (issue 45 item 3).
#include "TestPaths.hpp"
#include "CliRunner.hpp"
#include "ToyDistribution.hpp"
#include "ToyGroup.hpp"
#include "ToyLearner.hpp"

#include <QTemporaryDir>

#include <cmath>
#include <fstream>

#include "orbit/registry/Registry.hpp"

#include <QObject>
#include <QTest>

#include <nlohmann/json.hpp>

class ToyCliTest : public QObject {
    Q_OBJECT
private slots:
    void theHelpListsItWithItsParameter()
    {
        QVERIFY(orbit::findDistribution("toyshift"));
        const orbittest::CliResult r = orbittest::runCli({"sample", "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.find("toyshift:d=D") != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("A test-only distribution") != std::string::npos);
        QVERIFY(r.out.find("How far each copy is shifted along x") != std::string::npos);
        // Listed after the built-in ones, in the --dist option's synopsis too.
        QVERIFY(r.out.find("toyshift") > r.out.find("delta"));
    }

    void itSamplesOnTheTranslationGroup()
    {
        const orbittest::CliResult r =
            orbittest::runCli({"sample", "--group", "translation", "--dist", "toyshift:d=2", "-n", "40", "--json", "--seed", "5"});
        QCOMPARE(r.status, 0);
        const nlohmann::json j = nlohmann::json::parse(r.out);
        QCOMPARE(j["dist"].get<std::string>(), std::string("toyshift:d=2"));
        int left = 0, right = 0;
        for (const auto& s : j["samples"]) {
            const double dx = s[0].get<double>(), dy = s[1].get<double>();
            QCOMPARE(dy, 0.0);
            QVERIFY(dx == 2.0 || dx == -2.0);
            (dx > 0 ? right : left) += 1;
        }
        QVERIFY(left > 0 && right > 0);
        // A factor of the affine group, as the translation factor's distribution.
        const orbittest::CliResult affine =
            orbittest::runCli({"sample", "--group", "affine", "--dist", "translation=toyshift:d=3", "-n", "3"});
        QCOMPARE(affine.status, 0);
    }

    void itIsCheckedLikeABuiltInOne()
    {
        const orbittest::CliResult range =
            orbittest::runCli({"sample", "--group", "translation", "--dist", "toyshift:d=500", "-n", "2"});
        QVERIFY(range.status != 0);
        QVERIFY2(range.err.find("toyshift.d") != std::string::npos, range.err.c_str());
        const orbittest::CliResult key =
            orbittest::runCli({"sample", "--group", "translation", "--dist", "toyshift:e=1", "-n", "2"});
        QVERIFY(key.status != 0);
        const orbittest::CliResult group =
            orbittest::runCli({"sample", "--group", "rotation", "--dist", "toyshift:d=1", "-n", "2"});
        QVERIFY(group.status != 0);
        QVERIFY2(group.err.find("translation") != std::string::npos, group.err.c_str());
    }

    void theHelpListsTheToyGroupAndHaarOnIt()
    {
        QVERIFY(orbit::findGroup(orbittest::kFlipXName));
        const orbittest::CliResult r = orbittest::runCli({"sample", "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.find("flipx") != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("A test-only group: an image and its mirror image") != std::string::npos);
        QVERIFY(r.out.find("flipx") > r.out.find("orthogonal"));  // after the built-in ones
        // Haar names it among its groups: a registered group with a Haar probability.
        const std::size_t haar = r.out.find("  haar");
        QVERIFY(haar != std::string::npos);
        const std::string entry = r.out.substr(haar, r.out.find("  noisysort", haar) - haar);  // wrapped lines
        QVERIFY2(entry.find("orthogonal, flipx]") != std::string::npos, entry.c_str());
    }

    void theToyGroupSamplesItsTwoElementsUnderHaar()
    {
        const orbittest::CliResult r =
            orbittest::runCli({"sample", "--group", "flipx", "--dist", "haar", "-n", "200", "--json", "--seed", "3"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const nlohmann::json j = nlohmann::json::parse(r.out);
        QCOMPARE(j["group"].get<std::string>(), std::string("flipx"));
        int flipped = 0;
        for (const auto& s : j["samples"]) {
            QVERIFY(s.is_number_integer());
            QVERIFY(s.get<int>() == 0 || s.get<int>() == 1);
            flipped += s.get<int>();
        }
        QVERIFY(flipped > 60 && flipped < 140);  // each with probability 1/2: 100 +- 7 expected
        const orbittest::CliResult text = orbittest::runCli({"sample", "--group", "flipx", "--dist", "haar", "-n", "3"});
        QCOMPARE(text.status, 0);
        // The delta applies to every group: only the identity.
        const orbittest::CliResult delta = orbittest::runCli({"sample", "--group", "flipx", "--dist", "delta", "-n", "3"});
        QVERIFY2(delta.status == 0, delta.err.c_str());
        QCOMPARE(delta.out, std::string("0\n0\n0\n"));
        // A distribution that does not apply is refused with the groups it needs, which are not flipx.
        const orbittest::CliResult vm =
            orbittest::runCli({"sample", "--group", "flipx", "--dist", "vonmises:kappa=1", "-n", "2"});
        QVERIFY(vm.status != 0);
        QVERIFY2(vm.err.find("rotation") != std::string::npos, vm.err.c_str());
    }

    void theToyGroupGivesInvariantFeatures()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string out = dir.filePath("f.npy").toStdString();
        const orbittest::CliResult r =
            orbittest::runCli({"features", "--data", orbittest::bundledFile("digits.png"), "--group", "flipx", "--dist",
                               "haar", "--features", "irf:s=8,r=2", "--out", out});
        QVERIFY2(r.status == 0, r.err.c_str());
        QVERIFY(std::ifstream(out).good());
        const orbittest::CliResult digits = orbittest::runCli({"sample", "--group", "flipx", "--dist", "haar", "--data",
                                                              orbittest::bundledFile("digits.png"), "--index", "4", "-n", "2"});
        QVERIFY2(digits.status == 0, digits.err.c_str());
    }

    void theTrainHelpListsTheToyLearner()
    {
        QVERIFY(orbit::findLearner(orbittest::kToyMeanName));
        const orbittest::CliResult r = orbittest::runCli({"train", "--help"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.find("toymean") != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("A test-only learner") != std::string::npos);
        QVERIFY(r.out.rfind("toymean") > r.out.find("Gaussian-process regression"));  // after the built-in ones
    }

    void theToyLearnerTrainsAndIsScoredLikeABuiltInOne()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string csv = dir.filePath("targets.csv").toStdString();
        {
            std::ofstream f(csv);
            for (int i = 0; i < 60; ++i) f << std::sin(1.3 * i) << "," << std::cos(0.7 * i) << "," << (i % 2 ? 5.5 : 7.5) << "\n";
        }
        const orbittest::CliResult r =
            orbittest::runCli({"train", "--data", csv, "--features", "raw", "--learner", "toymean", "--eval", "kfold:3", "--json"});
        QVERIFY2(r.status == 0, r.err.c_str());
        const nlohmann::json j = nlohmann::json::parse(r.out);
        QCOMPARE(j["metric"].get<std::string>(), std::string("rmse"));
        QCOMPARE(j["folds"].size(), std::size_t(3));
        QVERIFY(std::abs(j["mean"].get<double>() - 1.0) < 0.1);  // targets 5.5 and 7.5 around a mean near 6.5
        // Its models are not saved: refused with its name, not by a branch on it.
        const orbittest::CliResult save = orbittest::runCli(
            {"train", "--data", csv, "--features", "raw", "--learner", "toymean", "--save-model", dir.filePath("m.npz").toStdString()});
        QVERIFY(save.status != 0);
        QVERIFY2(save.err.find("toymean's models are not saved") != std::string::npos, save.err.c_str());
    }
};

QTEST_GUILESS_MAIN(ToyCliTest)
#include "test_toy_cli.moc"
