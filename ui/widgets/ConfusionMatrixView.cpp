#include "widgets/ConfusionMatrixView.hpp"

#include "widgets/ExportActions.hpp"
#include "widgets/HeatmapView.hpp"

#include <QTextStream>
#include <QVBoxLayout>

namespace orbitui {

ConfusionMatrixView::ConfusionMatrixView(const QString& baseName, QWidget* parent)
    : QWidget(parent), heatmap_(new HeatmapView), baseName_(baseName)
{
    heatmap_->setColorMap(HeatmapView::ColorMap::Sequential);
    heatmap_->setShowValues(true, 0);
    heatmap_->setAxisNames(tr("true"), tr("predicted"), tr("count"));
    heatmap_->setAxisCaptions(tr("true class"), tr("predicted class"));
    heatmap_->setCellTextFunction([this](int i, int j) { return cellText(i, j); });
    heatmap_->setMinimumSize(200, 170);

    const ExportHandler onExport = [this](const QString& kind) { exportWithDialog(kind); };
    addExportMenu(heatmap_, onExport);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(heatmap_, 1);
    layout->addLayout(makeExportButtons(tr("Save the matrix as %1"), tr("Save the counts as CSV (true, predicted, count)"), onExport));
}

QString ConfusionMatrixView::className(int k) const { return k < names_.size() ? names_[k] : QString::number(k); }

void ConfusionMatrixView::setMatrix(const Eigen::MatrixXi& counts, const QStringList& names, const QString& title)
{
    counts_ = counts;
    names_ = names;
    QStringList labels;
    for (int k = 0; k < counts.rows(); ++k)
        labels << className(k);
    heatmap_->setTitle(title);
    heatmap_->setMatrix(counts.cast<double>(), labels, labels);
}

QString ConfusionMatrixView::cellText(int i, int j) const
{
    if (i < 0 || j < 0 || i >= counts_.rows() || j >= counts_.cols())
        return {};
    const int row = counts_.row(i).sum();
    return tr("true %1, predicted %2: %3 of %4 (%5 %)")
        .arg(className(i), className(j))
        .arg(counts_(i, j))
        .arg(row)
        .arg(row > 0 ? 100.0 * counts_(i, j) / row : 0.0, 0, 'f', 1);
}

bool ConfusionMatrixView::exportPng(const QString& path) const { return heatmap_->exportPng(path); }

bool ConfusionMatrixView::exportSvg(const QString& path) const { return heatmap_->exportSvg(path); }

QString ConfusionMatrixView::csv() const
{
    QString out;
    QTextStream s(&out);
    s << "true,predicted,count\n";
    for (int i = 0; i < counts_.rows(); ++i)
        for (int j = 0; j < counts_.cols(); ++j)
            s << '"' << className(i) << "\",\"" << className(j) << "\"," << counts_(i, j) << '\n';
    return out;
}

bool ConfusionMatrixView::exportCsv(const QString& path) const { return writeTextFile(path, csv()); }

void ConfusionMatrixView::exportWithDialog(const QString& kind)
{
    const QString path = askExportPath(this, tr("Export confusion matrix"), baseName_, kind);
    if (!path.isEmpty())
        (kind == "png" ? exportPng(path) : kind == "svg" ? exportSvg(path) : exportCsv(path));
}

} // namespace orbitui
