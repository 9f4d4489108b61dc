#pragma once
// A canvas of a few pixels (the data's image size, e.g. 20 x 20) drawn on with the mouse: the left
// button paints white ink with a soft round brush, the right button erases; shown enlarged with
// its pixel grid. What it holds is an 8-bit grey image, rows from the top, as an image file is read.
#include <QImage>
#include <QWidget>

namespace orbitui {

class DrawCanvas : public QWidget {
    Q_OBJECT
public:
    explicit DrawCanvas(QWidget* parent = nullptr);

    /// Starts again with a black canvas of `size` pixels.
    void reset(QSize size);
    /// The canvas (QImage::Format_Grayscale8).
    const QImage& image() const { return image_; }
    /// Replaces the canvas (converted to 8-bit grey, scaled to the canvas's size when it differs).
    void setImage(const QImage& image);
    /// Black again (emits changed()).
    void clear();
    /// The brush's radius in canvas pixels (default 1.1).
    void setBrushRadius(double radius) { radius_ = radius; }
    double brushRadius() const { return radius_; }
    /// Paints (or erases) one dab of the brush at `point` in canvas pixels, as a mouse press does.
    void dab(QPointF point, bool erase = false);
    /// True when every pixel is black.
    bool isBlank() const;

    QSize sizeHint() const override { return {220, 220}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

signals:
    /// A stroke ended (the mouse button was released), the canvas was cleared or replaced.
    void changed();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QRectF canvasRect() const;
    QPointF toCanvas(QPointF widgetPoint) const;

    QImage image_;
    double radius_ = 1.1;
    bool drawing_ = false, erasing_ = false;
    QPointF last_;
};

} // namespace orbitui
