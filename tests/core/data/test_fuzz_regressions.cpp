// Replays every reproducer the fuzzers found (tests/fixtures/data/fuzz-regressions/<target>/) through
// the property its fuzz target checks (tests/fuzz/FuzzChecks.hpp): a loader either returns a dataset
// whose invariants hold or throws LoadError / SpecError -- for these inputs, which once crashed,
// leaked, hung or allocated without bound, it must refuse them with a message naming the file; the
// spec parsers return an object or throw SpecError; the saved-model reader loads a consistent model
// or throws LoadError. A crash here is a regression of the fix.
#include "../../fuzz/FuzzChecks.hpp"
#include "../../fuzz/FuzzInput.hpp"
#include "TestPaths.hpp"

#include <QDir>
#include <QFile>
#include <QTest>
#include <QByteArray>
#include <QIODevice>
#include <QObject>
#include <QString>

namespace {

const QString kRoot = QString::fromStdString(orbittest::fixture("data/fuzz-regressions"));

} // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void reproducers_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("path");
        int rows = 0;
        const QDir root(kRoot);
        for (const QString& target : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            const QDir dir(root.filePath(target));
            for (const QString& file : dir.entryList(QDir::Files, QDir::Name)) {
                if (file.endsWith(".md") || file.endsWith(".expect")) continue;
                QTest::newRow(qPrintable(target + "/" + file)) << target << dir.filePath(file);
                ++rows;
            }
        }
        if (rows == 0)
            QTest::newRow("no reproducers") << QString() << QString();
    }

    void reproducers()
    {
        QFETCH(QString, target);
        QFETCH(QString, path);
        if (target.isEmpty())
            QSKIP("no reproducers saved");
        try {
            if (target == "spec") {
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QByteArray bytes = f.readAll();
                orbitfuzz::checkSpecs(orbitfuzz::lines(reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                                                       std::size_t(bytes.size()), 4));
            } else {
                // Every saved loader (or model) reproducer is malformed: it must be refused, not
                // loaded, and when <file>.expect exists the message must contain its text (the fix's
                // own diagnosis, so the test fails if the input only happens to be refused later,
                // after the damage).
                std::string error;
                if (target == "model") {
                    QFile f(path);
                    QVERIFY(f.open(QIODevice::ReadOnly));
                    const QByteArray bytes = f.readAll();
                    QVERIFY2(!orbitfuzz::checkModel(std::string(bytes.constData(), std::size_t(bytes.size())), &error),
                             qPrintable(path + " loaded"));
                } else {
                    const orbitfuzz::Loader load = orbitfuzz::loaderFor(target.toStdString());
                    QVERIFY2(load, qPrintable("no loader for folder " + target));
                    QVERIFY2(!orbitfuzz::checkLoad(load, path.toStdString(), &error), qPrintable(path + " loaded"));
                }
                QFile expect(path + ".expect");
                if (expect.open(QIODevice::ReadOnly)) {
                    const QString want = QString::fromUtf8(expect.readAll()).trimmed();
                    QVERIFY2(QString::fromStdString(error).contains(want),
                             qPrintable("expected '" + want + "' in: " + QString::fromStdString(error)));
                }
            }
        } catch (const orbitfuzz::Finding& f) {
            QFAIL(f.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestFuzzRegressions)
#include "test_fuzz_regressions.moc"
