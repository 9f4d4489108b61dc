#pragma once
// The base of every panel: a name for the switcher and the command line, and a red message strip
// that shows load/compute errors inline (never a dialog, never a crash).
#include <QString>
#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace orbitui {

class Panel : public QWidget {
    Q_OBJECT
public:
    /// `name` is the command-line name (data, group, orbits, ...), `title` the switcher's label.
    Panel(const QString& name, const QString& title, QWidget* parent = nullptr);

    QString name() const { return name_; }
    QString title() const { return title_; }

    void showError(const QString& message);
    void clearError();
    bool hasError() const;
    QString errorText() const;

    /// False while the panel waits for a worker's result (a screenshot waits for true).
    virtual bool isIdle() const { return true; }

signals:
    /// A short message for the status bar.
    void statusMessage(const QString& text);

protected:
    /// Where subclasses put their content (below the message strip).
    QVBoxLayout* content() const { return content_; }

private:
    QString name_, title_;
    QLabel* error_;
    QVBoxLayout* content_;
};

} // namespace orbitui
