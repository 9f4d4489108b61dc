#pragma once
// A confusion matrix: cell (i, j) counts test samples of true class i predicted as j, shown by a
// HeatmapView (sequential colours by count, the count written in each cell, class names on both
// axes, a colour bar, a tooltip per cell) with PNG / SVG / CSV export like ChartBox.
#include <Eigen/Core>

#include <QString>
#include <QStringList>
#include <QWidget>

namespace orbitui {

class HeatmapView;

class ConfusionMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit ConfusionMatrixView(const QString& baseName, QWidget* parent = nullptr);

    /// `counts` is classes x classes (truth rows, predicted columns); `names` labels the classes
    /// (class numbers where a name is missing).
    void setMatrix(const Eigen::MatrixXi& counts, const QStringList& names, const QString& title);
    const Eigen::MatrixXi& matrix() const { return counts_; }
    /// The tooltip text of cell (i, j): "true a, predicted b: count of row-sum (recall %)".
    QString cellText(int i, int j) const;
    HeatmapView* heatmap() const { return heatmap_; }

    /// The default file name of exports, without extension.
    QString baseName() const { return baseName_; }
    bool exportPng(const QString& path) const;
    bool exportSvg(const QString& path) const;
    /// "true,predicted,count" rows, one per cell.
    QString csv() const;
    bool exportCsv(const QString& path) const;

private:
    QString className(int k) const;
    void exportWithDialog(const QString& kind);

    HeatmapView* heatmap_;
    QString baseName_;
    Eigen::MatrixXi counts_;
    QStringList names_;
};

} // namespace orbitui
