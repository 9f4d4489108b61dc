// orbit::safeText / quoteValue / safePath: what is kept, what is escaped and how it is cut; and the
// messages of LoadError and SpecError built from hostile parts.
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"

#include <QTest>
#include <QByteArray>
#include <QObject>

#include <string>

using namespace orbit;
using namespace std::string_literals;

namespace {
/// Number of UTF-8 characters (code points) of valid UTF-8 text.
std::size_t characters(const std::string& s)
{
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xc0) != 0x80;
    return n;
}
} // namespace

class TestSafeText : public QObject {
    Q_OBJECT
private slots:
    void escapes_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("plain ascii") << QByteArray("kappa=0.5, C:\\data") << QByteArray("kappa=0.5, C:\\data");
        QTest::newRow("printable utf-8") << QByteArray("κ = 2 · Å — 水") << QByteArray("κ = 2 · Å — 水");
        QTest::newRow("ansi clear + title") << QByteArray("\x1b[2J\x1b]0;owned\x07")
                                            << QByteArray("\\x1b[2J\\x1b]0;owned\\x07");
        QTest::newRow("newline, tab, cr, nul") << QByteArray("a\nb\tc\rd\0e", 9) << QByteArray("a\\x0ab\\x09c\\x0dd\\x00e");
        QTest::newRow("del") << QByteArray("a\x7f") << QByteArray("a\\x7f");
        QTest::newRow("c1 control (CSI)") << QByteArray("a\xc2\x9b" "2J") << QByteArray("a\\u009b2J");
        QTest::newRow("right-to-left override") << QByteArray("abc\xe2\x80\xaetxt") << QByteArray("abc\\u202etxt");
        QTest::newRow("isolates and marks") << QByteArray("\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c\xe2\x81\xa9")
                                            << QByteArray("\\u2066\\u200f\\u061c\\u2069");
        QTest::newRow("zero width, bom, line separator") << QByteArray("\xe2\x80\x8b\xef\xbb\xbf\xe2\x80\xa8")
                                                         << QByteArray("\\u200b\\ufeff\\u2028");
        QTest::newRow("invalid bytes") << QByteArray("\xff\xfe") << QByteArray("\\xff\\xfe");
        QTest::newRow("truncated sequence") << QByteArray("a\xc3") << QByteArray("a\\xc3");
        QTest::newRow("bad continuation") << QByteArray("\xc3\x28") << QByteArray("\\xc3(");
        QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << QByteArray("\\xc0\\xaf");
        QTest::newRow("utf-16 surrogate") << QByteArray("\xed\xa0\x80") << QByteArray("\\xed\\xa0\\x80");
        QTest::newRow("above U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << QByteArray("\\xf4\\x90\\x80\\x80");
        QTest::newRow("4-byte emoji kept") << QByteArray("\xf0\x9f\x99\x82") << QByteArray("\xf0\x9f\x99\x82");
    }
    void escapes()
    {
        QFETCH(QByteArray, raw);
        QFETCH(QByteArray, expected);
        const std::string in(raw.constData(), std::size_t(raw.size()));
        const std::string out = safeText(in);
        QCOMPARE(QByteArray::fromStdString(out), expected);
        QVERIFY(isSafeText(out));
        QCOMPARE(isSafeText(in), in == out);
        QCOMPARE(safeText(out), out);  // idempotent
    }

    void cutsLongTextWithoutSplittingEscapes()
    {
        QCOMPARE(safeText("abcdef", 6), "abcdef"s);
        QCOMPARE(safeText("abcdefg", 6), "abcde\u2026"s);
        // \x1b is four characters: "ab" + "\x1b" would need 6 + the ellipsis: the escape is dropped whole.
        QCOMPARE(safeText("ab\x1b" "cdef", 6), "ab\u2026"s);
        const std::string megabyte(1 << 20, '7');
        const std::string cut = safeText(megabyte, kQuoteMaxChars);
        QCOMPARE(characters(cut), kQuoteMaxChars);
        QVERIFY(cut.ends_with("\u2026"));
        QCOMPARE(quoteValue(megabyte), "'" + std::string(kQuoteMaxChars - 1, '7') + "\u2026' (1048576 bytes)");
        QCOMPARE(quoteValue("short"), "'short'"s);
        QCOMPARE(quoteValue(std::string(kQuoteMaxChars, 'x')), "'" + std::string(kQuoteMaxChars, 'x') + "'");
    }

    void longPathsKeepTheirEnds()
    {
        const std::string path = "/home/user/" + std::string(400, 'd') + "/qm7\x1b[2J.extxyz";
        const std::string safe = safePath(path);
        QVERIFY(isSafeText(safe));
        QVERIFY(characters(safe) <= kPathMaxChars);
        QVERIFY2(safe.starts_with("/home/user/"), safe.c_str());
        QVERIFY2(safe.ends_with("/qm7\\x1b[2J.extxyz"), safe.c_str());
        QVERIFY(safe.find("\u2026") != std::string::npos);
        QCOMPARE(safePath("/short/path.csv"), "/short/path.csv"s);
    }

    void errorMessagesAreSafeAndShort()
    {
        const std::string value = "2\x1b[2J\x1b]0;owned\x07" + std::string(1 << 20, '9');
        const LoadError e(LoadErrorKind::BadValue, "/tmp/evil\xe2\x80\xae" "lmx.csv", "line 1", "expected a count", value);
        const std::string m = e.what();
        QVERIFY2(isSafeText(m), m.c_str());
        QVERIFY2(m.size() < 400, m.c_str());
        QVERIFY2(m.starts_with("/tmp/evil\\u202elmx.csv: line 1: expected a count (value '2\\x1b[2J\\x1b]0;owned\\x07999"),
                 m.c_str());
        QVERIFY2(m.ends_with("\u2026', " + std::to_string(value.size()) + " bytes)"), m.c_str());
        QCOMPARE(e.value(), value);  // the accessor keeps the raw bytes

        const SpecError s("--dist \xff", "unknown parameter", "\xe2\x80\xae" "evil");
        QCOMPARE(std::string(s.what()), "--dist \\xff: unknown parameter (value '\\u202eevil')"s);
    }
};

QTEST_APPLESS_MAIN(TestSafeText)
#include "test_safe_text.moc"
