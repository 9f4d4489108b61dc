#include "widgets/ExportActions.hpp"

#include "widgets/FlowLayout.hpp"

#include <QCoreApplication>
#include <QFileDialog>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QSaveFile>
#include <QSvgGenerator>

namespace orbitui {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("orbitui::ExportActions", text); }
} // namespace

QLayout* makeExportButtons(const QString& pictureTip, const QString& csvTip, const ExportHandler& onExport)
{
    auto* buttons = new FlowLayout(nullptr, 6, 0);  // wraps under a narrow chart instead of widening it
    buttons->addStretch();
    for (const QString& kind : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("csv")}) {
        auto* b = new QPushButton(kind == "csv" ? tr("Data CSV…") : kind.toUpper() + "…");
        b->setToolTip(kind == "csv" ? csvTip : pictureTip.arg(kind.toUpper()));
        b->setFlat(true);
        b->setObjectName("export-" + kind);
        QObject::connect(b, &QPushButton::clicked, b, [onExport, kind] { onExport(kind); });
        buttons->addWidget(b);
    }
    return buttons;
}

void addExportMenu(QWidget* target, const ExportHandler& onExport)
{
    target->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(target, &QWidget::customContextMenuRequested, target, [target, onExport](const QPoint& pos) {
        QMenu menu(target);
        menu.addAction(tr("Export as PNG…"), target, [onExport] { onExport("png"); });
        menu.addAction(tr("Export as SVG…"), target, [onExport] { onExport("svg"); });
        menu.addAction(tr("Export data as CSV…"), target, [onExport] { onExport("csv"); });
        menu.exec(target->mapToGlobal(pos));
    });
}

QString askExportPath(QWidget* parent, const QString& caption, const QString& baseName, const QString& kind)
{
    const QString filter = kind == "png" ? tr("PNG image (*.png)") : kind == "svg" ? tr("SVG image (*.svg)") : tr("CSV (*.csv)");
    return QFileDialog::getSaveFileName(parent, caption, baseName + "." + kind, filter);
}

bool writeSvg(const QString& path, QSize size, const QString& title, const QString& description,
              const std::function<void(QPainter&)>& paint)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    generator.setDescription(description);
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    paint(painter);
    return painter.end();
}

bool writeTextFile(const QString& path, const QString& text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    file.write(text.toUtf8());
    return file.commit();
}

} // namespace orbitui
