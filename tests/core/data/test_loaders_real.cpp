// The loaders on the real data the project ships with or finds on the machine: OpenCV's digits
// sheet and the G2 molecules (bundled in resources/data/), QM7 (beside the repository or named by
// ORBIT_QM7; skipped on a bare clone) and Fashion-MNIST (Debian package). A missing bundled or
// Fashion-MNIST file is a failure, not a skip.
#include "orbit/data/Coulomb.hpp"
#include "orbit/data/Loaders.hpp"

#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>

#include <opencv2/imgcodecs.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>

using namespace orbit;
using orbittest::fashion;
using orbittest::bundledFile;

namespace {
void requirePresent(const std::string& path)
{
    if (!std::filesystem::exists(path)) QFAIL(qPrintable(QString::fromStdString("missing data file " + path)));
}

std::vector<int> perClass(const Dataset& d)
{
    std::vector<int> counts(static_cast<std::size_t>(d.numClasses), 0);
    for (int l : d.labels) ++counts[static_cast<std::size_t>(l)];
    return counts;
}

/// Symmetric, C_ii = 0.5 Z_i^2.4 from the charges, zero beyond the molecule's atoms.
void checkCoulomb(const Dataset& d, std::size_t i)
{
    const int n = d.shape.height;
    const auto& z = d.charges[i];
    const float* c = d.sample(i);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            const float v = c[a * n + b];
            QCOMPARE(v, c[b * n + a]);
            if (a >= static_cast<int>(z.size()) || b >= static_cast<int>(z.size())) QCOMPARE(v, 0.0f);
            else if (a == b) QVERIFY(std::abs(v - 0.5 * std::pow(z[a], 2.4)) < 1e-4 * v);
            else QVERIFY(v > 0.0f && v < z[a] * z[b] / 0.5);  // no two atoms closer than 0.5 Bohr
        }
}
} // namespace

