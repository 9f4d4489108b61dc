#include "data/MatPrecheck.hpp"

#include "data/LoaderSupport.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

namespace orbit::data {

namespace {

constexpr std::uint32_t miINT8 = 1, miINT32 = 5, miUINT32 = 6, miMATRIX = 14, miCOMPRESSED = 15;
constexpr std::size_t kMaxRank = 32;
constexpr std::size_t kMaxName = 4096;

struct Reader {
    const std::string& path;
    bool swap;
    std::uint32_t u32(const std::uint8_t* p) const
    {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return swap ? __builtin_bswap32(v) : v;
    }
    [[noreturn]] void bad(std::size_t offset, const std::string& detail, const std::string& value = {}) const
    {
        fail(LoadErrorKind::BadShape, path, "byte " + std::to_string(offset), detail, value);
    }
};

/// One data-element tag at p (8 bytes available): type, size, and where its data starts.
struct Tag {
    std::uint32_t type = 0;
    std::size_t bytes = 0;
    std::size_t header = 8;  // 4 for the small-element format
};

Tag readTag(const Reader& r, const std::uint8_t* p)
{
    Tag t;
    const std::uint32_t w = r.u32(p);
    if ((w >> 16) != 0) {  // small data element: size in the upper half, data in the next 4 bytes
        t.type = w & 0xFFFF;
        t.bytes = w >> 16;
        t.header = 4;
    } else {
        t.type = w;
        t.bytes = r.u32(p + 4);
    }
    return t;
}

std::size_t padded(std::size_t n) { return (n + 7) / 8 * 8; }

/// Checks the header of a miMATRIX element whose data (`size` bytes in total) begins at p; only the
/// first `have` bytes of it are in memory. `offset` locates it in the file for messages.
void checkMatrix(const Reader& r, const std::uint8_t* p, std::size_t have, std::size_t size, std::size_t offset)
{
    if (size == 0) return;  // an empty matrix element
    if (have < 32) r.bad(offset, "a variable header is truncated");
    // array flags: miUINT32, 8 bytes
    const Tag flags = readTag(r, p);
    if (flags.type != miUINT32 || flags.bytes != 8 || flags.header != 8) r.bad(offset, "a variable has malformed array flags");
    const std::uint32_t cls = r.u32(p + 8) & 0xFF;
    // 1 cell, 2 struct, 3 object, 4 char, 5 sparse (matio allocates nzmax from the flags), 6..15 numeric
    if (cls < 6 || cls > 15)
        r.bad(offset, "only dense numeric arrays are supported (not cell, struct, object, char or sparse)",
              "class " + std::to_string(cls));
    // dimensions: miINT32, 4 bytes each
    const Tag dims = readTag(r, p + 16);
    if (dims.type != miINT32 || dims.bytes % 4 != 0 || dims.bytes / 4 < 2 || dims.bytes / 4 > kMaxRank)
        r.bad(offset + 16, "a variable must have 2 to " + std::to_string(kMaxRank) + " dimensions",
              std::to_string(dims.bytes / 4));
    const std::size_t nameAt = 16 + (dims.header == 4 ? 8 : 8 + padded(dims.bytes));
    if (nameAt + 8 > size) r.bad(offset + 16, "the dimensions run past the end of the variable");
    if (nameAt + 8 <= have) {
        const Tag name = readTag(r, p + nameAt);
        if (name.type != miINT8 || name.bytes > kMaxName || nameAt + name.header + name.bytes > size)
            r.bad(offset + nameAt, "a variable name is malformed or longer than " + std::to_string(kMaxName) + " bytes",
                  std::to_string(name.bytes));
    }
}

/// Inflates a compressed element: the first `keep` bytes into `head`, returns the total size
/// (stops counting past `limit`).
std::size_t inflateElement(const Reader& r, const std::vector<std::uint8_t>& in, std::size_t offset,
                           std::vector<std::uint8_t>& head, std::size_t keep, std::size_t limit)
{
    z_stream z{};
    if (inflateInit(&z) != Z_OK) r.bad(offset, "zlib cannot be initialised");
    z.next_in = const_cast<Bytef*>(in.data());
    z.avail_in = static_cast<uInt>(in.size());
    std::vector<std::uint8_t> buf(1 << 16);
    std::size_t total = 0;
    int rc = Z_OK;
    while (rc == Z_OK && total <= limit) {
        z.next_out = buf.data();
        z.avail_out = static_cast<uInt>(buf.size());
        rc = inflate(&z, Z_NO_FLUSH);
        const std::size_t got = buf.size() - z.avail_out;
        if (head.size() < keep) head.insert(head.end(), buf.begin(), buf.begin() + std::min(got, keep - head.size()));
        total += got;
        if (rc == Z_BUF_ERROR && got == 0) break;  // input exhausted before the stream's end
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END && total <= limit) r.bad(offset, "a compressed variable is corrupt or truncated");
    return total;
}

} // namespace

void precheckMat5(const std::string& path, std::size_t maxInflated)
{
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint8_t> header(128);
    in.read(reinterpret_cast<char*>(header.data()), 128);
    if (in.gcount() != 128) return;  // not v5: matio decides (v4, or not a MAT file)
    const bool le = header[126] == 'I' && header[127] == 'M';
    const bool be = header[126] == 'M' && header[127] == 'I';
    if (!le && !be) return;
    const Reader r{path, be};
    const std::uint16_t version = le ? std::uint16_t(header[124] | header[125] << 8) : std::uint16_t(header[124] << 8 | header[125]);
    if (version != 0x0100) return;  // v7.3 (HDF5): not parsed by matio's v5 reader

    const std::uintmax_t size = fileSize(path);
    std::size_t offset = 128;
    std::uint8_t tagBytes[8];
    while (offset + 8 <= size) {
        in.seekg(static_cast<std::streamoff>(offset));
        in.read(reinterpret_cast<char*>(tagBytes), 8);
        if (in.gcount() != 8) break;
        const Tag tag = readTag(r, tagBytes);
        const std::size_t dataAt = offset + tag.header;
        if (tag.bytes > size - dataAt) r.bad(offset, "a variable runs past the end of the file", std::to_string(tag.bytes));
        if (tag.type == miMATRIX) {
            std::vector<std::uint8_t> head(std::min<std::size_t>(tag.bytes, 256));
            in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
            checkMatrix(r, head.data(), head.size(), tag.bytes, dataAt);
            offset = dataAt + padded(tag.bytes);
        } else if (tag.type == miCOMPRESSED) {
            std::vector<std::uint8_t> packed(tag.bytes);
            in.read(reinterpret_cast<char*>(packed.data()), static_cast<std::streamsize>(packed.size()));
            std::vector<std::uint8_t> inner;
            const std::size_t total = inflateElement(r, packed, dataAt, inner, 264, maxInflated);
            if (inner.size() < 8) r.bad(dataAt, "a compressed variable is empty");
            const Tag t = readTag(r, inner.data());
            if (t.type != miMATRIX || t.header != 8) r.bad(dataAt, "a compressed element does not hold a variable");
            if (total <= maxInflated && t.bytes > total - 8)
                r.bad(dataAt, "a compressed variable declares more bytes than it holds", std::to_string(t.bytes));
            checkMatrix(r, inner.data() + 8, inner.size() - 8, std::min<std::size_t>(t.bytes, total - 8), dataAt);
            offset = dataAt + tag.bytes;
        } else {
            offset = dataAt + (tag.header == 4 ? 4 : padded(tag.bytes));
        }
    }
}

namespace {

/// Bytes per element of a v4 precision digit P (double, single, int32, int16, uint16, uint8); 0 if invalid.
std::size_t mat4ElementBytes(std::uint32_t type)
{
    const std::uint32_t m = type / 1000, o = type / 100 % 10, p = type / 10 % 10, t = type % 10;
    if (m > 4 || o != 0 || t > 2) return 0;
    constexpr std::size_t bytes[6] = {8, 4, 4, 2, 2, 1};
    return p < 6 ? bytes[p] : 0;
}

} // namespace

void precheckMat4(const std::string& path)
{
    const std::uintmax_t size = fileSize(path);
    std::ifstream in(path, std::ios::binary);
    if (size >= 128) {  // a v5 / v7.3 header (endian indicator at 126): matio reads it as such, not as v4
        std::uint8_t header[128];
        in.read(reinterpret_cast<char*>(header), 128);
        if (in.gcount() == 128 && ((header[126] == 'I' && header[127] == 'M') || (header[126] == 'M' && header[127] == 'I')))
            return;
        in.clear();
    }
    std::uint8_t h[20];
    bool swap = false;
    for (std::size_t offset = 0; offset + 20 <= size;) {
        in.seekg(static_cast<std::streamoff>(offset));
        in.read(reinterpret_cast<char*>(h), 20);
        if (in.gcount() != 20) return;
        if (offset == 0) {  // the byte order whose type code is valid; neither: not v4, matio decides
            const Reader native{path, false}, swapped{path, true};
            if (mat4ElementBytes(native.u32(h)) == 0 || native.u32(h) > 4052) {
                if (mat4ElementBytes(swapped.u32(h)) == 0 || swapped.u32(h) > 4052) return;
                swap = true;
            }
        }
        const Reader r{path, swap};
        const std::uint32_t type = r.u32(h), rows = r.u32(h + 4), cols = r.u32(h + 8), imag = r.u32(h + 12),
                            nameLength = r.u32(h + 16);
        const std::size_t element = mat4ElementBytes(type);
        if (element == 0 || type > 4052) r.bad(offset, "not a valid MAT v4 type code", std::to_string(type));
        if (type % 10 != 0)  // text or sparse: matio sizes a sparse read from the row count alone
            r.bad(offset, "only full numeric MAT v4 matrices are supported", std::to_string(type));
        if (rows > 0x7fffffffu || cols > 0x7fffffffu)
            r.bad(offset, "negative dimensions in a MAT v4 header", std::to_string(int(rows)) + " x " + std::to_string(int(cols)));
        const std::uintmax_t left = size - offset - 20;
        if (nameLength < 1 || nameLength > kMaxName || nameLength > left)
            r.bad(offset + 16, "the variable name length does not fit in the file", std::to_string(nameLength));
        __extension__ typedef unsigned __int128 Wide;  // a GCC/Clang extension, and -Wpedantic knows it
        const Wide data = static_cast<Wide>(rows) * cols * element * (imag != 0 ? 2u : 1u);
        if (data > left - nameLength)
            r.bad(offset + 4, "the variable's data (rows x columns) runs past the end of the file",
                  std::to_string(rows) + " x " + std::to_string(cols));
        offset += 20 + nameLength + static_cast<std::size_t>(data);
    }
}

} // namespace orbit::data
