#include "orbit/data/Dataset.hpp"

#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace orbit {

const char* toString(DataKind kind)
{
    switch (kind) {
    case DataKind::Images: return "images";
    case DataKind::Coulomb: return "coulomb";
    case DataKind::Vectors: return "vectors";
    }
    return "unknown";
}

namespace {
[[noreturn]] void broken(const std::string& what)
{
    throw ContractError("Dataset::checkInvariants", what);
}
} // namespace

void Dataset::checkInvariants() const
{
    const std::size_t n = count();
    if (shape.height < 1 || shape.width < 1 || shape.channels < 1)
        broken("shape " + std::to_string(shape.height) + "x" + std::to_string(shape.width) + "x" +
               std::to_string(shape.channels) + " has a non-positive extent");
    if (X.cols() != shape.dim())
        broken("X has " + std::to_string(X.cols()) + " columns but shape.dim() is " + std::to_string(shape.dim()));
    if (kind == DataKind::Coulomb && (shape.height != shape.width || shape.channels != 1))
        broken("Coulomb matrices must be n x n x 1");
    if (kind == DataKind::Vectors && (shape.height != 1 || shape.channels != 1))
        broken("vectors must have shape 1 x d x 1");

    if (!held.empty() && held.size() != n)
        broken("held marks " + std::to_string(held.size()) + " rows of " + std::to_string(n));
    const auto d = static_cast<std::size_t>(X.cols());
    for (std::size_t r = 0; r < n; ++r) {
        if (!holds(r)) continue;
        const float* p = sample(r);
        for (std::size_t i = 0; i < d; ++i) {
            const float v = p[i];
            if (!std::isfinite(v)) broken("X has a non-finite value at sample " + std::to_string(r));
            if (kind == DataKind::Images && (v < 0.0f || v > 1.0f))
                broken("image value " + std::to_string(v) + " outside [0, 1] at sample " + std::to_string(r));
        }
    }

    if (!labels.empty() && !targets.empty()) broken("both labels and targets are set");
    if (labels.empty() && targets.empty() && kind != DataKind::Images)
        broken("only image datasets may be unlabelled");
    if (!labels.empty()) {
        if (labels.size() != n) broken(std::to_string(labels.size()) + " labels for " + std::to_string(n) + " samples");
        if (numClasses < 1) broken("labels present but numClasses < 1");
        for (int l : labels)
            if (l < 0 || l >= numClasses)
                broken("label " + std::to_string(l) + " outside [0, " + std::to_string(numClasses) + ")");
    }
    if (!classNames.empty() && static_cast<int>(classNames.size()) != numClasses)
        broken(std::to_string(classNames.size()) + " class names for " + std::to_string(numClasses) + " classes");
    if (!targets.empty()) {
        if (targets.size() != n) broken(std::to_string(targets.size()) + " targets for " + std::to_string(n) + " samples");
        for (double t : targets)
            if (!std::isfinite(t)) broken("non-finite target");
    }
    if (!charges.empty()) {
        if (charges.size() != n) broken(std::to_string(charges.size()) + " charge lists for " + std::to_string(n) + " samples");
        for (const auto& z : charges) {
            if (static_cast<int>(z.size()) > shape.height) broken("a molecule has more atoms than the matrix size");
            for (int c : z)
                if (c < 1 || c > 118) broken("atomic number " + std::to_string(c) + " outside [1, 118]");
        }
    }
    if (!positions.empty()) {
        if (positions.size() != n || charges.size() != n)
            broken(std::to_string(positions.size()) + " position lists for " + std::to_string(n) + " samples");
        for (std::size_t i = 0; i < n; ++i)
            if (positions[i].size() != charges[i].size()) broken("a molecule's positions and charges differ in number");
    }
    if (!names.empty() && names.size() != n) broken(std::to_string(names.size()) + " names for " + std::to_string(n) + " samples");
    if (!isSafeText(targetUnit)) broken("the target unit is not safe text");
    for (const auto* texts : {&classNames, &names})
        for (const std::string& t : *texts)
            if (!isSafeText(t)) broken("a class or sample name is not safe text");
    if (!folds.empty()) {
        if (folds.size() != n) broken(std::to_string(folds.size()) + " folds for " + std::to_string(n) + " samples");
        for (int f : folds)
            if (f < 0) broken("negative fold index");
    }
}

std::size_t Dataset::heldCount() const
{
    return held.empty() ? count() : static_cast<std::size_t>(std::count(held.begin(), held.end(), char(1)));
}

void Dataset::requireHeld(std::size_t first, std::size_t last, const std::string& who) const
{
    if (held.empty()) return;
    for (std::size_t r = first; r < last; ++r)
        if (!holds(r)) throw ContractError(who, "row " + std::to_string(r) + " was not read by this process");
}

void Dataset::requireHeld(const std::vector<std::size_t>& rows, const std::string& who) const
{
    if (held.empty()) return;
    for (std::size_t r : rows)
        if (!holds(r)) throw ContractError(who, "row " + std::to_string(r) + " was not read by this process");
}

Dataset Dataset::withoutSamples() const
{
    Dataset s;
    s.kind = kind;
    s.shape = shape;
    s.X.resize(0, X.cols());
    s.labels = labels;
    s.numClasses = numClasses;
    s.classNames = classNames;
    s.targets = targets;
    s.targetUnit = targetUnit;
    s.charges = charges;
    s.positions = positions;
    s.names = names;
    s.folds = folds;
    s.source = source;
    s.format = format;
    s.held = held;
    return s;
}

