#pragma once
// The Training panel's per-fold table as an item model: one row per outer fold (test score, MAE for
// regression, log evidence for blr, seconds, the parameters chosen on its validation split) and a
// bold summary row with the core's fold statistics (orbit::summarizeFolds, as `train --json`
// reports them).
#include "orbit/training/Training.hpp"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace orbitui {

/// A test score as the panel writes it: RMSE with 2 decimals, accuracy with 3.
QString scoreText(const orbit::TrainResult& result, double score);

class FoldTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit FoldTableModel(QObject* parent = nullptr);

    /// Shows the folds of `result`; `unit` (the targets' unit, or empty) is written in the RMSE and
    /// MAE headers.
    void setResult(const orbit::TrainResult& result, const QString& unit);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    /// Display text, alignment (centred; the chosen parameters left) and the summary row's bold font.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// The display text of a cell ("" outside the table).
    QString text(int row, int column) const;

private:
    QStringList headers_;
    std::vector<QStringList> rows_;  ///< the folds, then the summary
};

} // namespace orbitui
