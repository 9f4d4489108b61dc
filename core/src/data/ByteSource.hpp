#pragma once
// Sequential binary input from a raw or gzip-compressed file (zlib reads both transparently).
// For a compressed file the decompressed size is unknown in advance, so callers read in chunks and
// compare what a header promised against what was actually delivered.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace orbit::data {

class ByteSource {
public:
    /// Opens `path`; throws LoadError FileNotFound if it cannot be opened.
    explicit ByteSource(const std::string& path);
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    /// Reads up to n bytes; returns how many arrived (fewer only at the end of the data).
    /// Throws LoadError BadMagic if the compressed stream is corrupt.
    std::size_t read(void* dst, std::size_t n);
    /// Reads n bytes into a vector grown chunk by chunk, so memory follows the bytes actually
    /// delivered, not the count a header claims. Returns the bytes read (< n at end of data).
    std::size_t readInto(std::vector<std::uint8_t>& out, std::size_t n);
    /// Moves n bytes forward without reading them. Only for a raw (not compressed) file whose size
    /// is already checked: a compressed stream is read through instead.
    void skip(std::size_t n);
    /// True if the file is gzip-compressed (its size on disk says nothing about the data size).
    bool compressed() const { return compressed_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    void* gz_ = nullptr;
    bool compressed_ = false;
};

/// The first n decompressed bytes of a file (fewer if it is shorter); empty if unreadable.
std::vector<std::uint8_t> peekBytes(const std::string& path, std::size_t n);

std::uint32_t bigEndian32(const std::uint8_t* p);

} // namespace orbit::data
