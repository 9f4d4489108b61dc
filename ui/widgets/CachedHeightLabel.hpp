#pragma once
// A word-wrapped label that remembers its height for each width it was asked about. QLabel lays its
// whole text out again for every heightForWidth(), and the layouts above a rich-text paragraph (a
// QSplitter's recalc, a QTabWidget's sizeHint through every page of its stack) ask for the same few
// widths many times per layout pass: for the Training panel's introduction, tens of milliseconds of
// the GUI thread each time the panel was shown (issue 32). The remembered heights are dropped when
// the text, the font, the margins or the style change.
#include <QFont>
#include <QHash>
#include <QLabel>

namespace orbitui {

class CachedHeightLabel : public QLabel {
    Q_OBJECT
public:
    explicit CachedHeightLabel(const QString& text, QWidget* parent = nullptr);

    /// QLabel::heightForWidth(width), computed once per width while the text, font and margins stay.
    int heightForWidth(int width) const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    mutable QHash<int, int> heights_;
    mutable QString text_;
    mutable QFont font_;
    mutable int margin_ = 0;
    mutable QMargins contents_;
};

} // namespace orbitui
