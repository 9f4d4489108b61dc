// The core names a refused setting in neutral words (orbit/util/Error.hpp); the CLI prints it as
// the flag the user typed, with the rest of the field kept: `--dist vonmises.kappa`, `--grid
// lambda`, `--n` for the subset of the data, `--out` for the file to write. Exit status 2, one line.
#include "CliRunner.hpp"
#include "TestPaths.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>
#include <QByteArray>
#include <QIODevice>
#include <QObject>
#include <QString>
#include <QStringList>

#include <opencv2/imgcodecs.hpp>

#include <cstdio>
#include <functional>

#include <unistd.h>

namespace {

/// What `f` wrote on file descriptor 2 itself (a library printing there directly, not through the
/// CLI's error stream).
QByteArray stderrOf(const std::function<void()>& f)
{
    std::fflush(stderr);
    QTemporaryFile capture;
    if (!capture.open())
        return "could not capture stderr";
    const int saved = dup(2);
    dup2(capture.handle(), 2);
    f();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    capture.seek(0);
    return capture.readAll();
}

} // namespace

class TestCliErrors : public QObject {
    Q_OBJECT

private slots:
    /// The issue's test: a truncated PNG gives exactly one line on stderr (and so does a damaged PNG or
    /// a cut JPEG): the libraries print nothing of their own.
    void damagedImagesGiveExactlyOneLineOnStderr_data();
    void damagedImagesGiveExactlyOneLineOnStderr();
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

void TestCliErrors::damagedImagesGiveExactlyOneLineOnStderr_data()
{
    QTest::addColumn<QString>("cut");   // how the file is damaged
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("words");  // in the one line
    QTest::newRow("truncated png") << "truncate" << "png" << "cut short";
    QTest::newRow("damaged png") << "flip" << "png" << "damaged PNG data";
    QTest::newRow("truncated jpeg") << "truncate" << "jpg" << "cut short";
}

void TestCliErrors::damagedImagesGiveExactlyOneLineOnStderr()
{
    QFETCH(QString, cut);
    QFETCH(QString, format);
    QFETCH(QString, words);
    QTemporaryDir dir;
    // A real picture (the bundled digits sheet), re-encoded in the format, then damaged.
    const cv::Mat sheet = cv::imread(orbittest::bundledFile("digits.png"), cv::IMREAD_GRAYSCALE);
    QVERIFY(!sheet.empty());
    std::vector<uchar> bytes;
    QVERIFY(cv::imencode("." + format.toStdString(), sheet(cv::Rect(0, 0, 400, 300)), bytes));
    QByteArray file(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size()));
    if (cut == "truncate")
        file.truncate(file.size() * 6 / 10);
    else
        file[file.size() / 2] = static_cast<char>(file[file.size() / 2] ^ 0x5a);  // inside the pixel data
    const QString path = dir.filePath("damaged." + format);
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(file) == file.size());
    out.close();

    orbittest::CliResult r;
    const QByteArray library = stderrOf([&] { r = orbittest::runCli({"info", path.toStdString()}); });
    QVERIFY2(library.isEmpty(), library.constData());  // no "libpng error: Read Error" beside ours
    QCOMPARE(r.status, 2);
    const QString err = QString::fromStdString(r.err);
    QCOMPARE(err.count('\n'), 1);
    QVERIFY2(err.contains(path) && err.contains(words), qPrintable(err));
}

QTEST_APPLESS_MAIN(TestCliErrors)
#include "test_cli_errors.moc"
