#pragma once
// The A/B comparison of the Training panel: while A is pinned (state/Comparison.hpp), each Run
// also trains A with A's settings (features, learner, evaluation, grid, subset, seed and A's orbit)
// on its own worker, once per pin and dataset; the "A / B" tab of the results shows both runs in one
// table (columns A and B: the test score, its spread, MAE, the log evidence where the learner gives
// one, ...), one chart of the test score of every fold, and the two confusion matrices side by side.
#include <QObject>
#include <QString>

#include <array>
#include <memory>

class QLabel;
class QTableWidget;
class QWidget;

namespace orbitui {

class ChartBox;
class Comparison;
class ConfusionMatrixView;
class LabState;
class TaskRunner;
class TrainingPanel;
struct TrainingResult;

class TrainingComparison : public QObject {
    Q_OBJECT
public:
    /// Rows of the table.
    enum Row { Setting, Features, Learner, Score, Spread, Mae, LogEvidence, Samples, Time, RowCount };

    TrainingComparison(Comparison* comparison, LabState* state, TrainingPanel* panel, QObject* parent = nullptr);
    bool isIdle() const;
    /// The "A / B" tab (in the panel's result tabs while A is pinned).
    QWidget* widget() const { return widget_; }
    /// Columns "A" and "B" while pinned, "B" alone otherwise; a number cell holds its value in
    /// Qt::UserRole (Score: the mean, Spread: the standard deviation, LogEvidence, Mae).
    QTableWidget* table() const { return table_; }
    /// Test score of every fold, A and B side by side (a bar chart).
    ChartBox* chart() const { return chart_; }
    ConfusionMatrixView* confusion(int column) const { return confusion_[static_cast<std::size_t>(column)]; }
    std::shared_ptr<const TrainingResult> resultA() const { return result_; }
    QString noteText() const;

signals:
    /// A was trained (resultA() holds its run).
    void resultAChanged();

private:
    void pinnedChanged();
    void ensureA();
    void draw();

    Comparison* comparison_;
    LabState* state_;
    TrainingPanel* panel_;
    TaskRunner* runner_;
    QWidget* widget_;
    QLabel* note_;
    QTableWidget* table_;
    ChartBox* chart_;
    std::array<ConfusionMatrixView*, 2> confusion_{};
    std::shared_ptr<const TrainingResult> result_;
    QString resultKey_, pendingKey_, failure_;
};

} // namespace orbitui
