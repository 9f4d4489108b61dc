#include "window/training/FoldTableModel.hpp"

#include "render/ParameterLabels.hpp"

#include "window/training/TrainingCharts.hpp"

#include "orbit/figures/TrainingSummary.hpp"

#include <QFont>

namespace orbitui {

namespace {

QString pointText(const orbit::ParamPoint& point)
{
    QStringList parts;
    for (const auto& [name, value] : point)
        parts << (name == "median" ? QStringLiteral("bandwidth %1 × median").arg(value, 0, 'g', 4)
                                   : QStringLiteral("%1 = %2").arg(axisLabel(name), QString::number(value, 'g', 4)));
    return parts.join(", ");
}

} // namespace

QString scoreText(const orbit::TrainResult& r, double v)
{
    return isRmse(r) ? QString::number(v, 'f', 2) : QString::number(v, 'f', 3);
}

FoldTableModel::FoldTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FoldTableModel::setResult(const orbit::TrainResult& r, const QString& unit)
{
    beginResetModel();
    const bool regression = isRmse(r);
    const bool evidence = r.logEvidence.has_value();
    headers_ = QStringList{tr("fold"), regression ? withScoreUnit(tr("RMSE"), r, unit) : tr("accuracy")};
    if (regression)
        headers_ << withScoreUnit(tr("MAE"), r, unit);
    if (evidence)
        headers_ << tr("log evidence");
    headers_ << tr("seconds") << tr("chosen parameters");
    rows_.clear();
    const int folds = static_cast<int>(r.folds.size());
    for (int f = 0; f < folds; ++f) {
        const orbit::FoldResult& fold = r.folds[static_cast<std::size_t>(f)];
        QStringList row{QString::number(f + 1), scoreText(r, fold.score)};
        if (regression)
            row << QString::number(fold.mae, 'f', 2);
        if (evidence)
            row << QString::number(fold.logEvidence, 'g', 6);
        row << QString::number(fold.seconds, 'f', 2) << pointText(fold.chosen);
        rows_.push_back(row);
    }
    // The summary row: the core's fold statistics (orbit::summarizeFolds, as `train --json` reports).
    const orbit::FoldSummary sum = orbit::summarizeFolds(r);
    auto withSpread = [folds](const QString& mean, const QString& sd) { return folds > 1 ? mean + " ± " + sd : mean; };
    QStringList summary{folds > 1 ? tr("mean ± std") : tr("mean"),
                        withSpread(scoreText(r, sum.score.mean), scoreText(r, sum.score.sd))};
    if (regression)
        summary << withSpread(QString::number(sum.mae.mean, 'f', 2), QString::number(sum.mae.sd, 'f', 2));
    if (evidence)
        summary << withSpread(QString::number(sum.logEvidence.mean, 'g', 6), QString::number(sum.logEvidence.sd, 'g', 3));
    // The exact kernel machines have no features: their spec instead (exact:r=4).
    summary << QString::number(sum.seconds, 'f', 2)
            << (r.featureDim > 0 ? tr("%1 features").arg(r.featureDim) : QString::fromStdString(r.featureSpec));
    rows_.push_back(summary);
    endResetModel();
}

void FoldTableModel::clear()
{
    beginResetModel();
    headers_.clear();
    rows_.clear();
    endResetModel();
}

int FoldTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FoldTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(headers_.size());
}

QString FoldTableModel::text(int row, int column) const
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= rows_[static_cast<std::size_t>(row)].size())
        return {};
    return rows_[static_cast<std::size_t>(row)][column];
}

QVariant FoldTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return text(index.row(), index.column());
    case Qt::TextAlignmentRole: {
        const Qt::Alignment align = index.column() == columnCount() - 1 ? (Qt::AlignLeft | Qt::AlignVCenter)
                                                                         : Qt::Alignment(Qt::AlignCenter);
        return align.toInt();
    }
    case Qt::FontRole:
        if (index.row() == rowCount() - 1) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default:
        return {};
    }
}

QVariant FoldTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < headers_.size() ? QVariant(headers_[section]) : QVariant();
    return section + 1;
}

} // namespace orbitui
