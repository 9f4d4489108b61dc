#pragma once
// The in-memory dataset every loader produces and every later stage reads.
#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace orbit {

/// Row-major float32 matrix: one sample per row (the layout of all batched products).
using MatrixXfR = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
/// The double-precision counterpart (for derivative checks that float rounding would drown).
using MatrixXdR = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

enum class DataKind { Images, Coulomb, Vectors };
const char* toString(DataKind kind);

/// The shape of one sample. Images: height x width x channels, stored interleaved (HWC, the
/// OpenCV layout). Coulomb matrices: n x n x 1. Vectors: 1 x d x 1.
struct Shape {
    int height = 1;
    int width = 1;
    int channels = 1;
    int dim() const { return height * width * channels; }
    bool operator==(const Shape&) const = default;
};

/// A loaded dataset.
///
/// Guarantees after a successful load: X.rows() == count(); X.cols() == shape.dim(); every value is
/// finite; images lie in [0, 1]; exactly one of `labels` (classification, values in
/// [0, numClasses)) or `targets` (regression) is non-empty, or both are empty (unlabelled images).
/// The texts taken from the file (classNames, targetUnit, names) are safe text (isSafeText) of at
/// most kQuoteMaxChars characters: the loaders escape and cut them, so every view can print them.
struct Dataset {
    DataKind kind = DataKind::Vectors;
    Shape shape;
    MatrixXfR X;                         ///< N x shape.dim()

    std::vector<int> labels;             ///< class per sample, or empty
    int numClasses = 0;
    std::vector<std::string> classNames; ///< optional, numClasses entries when present

    std::vector<double> targets;         ///< regression target per sample (e.g. kcal/mol), or empty
    /// The unit of `targets` (e.g. "kcal/mol") when the data states it — the file's header or the
    /// dataset's README beside it (see loadExtXyz, loadMat) — else empty: no unit is ever guessed.
    std::string targetUnit;

    // Molecules (kind == Coulomb)
    std::vector<std::vector<int>> charges;  ///< atomic numbers per molecule (unpadded)
    /// Atom positions per molecule in Bohr, in the order of `charges`, where the file has them
    /// (extended XYZ); empty for Coulomb matrices read as such (CSV, .mat).
    std::vector<std::vector<std::array<double, 3>>> positions;
    std::vector<std::string> names;         ///< per-sample names when the file has them
    std::vector<int> folds;                 ///< predefined fold per sample (QM7 .mat P), or empty

    std::string source;                  ///< the path it was loaded from
    std::string format;                  ///< the loader that read it, e.g. "idx", "extxyz"

    /// The samples whose rows X holds, when only some were read (a rank of many reads what it needs:
    /// LoadOptions::rows); empty when X holds every row. Labels, targets and names are always whole.
    /// A row not held is zeros and costs no memory (releaseRows); no stage may read it (requireHeld).
    std::vector<char> held;

    std::size_t count() const { return static_cast<std::size_t>(X.rows()); }
    bool isClassification() const { return !labels.empty(); }
    bool isRegression() const { return !targets.empty(); }
    /// One sample as a pointer to shape.dim() floats.
    const float* sample(std::size_t i) const { return X.data() + i * static_cast<std::size_t>(X.cols()); }
    bool holdsAll() const { return held.empty(); }
    bool holds(std::size_t i) const { return held.empty() || (i < held.size() && held[i] != 0); }
    /// How many rows X holds (count() when it holds all).
    std::size_t heldCount() const;
    /// Throws ContractError naming `who` and the first of the rows [first, last) (or of `rows`) that
    /// X does not hold: a stage about to read a row its rank never loaded is a bug, not zeros.
    void requireHeld(std::size_t first, std::size_t last, const std::string& who) const;
    void requireHeld(const std::vector<std::size_t>& rows, const std::string& who) const;
    /// Throws std::logic_error if the invariants above do not hold (used by loaders and tests). The
    /// value checks cover the rows held.
    void checkInvariants() const;
    /// Everything but the samples: X is 0 x shape.dim(), `held` is kept (for transforms that fill
    /// new rows of their own, e.g. rotatedImages).
    Dataset withoutSamples() const;
    /// The rows `idx` as a new dataset (labels, targets, charges, positions, names, folds and held follow).
    Dataset subset(const std::vector<std::size_t>& idx) const;
    /// This dataset's rows, then `more`'s (a separate test file after its training file). Requires
    /// the same kind and shape, and both labelled or both with targets; classes are the union
    /// (numClasses the larger count), predefined folds are dropped. Throws SpecError("test-data")
    /// naming what differs.
    Dataset followedBy(const Dataset& more) const;
};

/// Sets the rows of X that `held` does not mark (held.size() == X.rows()) to zero and gives their
/// whole pages back to the system (Linux: madvise MADV_DONTNEED; elsewhere they are only zeroed):
/// until something writes them they read as zeros and take no memory. An empty `held` marks all.
void releaseRows(MatrixXfR& X, const std::vector<char>& held);

} // namespace orbit
