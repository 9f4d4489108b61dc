#pragma once
// Writing feature and kernel matrices: NumPy .npy (float32, C order, format v1.0) and CSV.
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>
#include <cstdio>
#include <memory>
#include <string>

namespace orbit {

/// A float32 matrix of known size written in row order, a few rows at a time (one rank's rows after
/// another's): .npy or .csv by the extension of `path`, the same bytes as writeMatrix of the whole.
/// The constructor opens the file and writes the .npy header; append() takes the next rows;
/// finish() checks that every announced row came and that the writes succeeded. SpecError("output")
/// for an unknown extension or a failed write; ContractError for rows of the wrong width, or too many.
/// The rows go to `path`.part first, renamed to `path` by finish(): a run that fails half-way leaves
/// an existing `path` as it was, never a file that is cut short (the destructor removes the part
/// file; a process killed outright may leave it). A `path` that exists and is not a regular file
/// (a pipe, a device) is written directly.
class MatrixRowWriter {
public:
    MatrixRowWriter(const std::string& path, Eigen::Index rows, Eigen::Index cols);
    enum class Format { Npy, Csv };
    MatrixRowWriter(const std::string& path, Eigen::Index rows, Eigen::Index cols, Format format);
    ~MatrixRowWriter();
    MatrixRowWriter(const MatrixRowWriter&) = delete;
    MatrixRowWriter& operator=(const MatrixRowWriter&) = delete;
    void append(const MatrixXfR& rows);
    void finish();

private:
    std::string path_, writing_;  ///< the destination, and the file written (path_ or its part file)
    bool npy_ = true;
    Eigen::Index rows_ = 0, cols_ = 0, written_ = 0;
    std::unique_ptr<FILE, int (*)(FILE*)> file_{nullptr, &std::fclose};
};

/// Writes M as a .npy file: magic "\x93NUMPY", version 1.0, header
/// {'descr': '<f4', 'fortran_order': False, 'shape': (rows, cols), } padded to a multiple of 64 bytes,
/// then rows x cols little-endian float32 in C (row-major) order. Throws SpecError("output") if the
/// file cannot be written.
void writeNpy(const std::string& path, const MatrixXfR& M);

/// Writes one row per line, comma-separated, with enough digits to round-trip (float: 9, double: 17).
void writeCsv(const std::string& path, const MatrixXfR& M);
void writeCsv(const std::string& path, const Eigen::MatrixXd& M);

/// Writes .npy or .csv according to the extension of `path`; SpecError("output") for any other.
void writeMatrix(const std::string& path, const MatrixXfR& M);

} // namespace orbit
