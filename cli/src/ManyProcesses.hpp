#pragma once
// The options and help of the commands that run spread over the ranks of an MPI job.
#include "orbit/cli/Cli.hpp"

#include <Eigen/Core>

#include <string>

namespace orbit::cli {

/// --block-rows N: rows per block of the fixed row partition (default 1024).
Option blockRowsOptionSpec();
Eigen::Index blockRowsOption(const Args& args);
/// The --help paragraph on mpirun.
std::string manyProcessesHelp();

} // namespace orbit::cli
