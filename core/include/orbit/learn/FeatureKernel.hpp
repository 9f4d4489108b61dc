#pragma once
// The inner products behind krr's Gaussian kernel on features, computed so that an entry's bits
// depend only on its two rows: `train` (the N x N Gram of a run) and a saved krr model's
// predictions (new rows against the support rows) then give the same kernel values, and the same
// predictions, for the same rows.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"
#include "orbit/parallel/BlockSum.hpp"
#include "orbit/parallel/Ranks.hpp"

#include <Eigen/Core>

namespace orbit {

/// The column chunks <a, b> is summed over for rows of `dim` features: at most 6 runs of a multiple
/// of 64 columns (the leaves of a block sum, so the ranks of an MPI run share the Gram's products).
RowBlocks featureChunks(Eigen::Index dim);

/// <a_i, b_j> (rows(A) x rows(B)) in double: per chunk of featureChunks, the float rows cast to
/// double and multiplied 512 columns at a time in output tiles of 240 x 240 that are always
/// computed whole (rows past the end of A or B are zeros), the chunks added in sumOverBlocks' tree
/// over `ranks`. So every product call has the same shape, and an entry's bits depend only on a_i,
/// b_j and the dimension, never on where the rows lie in A or B or how many there are.
/// Requires A.cols() == B.cols() (ContractError). Collective over `ranks`; `progress` may cancel.
Eigen::MatrixXd featureInnerProducts(const MatrixXfR& A, const MatrixXfR& B, const Ranks& ranks = oneProcess(),
                                     const Progress& progress = {});

/// featureInnerProducts(F, F) with only the tiles on and below the diagonal computed and then
/// mirrored: the same bits, in half the products. `times` gets the block sum's times.
Eigen::MatrixXd featureGram(const MatrixXfR& F, const Ranks& ranks = oneProcess(), BlockSumTimes* times = nullptr,
                            const Progress& progress = {});

/// The Gaussian kernel of bandwidth sigma on the rows of F: featureGram(F), each entry turned by
/// BaseKernel::fromInnerProduct with the Gram's own diagonal (krr's N x N kernel in `train`, and in
/// the krr model it saves). SpecError("kernel") for sigma <= 0.
Eigen::MatrixXd gaussianGram(const MatrixXfR& F, double sigma, const Ranks& ranks = oneProcess(),
                             BlockSumTimes* times = nullptr, const Progress& progress = {});

/// ||a_i||^2 with the bits of the diagonal of featureGram(A) (the diagonal tiles only).
Eigen::VectorXd featureSquaredNorms(const MatrixXfR& A);

/// K D (rows(K) x cols(D)): each entry summed over j = 0, 1, ... in order, so a row's bits do not
/// depend on the other rows (a saved krr model predicting some of a run's test rows gives the run's
/// bits). Requires K.cols() == D.rows() (ContractError).
Eigen::MatrixXd dualScores(const Eigen::MatrixXd& K, const Eigen::MatrixXd& D);

} // namespace orbit
