// CSV: rows of numbers separated by ',' (or ';' or tab, whichever the first line uses), an optional
// header line (a first line with a non-numeric field); blank lines and lines starting with '#' are
// skipped, fields may be wrapped in double quotes. The last column is the output: a class label
// when every value is an integer in [0, 1000) and there are few distinct values (at most 2, or at
// most N / 2, i.e. on average two or more rows per class); otherwise a regression target.
#include "data/LoaderSupport.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace orbit {

using namespace orbit::data;

namespace {

char separatorOf(const std::string& line)
{
    const char candidates[] = {',', ';', '\t'};
    char best = ',';
    std::ptrdiff_t most = 0;
    for (char c : candidates) {
        const auto k = std::count(line.begin(), line.end(), c);
        if (k > most) most = k, best = c;
    }
    return best;
}

/// Splits on `sep`; a field wrapped in double quotes loses them ("1.5" -> 1.5).
void splitOn(std::string_view line, char sep, std::vector<std::string_view>& out)
{
    out.clear();
    std::size_t b = 0;
    while (true) {
        const std::size_t e = line.find(sep, b);
        std::string_view f = line.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
        while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.remove_prefix(1);
        while (!f.empty() && (f.back() == ' ' || f.back() == '\t' || f.back() == '\r')) f.remove_suffix(1);
        if (f.size() >= 2 && f.front() == '"' && f.back() == '"') f = f.substr(1, f.size() - 2);
        out.push_back(f);
        if (e == std::string_view::npos) break;
        b = e + 1;
    }
}

bool allNumeric(const std::vector<std::string_view>& fields)
{
    double v = 0;
    return std::all_of(fields.begin(), fields.end(), [&](std::string_view f) { return parseField(f, v) != FieldStatus::NotANumber; });
}

bool looksLikeLabels(const std::vector<double>& last)
{
    std::set<double> distinct;
    for (double v : last) {
        if (v < 0 || v >= 1000 || v != std::floor(v)) return false;
        distinct.insert(v);
    }
    return distinct.size() <= 2 || distinct.size() <= last.size() / 2;
}

} // namespace

Dataset loadCsv(const std::string& path, const LoadOptions& options)
{
    requireFile(path);
    LineReader reader(path, options.progress);
    std::string line;
    std::vector<std::string_view> fields;
    MatrixXfR X;                   // features, one row per data line, sized once the first line is read
    std::vector<double> last;      // the output column
    std::size_t columns = 0;
    char sep = ',';
    bool first = true;
    while ((options.limit == 0 || last.size() < options.limit) && reader.next(line)) {
        if (isBlank(line) || line.front() == '#') continue;  // blank lines and # comments
        const std::size_t at = reader.lineNumber();
        if (first) {
            sep = separatorOf(line);
            splitOn(line, sep, fields);
            columns = fields.size();
            first = false;
            if (columns < 2)
                fail(LoadErrorKind::BadShape, path, linePos(at), "a CSV needs at least two columns (features and an output)",
                     std::to_string(columns));
            // The data lines are at most the non-blank lines: the memory they need is known (and
            // refused if too much) before any is parsed, and allocated once.
            const std::size_t rows = applyLimit(countNonBlankLines(path), options.limit);
            checkMemory(path, {}, checkedProduct({rows, columns + 1, sizeof(float)}), options.maxBytes,
                        std::to_string(rows) + " rows of " + std::to_string(columns) + " values and their outputs");
            X.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(columns - 1));
            last.reserve(rows);
            if (!allNumeric(fields)) continue;  // header line
        } else {
            splitOn(line, sep, fields);
        }
        if (fields.size() != columns)
            fail(LoadErrorKind::Ragged, path, linePos(at),
                 "expected " + std::to_string(columns) + " fields like the first line, found " + std::to_string(fields.size()),
                 std::to_string(fields.size()));
        const std::size_t row = last.size();
        if (row >= static_cast<std::size_t>(X.rows()))  // the file grew since it was counted
            fail(LoadErrorKind::Changed, path, linePos(at), "more data lines than the file had when it was opened");
        float* x = X.data() + row * (columns - 1);
        for (std::size_t f = 0; f < columns; ++f) {
            const double v = numberOrThrow(fields[f], path, at, f + 1, "field");
            if (f + 1 == columns) {
                last.push_back(v);
            } else if (!std::isfinite(static_cast<float>(v))) {
                fail(LoadErrorKind::NonFinite, path, fieldPos(at, f + 1), "the value overflows single precision",
                     std::string(fields[f]));
            } else {
                x[f] = static_cast<float>(v);
            }
        }
    }
    if (last.empty()) fail(LoadErrorKind::Empty, path, {}, "the file holds no data rows");

    Dataset d;
    d.kind = DataKind::Vectors;
    const std::size_t dims = columns - 1;
    d.shape = {1, static_cast<int>(dims), 1};
    // Row-major with the same columns: shrinking the rows reallocates in place, no second copy.
    X.conservativeResize(static_cast<Eigen::Index>(last.size()), static_cast<Eigen::Index>(dims));
    d.X = std::move(X);
    if (looksLikeLabels(last)) {
        for (double v : last) d.labels.push_back(static_cast<int>(v));
        d.numClasses = classCount(d.labels);
    } else {
        d.targets = std::move(last);
    }
    return finish(std::move(d), path, Format::Csv);
}

} // namespace orbit
