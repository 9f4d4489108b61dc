#pragma once
// Points at the control of a setting the core refused. A panel registers which control sets each
// of the core's fields (the neutral names of orbit/util/Error.hpp: "features", "grid lambda",
// "distribution", ...); mark(field, message) frames that control in red (the dynamic property
// "fieldError" and a style sheet rule of the control's own), puts the message into its tooltip as
// plain text, scrolls it into view and, when asked, gives it the focus. Changing the control's
// value clears its mark and restores its tooltip; clear() clears them all.
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QWidget>

#include <functional>

namespace orbitui {

class FieldHighlight : public QObject {
    Q_OBJECT
public:
    /// The dynamic property set to true on a marked control (a style sheet may select on it).
    static constexpr const char* kProperty = "fieldError";

    explicit FieldHighlight(QObject* parent = nullptr);

    /// `control` sets `field`. A field without a control of its own falls back to its longest
    /// registered prefix cut at a ' ' or '.' ("features irf.s" -> "features").
    void add(const QString& field, QWidget* control);
    /// The same for a control that is rebuilt over time: `resolve` is asked for the control of the
    /// field as it was thrown (it may look at the rest of the field, e.g. the parameter key) and
    /// may return null.
    void add(const QString& field, std::function<QWidget*(const QString& field)> resolve);

    /// The control that sets `field`, or null.
    QWidget* controlFor(const QString& field) const;
    /// Marks the control of `field` with `message` (shown in its tooltip as plain text) and
    /// returns it; null (nothing marked) when no control sets the field.
    QWidget* mark(const QString& field, const QString& message, bool focus);
    /// Removes every mark.
    void clear();
    /// Removes the mark of `control`, if any.
    void clear(QWidget* control);

    static bool isMarked(const QWidget* control);

private:
    struct Saved {
        QString toolTip;
        QString styleSheet;
    };
    /// Clears the control's mark when its value changes (connected once per control).
    void watch(QWidget* control);

    QHash<QString, std::function<QWidget*(const QString&)>> fields_;
    QHash<QWidget*, Saved> marked_;
    QSet<QWidget*> watched_;  ///< controls whose changes are connected
};

} // namespace orbitui
