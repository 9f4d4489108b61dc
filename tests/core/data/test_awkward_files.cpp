// Paths that are not plain finished files: a named pipe (opening it would block until a writer comes),
// a directory or a device passed as a file, a file written to while it loads, and files of 2 GB and
// more (sparse, so nothing is written): each is refused with a message saying what it is, or loads
// within the memory limit; none hangs and none runs the machine out of memory.
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"

#include "LoadErrors.hpp"

#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QObject>
#include <QString>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <sys/stat.h>

using namespace orbit;
using orbittest::errorOf;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(orbit::Format)

namespace {

void writeFile(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

void appendTo(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << bytes;
}

std::string bigEndian(std::uint32_t v)
{
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

const std::vector<Format> kFileFormats = {Format::Auto,        Format::Idx, Format::Cifar,  Format::Amat, Format::Image,
                                          Format::DigitsSheet, Format::Mat, Format::ExtXyz, Format::Csv};

} // namespace

class TestAwkwardFiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void namedPipesAreRefusedWithoutOpening_data()
    {
        QTest::addColumn<Format>("format");
        for (Format f : kFileFormats) QTest::newRow(toString(f)) << f;
    }
    void namedPipesAreRefusedWithoutOpening()
    {
        // No writer ever comes: a loader that opened the pipe would wait here forever.
        QFETCH(Format, format);
        const std::string fifo = path(std::string("pipe-") + toString(format) + ".csv");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        LoadOptions o;
        o.format = format;
        const auto e = errorOf(fifo, o);
        QVERIFY(e.has_value());
        QCOMPARE(e->kind(), LoadErrorKind::NotAFile);
        QVERIFY2(QString(e->what()).contains("named pipe (FIFO)"), e->what());
        QVERIFY2(QString(e->what()).startsWith(QString::fromStdString(fifo)), e->what());
    }

    void directoriesAndDevicesAreNotFiles_data()
    {
        QTest::addColumn<QString>("where");
        QTest::addColumn<Format>("format");
        QTest::addColumn<QString>("says");
        for (Format f : kFileFormats)
            if (f != Format::Auto)  // detection takes a directory for a folder of images
                QTest::newRow(qPrintable(QString("dir ") + toString(f))) << "dir" << f << "is a directory";
        // /dev/zero never ends: read as a file it would fill the memory.
        for (Format f : kFileFormats)
            QTest::newRow(qPrintable(QString("/dev/zero ") + toString(f))) << "/dev/zero" << f << "character device";
    }
    void directoriesAndDevicesAreNotFiles()
    {
        QFETCH(QString, where);
        QFETCH(Format, format);
        QFETCH(QString, says);
        std::string p = where.toStdString();
        if (where == "dir") {
            p = path("a-folder.csv");
            fs::create_directories(p);
        }
        LoadOptions o;
        o.format = format;
        const auto e = errorOf(p, o);
        QVERIFY(e.has_value());
        QCOMPARE(e->kind(), LoadErrorKind::NotAFile);
        QVERIFY2(QString(e->what()).contains(says), e->what());
    }

    void fileWrittenWhileLoadingIsRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QByteArray>("more");  // what the writer appends during the load
        QTest::newRow("csv") << "growing.csv" << QByteArray("a,b,c\n1,2,0\n3,4,1\n5,6,0\n") << QByteArray("7,8,1\n");
        QTest::newRow("extxyz") << "growing.extxyz"
                                << QByteArray("2\nenergy=1.5\nH 0 0 0\nH 0 0 0.74\n") << QByteArray("1\nenergy=2\nH 0 0 0\n");
        std::string idx = bigEndian(0x803) + bigEndian(2) + bigEndian(2) + bigEndian(2) + std::string(8, '\x10');
        QTest::newRow("idx") << "growing.idx" << QByteArray::fromStdString(idx) << QByteArray(4, '\x20');
    }
    void fileWrittenWhileLoadingIsRefused()
    {
        // The loader reports progress as it reads; the "writer" appends at the first report: the
        // loader sees the file it started with (and would return it), but the file grew under it.
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QByteArray, more);
        const std::string p = path(name.toStdString());
        writeFile(p, content.toStdString());
        QVERIFY(loadDataset(p).count() > 0);  // complete, it loads
        int reports = 0;
        LoadOptions o;
        o.progress = [&](double, const std::string&) {
            if (reports++ == 0) appendTo(p, more.toStdString());
            return false;
        };
        const auto e = errorOf(p, o);
        QVERIFY(reports > 0);
        QVERIFY2(e.has_value(), "a file that grew while it was read was accepted");
        QCOMPARE(e->kind(), LoadErrorKind::Changed);
        QVERIFY2(QString(e->what()).contains("while it was read") && QString(e->what()).contains("still being written"),
                 e->what());
        QVERIFY2(QString(e->what()).contains(QString("from %1 to %2 bytes").arg(content.size()).arg(content.size() + more.size())),
                 e->what());
    }

    void fileRewrittenInPlaceIsRefused()
    {
        // Same size, new content: the modification time tells.
        const std::string p = path("rewritten.csv");
        writeFile(p, "a,b,c\n1,2,0\n3,4,1\n");
        LoadOptions o;
        o.progress = [&](double, const std::string&) {
            writeFile(p, "a,b,c\n9,9,0\n9,9,1\n");
            fs::last_write_time(p, fs::last_write_time(p) + std::chrono::seconds(2));
            return false;
        };
        const auto e = errorOf(p, o);
        QVERIFY(e.has_value());
        QCOMPARE(e->kind(), LoadErrorKind::Changed);
        QVERIFY2(QString(e->what()).contains("was modified"), e->what());
    }

    void twoGigabyteIdxIsRefusedBeforeReadingOrLoadsWhatFits()
    {
        // 2739147 images of 28 x 28 after the header: 2147491264 bytes, all but the header sparse.
        // As floats they need 8.6 GB, more than any limit here (at most 8 GiB): refused from the
        // header, before a byte of data is read, naming the file's size and the limit.
        const std::uint32_t n = 2739147;
        const std::string p = path("huge-images-idx3-ubyte");
        writeFile(p, bigEndian(0x803) + bigEndian(n) + bigEndian(28) + bigEndian(28));
        fs::resize_file(p, 16 + std::uintmax_t(n) * 784);
        QVERIFY(fs::file_size(p) >= (std::uintmax_t(2) << 30));
        int reports = 0;
        LoadOptions o;
        o.progress = [&](double, const std::string&) {
            ++reports;
            return false;
        };
        auto e = errorOf(p, o);
        QVERIFY(e.has_value());
        QCOMPARE(e->kind(), LoadErrorKind::TooLarge);
        const QString m = e->what();
        QVERIFY2(m.contains("the file is 2147491264 bytes, 2.0 GiB") && m.contains("more than the memory limit of"), qPrintable(m));
        if (loadMemoryLimit(o.maxBytes) == o.maxBytes)  // plenty of memory: the limit is the option's
            QVERIFY2(m.contains("memory limit of 8589934592 bytes (8.0 GiB)"), qPrintable(m));
        QCOMPARE(reports, 0);

        // A smaller limit is named as such.
        o.maxBytes = std::size_t(1) << 30;
        e = errorOf(p, o);
        QVERIFY(e.has_value());
        QVERIFY2(QString(e->what()).contains("memory limit of 1073741824 bytes (1.0 GiB)"), e->what());

        // What fits loads: the first 100 images of the 2 GB file.
        o.maxBytes = LoadOptions{}.maxBytes;
        o.limit = 100;
        const Dataset d = loadDataset(p, o);
        QCOMPARE(d.count(), std::size_t(100));
        QCOMPARE(d.X.cwiseAbs().maxCoeff(), 0.0f);
        QVERIFY(reports > 0);
    }

    void twoGigabyteTextWithoutLineBreaksIsRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("head");
        QTest::newRow("csv") << "huge.csv" << QByteArray("a,b,c\n1,2,0\n");
        QTest::newRow("extxyz") << "huge.extxyz" << QByteArray("2\nenergy=1\nH 0 0 0\nH 0 0 1\n");
        QTest::newRow("amat") << "huge.amat" << QByteArray();
    }
    void twoGigabyteTextWithoutLineBreaksIsRefused()
    {
        // A valid start, then 2 GiB of zero bytes and no line break: memory follows the longest
        // line, which is refused at 64 MiB, naming the file's size.
        QFETCH(QString, name);
        QFETCH(QByteArray, head);
        const std::string p = path(name.toStdString());
        writeFile(p, head.toStdString());
        fs::resize_file(p, std::uintmax_t(2) << 30);
        const auto e = errorOf(p);
        QVERIFY(e.has_value());
        QCOMPARE(e->kind(), LoadErrorKind::TooLarge);
        const QString m = e->what();
        QVERIFY2(m.contains("longer than 64.0 MiB") && m.contains("the file is 2147483648 bytes, 2.0 GiB"), qPrintable(m));
    }

    void memoryLimitIsTheSmallerOfTheOptionAndHalfTheAvailableMemory()
    {
        QCOMPARE(loadMemoryLimit(1000), std::size_t(1000));
        std::ifstream meminfo("/proc/meminfo");
        std::string line, key;
        std::uintmax_t kb = 0;
        while (std::getline(meminfo, line)) {
            std::istringstream fields(line);
            if (fields >> key >> kb && key == "MemAvailable:") break;
        }
        if (key != "MemAvailable:") QSKIP("no /proc/meminfo MemAvailable here");
        const std::size_t limit = loadMemoryLimit(std::numeric_limits<std::size_t>::max());
        QVERIFY(limit > 0);
        QVERIFY2(limit <= kb * 1024 / 2 + (std::size_t(64) << 20),  // MemAvailable moves a little between the reads
                 qPrintable(QString("%1 > %2 / 2").arg(limit).arg(kb * 1024)));
    }

private:
    std::string path(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }
    QTemporaryDir dir_;
};

QTEST_APPLESS_MAIN(TestAwkwardFiles)
#include "test_awkward_files.moc"
