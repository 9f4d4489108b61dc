// Error messages are safe text: whatever bytes a file, its name or an argument holds, no message of
// a loader or a spec parser carries a control character (< 0x20, 0x7f), a C1 or bidi control or
// invalid UTF-8, and a quoted value is cut short with its length. The fixtures in data/unsafe/ put
// an ANSI sequence, a right-to-left override and invalid UTF-8 into a header, a name and a number
// field; the 1 MB variants and hostile file names are written here at run time.
#include "../../fuzz/FuzzChecks.hpp"
#include "orbit/cli/Cli.hpp"
#include "orbit/util/SafeText.hpp"

#include "CliRunner.hpp"
#include "TestPaths.hpp"

#include <QTest>
#include <QList>
#include <QObject>
#include <QString>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

using namespace orbit;
namespace fs = std::filesystem;

namespace {

const std::string kAnsi = "\x1b[2J\x1b]0;owned\x07";
const std::string kBidi = "\xe2\x80\xae" "txt.exe";
const std::string kInvalid = "\xff\xfe\xc3\x28";
const std::string kHuge(std::size_t(1) << 20, '7');  // a 1 MB field of digits

bool hasControl(const std::string& s)
{
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f) return true;
    return false;
}

/// The message of loading `path`, checked for safety (checkLoad throws Finding otherwise); empty if it loaded.
std::string messageOf(const std::string& path, orbitfuzz::Loader load = orbit::loadDataset)
{
    std::string error;
    try {
        if (orbitfuzz::checkLoad(load, path, &error)) return {};
    } catch (const orbitfuzz::Finding& f) {
        QTest::qFail(f.what(), __FILE__, __LINE__);
        return "<finding>";
    }
    return error;
}

void writeFile(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

/// The same layouts as make_fixtures.py's unsafe/ files, with `bad` in the chosen place.
std::string xyzWith(const std::string& place, const std::string& bad)
{
    const std::string head = "Properties=species:S:1:pos:R:3 energy=10.5 name=m pbc=\"F F F\"\n";
    if (place == "header") return "2" + bad + "\n" + head + "H 0.0 0.0 0.0\nH 0.0 0.0 0.74\n";
    if (place == "symbol") return "2\n" + head + "H 0.0 0.0 0.0\nC" + bad + " 0.0 0.0 0.74\n";
    if (place == "number") return "2\n" + head + "H 0.0 0.0 0.0\nH 0.0 0." + bad + " 0.74\n";
    std::string named = head;
    named.replace(named.find("name=m"), 6, "name=\"m" + bad + "\"");
    return "2\n" + named + "H 0.0 0.0 0.0\nH 0.0 0.0 0.74\n";
}

} // namespace

