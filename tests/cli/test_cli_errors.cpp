// The core names a refused setting in neutral words (orbit/util/Error.hpp); the CLI prints it as
// the flag the user typed, with the rest of the field kept: `--dist vonmises.kappa`, `--grid
// lambda`, `--n` for the subset of the data, `--out` for the file to write. Exit status 2, one line.
#include "CliRunner.hpp"
#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QtTest>

class TestCliErrors : public QObject {
    Q_OBJECT

private slots:
    void coreFieldsArePrintedAsFlags_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("prefix");  // how stderr starts
        const QString g2 = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        QTest::newRow("distribution parameter")
            << QStringList{"sample", "--group", "rotation", "--dist", "vonmises:kappa=-1", "-n", "3"}
            << "orbitlab-cli sample: --dist vonmises.kappa: ";
        QTest::newRow("group parameter") << QStringList{"sample", "--group", "cyclic:n=0", "--dist", "haar", "-n", "3"}
                                         << "orbitlab-cli sample: --group cyclic.n: ";
        QTest::newRow("grid axis")
            << QStringList{"train", "--data", g2, "--features", "raw", "--learner", "ridge", "--grid", "lambda=-1"}
            << "orbitlab-cli train: --grid lambda: ";
        QTest::newRow("subset") << QStringList{"train", "--data", g2, "--features", "raw", "--n", "100000"}
                                << "orbitlab-cli train: --n: ";
        QTest::newRow("feature key") << QStringList{"features", "--data", g2, "--features", "rf:s=0", "--out", "@/f.npy"}
                                     << "orbitlab-cli features: --features rf.s: ";
        QTest::newRow("output file")
            << QStringList{"features", "--data", g2, "--features", "raw", "--out", "@/missing/f.npy"}
            << "orbitlab-cli features: --out: ";
        QTest::newRow("distribution without group")
            << QStringList{"features", "--data", g2, "--features", "raw", "--dist", "haar", "--out", "@/f.npy"}
            << "orbitlab-cli features: --group: ";
    }
    void coreFieldsArePrintedAsFlags()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, prefix);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::vector<std::string> argv;
        for (QString a : args) argv.push_back(a.replace("@", dir.path()).toStdString());
        const orbittest::CliResult r = orbittest::runCli(argv);
        const QString err = QString::fromStdString(r.err);
        QVERIFY2(r.status == 2, qPrintable(QString("exit %1, stderr: %2").arg(r.status).arg(err)));
        QVERIFY2(err.startsWith(prefix), qPrintable(err));
        QVERIFY2(err.count('\n') == 1 && err.endsWith('\n'), qPrintable(err));
    }
};

QTEST_APPLESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
