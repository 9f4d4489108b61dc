#pragma once
// Reading the CSV files the panels' "Data CSV…" / "Matrix CSV…" buttons and the CLI write, for the
// suites that compare a panel's numbers with the command line's (tests/ui/export, tests/ui/share).
#include <QFile>
#include <QString>
#include <QStringList>

#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace orbittest {

/// A chart CSV (series,x,y; the series name quoted, commas allowed inside): points per series, in order.
inline std::map<QString, std::vector<std::pair<double, double>>> readChart(const QString& path)
{
    std::map<QString, std::vector<std::pair<double, double>>> out;
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

} // namespace orbittest
