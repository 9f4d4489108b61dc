#pragma once
// Presentation mode of a window, for the back row of a lecture room: every widget's font grows
// by fontScale() (chart text by chartFontScale()), chart lines and markers thicken by lineScale() (also in charts drawn later),
// and the secondary controls (export buttons, secondary status text) are hidden. Turning it off
// restores the fonts, pens and visibility it changed, and nothing else.
//
// A control is secondary when its object name starts with "export-" (the buttons of
// makeExportButtons and the panels' own export buttons) or when markSecondary() was called on it.
#include <QList>
#include <QObject>
#include <QPointer>

class QChart;
class QWidget;

namespace orbitui {

class PresentationMode : public QObject {
    Q_OBJECT
public:
    /// Acts on `window` and every widget under it.
    explicit PresentationMode(QWidget* window);

    static constexpr double fontScale() { return 1.4; }
    static constexpr double lineScale() { return 2.0; }
    /// Chart titles and axis labels grow less: a chart's plot area shrinks by what its labels take.
    static constexpr double chartFontScale() { return 1.25; }

    bool isOn() const { return on_; }
    void setOn(bool on);

    /// Marks `widget` as secondary: hidden in presentation mode.
    static void markSecondary(QWidget* widget);
    static bool isSecondary(const QWidget* widget);

signals:
    void toggled(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void scaleFonts(bool up);
    void hideSecondary();
    void restoreSecondary();
    /// Scales the series, axes, title and legend of `chart` not scaled yet (up) or back (down).
    void scaleChart(QChart* chart, bool up);
    void scaleCharts(bool up);

    QWidget* window_;
    bool on_ = false;
    QList<QPointer<QWidget>> hidden_;
};

} // namespace orbitui
