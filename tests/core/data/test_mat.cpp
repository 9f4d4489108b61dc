// QM7 .mat (MATLAB v5) files written here with matio in the layout of the original qm7.mat
// (X N x n x n, T 1 x N, P folds x N/folds, Z N x n, R N x n x 3), read back by loadMat.
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QFile>
#include <QIODevice>
#include <QObject>
#include <QString>

#include <matio.h>

#include <cmath>
#include <limits>
#include <map>

using namespace orbit;

Q_DECLARE_METATYPE(orbit::LoadErrorKind)

namespace {
constexpr std::size_t kN = 10, kAtoms = 4;

struct Var {
    std::vector<std::size_t> dims;
    std::vector<double> data;  // column-major
};

/// X(i, r, c) = 100 i + 10 r + c + 1 (distinct per entry, so the index mapping is tested).
Var makeX(std::size_t n = kN, std::size_t atoms = kAtoms)
{
    Var x{{n, atoms, atoms}, std::vector<double>(n * atoms * atoms)};
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < atoms; ++r)
            for (std::size_t c = 0; c < atoms; ++c) x.data[i + n * (r + atoms * c)] = 100.0 * i + 10.0 * r + c + 1;
    return x;
}
Var makeT()
{
    Var t{{1, kN}, {}};
    for (std::size_t i = 0; i < kN; ++i) t.data.push_back(-400.0 - 10.0 * i);
    return t;
}
/// P(f, j) = molecule 5 j + (4 - f) (0-based): fold of molecule m is 4 - m % 5.
Var makeP(double base = 0)
{
    Var p{{5, kN / 5}, std::vector<double>(kN)};
    for (std::size_t f = 0; f < 5; ++f)
        for (std::size_t j = 0; j < kN / 5; ++j) p.data[f + 5 * j] = static_cast<double>(5 * j + (4 - f)) + base;
    return p;
}
/// Molecule i has i % 3 + 2 atoms: charges 6, 1, 1, ... then zero padding.
Var makeZ()
{
    Var z{{kN, kAtoms}, std::vector<double>(kN * kAtoms, 0.0)};
    for (std::size_t i = 0; i < kN; ++i)
        for (std::size_t a = 0; a < i % 3 + 2; ++a) z.data[i + kN * a] = a == 0 ? 6 : 1;
    return z;
}
Var makeR() { return {{kN, kAtoms, 3}, std::vector<double>(kN * kAtoms * 3, 0.25)}; }

void writeMat(const QString& path, const std::map<std::string, Var>& vars, bool compress = false)
{
    mat_t* mat = Mat_CreateVer(path.toLocal8Bit().constData(), nullptr, MAT_FT_MAT5);
    QVERIFY(mat != nullptr);
    for (const auto& [name, v] : vars) {
        std::vector<std::size_t> dims = v.dims;
        std::vector<double> data = v.data;
        matvar_t* var = Mat_VarCreate(name.c_str(), MAT_C_DOUBLE, MAT_T_DOUBLE, static_cast<int>(dims.size()), dims.data(),
                                      data.data(), 0);
        QVERIFY(var != nullptr);
        QCOMPARE(Mat_VarWrite(mat, var, compress ? MAT_COMPRESSION_ZLIB : MAT_COMPRESSION_NONE), 0);
        Mat_VarFree(var);
    }
    Mat_Close(mat);
}

std::map<std::string, Var> fullSet()
{
    return {{"X", makeX()}, {"T", makeT()}, {"P", makeP()}, {"Z", makeZ()}, {"R", makeR()}};
}
} // namespace

