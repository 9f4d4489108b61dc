#pragma once
// The Predict panel's sweep chart: each class's score (or the predicted value, with its interval)
// against the swept parameter over its whole range, model B solid and A dashed, the slider's value
// marked by a vertical line and each model's central 90 % rotation window shaded.
#include <QObject>
#include <QString>
#include <QStringList>

#include <array>

class QLineSeries;

namespace orbitui {

class ChartBox;
struct PredictAnswer;

class PredictChart : public QObject {
    Q_OBJECT
public:
    explicit PredictChart(QObject* parent = nullptr);
    ChartBox* box() const { return box_; }

    /// Draws `sweep` (its request's range, each model's result); `labels` name the classes, `names`
    /// the models A and B, `axis` the parameter with its unit.
    void draw(const PredictAnswer& sweep, const QStringList& labels, const std::array<QString, 2>& names, const QString& axis);
    /// Empty chart with `note` over it.
    void clear(const QString& note);
    /// Moves the marker to `t` (no other series is touched: cheap on every slider step).
    void setMarker(double t);
    /// The x of the marker (NaN without one).
    double marker() const;

private:
    ChartBox* box_;
    QLineSeries* marker_ = nullptr;
    double yLo_ = 0.0, yHi_ = 1.0;
};

} // namespace orbitui
