// orbitlab-cli: forwards to orbit::cli::run (the subcommands live in cli/). Under mpirun every rank
// runs the same command; rank 0 writes the results, and a rank that fails ends the whole job.
#include "orbit/cli/Cli.hpp"
#include "orbit/cli/Processes.hpp"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    const orbit::cli::Processes processes(argc, argv);
    const orbit::Ranks& ranks = processes.ranks();
    std::vector<std::string> args(argv + 1, argv + argc);
    const bool root = ranks.isRoot(), several = ranks.size() > 1;
    // Other ranks' results are rank 0's; their messages are kept and printed with the rank's name.
    std::ostringstream unused, rankErr;
    orbit::cli::Io io{root ? static_cast<std::ostream&>(std::cout) : unused, root ? static_cast<std::ostream&>(std::cerr) : rankErr,
                      root && isatty(STDERR_FILENO) != 0, ranks};
    const int status = orbit::cli::run(args, io);
    std::cout.flush();
    const std::string name = "[rank " + std::to_string(ranks.rank()) + " of " + std::to_string(ranks.size()) + "] ";
    if (!rankErr.str().empty()) std::cerr << name + rankErr.str() << std::flush;  // one write: ranks interleave
    if (several && status != 0) {
        if (root) std::cerr << name + "failed: ending the job\n" << std::flush;
        processes.abortAll(status);
    }
    return status;
}
