// FieldHighlight, the widget logic behind "the panel points at the control of the refused
// setting", without a main window: which control a core field finds (its own, else its longest
// registered prefix, or a resolver's for controls rebuilt over time); the mark (property, frame,
// the message as plain text in the tooltip) and how editing the control or clear() removes it.
#include "widgets/FieldHighlight.hpp"

#include <QComboBox>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStyle>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QTest>
#include <QObject>
#include <QString>

using namespace orbitui;

class TestFieldHighlight : public QObject {
    Q_OBJECT

private slots:
    void aControlsOwnBareSheetStaysParsable()
    {
        // "color: #555;" beside the frame's rule needs braces, or Qt drops the whole sheet with
        // "Could not parse stylesheet" (seen in the random-click run).
        QTest::failOnWarning(QRegularExpression("Could not parse stylesheet"));
        auto* edit = new QLineEdit;
        edit->setStyleSheet("color: #555;");
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(edit);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        FieldHighlight fields;
        fields.add("s", edit);
        QCOMPARE(fields.mark("s", "s: not a number (value 'abc')", false), edit);
        edit->ensurePolished();
        edit->style()->unpolish(edit);
        edit->style()->polish(edit);
        QTest::qWait(10);
        QVERIFY(edit->styleSheet().contains("fieldError"));
        edit->setText("3");
        QCOMPARE(edit->styleSheet(), QString("color: #555;"));
    }
    void fieldsFindTheirControls()
    {
        QWidget host;
        auto* spec = new QLineEdit(&host);
        auto* lambdas = new QLineEdit(&host);
        auto* size = new QSpinBox(&host);
        FieldHighlight fields;
        fields.add("features", spec);
        fields.add("features.s", size);
        fields.add("grid lambda", lambdas);
        QCOMPARE(fields.controlFor("features"), spec);
        QCOMPARE(fields.controlFor("features.s"), size);
        QCOMPARE(fields.controlFor("features rf.s"), spec);  // the nearest registered prefix
        QCOMPARE(fields.controlFor("features.r"), spec);
        QCOMPARE(fields.controlFor("grid lambda"), lambdas);
        QCOMPARE(fields.controlFor("grid C"), nullptr);  // "grid" alone has no control here
        QCOMPARE(fields.controlFor("labels"), nullptr);
        QCOMPARE(fields.controlFor(""), nullptr);
        // A resolver sees the whole field (e.g. to pick a parameter's control by its key).
        QString asked;
        fields.add("distribution", [&](const QString& field) -> QWidget* {
            asked = field;
            return field.endsWith(".kappa") ? size : nullptr;
        });
        QCOMPARE(fields.controlFor("distribution vonmises.kappa"), size);
        QCOMPARE(asked, QString("distribution vonmises.kappa"));
        QCOMPARE(fields.controlFor("distribution"), nullptr);
        QVERIFY(!fields.mark("distribution", "no control", false));
    }

    void aMarkLastsUntilTheControlChanges()
    {
        QScrollArea area;
        auto* inner = new QWidget;
        auto* layout = new QVBoxLayout(inner);
        auto* combo = new QComboBox;
        combo->addItems({"ridge", "svm"});
        auto* spin = new QSpinBox;
        auto* edit = new QLineEdit;
        edit->setToolTip("the spec");
        edit->setStyleSheet("QLineEdit { color: black; }");
        layout->addWidget(combo);
        layout->addSpacing(3000);  // far below the visible part of the area
        layout->addWidget(spin);
        layout->addWidget(edit);
        area.setWidget(inner);
        area.resize(200, 200);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        FieldHighlight fields;
        fields.add("learner", combo);
        fields.add("r", spin);
        fields.add("features", edit);

        // The message is shown as plain text: markup in a value is not interpreted.
        QCOMPARE(fields.mark("features rf.s", "features rf.s: not an integer (value '<b>x</b>')", false), edit);
        QVERIFY(FieldHighlight::isMarked(edit));
        QVERIFY(edit->toolTip().contains("&lt;b&gt;x&lt;/b&gt;"));
        QVERIFY(edit->styleSheet().startsWith("QLineEdit { color: black; }"));  // its own sheet kept
        QVERIFY(edit->styleSheet().contains("fieldError"));
        QVERIFY(area.verticalScrollBar()->value() > 0);  // scrolled to the control
        edit->setText("rf:s=10");                         // an edit clears the mark
        QVERIFY(!FieldHighlight::isMarked(edit));
        QCOMPARE(edit->toolTip(), QString("the spec"));
        QCOMPARE(edit->styleSheet(), QString("QLineEdit { color: black; }"));

        fields.mark("r", "r: must be >= 1 (value '0')", false);
        fields.mark("learner", "learner: must be ridge, svm, krr or blr", false);
        QVERIFY(FieldHighlight::isMarked(spin) && FieldHighlight::isMarked(combo));
        spin->setValue(3);
        QVERIFY(!FieldHighlight::isMarked(spin));
        QVERIFY(FieldHighlight::isMarked(combo));
        fields.mark("learner", "again", false);  // marked twice: one mark, the first tooltip kept
        fields.clear();
        QVERIFY(!FieldHighlight::isMarked(combo));
        QVERIFY(combo->toolTip().isEmpty());
        combo->setCurrentIndex(1);  // no mark: nothing to clear, nothing breaks
        QVERIFY(!FieldHighlight::isMarked(combo));
    }
};

QTEST_MAIN(TestFieldHighlight)
#include "test_field_highlight.moc"
