#pragma once
// Double-precision products of float32 feature matrices: the normal equations of every linear
// learner are accumulated in double from float32 rows, streamed in blocks with bounded memory.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"

#include <Eigen/Core>

namespace orbit {

/// G = X^T X (D x D) in double. Guarantees: symmetric (both triangles filled).
Eigen::MatrixXd gramOfColumns(const MatrixXfR& X);
/// The same bits, reporting to `progress` (fraction of rows done; a cancel throws Cancelled)
/// between 512-row chunks, outside any parallel region, so a long product can be abandoned.
Eigen::MatrixXd gramOfColumns(const MatrixXfR& X, const Progress& progress);

/// K = X X^T (N x N) in double. Guarantees: symmetric (both triangles filled).
Eigen::MatrixXd gramOfRows(const MatrixXfR& X);
/// The same bits, reporting to `progress` (which may cancel) between 512-column chunks.
Eigen::MatrixXd gramOfRows(const MatrixXfR& X, const Progress& progress);

/// K = X X^T (N x N) with float32 products over column chunks of `chunk` features, each chunk's
/// block summed into a double matrix: about twice as fast as gramOfRows, with a relative error of
/// float rounding over `chunk` terms (~1e-6 for the default). Output tiles are fixed, so the bits
/// do not depend on the number of threads. Guarantees: symmetric (both triangles filled).
Eigen::MatrixXd gramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk = 2048);
/// The same bits, reporting to `progress` (which may cancel) between groups of output tiles,
/// outside any parallel region.
Eigen::MatrixXd gramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk, const Progress& progress);

/// gramOfRows and gramOfRowsMixed without the mirroring: only the tiles on and below the diagonal
/// are filled (the rest is zero), so that several can be added before one mirrorLower.
Eigen::MatrixXd lowerGramOfRows(const MatrixXfR& X, const Progress& progress);
Eigen::MatrixXd lowerGramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk, const Progress& progress);
/// The same bits written into K (X.rows() x X.rows(), overwritten whole: e.g. a recycled buffer).
void lowerGramOfRowsMixed(const MatrixXfR& X, Eigen::Index chunk, const Progress& progress, Eigen::Ref<Eigen::MatrixXd> K);
/// Copies the strictly lower triangle of a square G onto its strictly upper one.
void mirrorLower(Eigen::MatrixXd& G);
void mirrorLower(Eigen::Ref<Eigen::MatrixXd> G);

/// gramOfColumns(X, progress) without the mirroring, written into G (X.cols() x X.cols(), e.g. the
/// left columns of a caller's buffer): the tiles on and below the diagonal hold the same bits, the
/// tiles above are left as they were (neither zeroed nor read: a sum of such blocks reads only the
/// lower triangle, e.g. sumOverBlocks with a LeafShape, and mirrors it once at the end; a D x D
/// transposed copy or zeroing per block cost as much as the block's product at D = 4000).
/// Allocates nothing but this thread's chunk buffer, kept from call to call.
void lowerGramOfColumns(const MatrixXfR& X, Eigen::Ref<Eigen::MatrixXd> G, const Progress& progress);

/// The same products of a double-precision matrix.
Eigen::MatrixXd gramOfColumns(const MatrixXdR& X);
Eigen::MatrixXd gramOfRows(const MatrixXdR& X);
Eigen::MatrixXd timesDouble(const MatrixXdR& X, const Eigen::MatrixXd& W);
Eigen::MatrixXd transposeTimes(const MatrixXdR& X, const Eigen::MatrixXd& Y);

/// A B^T (rows(A) x rows(B)) in double. Requires A.cols() == B.cols().
Eigen::MatrixXd crossGram(const MatrixXfR& A, const MatrixXfR& B);

/// X W (N x C) in double. Requires X.cols() == W.rows().
Eigen::MatrixXd timesDouble(const MatrixXfR& X, const Eigen::MatrixXd& W);

/// X^T Y (D x C) in double. Requires X.rows() == Y.rows().
Eigen::MatrixXd transposeTimes(const MatrixXfR& X, const Eigen::MatrixXd& Y);

} // namespace orbit
