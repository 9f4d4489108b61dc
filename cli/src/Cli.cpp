#include "orbit/cli/Cli.hpp"

#include "Flags.hpp"
#include "orbit/util/ComputeBudget.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace orbit::cli {

namespace {

const Option* findOption(const std::vector<Option>& options, const std::string& name, bool isShort)
{
    for (const auto& o : options)
        if ((isShort ? o.shortName : o.name) == name && !name.empty()) return &o;
    return nullptr;
}

std::string helpText(const Command& c)
{
    std::ostringstream s;
    s << "usage: orbitlab-cli " << c.usage << "\n\n" << c.summary << "\n";
    if (!c.description.empty()) s << "\n" << c.description << "\n";
    s << "\noptions:\n";
    auto list = [&s](const std::vector<Option>& opts) {
        for (const auto& o : opts) {
            std::string left = "  " + (o.shortName.empty() ? std::string() : "-" + o.shortName + ", ") + "--" + o.name;
            if (!o.isFlag) left += " " + (o.valueName.empty() ? std::string("VALUE") : o.valueName);
            s << std::left << std::setw(34) << left << " " << o.help << "\n";
        }
    };
    list(c.options);
    list(commonOptions());
    return s.str();
}

std::string overview()
{
    std::ostringstream s;
    s << "usage: orbitlab-cli COMMAND [options]   (orbitlab-cli COMMAND --help for details)\n\n"
         "Local group-invariant kernel representations, headless: every figure of the Orbit Lab GUI.\n\n"
         "commands:\n";
    for (const auto& c : commands()) s << "  " << std::left << std::setw(14) << c.name << c.summary << "\n";
    return s.str();
}

} // namespace

Args::Args(const std::vector<std::string>& argv, const std::vector<Option>& options)
{
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() > 1 && a[0] == '-' && !parseDouble(a)) {
            const bool isLong = a.rfind("--", 0) == 0;
            std::string name = a.substr(isLong ? 2 : 1);
            std::optional<std::string> inlineValue;
            if (auto eq = name.find('='); isLong && eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
            const Option* o = findOption(options, name, !isLong);
            if (!o) throw SpecError(a, "unknown option (see --help)");
            if (o->isFlag) {
                if (inlineValue) throw SpecError("--" + o->name, "takes no value", *inlineValue);
                values_[o->name] = "1";
            } else if (inlineValue) {
                values_[o->name] = *inlineValue;
            } else {
                if (i + 1 >= argv.size()) throw SpecError("--" + o->name, "needs a value");
                values_[o->name] = argv[++i];
            }
        } else {
            positional_.push_back(a);
        }
    }
}

std::string Args::text(const std::string& name, const std::string& fallback) const
{
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

std::string Args::required(const std::string& name) const
{
    auto it = values_.find(name);
    if (it == values_.end()) throw SpecError("--" + name, "is required");
    return it->second;
}

double Args::number(const std::string& name, double fallback) const
{
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    auto v = parseDouble(it->second);
    if (!v) throw SpecError("--" + name, "not a finite number", it->second);
    return *v;
}

long long Args::integer(const std::string& name, long long fallback, long long lo, long long hi) const
{
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    auto v = parseInteger(it->second);
    if (!v) throw SpecError("--" + name, "not an integer", it->second);
    if (*v < lo || *v > hi)
        throw SpecError("--" + name, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", it->second);
    return *v;
}

const std::vector<Option>& commonOptions()
{
    static const std::vector<Option> options = {
        {"help", "h", true, "", "show this help and exit"},
        {"seed", "", false, "S", "random seed (default 0); the same seed gives bit-identical output"},
        {"threads", "", false, "N", "worker threads (default: all cores, shared by the ranks on one machine under mpirun); does not change results"},
        {"json", "", true, "", "print one JSON object on stdout"},
    };
    return options;
}

const std::vector<Command>& commands()
{
    static const std::vector<Command> all = [] {
        std::vector<Command> c;
        c.push_back(infoCommand());
        c.push_back(sampleCommand());
        c.push_back(orbitCommand());
        c.push_back(densityCommand());
        c.push_back(embedCommand());
        c.push_back(probeCommand());
        c.push_back(kernelCommand());
        c.push_back(featuresCommand());
        c.push_back(approxErrorCommand());
        c.push_back(trainCommand());
        c.push_back(predictCommand());
        c.push_back(experimentCommand());
        c.push_back(learnCommand());
        c.push_back(evidenceCommand());
        c.push_back(benchCommand());
        return c;
    }();
    return all;
}

namespace {

/// The ranks of the job on this machine (Open MPI says; otherwise all of them).
int ranksOnThisMachine(const Ranks& ranks)
{
    if (const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE"))
        if (const auto n = parseDouble(local); n && *n >= 1 && *n <= ranks.size()) return int(*n);
    return ranks.size();
}

} // namespace

int run(const std::vector<std::string>& args, Io& io)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        (args.empty() ? io.err : io.out) << overview();
        return args.empty() ? 2 : 0;
    }
    const auto& all = commands();
    auto it = std::find_if(all.begin(), all.end(), [&](const Command& c) { return c.name == args[0]; });
    if (it == all.end()) {
        io.err << "orbitlab-cli: unknown command " << quoteValue(args[0]) << " (see orbitlab-cli --help)\n";
        return 2;
    }
    std::vector<Option> options = it->options;
    options.insert(options.end(), commonOptions().begin(), commonOptions().end());
    try {
        const Args parsed(std::vector<std::string>(args.begin() + 1, args.end()), options);
        if (parsed.flag("help")) {
            io.out << helpText(*it);
            return 0;
        }
        const int threads = static_cast<int>(parsed.integer("threads", 0, 0, 1024));
        if (threads > 0)
            setComputeBudget(threads);
        else if (io.ranks.size() > 1)
            setComputeBudget(std::max(1, computeBudget() / ranksOnThisMachine(io.ranks)));
        return it->run(parsed, io);
    } catch (const LoadError& e) {
        io.err << "orbitlab-cli " << it->name << ": " << e.what() << "\n";
        return 2;
    } catch (const SpecError& e) {
        // The core names fields in neutral words; the user typed flags.
        io.err << "orbitlab-cli " << it->name << ": " << withFlag(e, options).what() << "\n";
        return 2;
    } catch (const Cancelled&) {
        io.err << "orbitlab-cli " << it->name << ": cancelled\n";
        return 130;
    } catch (const std::bad_alloc&) {
        io.err << "orbitlab-cli " << it->name << ": out of memory\n";
        return 2;
    } catch (const std::exception& e) {
        // Not one of ours: its message may quote paths or bytes unescaped (std::filesystem does).
        io.err << "orbitlab-cli " << it->name << ": internal error: " << safeText(e.what(), 600) << "\n";
        return 1;
    }
}

} // namespace orbit::cli
