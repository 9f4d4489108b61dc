#pragma once
// Typed errors of the core. Every message names where the problem is (file and position, or the
// option/field) and the offending value, so the CLI and the GUI can show it as one line.
// what() is safe text (orbit/util/SafeText.hpp): every part taken from a file or an argument is
// escaped, the value is cut to kQuoteMaxChars and the path to kPathMaxChars; the accessors keep the
// raw parts.
#include <stdexcept>
#include <string>

namespace orbit {

/// What went wrong while reading a data file.
enum class LoadErrorKind {
    FileNotFound,     ///< the path does not exist or cannot be opened
    UnknownFormat,    ///< neither extension nor content identifies a supported format
    BadMagic,         ///< the file's magic number / header is not the format's
    Truncated,        ///< the file ends before the data its header promises
    TooLarge,         ///< header sizes the file cannot hold, or that exceed the memory limit
    CountMismatch,    ///< e.g. number of labels differs from number of images
    Ragged,           ///< rows of different length
    NotANumber,       ///< a field that should be a number is not
    NonFinite,        ///< NaN or Inf in the data
    UnknownElement,   ///< a chemical symbol we have no charge for
    CoincidentAtoms,  ///< two atoms at the same position (the Coulomb matrix would be infinite)
    UnreadableImage,  ///< OpenCV could not decode an image file
    MissingVariable,  ///< a MAT file lacks a required variable (X, T)
    BadShape,         ///< a variable or record has the wrong dimensions
    BadValue,         ///< a value outside its allowed range (e.g. a label byte > 9)
    Empty,            ///< no records at all
    NotAFile,         ///< a directory, named pipe (FIFO), socket or device where a data file belongs
    Changed           ///< the file changed (size or modification time) while it was read
};

const char* toString(LoadErrorKind kind);

/// A loader failure: `file: position: detail (value 'value')`.
class LoadError : public std::runtime_error {
public:
    LoadError(LoadErrorKind kind, std::string file, std::string position, std::string detail,
              std::string value = {});
    LoadErrorKind kind() const noexcept { return kind_; }
    const std::string& file() const noexcept { return file_; }
    const std::string& position() const noexcept { return position_; }
    const std::string& detail() const noexcept { return detail_; }
    const std::string& value() const noexcept { return value_; }

private:
    LoadErrorKind kind_;
    std::string file_, position_, detail_, value_;
};

/// A bad spec string, option or parameter: `field: detail (value 'value')`.
///
/// The field names what the user set, in the core's neutral words: never a command-line flag, so
/// that the GUI can show the message as it is and point at the control. The CLI maps a field to
/// its flag (cli/src/Flags.cpp), a panel to its control (ui/widgets/FieldHighlight.hpp). A
/// field is a name, optionally followed by `.key` or ` spec.key` for one parameter of it
/// ("features.s", "group orthogonal.k", "distribution vonmises.kappa", "grid lambda"). The names:
///
///   field                    what it is                                     CLI flag
///   kernel                   the base kernel spec                           --kernel
///   features                 the feature map spec (and its keys)            --features
///   group                    the group spec                                 --group
///   distribution             the distribution on the group                  --dist
///   data                     the dataset (file, labels, size)               --data
///   test-data                a separate test set after the training data    --test-data
///   index                    the chosen sample of the dataset               --index
///   inputs                   several chosen samples                         --indices
///   format                   the dataset format                             --format
///   subset                   a seeded random subset of N samples            --n
///   points                   the number of points of a figure               --points, --n
///   samples                  the number of draws of a histogram             -n
///   r                        group samples per input (orbit copies)         -r
///   learner, eval            the learner and its evaluation                 --learner, --eval
///   grid                     a parameter grid; `grid AXIS` one of its axes  --grid
///   validation               the validation fraction                        --validation
///   inner-folds              the inner folds of model selection             --inner-folds
///   learning-curve           the learning-curve fractions                   --learning-curve
///   block-rows               rows per block of the fixed row partition      --block-rows
///   estimator                the V- or U-statistic of the kernel            --estimator
///   output                   a file to write                                --out
///   rotate, rotate-max, pad, the image preparation of the data              same names
///     rotate-classes
///   transform-group          the group that moves the images                --transform-group
///   transform-distribution   its distribution                               --transform-dist
///   s-list, r-list, ref-r,   the approximation-error experiment             same names
///     repeats
///   learn, bounds, values,   learning the locality                          same names
///     max-evals, precision
///   per-class                learning every class's locality                --per-class
///   class                    the one class a locality objective fits        (none)
///   dist-per-class           a distribution per class ("C=SPEC;...")        --dist-per-class
///   sweep                    a sweep of one input (NAME:FROM:TO:COUNT)      --sweep
///   input                    an image given as the one input of a model     --input
///   mean                     the exact kernel machines' mean function       --mean
///
/// Fields without a flag (labels, targets, lambda, ...) name a property of the data or a
/// parameter of a learner in the same words.
class SpecError : public std::runtime_error {
public:
    SpecError(std::string field, std::string detail, std::string value = {});
    const std::string& field() const noexcept { return field_; }
    const std::string& detail() const noexcept { return detail_; }
    const std::string& value() const noexcept { return value_; }

private:
    std::string field_, detail_, value_;
};

/// A broken internal contract: something no user input can cause (blocks of the wrong size passed
/// between core functions, a model used before it was fitted, ...). `where: detail`, where names
/// the function or type whose requirement was broken; a size check names both sizes. The CLI
/// reports it as an internal error (exit 1), not as bad input.
class ContractError : public std::logic_error {
public:
    ContractError(std::string where, std::string detail);
    const std::string& where() const noexcept { return where_; }
    const std::string& detail() const noexcept { return detail_; }

private:
    std::string where_, detail_;
};

/// Throws ContractError(where, ...) naming both sizes when `got != expected`: the sizes of arrays
/// passed between core functions, which no user input can make disagree.
void requireSize(const char* where, const char* what, long long got, long long expected);

/// The core was asked to stop (a cancel callback returned true).
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

} // namespace orbit
