#pragma once
// The export affordances shared by picture widgets (charts, heatmaps): "PNG…", "SVG…" and
// "Data CSV…" buttons and the same entries in a context menu, a save dialog per kind, and the
// writers for SVG pictures and text files.
#include <QSize>
#include <QString>

#include <functional>

class QLayout;
class QPainter;
class QWidget;

namespace orbitui {

/// Called with the kind of export asked for: "png", "svg" or "csv".
using ExportHandler = std::function<void(const QString& kind)>;

/// A right-aligned row of flat buttons (object names "export-png", "export-svg", "export-csv") that
/// wraps onto a second line when the chart above it is narrow.
/// `pictureTip` is the tooltip of PNG / SVG with %1 for the format; `csvTip` that of CSV.
QLayout* makeExportButtons(const QString& pictureTip, const QString& csvTip, const ExportHandler& onExport);
/// Gives `target` a context menu with the three exports.
void addExportMenu(QWidget* target, const ExportHandler& onExport);
/// Asks where to save an export of `kind` (default file `baseName.kind`); empty when cancelled.
QString askExportPath(QWidget* parent, const QString& caption, const QString& baseName, const QString& kind);
/// Renders `paint` into an SVG file of `size` pixels. Returns false when the file cannot be written.
bool writeSvg(const QString& path, QSize size, const QString& title, const QString& description,
              const std::function<void(QPainter&)>& paint);
/// Writes `text` as UTF-8 atomically (the file is replaced only when all of it was written).
bool writeTextFile(const QString& path, const QString& text);

} // namespace orbitui
