#pragma once
// NumPy .npz archives (a zip of .npy arrays): what a saved model is made of, so that NumPy alone
// reads it (numpy.load). The writer stores the arrays uncompressed, as numpy.savez does; the reader
// also takes numpy.savez_compressed's deflated members, Fortran-ordered arrays and zip64 records.
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace orbit {

/// One array of an archive, in the dtypes saved models use: float32 ('<f4'), float64 ('<f8'),
/// int64 ('<i8'; '<i4', '|u1' and '|b1' are read as int64 too), uint64 ('<u8') and unicode text
/// ('<U{n}', UTF-32 on disk, UTF-8 here). Values are in C (row-major) order; `shape` is empty for
/// a 0-d array (one value). Exactly the vector of `type` holds the values.
struct NpyArray {
    enum class Type { Float32, Float64, Int64, UInt64, Text };
    Type type = Type::Float64;
    std::vector<long long> shape;
    std::vector<float> f32;
    std::vector<double> f64;
    std::vector<std::int64_t> i64;
    std::vector<std::uint64_t> u64;
    std::vector<std::string> text;

    /// The number of values: the product of `shape` (1 for a 0-d array).
    std::size_t size() const;
    /// "float32", "float64", "int64", "uint64" or "text".
    const char* typeName() const;

    static NpyArray number(double v);
    static NpyArray integer(std::int64_t v);
    static NpyArray unsignedInteger(std::uint64_t v);
    static NpyArray string(const std::string& v);
    static NpyArray strings(const std::vector<std::string>& v);
    static NpyArray integers(const std::vector<std::int64_t>& v);
    static NpyArray numbers(const std::vector<double>& v);
    static NpyArray matrix(const MatrixXfR& m);
    static NpyArray matrix(const Eigen::MatrixXd& m);
};

/// The arrays of an archive by name (the member name without ".npy"), in file order.
using NpzArchive = std::vector<std::pair<std::string, NpyArray>>;

/// The bytes of the .npz file of `arrays`: a zip of uncompressed members NAME.npy (format 1.0
/// headers), every date 1980-01-01, so the same arrays give the same bytes. Names must be distinct,
/// non-empty and without '/' (ContractError otherwise); SpecError("output") past 4 GiB.
std::string encodeNpz(const NpzArchive& arrays);

/// The arrays of .npz bytes. Every member's CRC-32 is checked, so a changed or cut byte is noticed.
/// Throws LoadError naming `file` and, where it applies, the member ("member weights.npy"): BadMagic
/// (not a zip / not a .npy member), Truncated (the bytes end before what the records promise),
/// BadValue (a CRC-32 that does not match: "damaged or altered"), BadShape (a dtype or header it
/// does not read), TooLarge (sizes past the load memory limit).
NpzArchive decodeNpz(const std::string& bytes, const std::string& file);

/// encodeNpz written to `path`.part, then renamed to `path` (an existing file stays as it was if the
/// write fails). SpecError("output", ..., path) when it cannot be written.
void writeNpz(const std::string& path, const NpzArchive& arrays);
/// decodeNpz of the file; LoadError FileNotFound / NotAFile / TooLarge before reading it.
NpzArchive readNpz(const std::string& path);

} // namespace orbit
