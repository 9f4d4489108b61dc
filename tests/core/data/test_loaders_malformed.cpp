// One fixture per failure mode: each must raise the expected LoadErrorKind, and the message must
// name the file, the position (line, field, record, image) and the offending value. Headers that
// promise 2^31 images must be refused quickly, without allocating for the promise.
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include "LoadErrors.hpp"
#include "TestPaths.hpp"

#include <QTest>
#include <QObject>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <limits>

using namespace orbit;
using orbittest::errorOf;
using orbittest::fixture;

Q_DECLARE_METATYPE(orbit::LoadErrorKind)

class TestLoadersMalformed : public QObject {
    Q_OBJECT
private slots:
    void eachFixtureFails_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<LoadErrorKind>("kind");
        QTest::addColumn<QStringList>("mentions");  // position and value text the message must contain
        using K = LoadErrorKind;
        // IDX
        QTest::newRow("idx bad magic") << "idx/bad_magic.idx" << K::BadMagic << QStringList{"header", "0x00000804"};
        QTest::newRow("idx short header") << "idx/short_header.idx" << K::Truncated << QStringList{"header"};
        QTest::newRow("idx no images") << "idx/empty_count.idx" << K::Empty << QStringList{"header"};
        QTest::newRow("idx truncated") << "idx/truncated.idx" << K::Truncated << QStringList{"image 3", "'5'"};
        QTest::newRow("idx truncated gz") << "idx/truncated.idx.gz" << K::Truncated << QStringList{"image 3", "'5'"};
        QTest::newRow("idx corrupt gz") << "idx/corrupt.idx.gz" << K::Truncated << QStringList{"compressed data", "corrupt"};
        QTest::newRow("idx trailing bytes") << "idx/trailing.idx" << K::BadShape << QStringList{"byte 48", "3 bytes"};
        QTest::newRow("idx 2^31 images") << "idx/header_too_large.idx" << K::TooLarge << QStringList{"2147483648"};
        QTest::newRow("idx 2^31 images gz") << "idx/header_too_large.idx.gz" << K::TooLarge << QStringList{"2147483648"};
        QTest::newRow("idx label count") << "idx/label_count_mismatch-images.idx3-ubyte" << K::CountMismatch
                                         << QStringList{"label_count_mismatch-labels.idx1-ubyte", "2 labels", "'2'"};
        QTest::newRow("idx label magic") << "idx/bad_label_magic-images.idx3-ubyte" << K::BadMagic
                                         << QStringList{"bad_label_magic-labels.idx1-ubyte", "0x00000803"};
        QTest::newRow("idx labels truncated") << "idx/truncated_labels-images.idx3-ubyte" << K::Truncated
                                              << QStringList{"truncated_labels-labels.idx1-ubyte", "label 1"};
        // CIFAR-10
        QTest::newRow("cifar truncated") << "cifar/truncated.bin" << K::Truncated << QStringList{"record 1", "100 bytes"};
        QTest::newRow("cifar bad label") << "cifar/bad_label.bin" << K::BadValue << QStringList{"record 1", "'10'"};
        QTest::newRow("cifar empty") << "cifar/empty.bin" << K::Empty << QStringList{};
        // .amat
        QTest::newRow("amat ragged") << "amat/ragged.amat" << K::Ragged << QStringList{"line 2", "'784'"};
        QTest::newRow("amat nan") << "amat/nan.amat" << K::NonFinite << QStringList{"line 1, field 10", "'nan'"};
        QTest::newRow("amat text") << "amat/not_a_number.amat" << K::NotANumber << QStringList{"line 2, field 3", "'abc'"};
        QTest::newRow("amat label") << "amat/bad_label.amat" << K::BadValue << QStringList{"line 1, field 785", "2.5000"};
        QTest::newRow("amat range") << "amat/out_of_range.amat" << K::BadValue << QStringList{"line 1, field 20", "'3.5'"};
        QTest::newRow("amat empty") << "amat/empty.amat" << K::Empty << QStringList{};
        // extended XYZ
        QTest::newRow("xyz element") << "xyz/unknown_element.extxyz" << K::UnknownElement << QStringList{"line 8", "'Xx'"};
        QTest::newRow("xyz coincident") << "xyz/coincident.extxyz" << K::CoincidentAtoms << QStringList{"lines 3 and 5"};
        QTest::newRow("xyz truncated") << "xyz/truncated.extxyz" << K::Truncated << QStringList{"line 6", "3 of the 5"};
        QTest::newRow("xyz energy") << "xyz/missing_energy.extxyz" << K::MissingVariable << QStringList{"line 6", "energy"};
        QTest::newRow("xyz count") << "xyz/bad_count.extxyz" << K::BadValue << QStringList{"line 1", "'two'"};
        QTest::newRow("xyz absurd count") << "xyz/absurd_count.extxyz" << K::BadValue << QStringList{"line 1", "'5000'"};
        QTest::newRow("xyz coordinate") << "xyz/not_a_number.extxyz" << K::NotANumber << QStringList{"line 4, field 2", "'1.0x'"};
        QTest::newRow("xyz nan") << "xyz/nan.extxyz" << K::NonFinite << QStringList{"line 4, field 3", "'nan'"};
        QTest::newRow("xyz bad energy") << "xyz/bad_energy.extxyz" << K::NotANumber << QStringList{"line 2", "'high'"};
        QTest::newRow("xyz empty") << "xyz/empty.extxyz" << K::Empty << QStringList{};
        // CSV
        QTest::newRow("csv ragged") << "csv/ragged.csv" << K::Ragged << QStringList{"line 3", "'2'"};
        QTest::newRow("csv nan") << "csv/nan.csv" << K::NonFinite << QStringList{"line 2, field 2", "'NaN'"};
        QTest::newRow("csv text") << "csv/text.csv" << K::NotANumber << QStringList{"line 4, field 1", "'hello'"};
        QTest::newRow("csv one column") << "csv/one_column.csv" << K::BadShape << QStringList{"line 1"};
        QTest::newRow("csv header only") << "csv/header_only.csv" << K::Empty << QStringList{};
        // images
        QTest::newRow("image corrupt") << "image/corrupt.png" << K::UnreadableImage << QStringList{};
        QTest::newRow("image empty") << "image/empty.png" << K::UnreadableImage << QStringList{};
        QTest::newRow("digits wrong size") << "digits/digits.png" << K::BadShape << QStringList{"20x40x1"};
        QTest::newRow("folder sizes") << "folder_mixed_sizes" << K::BadShape << QStringList{"odd_size.png", "'4x5x1'"};
        QTest::newRow("folder channels") << "folder_mixed_channels" << K::BadShape << QStringList{"colour.png", "'4x4x3'"};
        QTest::newRow("folder unreadable") << "folder_unreadable" << K::UnreadableImage << QStringList{"broken.png"};
        QTest::newRow("folder empty class") << "folder_empty_class" << K::Empty << QStringList{"folder_empty_class/b"};
        // neither content nor name
        QTest::newRow("unknown") << "unknown/data.xyzw" << K::UnknownFormat << QStringList{};
        QTest::newRow("missing") << "nowhere/missing.csv" << K::FileNotFound << QStringList{};
    }
    void eachFixtureFails()
    {
        QFETCH(QString, file);
        QFETCH(LoadErrorKind, kind);
        QFETCH(QStringList, mentions);
        const std::string path = fixture("data/" + file.toStdString());
        const auto e = errorOf(path);
        QVERIFY2(e.has_value(), qPrintable("no LoadError for " + file));
        const QString message = e->what();
        QVERIFY2(e->kind() == kind, qPrintable(QString("kind '%1', expected '%2': %3")
                                                   .arg(toString(e->kind()), toString(kind), message)));
        // The message starts with the failing file: the fixture itself, a file inside a fixture
        // folder, or (for IDX) the labels file, which the expected mentions then name.
        const QString fixturePath = QString::fromStdString(path);
        const QString errorFile = QString::fromStdString(e->file());
        const QString errorBase = QString::fromStdString(std::filesystem::path(e->file()).filename().string());
        QVERIFY2(message.startsWith(errorFile), qPrintable(message));
        QVERIFY2(errorFile == fixturePath || errorFile.startsWith(fixturePath + "/") || mentions.contains(errorBase),
                 qPrintable(message));
        for (const QString& m : mentions) QVERIFY2(message.contains(m), qPrintable("'" + m + "' not in: " + message));
    }
    void hugeHeadersFailWithoutAllocating()
    {
        // With no memory limit the promise of 2^31 images must still be caught: by the file size
        // (raw) or by the bytes the decompressor actually delivers (gzip).
        LoadOptions o;
        o.maxBytes = std::numeric_limits<std::size_t>::max();
        for (const char* f : {"idx/header_too_large.idx", "idx/header_too_large.idx.gz"}) {
            const auto e = errorOf(fixture(std::string("data/") + f), o);
            QVERIFY(e.has_value());
            QVERIFY2(e->kind() == LoadErrorKind::Truncated || e->kind() == LoadErrorKind::TooLarge, e->what());
        }
    }
    void memoryLimitIsRespected()
    {
        LoadOptions o;
        o.maxBytes = 100;  // 3 images of 4 x 5 floats need 240 bytes
        const auto e = errorOf(fixture("data/idx/small-images-idx3-ubyte"), o);
        QVERIFY(e.has_value());
        QCOMPARE(e->kind(), LoadErrorKind::TooLarge);
        o.limit = 1;  // 80 bytes fit
        QCOMPARE(loadDataset(fixture("data/idx/small-images-idx3-ubyte"), o).count(), std::size_t(1));
    }
    void forcedWrongFormatFailsCleanly()
    {
        LoadOptions o;
        o.format = Format::Idx;
        auto e = errorOf(fixture("data/csv/labels.csv"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::BadMagic);
        o.format = Format::Mat;
        e = errorOf(fixture("data/csv/labels.csv"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::BadMagic);
        o.format = Format::Amat;
        e = errorOf(fixture("data/csv/labels.csv"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::Ragged);
        o.format = Format::Cifar;
        e = errorOf(fixture("data/csv/labels.csv"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::Truncated);
        o.format = Format::ExtXyz;
        e = errorOf(fixture("data/csv/labels.csv"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::BadValue);
        o.format = Format::Image;
        e = errorOf(fixture("data/csv/labels.csv"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::UnreadableImage);
        o.format = Format::ImageFolder;
        e = errorOf(fixture("data/csv/labels.csv"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::FileNotFound);
    }
    void explicitLabelsFileMustExist()
    {
        LoadOptions o;
        o.labels = fixture("data/idx/no-such-labels");
        const auto e = errorOf(fixture("data/idx/unlabelled.idx"), o);
        QVERIFY(e && e->kind() == LoadErrorKind::FileNotFound);
        QVERIFY(QString(e->what()).contains("no-such-labels"));
    }
};

QTEST_APPLESS_MAIN(TestLoadersMalformed)
#include "test_loaders_malformed.moc"
