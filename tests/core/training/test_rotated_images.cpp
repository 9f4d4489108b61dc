// Rotated image datasets (RotatedImages.hpp): padding, rotation about the centre, seeds.
#include "orbit/training/Experiment.hpp"
#include "orbit/training/RotatedImages.hpp"
#include "orbit/util/Error.hpp"

#include <QTest>
#include <QObject>
#include <QString>

#include <cmath>

using namespace orbit;

namespace {

/// n images of h x w with a 3 x 3 bright square at (row, col), label i % 3.
Dataset squares(int n, int h, int w, int row, int col)
{
    Dataset ds;
    ds.kind = DataKind::Images;
    ds.shape = Shape{h, w, 1};
    ds.numClasses = 3;
    ds.X = MatrixXfR::Zero(n, h * w);
    for (int i = 0; i < n; ++i) {
        for (int r = row - 1; r <= row + 1; ++r)
            for (int c = col - 1; c <= col + 1; ++c) ds.X(i, r * w + c) = 1.0f;
        ds.labels.push_back(i % 3);
    }
    return ds;
}

/// Intensity-weighted centroid (x = column, y = row) of image i.
std::pair<double, double> centroid(const Dataset& ds, int i)
{
    double sx = 0, sy = 0, m = 0;
    for (int r = 0; r < ds.shape.height; ++r)
        for (int c = 0; c < ds.shape.width; ++c) {
            const double v = ds.X(i, r * ds.shape.width + c);
            sx += v * c;
            sy += v * r;
            m += v;
        }
    return {sx / m, sy / m};
}

} // namespace

class TestRotatedImages : public QObject {
    Q_OBJECT
private slots:
    // Shape pad x pad, labels kept, values in [0, 1], intensity mass kept (bilinear, inside the frame).
    void shapeLabelsAndMass()
    {
        const Dataset in = squares(6, 20, 20, 6, 10);
        const Dataset out = rotatedImages(in, 28, 1);
        QCOMPARE(out.shape, (Shape{28, 28, 1}));
        QCOMPARE(out.count(), std::size_t(6));
        QVERIFY(out.labels == in.labels);
        QCOMPARE(out.numClasses, 3);
        QVERIFY(out.X.minCoeff() >= 0.0f && out.X.maxCoeff() <= 1.0f);
        for (int i = 0; i < 6; ++i) QVERIFY(std::abs(out.X.row(i).sum() - 9.0f) < 0.5f);
    }

    // The centroid's offset from the centre ((pad-1)/2, (pad-1)/2) turns by the sample's angle,
    // counter-clockwise as displayed (rows grow downwards): (dx, dy) -> (dx cos t + dy sin t, -dx sin t + dy cos t).
    void rotatesAboutTheCentreByTheDrawnAngle()
    {
        const int pad = 28;
        const Dataset in = squares(5, 20, 20, 5, 9);
        const Dataset out = rotatedImages(in, pad, 42);
        const double c0 = 0.5 * (pad - 1);
        const auto [x0, y0] = centroid(in, 0);
        const double dx = x0 + 4 - c0, dy = y0 + 4 - c0;  // padding of 4 on each side
        for (int i = 0; i < 5; ++i) {
            const double t = rotationAngle(42, std::size_t(i));
            const double ex = c0 + dx * std::cos(t) + dy * std::sin(t), ey = c0 - dx * std::sin(t) + dy * std::cos(t);
            const auto [x, y] = centroid(out, i);
            QVERIFY2(std::hypot(x - ex, y - ey) < 0.3, qPrintable(QString("%1,%2 vs %3,%4").arg(x).arg(y).arg(ex).arg(ey)));
        }
    }

    // Angles are uniform-looking in [0, 2 pi) and differ between samples; same seed, same bits.
    void seededAndReproducible()
    {
        double lo = 10, hi = -10;
        for (std::size_t i = 0; i < 200; ++i) {
            const double t = rotationAngle(3, i);
            QVERIFY(t >= 0 && t < 2 * M_PI);
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
        QVERIFY(lo < 0.3 && hi > 2 * M_PI - 0.3);
        const Dataset in = squares(4, 10, 10, 3, 3);
        QVERIFY(rotatedImages(in, 16, 5).X == rotatedImages(in, 16, 5).X);
        QVERIFY(rotatedImages(in, 16, 5).X != rotatedImages(in, 16, 6).X);
    }

    // prepareDataset: seeded subset of n rows, then rotation.
    void subsetThenRotate()
    {
        const Dataset in = squares(30, 12, 12, 4, 4);
        const Dataset a = prepareDataset(in, 10, true, 16, 2);
        QCOMPARE(a.count(), std::size_t(10));
        QCOMPARE(a.shape.width, 16);
        QVERIFY(a.X == prepareDataset(in, 10, true, 16, 2).X);
        QVERIFY_THROWS_EXCEPTION(SpecError, prepareDataset(in, 31, false, 28, 2));
    }

    void rejectsBadInput()
    {
        QVERIFY_THROWS_EXCEPTION(SpecError, rotatedImages(squares(2, 20, 20, 5, 5), 19, 0));
        Dataset v;
        v.X = MatrixXfR::Zero(2, 3);
        v.shape = Shape{1, 3, 1};
        QVERIFY_THROWS_EXCEPTION(SpecError, rotatedImages(v, 28, 0));
    }
};

QTEST_APPLESS_MAIN(TestRotatedImages)
#include "test_rotated_images.moc"
