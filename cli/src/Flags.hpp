#pragma once
// The one place where the core's neutral field names (orbit/util/Error.hpp) become the flags of a
// command: "distribution vonmises.kappa" is printed as "--dist vonmises.kappa", "r" as "-r".
#include "orbit/cli/Cli.hpp"
#include "orbit/util/Error.hpp"

#include <string>
#include <vector>

namespace orbit::cli {

/// The flag of the command whose options are `options` that sets `field`, with the rest of the
/// field kept ("features.s" -> "--features.s", "group orthogonal.k" -> "--group orthogonal.k").
/// The head of the field (up to the first ' ' or '.') is looked up among the options under its
/// own name or an alias (distribution -> dist, output -> out, subset -> n, ...); a one-letter
/// option with the same short name is written "-x". A field that is already a flag, or that the
/// command has no option for (labels, lambda, ...), is returned as it is.
std::string flagOf(const std::string& field, const std::vector<Option>& options);

/// The error with its field written as the command's flag (the same detail and value).
SpecError withFlag(const SpecError& e, const std::vector<Option>& options);

} // namespace orbit::cli
