#pragma once
// Writing feature and kernel matrices: NumPy .npy (float32, C order, format v1.0) and CSV.
#include "orbit/data/Dataset.hpp"

#include <Eigen/Core>
#include <string>

namespace orbit {

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