void releaseRows(MatrixXfR& X, const std::vector<char>& held)
{
    if (held.empty()) return;
    if (held.size() != static_cast<std::size_t>(X.rows()))
        throw ContractError("releaseRows", "held marks " + std::to_string(held.size()) + " rows of " + std::to_string(X.rows()));
    const std::size_t rowBytes = static_cast<std::size_t>(X.cols()) * sizeof(float);
#if defined(__linux__)
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
#endif
    auto* base = reinterpret_cast<unsigned char*>(X.data());
    for (std::size_t r = 0; r < held.size();) {
        if (held[r]) {
            ++r;
            continue;
        }
        std::size_t e = r;
        while (e < held.size() && !held[e]) ++e;
        unsigned char* from = base + r * rowBytes;
        unsigned char* to = base + e * rowBytes;
#if defined(__linux__)
        // Whole pages inside the run go back to the system (they then read as zeros: private
        // anonymous memory, as the heap is); the partial pages at its ends are zeroed by hand.
        auto* a = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(from) + page - 1) / page * page);
        auto* b = reinterpret_cast<unsigned char*>(reinterpret_cast<std::uintptr_t>(to) / page * page);
        if (a < b && madvise(a, std::size_t(b - a), MADV_DONTNEED) == 0) {
            std::memset(from, 0, std::size_t(a - from));
            std::memset(b, 0, std::size_t(to - b));
        } else {
            std::memset(from, 0, std::size_t(to - from));
        }
#else
        std::memset(from, 0, std::size_t(to - from));
#endif
        r = e;
    }
}

Dataset Dataset::subset(const std::vector<std::size_t>& idx) const
{
    const std::size_t n = count();
    for (std::size_t i : idx)
        if (i >= n) throw std::out_of_range("Dataset::subset: index " + std::to_string(i) + " >= count " + std::to_string(n));

    Dataset s;
    s.kind = kind;
    s.shape = shape;
    s.numClasses = numClasses;
    s.classNames = classNames;
    s.source = source;
    s.format = format;
    s.targetUnit = targetUnit;
    s.X.resize(static_cast<Eigen::Index>(idx.size()), X.cols());
    if (!held.empty()) {
        for (std::size_t i : idx) s.held.push_back(held[i]);
        releaseRows(s.X, s.held);
        if (std::all_of(s.held.begin(), s.held.end(), [](char h) { return h != 0; })) s.held.clear();
    }
    for (std::size_t r = 0; r < idx.size(); ++r)
        if (holds(idx[r])) s.X.row(static_cast<Eigen::Index>(r)) = X.row(static_cast<Eigen::Index>(idx[r]));

    auto pick = [&idx](const auto& from, auto& to) {
        if (from.empty()) return;
        to.reserve(idx.size());
        for (std::size_t i : idx) to.push_back(from[i]);
    };
    pick(labels, s.labels);
    pick(targets, s.targets);
    pick(charges, s.charges);
    pick(positions, s.positions);
    pick(names, s.names);
    pick(folds, s.folds);
    return s;
}

Dataset Dataset::followedBy(const Dataset& more) const
{
    auto differs = [&](const std::string& what, const std::string& mine, const std::string& theirs) {
        throw SpecError("test-data", what + " differ: " + mine + " in " + safePath(source) + ", " + theirs + " here",
                        more.source);
    };
    if (kind != more.kind) differs("kinds", toString(kind), toString(more.kind));
    auto shapeText = [](const Shape& s) {
        return std::to_string(s.height) + " x " + std::to_string(s.width) + " x " + std::to_string(s.channels);
    };
    if (!(shape == more.shape)) differs("sample shapes", shapeText(shape), shapeText(more.shape));
    auto labelling = [](const Dataset& d) {
        return std::string(d.isClassification() ? "class labels" : d.isRegression() ? "regression targets" : "no labels");
    };
    if (isClassification() != more.isClassification() || isRegression() != more.isRegression())
        differs("labels", labelling(*this), labelling(more));
    if (isRegression() && targetUnit != more.targetUnit) differs("target units", quoteValue(targetUnit), quoteValue(more.targetUnit));
    Dataset d = withoutSamples();
    d.X.resize(X.rows() + more.X.rows(), X.cols());
    if (!held.empty() || !more.held.empty()) {
        d.held.assign(count() + more.count(), 1);
        for (std::size_t r = 0; r < count(); ++r) d.held[r] = holds(r) ? 1 : 0;
        for (std::size_t r = 0; r < more.count(); ++r) d.held[count() + r] = more.holds(r) ? 1 : 0;
        releaseRows(d.X, d.held);
        for (std::size_t r = 0; r < d.held.size(); ++r)
            if (d.held[r])
                d.X.row(Eigen::Index(r)) = r < count() ? X.row(Eigen::Index(r)) : more.X.row(Eigen::Index(r - count()));
        if (std::all_of(d.held.begin(), d.held.end(), [](char h) { return h != 0; })) d.held.clear();
    } else {
        d.X.topRows(X.rows()) = X;
        d.X.bottomRows(more.X.rows()) = more.X;
    }
    d.numClasses = std::max(numClasses, more.numClasses);
    if (more.classNames.size() > classNames.size()) d.classNames = more.classNames;
    auto append = [&](auto& to, const auto& from) {
        if (to.empty() || from.empty()) {
            to.clear();  // only some rows would have them
            return;
        }
        to.insert(to.end(), from.begin(), from.end());
    };
    append(d.labels, more.labels);
    append(d.targets, more.targets);
    append(d.charges, more.charges);
    append(d.positions, more.positions);
    append(d.names, more.names);
    d.folds.clear();
    return d;
}

} // namespace orbit