class TestSafeMessages : public QObject {
    Q_OBJECT
private slots:
    void unsafeFixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("escaped");  // what the message (or the loaded name) must show instead
        const QList<std::pair<QString, QString>> kinds = {
            {"ansi", "\\x1b[2J\\x1b]0;owned\\x07"}, {"bidi", "\\u202etxt.exe"}, {"invalid-utf8", "\\xff\\xfe\\xc3("}};
        for (const auto& [kind, escaped] : kinds) {
            for (const char* f : {"header.extxyz", "symbol.extxyz", "number.extxyz", "number.csv", "name.extxyz"})
                QTest::newRow(qPrintable(kind + "-" + f)) << kind + "-" + f << escaped;
            QTest::newRow(qPrintable(kind + "-header.csv")) << kind + "-header.csv" << QString();
        }
    }
    void unsafeFixtures()
    {
        QFETCH(QString, file);
        QFETCH(QString, escaped);
        const std::string path = orbittest::fixture("data/unsafe/" + file.toStdString());
        const std::string message = messageOf(path);
        if (file.contains("-name.")) {
            // The molecule loads; its name is kept escaped, so every view can show it.
            QVERIFY2(message.empty(), message.c_str());
            const Dataset d = loadDataset(path);
            QCOMPARE(d.names.size(), std::size_t(1));
            QVERIFY(isSafeText(d.names[0]));
            QCOMPARE(QString::fromStdString(d.names[0]), "m" + escaped);
            return;
        }
        QVERIFY2(!message.empty(), qPrintable(file + " loaded"));
        QVERIFY2(!hasControl(message), message.c_str());
        if (!escaped.isEmpty())
            QVERIFY2(QString::fromStdString(message).contains(escaped), message.c_str());
    }

    void randomBytesAreQuotedShort()
    {
        // A file of random bytes named .extxyz: its first line is quoted escaped and cut short.
        const std::string message = messageOf(orbittest::fixture("data/unsafe/random-bytes.extxyz"));
        QVERIFY(!message.empty());
        const auto at = message.find("(value '");
        QVERIFY2(at != std::string::npos, message.c_str());
        std::string quoted = message.substr(at + 8);
        quoted = quoted.substr(0, quoted.rfind('\''));
        std::size_t chars = 0;
        for (unsigned char c : quoted) chars += (c & 0xc0) != 0x80;
        QVERIFY2(chars <= kQuoteMaxChars, message.c_str());
        QVERIFY2(message.find("\\x") != std::string::npos, message.c_str());
    }

    void megabyteFieldsAreCut_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : {"header.extxyz", "symbol.extxyz", "number.extxyz", "number.csv", "name.extxyz"})
            QTest::newRow(f) << QString(f);
    }
    void megabyteFieldsAreCut()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path path = fs::path(dir.path().toStdString()) / ("huge-" + file.toStdString());
        const std::string place = file.section('.', 0, 0).toStdString();
        if (file.endsWith(".csv"))
            writeFile(path, "x1,x2,class\n0.5,1.0,0\n1.5,2x" + kHuge + ",1\n");
        else
            writeFile(path, xyzWith(place, "x" + kHuge));
        const std::string message = messageOf(path.string());
        if (place == "name") {
            QVERIFY(message.empty());
            const Dataset d = loadDataset(path.string());
            QVERIFY(d.names.at(0).size() <= 3 * kQuoteMaxChars);
            QVERIFY(d.names.at(0).ends_with("\u2026"));
            return;
        }
        QVERIFY2(!message.empty() && message.size() < 500, message.substr(0, 600).c_str());
        QVERIFY2(message.find("\u2026', ") != std::string::npos, message.c_str());
        QVERIFY2(message.find(" bytes)") != std::string::npos, message.c_str());
    }

    void hostileFileNames()
    {
        // File names are quoted too: a name can hold an escape sequence, an override, invalid UTF-8.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path path = fs::path(dir.path().toStdString()) / ("evil" + kAnsi + kBidi + kInvalid + ".extxyz");
        writeFile(path, "two\nenergy=1\n");
        const std::string message = messageOf(path.string());
        QVERIFY(!message.empty());
        QVERIFY2(message.find("evil\\x1b[2J\\x1b]0;owned\\x07\\u202etxt.exe\\xff\\xfe\\xc3(.extxyz: line 1") !=
                     std::string::npos,
                 message.c_str());
        // A missing file and a folder of the same kind of name.
        QVERIFY(!messageOf((path.parent_path() / ("gone" + kAnsi)).string()).empty());
        fs::create_directory(path.parent_path() / ("dir" + kBidi));
        QVERIFY(!messageOf((path.parent_path() / ("dir" + kBidi)).string(), orbit::loadCsv).empty());
        // QTemporaryDir cannot remove a name that is not valid UTF-8: remove the files here.
        for (const auto& entry : fs::directory_iterator(path.parent_path())) fs::remove_all(entry.path());
    }

    void everyFixtureWithEveryLoader()
    {
        // Every committed fixture (valid or not) through every loader, forced or detected: each
        // refusal's message is safe text (checkLoad throws Finding otherwise).
        int refusals = 0;
        const fs::path root = orbittest::fixture("data");
        for (const auto& entry : fs::recursive_directory_iterator(root)) {
            if (entry.path().extension() == ".py" || entry.path().extension() == ".md" ||
                entry.path().extension() == ".expect")
                continue;
            for (const char* target : {"autodetect", "idx", "cifar", "amat", "image", "digits", "mat", "extxyz", "csv"}) {
                try {
                    std::string error;
                    if (!orbitfuzz::checkLoad(orbitfuzz::loaderFor(target), entry.path().string(), &error)) ++refusals;
                } catch (const orbitfuzz::Finding& f) {
                    QFAIL(qPrintable(QString::fromStdString(entry.path().string()) + " (" + target + "): " + f.what()));
                }
            }
        }
        QVERIFY(refusals > 100);
    }

    void specParsers()
    {
        // Hostile text in every place of a spec: the names, keys and values.
        for (const std::string& bad : {kAnsi, kBidi, kInvalid, "x" + kHuge}) {
            const std::vector<std::vector<std::string>> cases = {
                {bad, bad, bad, bad},
                {"rotation", "vonmises:kappa=" + bad, "gaussian:bandwidth=" + bad, "rf:s=" + bad},
                {"rotation:" + bad + "=1", "vonmises:" + bad + "=1", "gaussian:" + bad + "=2", "irf:" + bad + "=3"},
                {"cyclic:n=" + bad, "haar", "gaussian:median=1", "nystrom:s=4,tol=" + bad},
            };
            for (const auto& lines : cases) {
                try {
                    orbitfuzz::checkSpecs(lines);
                } catch (const orbitfuzz::Finding& f) {
                    QFAIL(f.what());
                }
            }
            try {
                parseFormat(bad);
                QFAIL("parseFormat accepted a hostile name");
            } catch (const SpecError& e) {
                orbitfuzz::checkMessage(e.what(), "parseFormat");
            }
        }
        try {
            parseSpec("vonmises:kappa=" + kAnsi, "--dist").number("kappa");
            QFAIL("a hostile number parsed");
        } catch (const SpecError& e) {
            QCOMPARE(std::string(e.what()), "--dist vonmises.kappa: not a finite number (value '\\x1b[2J\\x1b]0;owned\\x07')");
        }
    }

    void cliStderrIsSafe()
    {
        // What `orbitlab-cli info FILE` writes: the message of the ANSI count line, escaped.
        const auto r = orbittest::runCli({"info", orbittest::fixture("data/unsafe/ansi-header.extxyz")});
        QCOMPARE(r.status, 2);
        QVERIFY2(isSafeText(r.err.substr(0, r.err.size() - 1)) && r.err.back() == '\n', r.err.c_str());
        QVERIFY2(r.err.find("(value '2\\x1b[2J\\x1b]0;owned\\x07')") != std::string::npos, r.err.c_str());
        // Unknown commands and options quote the argument escaped and short.
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{kAnsi + kHuge}, {"info", "--" + kBidi + kHuge}, {"sample", "--dist", kInvalid}}) {
            const auto bad = orbittest::runCli(args);
            QCOMPARE(bad.status, 2);
            QVERIFY2(isSafeText(bad.err.substr(0, bad.err.size() - 1)), bad.err.substr(0, 400).c_str());
            QVERIFY2(bad.err.size() < 600, bad.err.substr(0, 600).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestSafeMessages)
#include "test_safe_messages.moc"
