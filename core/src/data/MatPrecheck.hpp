#pragma once
// Private: a structural check of a MATLAB v5 file before matio parses it. matio trusts the sizes in
// variable headers (inside compressed elements they are not bounded by the file size) and allocates
// from them -- e.g. a dimensions tag of 3.5 GB makes Mat_VarReadInfo calloc 7 GB for the rank alone.
#include <cstddef>
#include <string>

namespace orbit::data {

/// For a file with a MATLAB v5 header, walks the top-level variables (inflating compressed ones,
/// at most `maxInflated` bytes each) and throws LoadError unless every one is a dense numeric
/// array whose element, dimensions and name sizes fit inside the bytes actually present, with 2..32
/// dimensions. Cell, struct and object arrays (matio parses their nested headers recursively),
/// sparse arrays (matio allocates nzmax from the header) and char arrays -- none of them in QM7
/// files, and none readable by loadMat anyway -- are refused. Files without a v5 header are left to matio.
void precheckMat5(const std::string& path, std::size_t maxInflated);

/// For a file without a v5 header (matio's own test: the endian indicator at byte 126) whose first 20 bytes read as a MATLAB v4 variable header (type
/// code MOPT valid in one byte order), walks every v4 variable and throws LoadError unless it is a
/// full numeric matrix (not text or sparse) whose name (1..4096 bytes) and data (rows x columns x
/// element size, twice when complex) lie inside the file.
/// matio's v4 reader allocates the name and skips the data from these header fields unchecked.
/// Other files are left to matio.
void precheckMat4(const std::string& path);

} // namespace orbit::data
