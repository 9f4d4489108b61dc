#include "widgets/ConfusionMatrixView.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextStream>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace orbitui {

namespace {

/// White (0) to a deep blue (1).
QColor shade(double fraction)
{
    const double t = std::clamp(fraction, 0.0, 1.0);
    return QColor::fromRgbF(1.0 - 0.85 * t, 1.0 - 0.6 * t, 1.0 - 0.25 * t);
}

struct Geometry {
    QRectF grid;
    double cell = 0.0;
    int n = 0;
    QRectF cellRect(int i, int j) const { return {grid.left() + j * cell, grid.top() + i * cell, cell, cell}; }
};

Geometry layoutFor(const QRectF& area, int n, double labelWidth)
{
    Geometry g;
    g.n = n;
    const double top = 28, left = 22 + labelWidth, bottom = 40, right = 8;
    const double side = std::max(0.0, std::min(area.width() - left - right, area.height() - top - bottom));
    g.cell = n > 0 ? side / n : 0.0;
    const double x = area.left() + left + (area.width() - left - right - side) / 2.0;
    const double y = area.top() + top + std::max(0.0, (area.height() - top - bottom - side) / 3.0);  // a little above centre
    g.grid = QRectF(x, y, g.cell * n, g.cell * n);
    return g;
}

} // namespace

class ConfusionMatrixView::Canvas : public QWidget {
public:
    explicit Canvas(ConfusionMatrixView* owner) : owner_(owner)
    {
        setMinimumSize(240, 200);
        setMouseTracking(true);
        setContextMenuPolicy(Qt::CustomContextMenu);
    }

    void paintOn(QPainter& p, const QRectF& area) const
    {
        const auto& m = owner_->counts_;
        const int n = static_cast<int>(m.rows());
        p.fillRect(area, Qt::white);
        QFont titleFont = font();
        titleFont.setPointSizeF(12);
        titleFont.setBold(true);
        p.setFont(titleFont);
        p.setPen(Qt::black);
        p.drawText(QRectF(area.left(), area.top() + 2, area.width(), 22), Qt::AlignCenter,
                   QFontMetricsF(titleFont).elidedText(owner_->title_, Qt::ElideRight, area.width() - 8));
        if (n == 0)
            return;
        const QFont labelFont = labelFontFor(n);
        p.setFont(labelFont);
        const QFontMetricsF fm(labelFont);
        const double labelWidth = labelWidthFor(n, area.width());
        const Geometry g = layoutFor(area, n, labelWidth);
        const Eigen::VectorXi rowSums = m.rowwise().sum();
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const double fraction = rowSums(i) > 0 ? double(m(i, j)) / rowSums(i) : 0.0;
                const QRectF r = g.cellRect(i, j);
                p.fillRect(r, shade(fraction));
                if (g.cell >= 16 && m(i, j) > 0) {
                    p.setPen(fraction > 0.55 ? Qt::white : Qt::black);
                    p.drawText(r, Qt::AlignCenter, QString::number(m(i, j)));
                }
            }
        p.setPen(QPen(QColor(0, 0, 0, 90), 0));
        p.drawRect(g.grid);
        p.setPen(Qt::black);
        for (int k = 0; k < n; ++k) {
            const QString name = k < owner_->names_.size() ? owner_->names_[k] : QString::number(k);
            const QRectF row = g.cellRect(k, 0);
            p.drawText(QRectF(g.grid.left() - labelWidth - 4, row.top(), labelWidth, g.cell),
                       Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(name, Qt::ElideRight, labelWidth));
            const QRectF col = g.cellRect(0, k);
            p.drawText(QRectF(col.left() - 10, g.grid.bottom() + 2, g.cell + 20, 16), Qt::AlignHCenter | Qt::AlignTop,
                       fm.elidedText(name, Qt::ElideRight, g.cell + 18));
        }
        QFont axisFont = font();
        axisFont.setPointSizeF(10);
        p.setFont(axisFont);
        p.drawText(QRectF(g.grid.left(), g.grid.bottom() + 18, g.grid.width(), 18), Qt::AlignCenter,
                   QObject::tr("predicted class"));
        p.save();
        p.translate(area.left() + 12, g.grid.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-g.grid.height() / 2, -10, g.grid.height(), 18), Qt::AlignCenter, QObject::tr("true class"));
        p.restore();
    }

    QFont labelFontFor(int n) const
    {
        QFont f = font();
        f.setPointSizeF(n > 12 ? 7.5 : 9);
        return f;
    }
    /// Room for the longest class name left of the grid (at most a quarter of the width).
    double labelWidthFor(int n, double areaWidth) const
    {
        const QFontMetricsF fm(labelFontFor(n));
        double w = 0;
        for (const QString& name : owner_->names_)
            w = std::max(w, fm.horizontalAdvance(name));
        return std::min(w + 6, areaWidth / 4);
    }

    /// The cell under `pos`, or (-1, -1).
    std::pair<int, int> cellAt(const QPointF& pos) const
    {
        const int n = static_cast<int>(owner_->counts_.rows());
        const Geometry g = layoutFor(rect(), n, labelWidthFor(n, width()));
        if (n == 0 || !g.grid.contains(pos) || g.cell <= 0)
            return {-1, -1};
        return {std::min(n - 1, int((pos.y() - g.grid.top()) / g.cell)), std::min(n - 1, int((pos.x() - g.grid.left()) / g.cell))};
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        paintOn(p, rect());
    }
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const auto [i, j] = cellAt(help->pos());
            if (i >= 0)
                QToolTip::showText(help->globalPos(), owner_->cellText(i, j), this);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }

