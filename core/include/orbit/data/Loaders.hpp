#pragma once
// Dataset loaders, each selected by content and extension (or forced with LoadOptions::format).
// Every loader validates sizes against the file before allocating, and throws LoadError naming the
// file, the position (record, line, field) and the offending value. Nothing half-loaded escapes.
#include "orbit/data/Dataset.hpp"
#include "orbit/util/Progress.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

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

/// "idx", "cifar", ... ; parseFormat throws SpecError("format", ...) on an unknown name.
const char* toString(Format format);
Format parseFormat(const std::string& name);

struct LoadOptions {
    Format format = Format::Auto;
    std::string labels;                        ///< explicit labels file for IDX
    /// Refuse datasets needing more memory than this. loadDataset lowers it to loadMemoryLimit():
    /// a file too large for the machine is refused, naming its size and the limit, before it is read
    /// (or, for text whose size says little, as soon as what it holds is known to exceed the limit).
    std::size_t maxBytes = std::size_t(8) << 30;
    int padTo = 0;                             ///< Coulomb size; 0 = largest molecule in the file
    std::size_t limit = 0;                     ///< read at most this many samples (0 = all)
    /// When set, the samples whose rows are wanted (a rank of many reads only its own): sample i is
    /// decoded when i < rows->size() and (*rows)[i]; the others come back not held (Dataset::held),
    /// as zeros that take no memory. Labels, targets and names are read whole. The IDX, CIFAR and
    /// extended XYZ loaders skip the others' decoding and checks (a bad value in a row not wanted is
    /// not seen); the others read every row and release the rows not wanted afterwards.
    std::optional<std::vector<char>> rows;
    /// Reported to while the text and IDX loaders read (after the first line or chunk, then about
    /// every MiB) with the fraction of the file read so far; a cancel stops the load (Cancelled).
    Progress progress;
};

/// The memory a load may use: the smaller of `maxBytes` and half of the memory available now
/// (Linux: MemAvailable of /proc/meminfo, and memory.max - memory.current of the process's cgroup
/// when it sets one). The other half is left for what the application does with the data.
std::size_t loadMemoryLimit(std::size_t maxBytes);

/// Chooses the format from the content (magic bytes) and the extension.
Format detectFormat(const std::string& path);

/// Loads any supported dataset. Throws LoadError (or SpecError for bad options). Never blocks on
/// what is not a regular file (a named pipe, a device: LoadError NotAFile), works within
/// loadMemoryLimit(options.maxBytes), and refuses a file whose size or modification time changed
/// while it was read (LoadError Changed: it is probably still being written).
Dataset loadDataset(const std::string& path, const LoadOptions& options = {});

Dataset loadIdx(const std::string& path, const LoadOptions& options = {});
Dataset loadCifar(const std::string& path, const LoadOptions& options = {});
Dataset loadAmat(const std::string& path, const LoadOptions& options = {});
Dataset loadImage(const std::string& path, const LoadOptions& options = {});
/// One image file as an input of `shape` (the Predict view's dropped or drawn image, `predict
/// --input`): read as loadImage reads it (values in [0, 1], rows from the top, RGB or grey), made
/// grey (OpenCV's RGB-to-grey weights) for a shape of one channel or RGB (grey repeated) for three,
/// and resized to shape's height x width (area averaging when it shrinks, bilinear when it grows).
/// `note`, when given, says in one line what was changed (empty when the file already had the
/// shape). LoadError as loadImage for a file that is not an image.
std::vector<float> loadImageAsInput(const std::string& path, const Shape& shape, std::string* note = nullptr);
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
