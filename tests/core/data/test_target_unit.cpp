// The unit of regression targets: stated by the file (extxyz energy_unit=) or by the README beside it
// (a line naming the field in backquotes with exactly one known unit), else empty — never guessed.
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>

#include <fstream>

using namespace orbit;

namespace {

/// Two molecules (H2, water) whose comment lines end with `extra1` / `extra2`.
std::string molecules(const std::string& extra1, const std::string& extra2)
{
    return "2\nenergy=104.2 name=H2 " + extra1 + "\nH 0 0 0\nH 0 0 0.74\n"
           "3\nenergy=232.6 name=water " + extra2 + "\nO 0 0 0.1173\nH 0 0.7572 -0.4692\nH 0 -0.7572 -0.4692\n";
}

void write(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    std::ofstream(dir.filePath(name).toStdString(), std::ios::binary) << text;
}

std::string unitOf(const QTemporaryDir& dir) { return loadDataset(dir.filePath("m.extxyz").toStdString()).targetUnit; }

} // namespace

class TestTargetUnit : public QObject {
    Q_OBJECT
private slots:
    void noStatementNoUnit()
    {
        QTemporaryDir dir;
        write(dir, "m.extxyz", molecules("", ""));
        QCOMPARE(unitOf(dir), std::string());
        // A README that does not speak of `energy`, or mentions a unit elsewhere, says nothing.
        write(dir, "README.md", "# Molecules\nEnergies are atomisation energies.\nTemperatures in eV? no: `name` is free text.\n");
        QCOMPARE(unitOf(dir), std::string());
    }
    void headerStatesTheUnit()
    {
        QTemporaryDir dir;
        write(dir, "m.extxyz", molecules("energy_unit=eV", "energy_unit=eV"));
        QCOMPARE(unitOf(dir), std::string("eV"));
        // The header wins over a README that says otherwise.
        write(dir, "README.md", "- `energy`: in kcal/mol\n");
        QCOMPARE(unitOf(dir), std::string("eV"));
    }
    void headerUnitsMustAgree()
    {
        QTemporaryDir dir;
        write(dir, "m.extxyz", molecules("energy_unit=eV", "energy_unit=kcal/mol"));
        try {
            loadDataset(dir.filePath("m.extxyz").toStdString());
            QFAIL("mixed units loaded");
        } catch (const LoadError& e) {
            QCOMPARE(e.kind(), LoadErrorKind::BadValue);
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains("line 6") && what.contains("kcal/mol"), qPrintable(what));
        }
    }
    void readmeStatesTheUnit_data()
    {
        QTest::addColumn<QString>("readmeName");
        QTest::addColumn<QString>("readme");
        QTest::addColumn<QString>("unit");
        QTest::newRow("qm7 style") << "README.md" << "- `energy`: PBE0 atomisation energy in kcal/mol (the target).\n"
                                                     "- `dftb_energy`: the DFTB energy in eV.\n" << "kcal/mol";
        QTest::newRow("g2 style") << "README" << "Header line fields: `energy` (kJ/mol), `name`, `set`.\n" << "kJ/mol";
        QTest::newRow("two lines agree") << "README.txt" << "`energy` in eV\n\nagain: `energy` (eV)\n" << "eV";
        QTest::newRow("two units: none") << "README.md" << "`energy` in eV or kcal/mol\n" << "";
        QTest::newRow("units in other words: none") << "README.md" << "`energy` in kcal/mol2 or meVs\n" << "";
    }
    void readmeStatesTheUnit()
    {
        QFETCH(QString, readmeName);
        QFETCH(QString, readme);
        QFETCH(QString, unit);
        QTemporaryDir dir;
        write(dir, "m.extxyz", molecules("", ""));
        write(dir, readmeName.toUtf8().constData(), readme.toStdString());
        QCOMPARE(QString::fromStdString(unitOf(dir)), unit);
    }
    void subsetKeepsTheUnit()
    {
        QTemporaryDir dir;
        write(dir, "m.extxyz", molecules("energy_unit=Hartree", "energy_unit=Hartree"));
        const Dataset d = loadDataset(dir.filePath("m.extxyz").toStdString());
        QCOMPARE(d.subset({1}).targetUnit, std::string("Hartree"));
    }
    void bundledG2IsInKcalPerMol()
    {
        // resources/data/README.md states kcal/mol for `energy`; the file's header says nothing.
        QCOMPARE(loadDataset(orbittest::bundledFile("g2.extxyz")).targetUnit, std::string("kcal/mol"));
    }
    void qm7IsInKcalPerMol()
    {
        // The README beside QM7 states kcal/mol for `energy`; the file's header says nothing.
        ORBIT_REQUIRE_QM7(qm7);
        LoadOptions o;
        o.limit = 3;
        QCOMPARE(loadDataset(qm7, o).targetUnit, std::string("kcal/mol"));
    }
};

QTEST_APPLESS_MAIN(TestTargetUnit)
#include "test_target_unit.moc"
