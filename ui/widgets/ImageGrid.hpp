#pragma once
// A grid of equally sized pictures (the orbit gallery), scaled to fill the widget with crisp
// (nearest-neighbour) pixels; optional captions under each picture.
#include <QImage>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace orbitui {

class ImageGrid : public QWidget {
    Q_OBJECT
public:
    explicit ImageGrid(QWidget* parent = nullptr);

    void setImages(std::vector<QImage> images, QStringList tooltips = {});
    void setPlaceholder(const QString& text);
    int imageCount() const { return static_cast<int>(images_.size()); }
    /// How many times the grid was painted with images (tests: "the gallery redrew").
    int paintCount() const { return paints_; }
    /// The grid as one image (cells of `cell` pixels), for export.
    QImage toImage(int cell = 96) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;
    QSize sizeHint() const override { return {560, 560}; }
    QSize minimumSizeHint() const override { return {200, 200}; }

private:
    struct Layout {
        int columns = 1, rows = 1, cell = 1, gap = 2;
        QPoint origin;
    };
    Layout layoutFor(QSize area) const;

    std::vector<QImage> images_;
    QStringList tooltips_;
    QString placeholder_;
    int paints_ = 0;
};

} // namespace orbitui