class TestLoadersReal : public QObject {
    Q_OBJECT
private slots:
    void digitsSheet()
    {
        const std::string path = bundledFile("digits.png");
        requirePresent(path);
        QCOMPARE(detectFormat(path), Format::DigitsSheet);
        const Dataset d = loadDataset(path);
        QCOMPARE(d.format, std::string("digits"));
        QCOMPARE(d.count(), std::size_t(5000));
        QCOMPARE(d.shape, (Shape{20, 20, 1}));
        QCOMPARE(d.numClasses, 10);
        QCOMPARE(perClass(d), std::vector<int>(10, 500));
        // cell k sits at row k / 100, column k % 100 of the sheet; its label is the sheet row / 5
        const cv::Mat sheet = cv::imread(path, cv::IMREAD_GRAYSCALE);
        for (int k : {0, 499, 500, 1234, 4999}) {
            const int r0 = (k / 100) * 20, c0 = (k % 100) * 20;
            QCOMPARE(d.labels[k], k / 500);
            for (int y = 0; y < 20; y += 3)
                for (int x = 0; x < 20; x += 3)
                    QCOMPARE(d.X(k, y * 20 + x), sheet.at<unsigned char>(r0 + y, c0 + x) / 255.0f);
        }
        for (std::size_t k = 0; k < d.count(); ++k) QVERIFY(d.X.row(static_cast<Eigen::Index>(k)).maxCoeff() > 0.5f);
    }
    void digitsSheetDetectedByItsShape()
    {
        // under another name, a 2000 x 1000 grey PNG is still recognised as the digits sheet
        QTemporaryDir dir;
        const std::string copy = dir.filePath("sheet.png").toStdString();
        std::filesystem::copy_file(bundledFile("digits.png"), copy);
        QCOMPARE(detectFormat(copy), Format::DigitsSheet);
        LoadOptions o;
        o.format = Format::Image;  // forcing a format wins over detection
        QCOMPARE(loadDataset(copy, o).shape, (Shape{1000, 2000, 1}));
    }
    void g2Molecules()
    {
        const std::string path = bundledFile("g2.extxyz");
        requirePresent(path);
        const Dataset d = loadDataset(path);
        QCOMPARE(d.format, std::string("extxyz"));
        QCOMPARE(d.kind, DataKind::Coulomb);
        QCOMPARE(d.count(), std::size_t(144));
        QCOMPARE(d.shape, (Shape{14, 14, 1}));  // the largest G2 molecule has 14 atoms
        std::size_t largest = 0;
        for (const auto& z : d.charges) largest = std::max(largest, z.size());
        QCOMPARE(largest, std::size_t(14));
        for (double e : d.targets) QVERIFY(e > 0);  // atomisation energies released on formation
        QCOMPARE(d.names.front(), std::string("LiH"));
        QCOMPARE(d.charges.front(), (std::vector<int>{3, 1}));
        // LiH: Li at z = 0.41, H at z = -1.23 Angstrom
        QVERIFY(std::abs(d.X(0, 1) - 3.0 / (1.64 * kBohrPerAngstrom)) < 1e-5);
        for (std::size_t i = 0; i < d.count(); ++i) checkCoulomb(d, i);
    }
    void qm7Molecules()
    {
        ORBIT_REQUIRE_QM7(path);
        const auto t0 = std::chrono::steady_clock::now();
        const Dataset d = loadDataset(path);
        qInfo("QM7 loaded in %.3f s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        QCOMPARE(d.count(), std::size_t(7101));
        QCOMPARE(d.shape, (Shape{23, 23, 1}));
        QCOMPARE(d.charges.size(), std::size_t(7101));
        QCOMPARE(d.names.size(), std::size_t(7101));
        QCOMPARE(d.names.front(), std::string("0001"));
        QCOMPARE(d.targets.front(), -417.031);
        QCOMPARE(d.charges.front(), (std::vector<int>{6, 1, 1, 1, 1}));  // methane
        QVERIFY(std::abs(d.X(0, 0) - 36.858) < 1e-3);                    // carbon: 0.5 * 6^2.4
        QCOMPARE(d.X(0, 24), 0.5f);                                      // hydrogen: 0.5 * 1^2.4
        for (double e : d.targets) QVERIFY(e < 0);  // QM7 stores atomisation energies as negative numbers
        for (std::size_t i = 0; i < d.count(); i += 7) checkCoulomb(d, i);
        checkCoulomb(d, d.count() - 1);
    }
    void fashionMnist()
    {
        const std::string train = fashion("train-images-idx3-ubyte.gz");
        const std::string test = fashion("t10k-images-idx3-ubyte.gz");
        requirePresent(train);
        requirePresent(test);
        QCOMPARE(detectFormat(train), Format::Idx);
        const Dataset d = loadDataset(train);
        QCOMPARE(d.count(), std::size_t(60000));
        QCOMPARE(d.shape, (Shape{28, 28, 1}));
        QCOMPARE(d.numClasses, 10);  // labels found by the standard name
        QCOMPARE(perClass(d), std::vector<int>(10, 6000));
        // Named from the package's folder (the files carry the MNIST names and no class names).
        QCOMPARE(d.classNames.size(), std::size_t(10));
        QCOMPARE(d.classNames.front(), std::string("T-shirt/top"));
        QCOMPARE(d.classNames[7], std::string("Sneaker"));
        QCOMPARE(d.classNames.back(), std::string("Ankle boot"));
        QVERIFY(d.X.minCoeff() >= 0.0f && d.X.maxCoeff() <= 1.0f);
        QCOMPARE(d.X.maxCoeff(), 1.0f);

        const Dataset t = loadDataset(test);
        QCOMPARE(t.count(), std::size_t(10000));
        QCOMPARE(perClass(t), std::vector<int>(10, 1000));

        LoadOptions o;
        o.limit = 100;
        const Dataset head = loadDataset(train, o);
        QCOMPARE(head.count(), std::size_t(100));
        QVERIFY(head.X == d.X.topRows(100));
        QCOMPARE(head.labels, std::vector<int>(d.labels.begin(), d.labels.begin() + 100));
    }
};

QTEST_APPLESS_MAIN(TestLoadersReal)
#include "test_loaders_real.moc"
