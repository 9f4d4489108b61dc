// The command line with the test-only toy distribution linked in (tests/toy): registered by its
// library alone, "toyshift" is in `sample --help`, parses, samples and is refused on a group it
// does not apply to, like a built-in distribution (issue 45 item 3).
#include "CliRunner.hpp"
#include "ToyDistribution.hpp"

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
};

QTEST_GUILESS_MAIN(ToyCliTest)
#include "test_toy_cli.moc"
