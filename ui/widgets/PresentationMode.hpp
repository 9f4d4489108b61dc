#pragma once
// Presentation mode of a window, for the back row of a lecture room: every widget's font grows
// by fontScale() (chart text by chartFontScale()), chart lines and markers thicken by lineScale() (also in charts drawn later),
// and the secondary controls (export buttons, secondary status text) are hidden. A widget with a font
// of its own (a bold title) gets its font from before the mode scaled once. Turning it off restores
// the fonts (values, what each widget sets itself and what it inherits), pens, marker sizes and
// visibility it changed, and nothing else.
//
// A control is secondary when its object name starts with "export-" (the buttons of
// makeExportButtons and the panels' own export buttons) or when markSecondary() was called on it.
//
// Staged: a part of the window given to setStagedParts() (a panel, a dock) that is hidden when the
// mode is toggled keeps its fonts and charts until its own event-loop turn (one part per turn), or
// until it is shown, whichever comes first (its turns are PassScheduler jobs); it is never painted unscaled. The toggle itself scales
// only what is in sight, so no single turn of the GUI thread scales every widget of every panel.
#include <QList>
#include <QObject>
#include <QPointer>

#include <vector>

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

    /// The parts that may be scaled after the toggle while hidden (each must be under the window, and
    /// must not have a font of its own: such a part is scaled with the window). Replaces earlier parts;
    /// call while the mode is off.
    void setStagedParts(const QList<QWidget*>& parts);
    /// True when no staged part waits for its turn: every widget shows the mode's fonts and charts.
    bool isSettled() const;

    /// Marks `widget` as secondary: hidden in presentation mode.
    static void markSecondary(QWidget* widget);
    static bool isSecondary(const QWidget* widget);

signals:
    void toggled(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// A staged part: `scaled` says whether its own-font widgets and charts are scaled up; `pinned`
    /// that it holds its font as its own (all attributes) so that the window's font stops at it.
    struct Part {
        QPointer<QWidget> widget;
        bool scaled = false;
        bool pinned = false;
    };

    /// The widgets under `root` that set a font of their own, leaving out the staged parts' subtrees
    /// (and `root` itself).
    QList<QWidget*> ownFontWidgets(QWidget* root) const;
    /// Remembers the font of every widget that has a font of its own (not remembered yet).
    void rememberOwnFonts();
    /// Sets the remembered fonts of `widgets` scaled up, or back (forgetting them).
    static void scaleOwnFonts(const QList<QWidget*>& widgets, bool up);
    void scaleWindowFont(bool up);
    void hideSecondary();
    void restoreSecondary();
    /// Scales the series, axes, title and legend of `chart` not scaled yet (up) or back (down).
    void scaleChart(QChart* chart, bool up);
    /// Scales the charts under `root`, leaving out the staged parts' subtrees unless `root` is one.
    void scaleCharts(QWidget* root, bool up);
    bool isInPart(const QWidget* widget, const QWidget* root) const;
    /// Brings `part` to the mode: unpins it (its children take the window's font) and scales its own
    /// fonts and charts up or down.
    void runTurn(Part& part);
    /// Runs the next pending part's turn and schedules the one after.
    void nextTurn();
    void scheduleTurn();

    QWidget* window_;
    bool on_ = false;
    QList<QPointer<QWidget>> hidden_;
    std::vector<Part> parts_;
};

} // namespace orbitui
