#pragma once
// orbitlab-cli: every subcommand of docs/cli.md, in-process (the `main` in app/ only forwards).
#include "orbit/parallel/Ranks.hpp"

#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace orbit::cli {

/// An option a subcommand accepts. Options are written `--name VALUE`, `--name=VALUE`, or for
/// short aliases `-n VALUE`; flags take no value.
struct Option {
    std::string name;       ///< without dashes, e.g. "group"
    std::string shortName;  ///< one letter alias or empty, e.g. "n"
    bool isFlag = false;
    std::string valueName;  ///< for --help, e.g. "SPEC"
    std::string help;
};

/// The parsed command line of one subcommand.
class Args {
public:
    /// Throws SpecError naming the unknown option or the option missing its value.
    Args(const std::vector<std::string>& argv, const std::vector<Option>& options);
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    bool flag(const std::string& name) const { return has(name); }
    std::string text(const std::string& name, const std::string& fallback = {}) const;
    /// Required value; throws SpecError("--name", "is required").
    std::string required(const std::string& name) const;
    double number(const std::string& name, double fallback) const;
    long long integer(const std::string& name, long long fallback, long long lo, long long hi) const;
    const std::vector<std::string>& positional() const { return positional_; }

private:
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

/// Where a command writes: out = stdout (results, JSON), err = stderr (progress, the error line);
/// and the processes it runs on (the ranks of an MPI job, or this process alone).
struct Io {
    std::ostream& out;
    std::ostream& err;
    bool progress = false;  ///< stderr is a terminal: show progress
    const Ranks& ranks = oneProcess();
};

struct Command {
    std::string name;
    std::string summary;
    std::string usage;               ///< e.g. "info FILE [--format F]"
    std::string description;         ///< longer text for --help
    std::vector<Option> options;     ///< besides the common --help, --seed, --threads, --json
    std::function<int(const Args&, Io&)> run;
};

/// The options every subcommand takes: --help, --seed, --threads, --json.
const std::vector<Option>& commonOptions();

/// All subcommands, in the order `--help` lists them.
const std::vector<Command>& commands();

/// Runs `orbitlab-cli ARGS...` (args excludes the program name). Returns the exit status:
/// 0 success, 2 bad input (with one line on err), 1 an unexpected internal error.
int run(const std::vector<std::string>& args, Io& io);

// Subcommand factories, one per source file in cli/src/.
Command infoCommand();
Command sampleCommand();
Command orbitCommand();
Command kernelCommand();
Command featuresCommand();
Command approxErrorCommand();
Command benchCommand();
Command trainCommand();
Command experimentCommand();
Command learnCommand();
Command evidenceCommand();
Command densityCommand();
Command embedCommand();
Command probeCommand();
Command predictCommand();

} // namespace orbit::cli
