#pragma once
// A confusion matrix as a heatmap: cell (i, j) counts test samples of true class i predicted as j,
// coloured by the row fraction (the recall of class i along the diagonal), with the count written
// in the cell, a tooltip per cell and PNG / SVG / CSV export like ChartBox.
#include <Eigen/Core>

#include <QString>
#include <QStringList>
#include <QWidget>

class QPainter;

namespace orbitui {

class ConfusionMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit ConfusionMatrixView(const QString& baseName, QWidget* parent = nullptr);

    /// `counts` is classes x classes (truth rows, predicted columns); `names` labels the classes.
    void setMatrix(const Eigen::MatrixXi& counts, const QStringList& names, const QString& title);
    const Eigen::MatrixXi& matrix() const { return counts_; }
    /// The tooltip text of cell (i, j) (tests).
    QString cellText(int i, int j) const;

    bool exportPng(const QString& path) const;
    bool exportSvg(const QString& path) const;
    /// "true,predicted,count" rows, one per cell.
    QString csv() const;
    bool exportCsv(const QString& path) const;

private:
    class Canvas;
    void exportWithDialog(const QString& kind);

    Canvas* canvas_;
    QString baseName_;
    Eigen::MatrixXi counts_;
    QStringList names_;
    QString title_;
};

} // namespace orbitui
