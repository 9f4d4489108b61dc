#pragma once
// A layout that places its items left to right and wraps them onto the next line when the width
// runs out (Qt's flow-layout example), so a row of controls fits a 1280-pixel projector as well as
// a wide monitor. Put a caption and its field in one widget (flowGroup) so they wrap together.
#include <QLayout>
#include <QList>
#include <QStyle>

class QLabel;

namespace orbitui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int hSpacing = 10, int vSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    /// Adds a flexible gap: the items after it sit at the right end of their line (like a stretch
    /// in a QHBoxLayout) when they fit on the line, else they wrap.
    void addStretch();
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

    /// The number of lines the items take at `width` (1 when they fit on one).
    int lineCount(int width) const;

private:
    /// Places the items in `rect` (or only measures when `apply` is false); returns the height and
    /// the number of lines.
    int doLayout(const QRect& rect, bool apply, int* lines = nullptr) const;

    QList<QLayoutItem*> items_;
    int stretchAt_ = -1;
    int hSpace_, vSpace_;
};

/// A widget holding `caption` (may be null) and `fields` side by side, for a FlowLayout.
QWidget* flowGroup(QWidget* caption, std::initializer_list<QWidget*> fields);

} // namespace orbitui
