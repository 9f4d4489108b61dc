#pragma once
// The options and help of the commands that run spread over the ranks of an MPI job.
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Json.hpp"
#include "orbit/parallel/Ranks.hpp"

#include <Eigen/Core>

#include <string>

namespace orbit::cli {

/// --block-rows N: rows per block of the fixed row partition (default 1024).
Option blockRowsOptionSpec();
Eigen::Index blockRowsOption(const Args& args);
/// [{rank, bytes_sent, bytes_received, wait_seconds}] of every rank in rank order (RankTraffic, up
/// to this call): --json's rank_counters. One process gives one rank of zeros. Collective.
Json rankCountersJson(const Ranks& ranks);
/// The --help paragraph on mpirun.
std::string manyProcessesHelp();

} // namespace orbit::cli
