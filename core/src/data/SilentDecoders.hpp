#pragma once
// PNG and JPEG decoded through libpng and libjpeg with our own error and warning handlers, so that no
// "libpng error: Read Error" or "Corrupt JPEG data: premature end of data segment" ever reaches the
// terminal (OpenCV's decoders keep the libraries' defaults, which print on stderr). A damaged file is
// a LoadError of ours: one line naming the file and what the library found.
#include <opencv2/core.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace orbit::data {

/// The image at `path` when it starts with the PNG or JPEG signature, decoded silently into what
/// cv::imread(path, IMREAD_UNCHANGED) gives: 8- or 16-bit, 1 to 4 channels in OpenCV's BGR(A) order.
/// nullopt for other formats (and JPEGs in CMYK/YCCK, which OpenCV converts): the caller uses OpenCV.
/// Throws LoadError UnreadableImage (damaged data), Truncated (cut short) or TooLarge (more than
/// `maxBytes` as float32 RGB) naming `path`.
std::optional<cv::Mat> decodeSilently(const std::string& path, std::size_t maxBytes);

} // namespace orbit::data
