#include "widgets/ChartBox.hpp"

#include "widgets/ExportActions.hpp"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QChart>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPainter>
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
    view_->setMinimumSize(200, 170);
    const ExportHandler onExport = [this](const QString& kind) { exportWithDialog(kind); };
    addExportMenu(view_, onExport);

    note_->setAlignment(Qt::AlignCenter);
    note_->setWordWrap(true);
    note_->setStyleSheet("color: #555; font-style: italic;");
    note_->hide();

    auto* buttons = makeExportButtons(tr("Save the chart as %1"), tr("Save the plotted numbers as CSV"), onExport);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(view_, 1);
    layout->addWidget(note_);
    layout->addLayout(buttons);
}

void setChartTitle(QChart* chart, const QString& title)
{
    if (chart->title() != title)
        chart->setTitle(title);
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
    return writeSvg(path, view_->size(), chart()->title(), QStringLiteral("Orbit Lab chart"),
                    [this](QPainter& painter) { view_->render(&painter); });
}

QString ChartBox::csv() const
{
    if (csvSource_)
        return csvSource_();
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
            s << '"' << name << "\"," << QString::number(p.x(), 'g', QLocale::FloatingPointShortest) << ','
              << QString::number(p.y(), 'g', QLocale::FloatingPointShortest) << '\n';
    }
    return out;
}

bool ChartBox::exportCsv(const QString& path) const
{
    return writeTextFile(path, csv());
}

void ChartBox::exportWithDialog(const QString& kind)
{
    const QString path = askExportPath(this, tr("Export chart"), baseName_, kind);
    if (path.isEmpty())
        return;
    const bool ok = kind == "png" ? exportPng(path) : kind == "svg" ? exportSvg(path) : exportCsv(path);
    if (!ok)
        setNote(tr("Could not write %1").arg(path));
}

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

} // namespace orbitui
