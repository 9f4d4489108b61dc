// The Training panel's introduction (issue 32: shown, the panel spent tens of milliseconds laying its
// rich text out again for every height-for-width question): CachedHeightLabel answers what QLabel
// answers, for every width, and follows its text, font and margins when they change.
#include "widgets/CachedHeightLabel.hpp"

#include <QLabel>
#include <QObject>
#include <QTest>

using namespace orbitui;

namespace {

const QString kText = QStringLiteral("<h2>Title</h2><p>A paragraph long enough to wrap over several lines at the "
                                     "widths asked for, with <b>bold</b> words and a list:</p>"
                                     "<ol><li>the first item</li><li>the second, longer item of the list</li></ol>");

/// `cached` answers what a plain QLabel set up like it answers.
void expectSameHeights(const CachedHeightLabel& cached, const char* what)
{
    QLabel plain(cached.text());
    plain.setWordWrap(cached.wordWrap());
    plain.setFont(cached.font());
    plain.setMargin(cached.margin());
    plain.setContentsMargins(cached.contentsMargins());
    for (int round = 0; round < 2; ++round)  // computed, then remembered
        for (int width : {80, 150, 151, 300, 640, 1200})
            QVERIFY2(cached.heightForWidth(width) == plain.heightForWidth(width),
                     qPrintable(QString("%1, width %2: %3 against %4").arg(what).arg(width)
                                    .arg(cached.heightForWidth(width)).arg(plain.heightForWidth(width))));
}

} // namespace

class TestCachedHeightLabel : public QObject {
    Q_OBJECT
private slots:
    void answersWhatQLabelAnswersAndFollowsChanges()
    {
        CachedHeightLabel label(kText);
        label.setWordWrap(true);
        QVERIFY(label.hasHeightForWidth());
        expectSameHeights(label, "as built");
        const int before = label.heightForWidth(300);
        label.setText(kText + "<p>One more paragraph, which takes its own lines.</p>");
        QVERIFY(label.heightForWidth(300) > before);
        expectSameHeights(label, "longer text");
        QFont big = label.font();
        big.setPointSizeF(big.pointSizeF() * 1.4);
        label.setFont(big);
        expectSameHeights(label, "larger font");
        label.setMargin(24);
        expectSameHeights(label, "margin");
        label.setContentsMargins(5, 6, 7, 8);
        expectSameHeights(label, "contents margins");
    }

    void followsAFontInheritedFromItsParent()
    {
        QWidget parent;
        auto* label = new CachedHeightLabel(kText, &parent);
        label->setWordWrap(true);
        const int before = label->heightForWidth(300);
        QFont big = parent.font();
        big.setPointSizeF(big.pointSizeF() * 1.4);
        parent.setFont(big);  // presentation mode sets the window's font
        QVERIFY(label->heightForWidth(300) > before);
        expectSameHeights(*label, "inherited font");
    }
};

QTEST_MAIN(TestCachedHeightLabel)
#include "test_cached_height_label.moc"
