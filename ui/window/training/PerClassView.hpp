#pragma once
// The picture of a per-class learn (issue 31): one bar per class, filled in as each class's own
// evidence converges (orbit::learnPerClass reports them one by one), drawn as the 95% window in
// degrees of the class's own density for rotations (orbit::rotationWindowDegrees), else as the
// learned value of the first parameter; a line marks the single learned locality shared by every
// class. Below, A/B style, the confusion matrices of the single model and the per-class model on the
// held-out rows. A click on a bar announces its class.
#include "orbit/locality/PerClassLocality.hpp"

#include <Eigen/Core>

#include <QStringList>
#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QBarSet;
class QBarSeries;
class QLineSeries;
class QValueAxis;
class QLabel;

namespace orbitui {

class ChartBox;
class ConfusionMatrixView;

/// The top of the bar chart's value axis for the largest value drawn, `hi` (a bar or the line):
/// 10 % above it, rounded up to 10° below 60° and to 30° above, at most 360° (degrees);
/// max(hi, 1) * 1.1 otherwise. Narrow windows fill the chart (Fashion-MNIST's 6° to 29° on a 40°
/// axis, not 120°).
double perClassAxisTop(double hi, bool degrees);

class PerClassView : public QWidget {
    Q_OBJECT
public:
    explicit PerClassView(QWidget* parent = nullptr);

    /// Starts a new picture with every class empty: the class names (one per class), the first
    /// learned parameter (its name as the distribution names it) and whether bars are windows in
    /// degrees (a rotation distribution).
    void begin(const QStringList& classes, const std::string& parameter, bool degrees);
    /// A class has been learned: its bar fills in.
    void addClass(const orbit::ClassLocality& learned);
    /// The run finished: the single learn's line and, when there are held-out rows, the two
    /// confusion matrices (empty matrices: none).
    void finish(const orbit::PerClassResult& result, const Eigen::MatrixXi& globalConfusion,
                const Eigen::MatrixXi& perClassConfusion);

    /// What a bar shows for a learned class (window degrees, or the parameter's value).
    double barValue(const orbit::ClassLocality& learned) const;
    /// The classes whose bar is filled, in the order they arrived.
    const std::vector<int>& filled() const { return filled_; }
    /// The bar height of class `label` (0 while it is not learned).
    double barHeight(int label) const;
    ChartBox* chartBox() const { return chart_; }
    ConfusionMatrixView* globalConfusion() const { return globalMatrix_; }
    ConfusionMatrixView* perClassConfusion() const { return perClassMatrix_; }
    /// The value axis's top (perClassAxisTop of the largest bar or line; 0 before begin()).
    double axisTop() const;

signals:
    /// A class's bar was clicked.
    void classClicked(int label);

private:
    void rescale();

    ChartBox* chart_;
    QBarSeries* bars_ = nullptr;
    QBarSet* set_ = nullptr;
    QLineSeries* global_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
    QLabel* matricesNote_;
    ConfusionMatrixView* globalMatrix_;
    ConfusionMatrixView* perClassMatrix_;
    QWidget* matrices_;
    QStringList classes_;
    std::string parameter_;
    bool degrees_ = true;
    std::vector<int> filled_;
};

} // namespace orbitui
