#pragma once
// The base of every panel: a name for the switcher and the command line, and a red message strip
// that shows load/compute errors inline (never a dialog, never a crash), with an optional button
// that offers the way out (e.g. "Locate…" for a dataset that moved).
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <map>

class QFrame;
class QLabel;
class QPushButton;
class QShowEvent;
class QVBoxLayout;

namespace orbitui {

class FieldHighlight;

class Panel : public QWidget {
    Q_OBJECT
public:
    /// `name` is the command-line name (data, group, orbits, ...), `title` the switcher's label.
    Panel(const QString& name, const QString& title, QWidget* parent = nullptr);

    QString name() const { return name_; }
    QString title() const { return title_; }

    /// Shows `message` as plain text with control, bidi and invalid characters escaped
    /// (orbitui::safeText): a message that quotes a file cannot reorder or restyle itself.
    void showError(const QString& message);
    /// The same with a button labelled `actionText` beside the message that calls `action`.
    void showError(const QString& message, const QString& actionText, std::function<void()> action);
    /// showError(message), and when the core named the setting at fault (`field`, see
    /// orbit::SpecError) and a control of this panel sets it (fields()), marks that control with
    /// `detail` as its tooltip; `focus` also gives it the keyboard focus (after a user's action).
    void showFieldError(const QString& message, const QString& field, const QString& detail, bool focus = false);
    /// Hides the message and removes the marks of showFieldError.
    void clearError();
    bool hasError() const;
    QString errorText() const;
    /// The controls of this panel by the core's field names, and their marks.
    FieldHighlight* fields() const { return fields_; }
    /// The label of the message's button, or empty when it has none.
    QString errorActionText() const;
    /// Clicks the message's button (as the user would).
    void triggerErrorAction();

    /// False while anything under the panel has work pending: a job waiting in the PassScheduler
    /// (a kept draw, a scheduled recomputation), a busy TaskRunner (PassScheduler::isIdle). A
    /// screenshot, an export and a sweep's next frame wait for true.
    virtual bool isIdle() const;
    /// What a played sweep waits for before its next frame (SweepPacer::follow): isIdle() while the
    /// panel is in sight; while it is hidden, its work done but for the draws it keeps, which would
    /// otherwise hold every frame back by the kept-draw delay.
    bool isSweepFrameDone() const;
    /// Stops the panel's background work (its Cancel button); what is drawn stays. Panels without
    /// background work have nothing to stop.
    virtual void cancel() {}

    /// Whether the panel draws charts that `orbitlab --export DIR --panel NAME` writes.
    virtual bool hasCharts() const { return false; }
    /// Writes every chart that holds data into `dir` as the CSV its "Data CSV…" (kernel matrices:
    /// "Matrix CSV…") button writes, under the button's default file name (e.g. density.csv).
    /// Returns the paths written; stops at the first file that cannot be written and sets `error`
    /// to a one-line message naming it. Charts without data are left out.
    virtual QStringList exportCharts(const QString& dir, QString* error) const;

    /// Appends `widget` below the panel's content with `stretch`: views attached from outside the
    /// panel (the A/B comparison views, ui/window/compare/ComparisonViews.hpp).
    void appendWidget(QWidget* widget, int stretch = 0);

    /// How long a draw kept while the panel was hidden waits after the last result before it runs
    /// anyway (250 ms; tests set other ones), and at most four times that after the first. See
    /// whenInSight.
    void setKeptDrawDelay(int milliseconds) { keptDrawDelayMs_ = milliseconds; }
    /// Whether draws kept while the panel was hidden wait to run (isIdle() is false meanwhile).
    bool hasKeptDraws() const;

signals:
    /// A short message for the status bar (shown while the panel is in sight: a hidden panel's
    /// draws, and their messages, wait until it is shown, whenInSight).
    void statusMessage(const QString& text);

protected:
    /// Where subclasses put their content (below the message strip).
    QVBoxLayout* content() const { return content_; }

    /// What a panel does with a result, the same for every panel. A panel computes whether or not it
    /// is in sight: its settings changes start its workers (after its Auto-apply delay) hidden or
    /// not, so that what a user switches to is ready. Drawing is what waits: whenInSight runs `draw`
    /// (a worker's result onto the panel's charts, gallery or heatmaps) now when the panel is in
    /// sight; otherwise it keeps it, the latest per `slot` replacing an older one, until the panel is
    /// shown, drawKept() is called, or no result has come for the kept-draw delay (at most four
    /// delays after the first result kept), and then runs it in a paced pass of the event loop
    /// (PassScheduler). So a hidden panel draws about once a second while a sweep plays, not every
    /// frame. A hidden chart's axes, ticks and title cost the GUI
    /// thread 8-40 ms per result, and a lesson start's or a setting's batch of every panel's answers
    /// would put them all into one pass. Only for draws that replace what the slot shows: a stream
    /// of partial results keeps the whole of what it has received so far in its slot.
    void whenInSight(int slot, std::function<void()> draw);
    /// Forgets the draw kept in `slot` (a failure must not be drawn over by an older result).
    void dropKept(int slot);
    /// Runs every kept draw now: what reads the drawn state (accessors, exports) calls it first.
    void drawKept() const;
    /// `part` of the drawn state, with the kept draws run first.
    template <typename T>
    const T& drawn(const T& part) const
    {
        drawKept();
        return part;
    }
    /// Runs the kept draws before the panel is laid out and painted.
    void showEvent(QShowEvent* event) override;
    /// For exportCharts: writes `csv` to dir/name unless it is a header line only; appends the path
    /// to `written`. False (with `error` set) when the file cannot be written.
    static bool writeChartCsv(const QString& dir, const QString& name, const QString& csv, QStringList* written,
                              QString* error);

private:
    QString name_, title_;
    QFrame* strip_;
    QLabel* error_;
    QPushButton* action_;
    std::function<void()> actionHandler_;
    QVBoxLayout* content_;
    FieldHighlight* fields_;
    int keptDrawDelayMs_ = 250;
    QObject* keptDraws_;  ///< the owner of the kept draws' PassScheduler jobs
};

} // namespace orbitui
