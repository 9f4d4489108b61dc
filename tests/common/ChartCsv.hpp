#pragma once
// Reading the CSV files the panels' "Data CSV…" / "Matrix CSV…" buttons and the CLI write, for the
// suites that compare a panel's numbers with the command line's (tests/ui/window/shell: export, share),
// and the comparisons both make: a Group chart with the rows of `density`, the Approximation charts
// with those of `approx-error`.
#include "orbit/cli/Json.hpp"

#include <QFile>
#include <QString>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace orbittest {

/// The points of a chart's series, by series name.
using Chart = std::map<QString, std::vector<std::pair<double, double>>>;

/// A chart CSV (series,x,y; the series name quoted, commas allowed inside): points per series, in order.
inline Chart readChart(const QString& path)
{
    Chart out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return out;
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString& line = lines[i];
        const qsizetype close = line.lastIndexOf('"');
        const QString name = line.mid(1, close - 1).replace("\"\"", "\"");
        const QStringList xy = line.mid(close + 2).split(',');
        out[name].emplace_back(xy.at(0).toDouble(), xy.at(1).toDouble());
    }
    return out;
}

/// A CSV of numbers with a header line (empty cells read as NaN).
inline std::vector<std::vector<double>> readNumbers(const QString& path, bool header)
{
    std::vector<std::vector<double>> rows;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return rows;
    QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    if (header && !lines.isEmpty())
        lines.removeFirst();
    for (const QString& line : lines) {
        std::vector<double> row;
        for (const QString& cell : line.split(','))
            row.push_back(cell.isEmpty() ? std::nan("") : cell.toDouble());
        rows.push_back(row);
    }
    return rows;
}

/// Compares the rows (t, density, histogram) of `density` with a Group chart: the density curve
/// point by point, and the histogram column with the height of the outline's bar holding each t.
/// The outline is (lo, 0), then (left edge, h_b), (right edge, h_b) per bin, then (hi, 0).
inline void compareDensityRows(const std::vector<std::pair<double, double>>& curve,
                               const std::vector<std::pair<double, double>>& outline,
                               const std::vector<std::vector<double>>& rows)
{
    QCOMPARE(curve.size(), rows.size());
    const std::size_t bins = (outline.size() - 2) / 2;
    const double lo = outline.front().first, hi = outline.back().first, width = (hi - lo) / double(bins);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(curve[i].first, rows[i][0]);
        QCOMPARE(curve[i].second, rows[i][1]);
        const std::size_t b = std::size_t(std::clamp(int((rows[i][0] - lo) / width), 0, int(bins) - 1));
        QCOMPARE(outline[1 + 2 * b].second, rows[i][2]);
    }
}

/// Compares the rows (r, s, spectral, frobenius) of `approx-error --json` over two feature counts,
/// the first `firstS`, with the Approximation panel's charts: one series "r = R" per r, a point per s.
inline void compareApproximationRows(const orbit::cli::Json& rows, const Chart& spectral, const Chart& frobenius, int firstS)
{
    for (const orbit::cli::Json& row : rows) {
        const QString name = QStringLiteral("r = %1").arg(row["r"].get<int>());
        const std::size_t k = row["s"].get<int>() == firstS ? 0 : 1;
        QCOMPARE(spectral.at(name).at(k).first, row["s"].get<double>());
        QCOMPARE(spectral.at(name).at(k).second, row["spectral"].get<double>());
        QCOMPARE(frobenius.at(name).at(k).second, row["frobenius"].get<double>());
    }
}

} // namespace orbittest
