// Every loader on small valid fixtures whose contents are known exactly (written by
// tests/fixtures/data/make_fixtures.py): values, layout (HWC, RGB order, .amat transposition),
// labels, padding, limits and format detection.
#include "orbit/data/Coulomb.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include "TestPaths.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QObject>
#include <QString>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <filesystem>

using namespace orbit;
using orbittest::fixture;

namespace {
float idxPixel(int i, int r, int c) { return static_cast<float>((40 * i + 5 * r + c) % 256) / 255.0f; }
} // namespace

class TestLoadersSmall : public QObject {
    Q_OBJECT
private slots:
    /// PNG and JPEG go through libpng and libjpeg with silent handlers (data/SilentDecoders): a
    /// folder of them loads to the values OpenCV's imread gives the same files (grey, 16-bit, BGR,
    /// BGRA; lossless BMP beside each PNG, imread itself for the JPEGs).
    void silentDecodersGiveWhatImreadGives_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("ext");
        QTest::newRow("png grey") << CV_8UC1 << "png";
        QTest::newRow("png 16-bit grey") << CV_16UC1 << "png";
        QTest::newRow("png bgr") << CV_8UC3 << "png";
        QTest::newRow("png bgra") << CV_8UC4 << "png";
        QTest::newRow("jpeg grey") << CV_8UC1 << "jpg";
        QTest::newRow("jpeg bgr") << CV_8UC3 << "jpg";
    }
    void silentDecodersGiveWhatImreadGives()
    {
        QFETCH(int, type);
        QFETCH(QString, ext);
        QTemporaryDir dir;
        namespace fs = std::filesystem;
        const fs::path ours = dir.filePath("ours").toStdString(), theirs = dir.filePath("theirs").toStdString();
        cv::RNG rng(7);
        for (const char* cls : {"a", "b"})
            for (int i = 0; i < 2; ++i) {
                fs::create_directories(ours / cls);
                fs::create_directories(theirs / cls);
                cv::Mat img(9, 7, type);
                rng.fill(img, cv::RNG::UNIFORM, 0, CV_MAT_DEPTH(type) == CV_16U ? 65536 : 256);
                const std::string name = std::to_string(i);
                QVERIFY(cv::imwrite((ours / cls / (name + "." + ext.toStdString())).string(), img));
                // The reference: what imread gives for the file just written, stored losslessly.
                const cv::Mat back = cv::imread((ours / cls / (name + "." + ext.toStdString())).string(), cv::IMREAD_UNCHANGED);
                QVERIFY(cv::imwrite((theirs / cls / (name + (CV_MAT_DEPTH(type) == CV_16U ? ".tiff" : ".bmp"))).string(), back));
            }
        const Dataset a = loadDataset(ours.string()), b = loadDataset(theirs.string());
        QCOMPARE(a.X.rows(), b.X.rows());
        QCOMPARE(a.X.cols(), b.X.cols());
        QVERIFY(a.X == b.X);
    }
    void detectsEachFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("format");
        QTest::newRow("idx raw") << "data/idx/small-images-idx3-ubyte" << int(Format::Idx);
        QTest::newRow("idx gz") << "data/idx/smallgz-images-idx3-ubyte.gz" << int(Format::Idx);
        QTest::newRow("idx by extension") << "data/idx/bad_magic.idx" << int(Format::Idx);
        QTest::newRow("cifar") << "data/cifar/valid.bin" << int(Format::Cifar);
        QTest::newRow("amat") << "data/amat/valid.amat" << int(Format::Amat);
        QTest::newRow("png") << "data/image/rgb.png" << int(Format::Image);
        QTest::newRow("digits by name") << "data/digits/digits.png" << int(Format::DigitsSheet);
        QTest::newRow("folder") << "data/folder" << int(Format::ImageFolder);
        QTest::newRow("extxyz") << "data/xyz/valid.extxyz" << int(Format::ExtXyz);
        QTest::newRow("csv") << "data/csv/labels.csv" << int(Format::Csv);
    }
    /// A load of some rows (LoadOptions::rows, a rank of many): the same labels, targets and count
    /// as the whole file, the wanted rows' values and zeros elsewhere, `held` saying which. The IDX,
    /// CIFAR and XYZ loaders decode only those rows; the others release the rest after reading.
    void loadsOnlyTheRowsWanted_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("idx raw") << "data/idx/small-images-idx3-ubyte";
        QTest::newRow("idx gz") << "data/idx/smallgz-images-idx3-ubyte.gz";
        QTest::newRow("cifar") << "data/cifar/valid.bin";
        QTest::newRow("amat") << "data/amat/valid.amat";
        QTest::newRow("folder") << "data/folder";
        QTest::newRow("extxyz") << "data/xyz/valid.extxyz";
        QTest::newRow("csv") << "data/csv/labels.csv";
    }
    void loadsOnlyTheRowsWanted()
    {
        QFETCH(QString, file);
        const std::string path = fixture(file.toStdString());
        const Dataset whole = loadDataset(path);
        QVERIFY(whole.count() >= 2);
        LoadOptions some;
        some.rows = std::vector<char>(whole.count(), 0);
        for (std::size_t i = 0; i < whole.count(); i += 2) (*some.rows)[i] = 1;
        const Dataset part = loadDataset(path, some);
        QCOMPARE(part.count(), whole.count());
        QCOMPARE(part.labels, whole.labels);
        QCOMPARE(part.targets, whole.targets);
        QCOMPARE(part.names, whole.names);
        QCOMPARE(part.held, *some.rows);
        QCOMPARE(part.heldCount(), (whole.count() + 1) / 2);
        for (std::size_t i = 0; i < whole.count(); ++i) {
            const Eigen::Index r = Eigen::Index(i);
            if (i % 2 == 0)
                QVERIFY2(part.X.row(r) == whole.X.row(r), qPrintable(QString("row %1 differs").arg(i)));
            else
                QVERIFY2(part.X.row(r).isZero(0.0f), qPrintable(QString("row %1 not wanted but not zero").arg(i)));
        }
        QVERIFY_THROWS_EXCEPTION(ContractError, part.requireHeld(0, 2, "test"));
        part.requireHeld({0, 2 * ((whole.count() - 1) / 2)}, "test");
        // No row: the labels and the count alone (the first of a rank's two passes).
        LoadOptions none;
        none.rows = std::vector<char>{};
        const Dataset labels = loadDataset(path, none);
        QCOMPARE(labels.count(), whole.count());
        QCOMPARE(labels.heldCount(), std::size_t(0));
        QVERIFY(labels.X.isZero(0.0f));
        // Every row wanted: held all (empty), the same matrix.
        LoadOptions all;
        all.rows = std::vector<char>(whole.count(), 1);
        const Dataset every = loadDataset(path, all);
        QVERIFY(every.holdsAll() && every.X == whole.X);
    }
    void detectsEachFormat()
    {
        QFETCH(QString, file);
        QFETCH(int, format);
        QCOMPARE(int(detectFormat(fixture(file.toStdString()))), format);
    }
    void detectsContentWithoutExtension_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("format");
        QTest::newRow("idx magic and size") << "data/idx/unlabelled.idx" << int(Format::Idx);
        QTest::newRow("xyz count and energy=") << "data/xyz/valid.extxyz" << int(Format::ExtXyz);
        QTest::newRow("785 numbers a line") << "data/amat/valid.amat" << int(Format::Amat);
        QTest::newRow("comma separated") << "data/csv/labels.csv" << int(Format::Csv);
        QTest::newRow("png magic") << "data/image/grey.png" << int(Format::Image);
    }
    void detectsContentWithoutExtension()
    {
        QFETCH(QString, file);
        QFETCH(int, format);
        QTemporaryDir dir;
        const std::string copy = dir.filePath("data").toStdString();
        std::filesystem::copy_file(fixture(file.toStdString()), copy);
        QCOMPARE(int(detectFormat(copy)), format);
        QCOMPARE(loadDataset(copy).format, std::string(toString(Format(format))));
    }
    void idxWithLabelsFoundByName()
    {
        for (const char* f : {"data/idx/small-images-idx3-ubyte", "data/idx/smallgz-images-idx3-ubyte.gz"}) {
            const Dataset d = loadDataset(fixture(f));
            QCOMPARE(d.format, std::string("idx"));
            QCOMPARE(d.kind, DataKind::Images);
            QCOMPARE(d.count(), std::size_t(3));
            QCOMPARE(d.shape, (Shape{4, 5, 1}));
            QCOMPARE(d.labels, (std::vector<int>{2, 0, 1}));
            QCOMPARE(d.numClasses, 3);
            for (int i = 0; i < 3; ++i)
                for (int r = 0; r < 4; ++r)
                    for (int c = 0; c < 5; ++c) QCOMPARE(d.X(i, r * 5 + c), idxPixel(i, r, c));
        }
    }
    void idxClassNamesOfFashionMnist()
    {
        // Fashion-MNIST uses the MNIST file names; its folder (Debian: .../datasets/fashion-mnist)
        // gives it away, and its labels 0..9 get the README's names. The same files elsewhere: no names.
        QTemporaryDir dir;
        for (const char* folder : {"fashion-mnist", "mnist"}) {
            const std::filesystem::path d = std::filesystem::path(dir.path().toStdString()) / folder;
            std::filesystem::create_directories(d);
            for (const char* f : {"small-images-idx3-ubyte", "small-labels-idx1-ubyte"})
                std::filesystem::copy_file(fixture(std::string("data/idx/") + f), d / f);
        }
        const Dataset fashion = loadDataset(dir.filePath("fashion-mnist/small-images-idx3-ubyte").toStdString());
        QCOMPARE(fashion.numClasses, 3);  // labels {2, 0, 1}: the first three names
        QCOMPARE(fashion.classNames, (std::vector<std::string>{"T-shirt/top", "Trouser", "Pullover"}));
        const Dataset plain = loadDataset(dir.filePath("mnist/small-images-idx3-ubyte").toStdString());
        QCOMPARE(plain.labels, fashion.labels);
        QVERIFY(plain.classNames.empty());
    }
    void idxUnlabelledAndExplicitLabels()
    {
        const Dataset u = loadDataset(fixture("data/idx/unlabelled.idx"));
        QVERIFY(u.labels.empty() && u.targets.empty());
        QCOMPARE(u.count(), std::size_t(3));
        LoadOptions o;
        o.labels = fixture("data/idx/small-labels-idx1-ubyte");
        const Dataset l = loadDataset(fixture("data/idx/unlabelled.idx"), o);
        QCOMPARE(l.labels, (std::vector<int>{2, 0, 1}));
        o.limit = 2;
        const Dataset two = loadDataset(fixture("data/idx/unlabelled.idx"), o);
        QCOMPARE(two.count(), std::size_t(2));
        QCOMPARE(two.labels, (std::vector<int>{2, 0}));
        QCOMPARE(two.X(1, 7), idxPixel(1, 1, 2));
    }
    void cifarPlanesBecomeInterleavedRgb()
    {
        const Dataset d = loadDataset(fixture("data/cifar/valid.bin"));
        QCOMPARE(d.count(), std::size_t(2));
        QCOMPARE(d.shape, (Shape{32, 32, 3}));
        QCOMPARE(d.labels, (std::vector<int>{3, 7}));
        QCOMPARE(d.numClasses, 10);
        QCOMPARE(d.classNames[3], std::string("cat"));
        const int seeds[] = {0, 11};
        for (int i = 0; i < 2; ++i)
            for (int p : {0, 1, 33, 1023})
                for (int ch = 0; ch < 3; ++ch)  // plane ch, pixel p -> HWC index 3 p + ch
                    QCOMPARE(d.X(i, 3 * p + ch), static_cast<float>((seeds[i] + 3 * p + 85 * ch) % 256) / 255.0f);
    }
    void amatIsTransposedUpright()
    {
        const Dataset d = loadDataset(fixture("data/amat/valid.amat"));
        QCOMPARE(d.count(), std::size_t(2));
        QCOMPARE(d.shape, (Shape{28, 28, 1}));
        QCOMPARE(d.labels, (std::vector<int>{7, 3}));
        QCOMPARE(d.numClasses, 8);
        QCOMPARE(d.X(0, 2 * 28 + 5), 1.0f);  // the bright pixel is at row 2, column 5
        QCOMPARE(d.X(0, 5 * 28 + 2), 0.0f);
        QCOMPARE(d.X.row(0).sum(), 1.0f);
        QCOMPARE(d.X(1, 10 * 28 + 3), 1.0f);
        QCOMPARE(d.X(1, 11 * 28 + 3), 1.0f);  // a vertical stroke stays vertical
        QCOMPARE(d.X.row(1).sum(), 2.0f);
    }
    void colourImageIsRgbHwc()
    {
        const Dataset d = loadDataset(fixture("data/image/rgb.png"));
        QCOMPARE(d.count(), std::size_t(1));
        QCOMPARE(d.shape, (Shape{2, 3, 3}));
        const float expected[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 10 / 255.f, 20 / 255.f, 30 / 255.f};
        for (int k = 0; k < 18; ++k) QCOMPARE(d.X(0, k), expected[k]);
        QVERIFY(d.labels.empty());
        const Dataset g = loadDataset(fixture("data/image/grey.png"));
        QCOMPARE(g.shape, (Shape{3, 4, 1}));
        QCOMPARE(g.X(0, 5), static_cast<float>(17 * 5 % 256) / 255.0f);
    }
    void folderOfClasses()
    {
        const Dataset d = loadDataset(fixture("data/folder"));
        QCOMPARE(d.format, std::string("folder"));
        QCOMPARE(d.count(), std::size_t(3));  // notes.txt is not an image and is skipped
        QCOMPARE(d.shape, (Shape{4, 4, 1}));
        QCOMPARE(d.labels, (std::vector<int>{0, 0, 1}));
        QCOMPARE(d.classNames, (std::vector<std::string>{"cat", "dog"}));
        QCOMPARE(d.X(1, 0), 2.0f / 255.0f);  // cat/b.png starts at seed 2
        QCOMPARE(d.X(2, 1), 20.0f / 255.0f); // dog/a.png: 3 + 17
    }
    void moleculesBecomePaddedCoulombMatrices()
    {
        const Dataset d = loadDataset(fixture("data/xyz/valid.extxyz"));
        QCOMPARE(d.kind, DataKind::Coulomb);
        QCOMPARE(d.count(), std::size_t(2));
        QCOMPARE(d.shape, (Shape{3, 3, 1}));  // padded to water
        QCOMPARE(d.targets, (std::vector<double>{104.2, 232.6}));
        QCOMPARE(d.names, (std::vector<std::string>{"H2", "water"}));
        QCOMPARE(d.charges[1], (std::vector<int>{8, 1, 1}));
        // H2: C_01 = 1 * 1 / (0.74 Angstrom in Bohr), diagonal 0.5, third row and column zero
        QVERIFY(std::abs(d.X(0, 1) - 1.0 / (0.74 * kBohrPerAngstrom)) < 1e-6);
        QCOMPARE(d.X(0, 0), 0.5f);
        for (int k : {2, 5, 6, 7, 8}) QCOMPARE(d.X(0, k), 0.0f);
        QVERIFY(std::abs(d.X(1, 0) - 0.5 * std::pow(8.0, 2.4)) < 1e-3);
        LoadOptions o;
        o.padTo = 5;
        QCOMPARE(loadDataset(fixture("data/xyz/valid.extxyz"), o).shape, (Shape{5, 5, 1}));
        o.padTo = 2;
        QVERIFY_THROWS_EXCEPTION(SpecError, loadDataset(fixture("data/xyz/valid.extxyz"), o));
        o.padTo = 0;
        o.limit = 1;
        QCOMPARE(loadDataset(fixture("data/xyz/valid.extxyz"), o).shape, (Shape{2, 2, 1}));
    }
    void csvLabelsOrTargets()
    {
        const Dataset c = loadDataset(fixture("data/csv/labels.csv"));
        QCOMPARE(c.kind, DataKind::Vectors);
        QCOMPARE(c.shape, (Shape{1, 2, 1}));
        QCOMPARE(c.count(), std::size_t(6));
        QCOMPARE(c.labels, (std::vector<int>{0, 1, 2, 0, 1, 2}));
        QCOMPARE(c.numClasses, 3);
        QCOMPARE(c.X(1, 1), -2.0f);
        const Dataset r = loadDataset(fixture("data/csv/regression.csv"));
        QVERIFY(r.labels.empty());
        QCOMPARE(r.targets, (std::vector<double>{3.25, -1.5, 7.0}));
        QCOMPARE(r.X(2, 0), 2.5f);
        // comment line, quoted header and fields, CRLF, blank line
        const Dataset q = loadDataset(fixture("data/csv/quoted.csv"));
        QCOMPARE(q.count(), std::size_t(2));
        QCOMPARE(q.targets, (std::vector<double>{0.25, 0.5}));
        QCOMPARE(q.X(0, 0), 1.5f);
        QCOMPARE(q.X(1, 1), 4.0f);
    }
};

QTEST_APPLESS_MAIN(TestLoadersSmall)
#include "test_loaders_small.moc"
