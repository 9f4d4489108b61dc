// Writing feature matrices: .npy and .csv whole or row block by row block (MatrixRowWriter), the
// same bytes either way, and a write that does not finish leaves the destination as it was.
#include "FileBytes.hpp"
#include "RandomMatrices.hpp"
#include "orbit/features/MatrixIo.hpp"
#include "orbit/util/Error.hpp"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QObject>
#include <QString>

using namespace orbit;
using orbittest::fileBytes;

namespace {

MatrixXfR numbers(Eigen::Index rows, Eigen::Index cols) { return orbittest::randomMatrix(rows, cols, 7); }

} // namespace

class TestMatrixIo : public QObject {
    Q_OBJECT
private slots:
    void rowBlocksWriteTheBytesOfTheWhole_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("npy") << "m.npy";
        QTest::newRow("csv") << "m.csv";
    }

    void rowBlocksWriteTheBytesOfTheWhole()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const MatrixXfR M = numbers(23, 5);
        const std::string whole = dir.filePath("whole-" + name).toStdString(), inBlocks = dir.filePath(name).toStdString();
        writeMatrix(whole, M);
        MatrixRowWriter w(inBlocks, M.rows(), M.cols());
        for (Eigen::Index r = 0; r < M.rows(); r += 7) w.append(M.middleRows(r, std::min<Eigen::Index>(7, M.rows() - r)));
        QVERIFY(!QFile::exists(QString::fromStdString(inBlocks)));  // the rows go to the part file until finish
        w.finish();
        QCOMPARE(fileBytes(QString::fromStdString(inBlocks)), fileBytes(QString::fromStdString(whole)));
        QVERIFY(!QFile::exists(QString::fromStdString(inBlocks + ".part")));
        if (name.endsWith(".npy")) QVERIFY(fileBytes(QString::fromStdString(whole)).startsWith("\x93NUMPY"));
    }

    /// A writer that is dropped, or finished short of its rows, leaves an existing file untouched
    /// and no part file; too many rows or the wrong width are contract errors.
    void anUnfinishedWriteLeavesTheDestinationAsItWas()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("f.npy").toStdString();
        const MatrixXfR before = numbers(3, 2);
        writeNpy(path, before);
        const QByteArray old = fileBytes(QString::fromStdString(path));
        {
            MatrixRowWriter w(path, 10, 2);
            w.append(numbers(4, 2));
        }  // dropped: a failure half-way
        QCOMPARE(fileBytes(QString::fromStdString(path)), old);
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".part")));
        {
            MatrixRowWriter w(path, 10, 2);
            w.append(numbers(4, 2));
            QVERIFY_THROWS_EXCEPTION(ContractError, w.finish());
            QVERIFY_THROWS_EXCEPTION(ContractError, w.append(numbers(7, 2)));
            QVERIFY_THROWS_EXCEPTION(ContractError, w.append(numbers(1, 3)));
        }
        QCOMPARE(fileBytes(QString::fromStdString(path)), old);
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".part")));
        QVERIFY_THROWS_EXCEPTION(SpecError, MatrixRowWriter(dir.filePath("f.txt").toStdString(), 1, 1));
        QVERIFY_THROWS_EXCEPTION(SpecError, MatrixRowWriter(dir.filePath("no/such/dir/f.npy").toStdString(), 1, 1));
    }
};

QTEST_APPLESS_MAIN(TestMatrixIo)
#include "test_matrix_io.moc"
