#pragma once
// The --group / --dist / --data / --index options shared by the subcommands that sample orbits.
#include "orbit/cli/Cli.hpp"
#include "orbit/data/Dataset.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <vector>

namespace orbit::cli {

/// --group SPEC and --dist SPEC, with help text that documents the spec syntax.
std::vector<Option> groupOptions();
/// --data FILE, --index I, --format F.
std::vector<Option> dataOptions();
/// Paragraph for a command's --help describing the group and distribution specs (from the registry).
std::string groupSpecHelp();
/// The same for the feature maps, the base kernels, and the learners with the evaluations.
std::string featureMapHelp();
std::string kernelHelp();
std::string learnerHelp();
/// "gaussian:sigma=S|median=F|polynomial (default gaussian:median=1)": the --kernel option's help.
std::string kernelOptionHelp();
/// "ridge|svm|krr|blr" and "holdout:FRAC|kfold:K|folds": value names of --learner and --eval.
std::string learnerNames();
std::string evaluationNames();

/// --seed S (default 0) as an unsigned seed.
std::uint64_t seedOption(const Args& args);

/// The dataset of --data (with --format), or nullopt when --data is absent.
/// With `rows`, only the marked rows are read (as preparedData below).
std::optional<Dataset> loadDataOption(const Args& args, const std::vector<char>* rows = nullptr);

/// --n, --rotate, --rotate-max, --transform-group, --transform-dist, --pad: how the loaded data are
/// prepared (a seeded subset, rotated or transformed images), as `train`, `learn` and `evidence` read them.
std::vector<Option> recipeOptions();
/// The dataset of --data prepared by those options with --seed; SpecError("--data") when absent.
/// With `rows` (one entry per prepared sample), only the marked rows are read (Dataset::held): a
/// rank of many reads what it needs. An empty `rows` reads none: the labels, targets and count alone.
Dataset preparedData(const Args& args, const std::vector<char>* rows = nullptr);
/// The seed stream of --test-data's preparation: its images get angles of their own.
constexpr std::uint64_t kTestDataStream = 10;
/// The dataset of --test-data (a separate test set, e.g. Fashion-MNIST's t10k file after its train
/// file), prepared as --data is but whole (no --n) and seeded from deriveSeed(seed, kTestDataStream).
Dataset preparedTestData(const Args& args, const std::vector<char>* rows = nullptr);

/// --index I checked against the dataset (default 0); SpecError("--index") when out of range.
std::size_t indexOption(const Args& args, const Dataset& data);

/// The group and distribution of --group / --dist for samples of `kind` and `shape` (checked with
/// checkShape and checkGroup). `seed` draws the random orthogonal set.
struct GroupChoice {
    std::shared_ptr<const Group> group;
    std::shared_ptr<const Distribution> dist;
};
GroupChoice groupOption(const Args& args, DataKind kind, const Shape& shape, std::uint64_t seed);

/// The file of an output option (e.g. --out), opened for writing with round-trip precision for
/// doubles; SpecError(option, "cannot open for writing", path) when it cannot be opened.
std::ofstream openOutput(const std::string& option, const std::string& path);
/// Flushes and closes it; SpecError(option, "write failed", path) when anything failed.
void closeOutput(std::ofstream& out, const std::string& option, const std::string& path);

} // namespace orbit::cli
