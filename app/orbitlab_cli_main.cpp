// orbitlab-cli: forwards to orbit::cli::run (the subcommands live in core/src/cli/).
#include "orbit/cli/Cli.hpp"

#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    orbit::cli::Io io{std::cout, std::cerr, isatty(STDERR_FILENO) != 0};
    const int status = orbit::cli::run(args, io);
    std::cout.flush();
    return status;
}
