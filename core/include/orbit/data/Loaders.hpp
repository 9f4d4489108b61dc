#pragma once
// Dataset loaders, each selected by content and extension (or forced with LoadOptions::format).
// Every loader validates sizes against the file before allocating, and throws LoadError naming the
// file, the position (record, line, field) and the offending value. Nothing half-loaded escapes.
#include "orbit/data/Dataset.hpp"

#include <cstddef>
#include <string>

namespace orbit {

enum class Format {
    Auto,
    Idx,          ///< MNIST IDX, raw or .gz; labels found by the standard name or LoadOptions::labels
    Cifar,        ///< CIFAR-10 binary batch: records of 1 label byte + 3072 bytes (R, G, B planes)
    Amat,         ///< Larochelle .amat: 784 floats + label per line
    Image,        ///< one image file (OpenCV imread)
    ImageFolder,  ///< a folder of class sub-folders of images
    DigitsSheet,  ///< OpenCV's digits.png: 20x20 cells, 100 per row, 50 rows, 5 rows per class
    Mat,          ///< QM7 .mat, MATLAB v5 via matio: X, T, optional P, Z, R
    ExtXyz,       ///< extended XYZ molecules with energy= -> Coulomb matrices in Bohr
    Csv           ///< rows of numbers, last column label (integers) or target
};

/// "idx", "cifar", ... ; parseFormat throws SpecError("--format", ...) on an unknown name.
const char* toString(Format format);
Format parseFormat(const std::string& name);

struct LoadOptions {
    Format format = Format::Auto;
    std::string labels;                        ///< explicit labels file for IDX
    std::size_t maxBytes = std::size_t(8) << 30;  ///< refuse datasets needing more float memory than this
    int padTo = 0;                             ///< Coulomb size; 0 = largest molecule in the file
    std::size_t limit = 0;                     ///< read at most this many samples (0 = all)
};

/// Chooses the format from the content (magic bytes) and the extension.
Format detectFormat(const std::string& path);

/// Loads any supported dataset. Throws LoadError (or SpecError for bad options).
Dataset loadDataset(const std::string& path, const LoadOptions& options = {});

Dataset loadIdx(const std::string& path, const LoadOptions& options = {});
Dataset loadCifar(const std::string& path, const LoadOptions& options = {});
Dataset loadAmat(const std::string& path, const LoadOptions& options = {});
Dataset loadImage(const std::string& path, const LoadOptions& options = {});
Dataset loadImageFolder(const std::string& path, const LoadOptions& options = {});
Dataset loadDigitsSheet(const std::string& path, const LoadOptions& options = {});
Dataset loadMat(const std::string& path, const LoadOptions& options = {});
Dataset loadExtXyz(const std::string& path, const LoadOptions& options = {});
/// CSV rule: separator ',' ';' or tab (whichever the first line uses); a first line with a
/// non-numeric field is a header; blank and '#' lines are skipped. The last column is a class label
/// when all its values are integers in [0, 1000) with at most max(2, N / 2) distinct values, else a
/// regression target. Error positions: lines and fields count from 1, records and images from 0.
Dataset loadCsv(const std::string& path, const LoadOptions& options = {});

} // namespace orbit