class TestMat : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string file(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<bool>("compress");
        QTest::newRow("plain") << false;
        QTest::newRow("zlib") << true;
    }
    void roundTrip()
    {
        QFETCH(bool, compress);
        const std::string path = file(compress ? "qm7z.mat" : "qm7.mat");
        writeMat(QString::fromStdString(path), fullSet(), compress);
        QCOMPARE(detectFormat(path), Format::Mat);
        const Dataset d = loadDataset(path);
        QCOMPARE(d.format, std::string("mat"));
        QCOMPARE(d.kind, DataKind::Coulomb);
        QCOMPARE(d.count(), kN);
        QCOMPARE(d.shape, (Shape{4, 4, 1}));
        for (std::size_t i = 0; i < kN; ++i) {
            for (std::size_t r = 0; r < kAtoms; ++r)
                for (std::size_t c = 0; c < kAtoms; ++c)
                    QCOMPARE(d.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(r * kAtoms + c)),
                             static_cast<float>(100.0 * i + 10.0 * r + c + 1));
            QCOMPARE(d.targets[i], -400.0 - 10.0 * i);
            QCOMPARE(d.folds[i], static_cast<int>(4 - i % 5));
            QCOMPARE(d.charges[i].size(), i % 3 + 2);
            QCOMPARE(d.charges[i][0], 6);
        }
    }
    void oneBasedFoldsAndOptionalVariables()
    {
        auto vars = fullSet();
        vars["P"] = makeP(1);
        vars.erase("Z");
        vars.erase("R");
        const std::string path = file("onebased.mat");
        writeMat(QString::fromStdString(path), vars);
        const Dataset d = loadMat(path);
        for (std::size_t i = 0; i < kN; ++i) QCOMPARE(d.folds[i], static_cast<int>(4 - i % 5));
        QVERIFY(d.charges.empty());
        LoadOptions o;
        o.limit = 3;
        o.padTo = 6;
        const Dataset s = loadMat(path, o);
        QCOMPARE(s.count(), std::size_t(3));
        QCOMPARE(s.shape, (Shape{6, 6, 1}));
        QCOMPARE(s.X(2, 1 * 6 + 3), 214.0f);  // X(2, 1, 3) = 100 * 2 + 10 * 1 + 3 + 1
        QCOMPARE(s.X(2, 5 * 6 + 5), 0.0f);    // padding
        QCOMPARE(s.folds.size(), std::size_t(3));
        o.padTo = 3;
        QVERIFY_THROWS_EXCEPTION(SpecError, loadMat(path, o));
    }
    void failures_data()
    {
        QTest::addColumn<QString>("which");
        QTest::addColumn<LoadErrorKind>("kind");
        QTest::addColumn<QString>("mention");
        QTest::newRow("no X") << "noX" << LoadErrorKind::MissingVariable << "variable X";
        QTest::newRow("no T") << "noT" << LoadErrorKind::MissingVariable << "variable T";
        QTest::newRow("X not square") << "Xshape" << LoadErrorKind::BadShape << "'10x4x3'";
        QTest::newRow("X rank 2") << "Xrank" << LoadErrorKind::BadShape << "'10x16'";
        QTest::newRow("T length") << "Tshape" << LoadErrorKind::BadShape << "'1x9'";
        QTest::newRow("Z shape") << "Zshape" << LoadErrorKind::BadShape << "'10x3'";
        QTest::newRow("R shape") << "Rshape" << LoadErrorKind::BadShape << "'10x4x2'";
        QTest::newRow("P shape") << "Pshape" << LoadErrorKind::BadShape << "'5x1'";
        QTest::newRow("P repeats") << "Prepeat" << LoadErrorKind::BadValue << "P(";
        QTest::newRow("X NaN") << "Xnan" << LoadErrorKind::NonFinite << "X(3,2,1)";
        QTest::newRow("Z fraction") << "Zfrac" << LoadErrorKind::BadValue << "Z(1,1)";
    }
    void failures()
    {
        QFETCH(QString, which);
        QFETCH(LoadErrorKind, kind);
        QFETCH(QString, mention);
        auto vars = fullSet();
        if (which == "noX") vars.erase("X");
        if (which == "noT") vars.erase("T");
        if (which == "Xshape") vars["X"] = Var{{kN, kAtoms, 3}, std::vector<double>(kN * kAtoms * 3, 1.0)};
        if (which == "Xrank") vars["X"] = Var{{kN, kAtoms * kAtoms}, std::vector<double>(kN * kAtoms * kAtoms, 1.0)};
        if (which == "Tshape") vars["T"] = Var{{1, kN - 1}, std::vector<double>(kN - 1, 1.0)};
        if (which == "Zshape") vars["Z"] = Var{{kN, 3}, std::vector<double>(kN * 3, 1.0)};
        if (which == "Rshape") vars["R"] = Var{{kN, kAtoms, 2}, std::vector<double>(kN * kAtoms * 2, 1.0)};
        if (which == "Pshape") vars["P"] = Var{{5, 1}, {0, 1, 2, 3, 4}};
        if (which == "Prepeat") vars["P"].data[3] = vars["P"].data[0];
        if (which == "Xnan") vars["X"].data[2 + kN * (1 + kAtoms * 0)] = std::numeric_limits<double>::quiet_NaN();
        if (which == "Zfrac") vars["Z"].data[0] = 5.5;
        const std::string path = file((which + ".mat").toLocal8Bit().constData());
        writeMat(QString::fromStdString(path), vars);
        try {
            loadDataset(path);
            QFAIL("no error");
        } catch (const LoadError& e) {
            QVERIFY2(e.kind() == kind, e.what());
            const QString m = e.what();
            QVERIFY2(m.contains(QString::fromStdString(path)) && m.contains(mention), qPrintable(m));
        }
    }
    void hugeDeclaredSizeIsRefusedBeforeReading()
    {
        // patch the dimensions of X in an uncompressed file to claim 2^31 - 1 molecules
        const std::string path = file("huge.mat");
        writeMat(QString::fromStdString(path), fullSet());
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const qint32 dims[] = {static_cast<qint32>(kN), static_cast<qint32>(kAtoms), static_cast<qint32>(kAtoms)};
        const QByteArray pattern(reinterpret_cast<const char*>(dims), sizeof dims);  // little-endian int32
        const auto at = bytes.indexOf(pattern);
        QVERIFY(at > 0);
        const qint32 huge = std::numeric_limits<qint32>::max();
        bytes.replace(at, 4, QByteArray(reinterpret_cast<const char*>(&huge), 4));
        f.seek(0);
        f.write(bytes);
        f.close();
        try {
            loadMat(path);
            QFAIL("no error");
        } catch (const LoadError& e) {
            QVERIFY2(e.kind() == LoadErrorKind::TooLarge, e.what());
            QVERIFY2(QString(e.what()).contains("2147483647x4x4"), e.what());
        }
    }
    // MAT v4 (no v5 header): matio allocates each variable's name from its header's name length. A
    // name length beyond the file is refused with its byte offset and value, before matio reads it;
    // a well-formed v4 file passes the check and is refused later by the loader (here: no T).
    void mat4HeaderSizesAreCheckedAgainstTheFile_data()
    {
        QTest::addColumn<quint32>("type");
        QTest::addColumn<quint32>("nameLength");
        QTest::addColumn<quint32>("rows");
        QTest::addColumn<QString>("expected");
        QTest::newRow("name 1.6 GB") << quint32(0) << quint32(1596993870) << quint32(1) << "name length";
        QTest::newRow("data past the end") << quint32(0) << quint32(2) << quint32(1000000) << "runs past the end";
        QTest::newRow("sparse") << quint32(2) << quint32(2) << quint32(937426944) << "only full numeric";
        QTest::newRow("well formed") << quint32(0) << quint32(2) << quint32(1) << "variable T";
    }
    void mat4HeaderSizesAreCheckedAgainstTheFile()
    {
        QFETCH(quint32, type);
        QFETCH(quint32, nameLength);
        QFETCH(quint32, rows);
        QFETCH(QString, expected);
        const std::string path = file("v4.mat");
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const quint32 header[5] = {type, rows, 1, 0, nameLength};  // type 0: little-endian full double
        f.write(reinterpret_cast<const char*>(header), sizeof header);
        f.write("X", 2);
        const double value = 1.0;
        f.write(reinterpret_cast<const char*>(&value), sizeof value);
        f.close();
        try {
            loadMat(path);
            QFAIL("no error");
        } catch (const LoadError& e) {
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }
    void notAMatFile()
    {
        const std::string path = file("fake.mat");
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a MATLAB file at all, just text that goes on for a while. ........................"
                "........................................................................");
        f.close();
        try {
            loadMat(path);
            QFAIL("no error");
        } catch (const LoadError& e) {
            QCOMPARE(e.kind(), LoadErrorKind::BadMagic);
        }
    }
};

QTEST_APPLESS_MAIN(TestMat)
#include "test_mat.moc"
