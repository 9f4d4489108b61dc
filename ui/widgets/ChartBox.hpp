#pragma once
// A chart with its export affordances: PNG and SVG of the picture, CSV of the data, from buttons
// under the chart and from its context menu.
#include <QChartView>
#include <QString>
#include <QWidget>

#include <functional>

class QChart;
class QLabel;

namespace orbitui {

class ChartBox : public QWidget {
    Q_OBJECT
public:
    /// Takes ownership of `chart`. `baseName` is the default file name of exports.
    explicit ChartBox(QChart* chart, const QString& baseName, QWidget* parent = nullptr);

    QChart* chart() const;
    QChartView* view() const { return view_; }
    /// Shows `text` over an empty chart (e.g. why nothing can be plotted); empty hides it.
    void setNote(const QString& text);

    /// The default file name of exports, without extension (e.g. "density").
    QString baseName() const { return baseName_; }
    bool exportPng(const QString& path) const;
    bool exportSvg(const QString& path) const;
    /// One row per point of every XY series: series,x,y (area series: their upper line), the
    /// numbers in the shortest text that reads back as the same double.
    bool exportCsv(const QString& path) const;
    /// The CSV text exportCsv writes.
    QString csv() const;
    /// Makes `source` the CSV of the chart's data (csv() and "Data CSV…"): a chart whose numbers have
    /// a file format of their own (the Predict panel's sweep: the CLI's CSV). Empty: series,x,y.
    void setCsvSource(std::function<QString()> source) { csvSource_ = std::move(source); }

private:
    void exportWithDialog(const QString& kind);

    QChartView* view_;
    QLabel* note_;
    QString baseName_;
    std::function<QString()> csvSource_;
};

/// Common chart styling: readable fonts, no animations, a legend at the bottom.
void styleChart(QChart* chart);
/// Sets the title of `chart` when it differs: QChart::setTitle lays the title's text out and
/// invalidates the chart's layout even for the same text, and a panel that draws every result
/// (a sweep's frames, a lesson's answers) mostly sets the same title again.
void setChartTitle(QChart* chart, const QString& title);
/// Removes every series and axis of `chart` (the axes are deleted).
void clearChart(QChart* chart);

} // namespace orbitui