private:
    ConfusionMatrixView* owner_;
};

ConfusionMatrixView::ConfusionMatrixView(const QString& baseName, QWidget* parent)
    : QWidget(parent), canvas_(new Canvas(this)), baseName_(baseName)
{
    connect(canvas_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        menu.addAction(tr("Export as PNG…"), this, [this] { exportWithDialog("png"); });
        menu.addAction(tr("Export as SVG…"), this, [this] { exportWithDialog("svg"); });
        menu.addAction(tr("Export data as CSV…"), this, [this] { exportWithDialog("csv"); });
        menu.exec(canvas_->mapToGlobal(pos));
    });
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    for (const QString& kind : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("csv")}) {
        auto* b = new QPushButton(kind == "csv" ? tr("Data CSV…") : kind.toUpper() + "…");
        b->setToolTip(kind == "csv" ? tr("Save the counts as CSV (true, predicted, count)")
                                    : tr("Save the matrix as %1").arg(kind.toUpper()));
        b->setFlat(true);
        connect(b, &QPushButton::clicked, this, [this, kind] { exportWithDialog(kind); });
        buttons->addWidget(b);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(canvas_, 1);
    layout->addLayout(buttons);
}

void ConfusionMatrixView::setMatrix(const Eigen::MatrixXi& counts, const QStringList& names, const QString& title)
{
    counts_ = counts;
    names_ = names;
    title_ = title;
    canvas_->update();
}

QString ConfusionMatrixView::cellText(int i, int j) const
{
    if (i < 0 || j < 0 || i >= counts_.rows() || j >= counts_.cols())
        return {};
    const int row = counts_.row(i).sum();
    const QString ni = i < names_.size() ? names_[i] : QString::number(i);
    const QString nj = j < names_.size() ? names_[j] : QString::number(j);
    return tr("true %1, predicted %2: %3 of %4 (%5 %)")
        .arg(ni, nj)
        .arg(counts_(i, j))
        .arg(row)
        .arg(row > 0 ? 100.0 * counts_(i, j) / row : 0.0, 0, 'f', 1);
}

bool ConfusionMatrixView::exportPng(const QString& path) const { return canvas_->grab().save(path, "PNG"); }

bool ConfusionMatrixView::exportSvg(const QString& path) const
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(canvas_->size());
    generator.setViewBox(QRect(QPoint(0, 0), canvas_->size()));
    generator.setTitle(title_);
    generator.setDescription(QStringLiteral("Orbit Lab confusion matrix"));
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    canvas_->paintOn(painter, QRectF(canvas_->rect()));
    return painter.end();
}

QString ConfusionMatrixView::csv() const
{
    QString out;
    QTextStream s(&out);
    s << "true,predicted,count\n";
    for (int i = 0; i < counts_.rows(); ++i)
        for (int j = 0; j < counts_.cols(); ++j)
            s << '"' << (i < names_.size() ? names_[i] : QString::number(i)) << "\",\""
              << (j < names_.size() ? names_[j] : QString::number(j)) << "\"," << counts_(i, j) << '\n';
    return out;
}

bool ConfusionMatrixView::exportCsv(const QString& path) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    file.write(csv().toUtf8());
    return file.commit();
}

void ConfusionMatrixView::exportWithDialog(const QString& kind)
{
    const QString filter = kind == "png" ? tr("PNG image (*.png)") : kind == "svg" ? tr("SVG image (*.svg)") : tr("CSV (*.csv)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export confusion matrix"), baseName_ + "." + kind, filter);
    if (!path.isEmpty())
        (kind == "png" ? exportPng(path) : kind == "svg" ? exportSvg(path) : exportCsv(path));
}

} // namespace orbitui
