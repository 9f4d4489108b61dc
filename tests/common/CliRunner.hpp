#pragma once
// Runs orbitlab-cli in-process, capturing stdout, stderr and the exit status.
#include "orbit/cli/Cli.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace orbittest {

struct CliResult {
    int status = -1;
    std::string out, err;
};

inline CliResult runCli(const std::vector<std::string>& args)
{
    std::ostringstream out, err;
    orbit::cli::Io io{out, err, false};
    CliResult r;
    r.status = orbit::cli::run(args, io);
    r.out = out.str();
    r.err = err.str();
    return r;
}

} // namespace orbittest
