#pragma once
// Class scores as horizontal bars, one row per class and one bar per model (A above B), the top
// class of each model marked; or, for a regression model, its value as a number (with an interval
// where it has one). Painted directly: a slider step redraws it in well under a millisecond.
#include <QColor>
#include <QStringList>
#include <QWidget>

#include <array>
#include <optional>
#include <vector>

namespace orbitui {

class ScoreBars : public QWidget {
    Q_OBJECT
public:
    explicit ScoreBars(QWidget* parent = nullptr);

    /// The classes' names (rows).
    void setLabels(const QStringList& labels);
    /// Model m's (0: A, 1: B) scores, one per label; empty hides its bars. `name` heads its column.
    void setScores(int model, const std::vector<double>& scores, const QString& name);
    /// Model m's regression answer instead of bars: the value and its interval.
    void setValue(int model, std::optional<double> value, std::optional<std::pair<double, double>> interval,
                  const QString& name, const QString& unit);
    /// The top class of model m (the largest score, the lowest index on ties), or -1.
    int top(int model) const;
    /// Model m's scores as shown.
    const std::vector<double>& scores(int model) const { return models_[std::size_t(model)].scores; }

    QSize sizeHint() const override { return {300, 260}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Model {
        std::vector<double> scores;
        std::optional<double> value;
        std::optional<std::pair<double, double>> interval;
        QString name, unit;
    };
    QStringList labels_;
    std::array<Model, 2> models_;
};

} // namespace orbitui
