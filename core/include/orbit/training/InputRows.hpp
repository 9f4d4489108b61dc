#pragma once
// Which rows each process of a job reads (the inputs) and holds (the features), for `train` and
// `features` over MPI ranks (docs/cli.md, "Many processes (MPI)"). Ownership never changes a bit of the results:
// sums run over fixed row blocks in a fixed order (BlockSum.hpp), whoever holds them.
#include "orbit/training/Training.hpp"
#include "orbit/parallel/Ranks.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace orbit {

/// The rows of `data` whose inputs rank ranks.rank() of train(data, config, .., ranks) reads: the
/// runs of blocks it may compute features of at any grid point, and the median rule's samples.
/// `data` needs only its labels, targets and folds (loaded with no row held is enough). Empty, for
/// every row, when the run has one rank or a map that fits on the data (Nystrom, GICDF span=auto,
/// kmeans landmarks, +rf2 with the median rule). train() then runs on the data loaded with these
/// rows (LoadOptions::rows) to the same bits as on the whole data.
std::vector<char> trainingInputRows(const Dataset& data, const TrainConfig& config, const Ranks& ranks);

/// The same for `features` on n samples: this rank's own blocks (Ranks::firstRow to lastRow) and,
/// when the kernel spec takes the median rule, its sample drawn with `seed`; empty (every row) for
/// one rank or a map that fits on the data.
std::vector<char> featureInputRows(std::size_t n, const std::string& features, const std::string& kernel,
                                   std::uint64_t seed, long long blockRows, const Ranks& ranks);

} // namespace orbit
