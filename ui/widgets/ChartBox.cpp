#include "widgets/ChartBox.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextStream>
#include <QVBoxLayout>
#include <QXYSeries>

namespace orbitui {

void styleChart(QChart* chart)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont title = chart->titleFont();
    title.setPointSizeF(12);
    title.setBold(true);
    chart->setTitleFont(title);
    QFont legend = chart->legend()->font();
    legend.setPointSizeF(10);
    chart->legend()->setFont(legend);
    chart->setMargins(QMargins(6, 6, 6, 6));
}

ChartBox::ChartBox(QChart* chart, const QString& baseName, QWidget* parent)
    : QWidget(parent), view_(new QChartView(chart)), note_(new QLabel), baseName_(baseName)
{
    styleChart(chart);
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    view_->setMinimumSize(240, 200);
    connect(view_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        menu.addAction(tr("Export as PNG…"), this, [this] { exportWithDialog("png"); });
        menu.addAction(tr("Export as SVG…"), this, [this] { exportWithDialog("svg"); });
        menu.addAction(tr("Export data as CSV…"), this, [this] { exportWithDialog("csv"); });
        menu.exec(view_->mapToGlobal(pos));
    });

    note_->setAlignment(Qt::AlignCenter);
    note_->setWordWrap(true);
    note_->setStyleSheet("color: #555; font-style: italic;");
    note_->hide();

    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    for (const QString& kind : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("csv")}) {
        auto* b = new QPushButton(kind == "csv" ? tr("Data CSV…") : kind.toUpper() + "…");
        b->setToolTip(kind == "csv" ? tr("Save the plotted numbers as CSV") : tr("Save the chart as %1").arg(kind.toUpper()));
        b->setFlat(true);
        b->setObjectName("export-" + kind);
        connect(b, &QPushButton::clicked, this, [this, kind] { exportWithDialog(kind); });
        buttons->addWidget(b);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(view_, 1);
    layout->addWidget(note_);
    layout->addLayout(buttons);
}

QChart* ChartBox::chart() const { return view_->chart(); }

void ChartBox::setNote(const QString& text)
{
    note_->setText(text);
    note_->setVisible(!text.isEmpty());
}

bool ChartBox::exportPng(const QString& path) const
{
    return view_->grab().save(path, "PNG");
}

bool ChartBox::exportSvg(const QString& path) const
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(view_->size());
    generator.setViewBox(QRect(QPoint(0, 0), view_->size()));
    generator.setTitle(chart()->title());
    generator.setDescription(QStringLiteral("Orbit Lab chart"));
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    view_->render(&painter);
    return painter.end();
}

QString ChartBox::csv() const
{
    QString out;
    QTextStream s(&out);
    s << "series,x,y\n";
    for (QAbstractSeries* series : chart()->series()) {
        const QXYSeries* xy = qobject_cast<QXYSeries*>(series);
        if (!xy)
            if (auto* area = qobject_cast<QAreaSeries*>(series))
                xy = area->upperSeries();
        if (!xy)
            continue;
        QString name = series->name();
        name.replace('"', "\"\"");
        for (const QPointF& p : xy->points())
            s << '"' << name << "\"," << QString::number(p.x(), 'g', 10) << ',' << QString::number(p.y(), 'g', 10) << '\n';
    }
    return out;
}

bool ChartBox::exportCsv(const QString& path) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    file.write(csv().toUtf8());
    return file.commit();
}

void ChartBox::exportWithDialog(const QString& kind)
{
    const QString filter = kind == "png" ? tr("PNG image (*.png)") : kind == "svg" ? tr("SVG image (*.svg)") : tr("CSV (*.csv)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export chart"), baseName_ + "." + kind, filter);
    if (path.isEmpty())
        return;
    const bool ok = kind == "png" ? exportPng(path) : kind == "svg" ? exportSvg(path) : exportCsv(path);
    if (!ok)
        setNote(tr("Could not write %1").arg(path));
}

} // namespace orbitui
