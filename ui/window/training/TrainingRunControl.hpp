#pragma once
// The run controls of the Training panel: Run and Cancel, the progress bar and the status line with
// the elapsed time and an estimate of the time left. The panel decides what runs; this says how far
// it got.
#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QLabel;
class QPushButton;

namespace orbitui {

class FractionBar;

/// "8.5 s", "42 s", "3 min 7 s".
QString durationText(double seconds);

class TrainingRunControl : public QObject {
    Q_OBJECT
public:
    explicit TrainingRunControl(QObject* parent = nullptr);

    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    FractionBar* progressBar() const { return progress_; }
    QLabel* statusLabel() const { return status_; }
    QString statusText() const;

    /// Run enabled when idle, Cancel while busy.
    void setBusy(bool busy);
    /// A run starts: the bar at 0, `text` shown, the clock started.
    void start(const QString& text);
    /// A progress report: "<what>\n<p> % · <elapsed> elapsed", with " · about <t> left" when
    /// `estimate` and enough has been done to extrapolate.
    void report(double fraction, const QString& what, bool estimate);
    /// The run stopped: the bar at `fraction` (1 done, 0 not), `text` shown.
    void stop(double fraction, const QString& text);
    /// The time since start() as durationText.
    QString elapsedText() const;

signals:
    void runRequested();
    void cancelRequested();

private:
    QPushButton* run_;
    QPushButton* cancel_;
    FractionBar* progress_;
    QLabel* status_;
    QElapsedTimer clock_;
};

} // namespace orbitui
