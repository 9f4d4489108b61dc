// Bounded resources at the command line: absurd parameters (kappa < 0, r = 0, s = 1e9, sigma = NaN,
// bins = 0, ...) exit with status 2 and ONE stderr line naming the option (or spec key) and the
// offending value -- never a crash, a hang, or an attempt to allocate what the machine does not
// have. Each row is a full invocation as a user would type it; the data sets are small and real.
// A row whose command no longer exists fails (it is not skipped): removing a command must remove or
// move its rows, so a refusal the table checks never silently stops being checked.
#include "CliRunner.hpp"
#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QDir>
#include <QObject>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace {

const std::string kDigits = orbittest::bundledFile("digits.png");
const std::string kG2 = orbittest::bundledFile("g2.extxyz");

/// `orbitlab-cli NAME --help` succeeds: the command exists in this build.
bool commandExists(const std::string& name)
{
    const orbittest::CliResult r = orbittest::runCli({name, "--help"});
    return r.status == 0 && r.err.find("unknown command") == std::string::npos;
}

} // namespace

class TestCliAbsurd : public QObject {
    Q_OBJECT

private slots:
    void absurdParameters_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");  // the option or spec key the message must name
        QTest::addColumn<QString>("value");   // the offending value the message must quote
        QTest::addColumn<QString>("mentions");  // and, for memory refusals, how much it would need
        const QString digits = QString::fromStdString(kDigits);
        const QString g2 = QString::fromStdString(kG2);
        auto row = [](const char* name, QStringList args, const char* option, const char* value,
                      const char* mentions = "") {
            QTest::newRow(name) << args << QString(option) << QString(value) << QString(mentions);
        };
        // distributions
        row("kappa < 0", {"sample", "--group", "rotation", "--dist", "vonmises:kappa=-1", "-n", "3"}, "kappa", "-1");
        row("kappa NaN", {"sample", "--group", "rotation", "--dist", "vonmises:kappa=nan", "-n", "3"}, "kappa", "nan");
        row("kappa inf", {"sample", "--group", "rotation", "--dist", "vonmises:kappa=inf", "-n", "3"}, "kappa", "inf");
        row("sigma NaN", {"sample", "--group", "translation", "--dist", "gaussian:sigma=NaN", "-n", "3"}, "sigma", "NaN");
        row("sigma < 0", {"sample", "--group", "translation", "--dist", "gaussian:sigma=-2", "-n", "3"}, "sigma", "-2");
        row("uniform a < 0", {"sample", "--group", "rotation", "--dist", "uniform:a=-0.5", "-n", "3"}, "a", "-0.5");
        row("lognormal sigma NaN", {"sample", "--group", "scale", "--dist", "lognormal:mu=0,sigma=nan", "-n", "3"}, "sigma", "nan");
        row("lognormal mu huge", {"sample", "--group", "scale", "--dist", "lognormal:mu=1e300,sigma=1", "-n", "3"}, "mu", "1e+300");
        row("noisysort sigma NaN", {"sample", "--group", "permutation", "--dist", "noisysort:sigma=nan", "-n", "3",
                                    "--data", g2, "--index", "0"}, "sigma", "nan");
        // groups
        row("cyclic n = 0", {"sample", "--group", "cyclic:n=0", "--dist", "haar", "-n", "3"}, "n", "0");
        row("cyclic n = 1e12", {"sample", "--group", "cyclic:n=1000000000000", "--dist", "haar", "-n", "3"}, "n", "1000000000000");
        row("orthogonal k = 0", {"features", "--data", g2, "--group", "orthogonal:k=0", "--dist", "haar",
                                 "--features", "irf:s=4,r=2", "--out", "@/f.npy"}, "k", "0");
        row("orthogonal k = 1e9", {"features", "--data", g2, "--group", "orthogonal:k=1000000000", "--dist", "haar",
                                   "--features", "irf:s=4,r=2", "--out", "@/f.npy"}, "k", "1000000000");
        // counts
        row("sample n = 0", {"sample", "--group", "rotation", "--dist", "haar", "-n", "0"}, "-n", "0");
        row("sample n = 1e9", {"sample", "--group", "rotation", "--dist", "haar", "-n", "1000000000"}, "-n", "1000000000");
        row("orbit r = 0", {"orbit", "--data", digits, "--group", "rotation", "--dist", "haar", "-r", "0",
                            "--out", "@/o.png"}, "-r", "0");
        row("orbit r = 1e9", {"orbit", "--data", digits, "--group", "rotation", "--dist", "haar", "-r", "1000000000",
                              "--out", "@/o.png"}, "-r", "1000000000");
        row("kernel r = 0", {"kernel", "--data", digits, "--n", "10", "--group", "rotation", "--dist", "haar", "-r", "0",
                             "--out", "@/k.csv"}, "-r", "0");
        row("kernel n = 0", {"kernel", "--data", digits, "--n", "0", "--group", "rotation", "--dist", "haar",
                             "--out", "@/k.csv"}, "--n", "0");
        row("kernel n = 1e9", {"kernel", "--data", digits, "--n", "1000000000", "--group", "rotation", "--dist",
                               "haar", "--out", "@/k.csv"}, "--n", "1000000000");
        row("kernel r = 1e9", {"kernel", "--data", digits, "--n", "10", "--group", "rotation", "--dist",
                               "haar", "-r", "1000000000", "--out", "@/k.csv"}, "-r", "1000000000");
        row("threads < 0", {"sample", "--group", "rotation", "--dist", "haar", "-n", "3", "--threads", "-1"}, "--threads", "-1");
        row("seed not a number", {"sample", "--group", "rotation", "--dist", "haar", "-n", "3", "--seed", "abc"}, "--seed", "abc");
        // kernels
        row("gaussian sigma = 0", {"features", "--data", g2, "--features", "rf:s=8", "--kernel", "gaussian:sigma=0",
                                   "--out", "@/f.npy"}, "sigma", "0");
        row("gaussian sigma NaN", {"features", "--data", g2, "--features", "rf:s=8", "--kernel", "gaussian:sigma=nan",
                                   "--out", "@/f.npy"}, "sigma", "nan");
        row("median = -1", {"features", "--data", g2, "--features", "rf:s=8", "--kernel", "gaussian:median=-1",
                            "--out", "@/f.npy"}, "median", "-1");
        row("polynomial degree 1e9", {"features", "--data", g2, "--features", "nystrom:s=8", "--kernel",
                                      "polynomial:degree=1000000000", "--out", "@/f.npy"}, "degree", "1000000000");
        // feature maps
        row("rf s = 1e9", {"features", "--data", g2, "--features", "rf:s=1000000000", "--out", "@/f.npy"}, "s", "1000000000");
        row("rf s = 0", {"features", "--data", g2, "--features", "rf:s=0", "--out", "@/f.npy"}, "s", "0");
        row("irf r = 0", {"features", "--data", digits, "--group", "rotation", "--dist", "vonmises:kappa=1",
                          "--features", "irf:s=10,r=0", "--out", "@/f.npy"}, "r", "0");
        row("irf s r d too large", {"features", "--data", digits, "--group", "rotation", "--dist", "vonmises:kappa=1",
                                    "--features", "irf:s=1000000,r=100000", "--out", "@/f.npy"}, "irf.s", "1000000", "GiB");
        row("nystrom s = 1e9", {"features", "--data", g2, "--features", "nystrom:s=1000000000", "--out", "@/f.npy"}, "s", "1000000000");
        row("gicdf bins = 0", {"features", "--data", g2, "--group", "permutation", "--dist", "noisysort:sigma=1",
                               "--features", "gicdf:m=4,bins=0,r=3", "--out", "@/f.npy"}, "bins", "0");
        row("gicdf m = 1e9", {"features", "--data", g2, "--group", "permutation", "--dist", "noisysort:sigma=1",
                              "--features", "gicdf:m=1000000000,bins=5,r=3", "--out", "@/f.npy"}, "m", "1000000000");
        row("kif k = 0", {"features", "--data", g2, "--group", "permutation", "--dist", "noisysort:sigma=1",
                          "--features", "kif:k=0,eta=mean,r=3", "--out", "@/f.npy"}, "k", "0");
        row("rf2 s = 1e9", {"features", "--data", g2, "--features", "rf:s=8+rf2:s=1000000000", "--out", "@/f.npy"}, "s", "1000000000");
        // approximation error
        row("approx s-list 0", {"approx-error", "--data", digits, "--n", "10", "--group", "rotation", "--dist", "haar",
                                "--s-list", "0,10", "--r-list", "2", "--ref-r", "4", "--csv", "@/a.csv"}, "--s-list", "0");
        row("approx ref-r 0", {"approx-error", "--data", digits, "--n", "10", "--group", "rotation", "--dist", "haar",
                               "--s-list", "10", "--r-list", "2", "--ref-r", "0", "--csv", "@/a.csv"}, "--ref-r", "0");
        row("approx r-list 1e9", {"approx-error", "--data", digits, "--n", "10", "--group", "rotation", "--dist", "haar",
                                  "--s-list", "10", "--r-list", "1000000000", "--ref-r", "4", "--csv", "@/a.csv"},
            "--r-list", "1000000000");
        // the figures' commands
        row("density n = 1e9", {"density", "--group", "rotation", "--dist", "haar", "-n", "1000000000", "--out", "@/d.csv"},
            "-n", "1000000000");
        row("embed r = 1e9", {"embed", "--data", digits, "--indices", "1,2", "--group", "rotation", "--dist", "haar", "-r",
                              "1000000000", "--out", "@/e.csv"}, "-r", "1000000000");
        row("embed stack too large", {"embed", "--data", digits, "--indices", "1,2,3", "--group", "rotation", "--dist", "haar",
                                      "-r", "100000", "--out", "@/e.csv"}, "-r", "100000", "values");
        row("probe points = 1e9", {"probe", "--data", digits, "--group", "rotation", "--dist", "haar", "--points",
                                   "1000000000", "--out", "@/p.csv"}, "--points", "1000000000");
        row("probe s = 1e9", {"probe", "--data", digits, "--group", "rotation", "--dist", "haar", "--features",
                              "irf:s=1000000000", "--out", "@/p.csv"}, "s", "1000000000");
        // training
        row("train kfold:1", {"train", "--data", g2, "--features", "raw", "--learner", "ridge", "--eval", "kfold:1"}, "--eval", "kfold:1");
        row("train holdout NaN", {"train", "--data", g2, "--features", "raw", "--learner", "ridge", "--eval", "holdout:nan"},
            "--eval", "holdout:nan");
        row("train lambda < 0", {"train", "--data", g2, "--features", "raw", "--learner", "ridge", "--grid", "lambda=-1"},
            "--grid", "-1");
    }

    void absurdParameters()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QString, mentions);
        QVERIFY2(commandExists(args.front().toStdString()),
                 qPrintable("orbitlab-cli has no command " + args.front() + ": the row checks a command that was removed"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<std::string> argv;
        for (QString a : args)
            argv.push_back(a.replace("@", dir.path()).toStdString());
        const orbittest::CliResult r = orbittest::runCli(argv);
        const QString err = QString::fromStdString(r.err);
        QVERIFY2(r.status == 2, qPrintable(QString("exit %1, stderr: %2").arg(r.status).arg(err)));
        QVERIFY2(err.count('\n') == 1 && err.endsWith('\n'), qPrintable("expected one line, got: " + err));
        QVERIFY2(err.contains(option), qPrintable("message does not name " + option + ": " + err));
        QVERIFY2(err.contains(value), qPrintable("message does not quote " + value + ": " + err));
        QVERIFY2(err.contains(mentions), qPrintable("message does not say " + mentions + ": " + err));
        QVERIFY2(!err.contains("internal error"), qPrintable(err));
        QVERIFY2(!err.contains("unknown command"), qPrintable(err));
        // Nothing half-written is left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);
    }
};

QTEST_APPLESS_MAIN(TestCliAbsurd)
#include "test_cli_absurd.moc"
