#pragma once
// The --group / --dist / --data / --index options shared by the subcommands that sample orbits.
#include "orbit/cli/Cli.hpp"
#include "orbit/data/Dataset.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace orbit::cli {

/// --group SPEC and --dist SPEC, with help text that documents the spec syntax.
std::vector<Option> groupOptions();
/// --data FILE, --index I, --format F.
std::vector<Option> dataOptions();
/// Paragraph for a command's --help describing the group and distribution specs.
std::string groupSpecHelp();

/// --seed S (default 0) as an unsigned seed.
std::uint64_t seedOption(const Args& args);

/// The dataset of --data (with --format), or nullopt when --data is absent.
std::optional<Dataset> loadDataOption(const Args& args);

/// --index I checked against the dataset (default 0); SpecError("--index") when out of range.
std::size_t indexOption(const Args& args, const Dataset& data);

/// The group and distribution of --group / --dist for samples of `kind` and `shape` (checked with
/// checkShape and checkGroup). `seed` draws the random orthogonal set.
struct GroupChoice {
    std::shared_ptr<const Group> group;
    std::shared_ptr<const Distribution> dist;
};
GroupChoice groupOption(const Args& args, DataKind kind, const Shape& shape, std::uint64_t seed);

} // namespace orbit::cli
