#include "data/ByteSource.hpp"

#include "data/LoaderSupport.hpp"
#include "orbit/util/Error.hpp"

#include <algorithm>
#include <fstream>
#include <string>
#include <zlib.h>

namespace orbit::data {

namespace {
constexpr std::size_t kChunk = std::size_t(1) << 24;  // 16 MiB per gzread call and per growth step
}

ByteSource::ByteSource(const std::string& path)
    : path_(path)
{
    gz_ = gzopen(path.c_str(), "rb");
    if (!gz_) fail(LoadErrorKind::FileNotFound, path, {}, "cannot be opened for reading");
    gzbuffer(static_cast<gzFile>(gz_), 1 << 17);
    std::ifstream raw(path, std::ios::binary);
    unsigned char m[2] = {0, 0};
    raw.read(reinterpret_cast<char*>(m), 2);
    compressed_ = raw.gcount() == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

ByteSource::~ByteSource()
{
    if (gz_) gzclose(static_cast<gzFile>(gz_));
}

std::size_t ByteSource::read(void* dst, std::size_t n)
{
    auto* out = static_cast<unsigned char*>(dst);
    std::size_t done = 0;
    while (done < n) {
        const unsigned ask = static_cast<unsigned>(std::min<std::size_t>(n - done, kChunk));
        const int got = gzread(static_cast<gzFile>(gz_), out + done, ask);
        if (got < 0) {
            int errnum = 0;
            const char* msg = gzerror(static_cast<gzFile>(gz_), &errnum);
            fail(LoadErrorKind::Truncated, path_, "compressed data",
                 std::string("the gzip stream is corrupt: ") + (msg ? msg : "zlib error"));
        }
        if (got == 0) break;
        done += static_cast<std::size_t>(got);
    }
    return done;
}

void ByteSource::skip(std::size_t n)
{
    if (compressed_) throw ContractError("ByteSource::skip", "a compressed stream is read through, not skipped: " + path_);
    if (gzseek(static_cast<gzFile>(gz_), static_cast<z_off_t>(n), SEEK_CUR) < 0)
        fail(LoadErrorKind::Truncated, path_, {}, "cannot move " + std::to_string(n) + " bytes forward in the file");
}

std::size_t ByteSource::readInto(std::vector<std::uint8_t>& out, std::size_t n)
{
    out.clear();
    std::size_t done = 0;
    while (done < n) {
        const std::size_t step = std::min(n - done, kChunk);
        out.resize(done + step);
        const std::size_t got = read(out.data() + done, step);
        done += got;
        if (got < step) break;
    }
    out.resize(done);
    return done;
}

std::vector<std::uint8_t> peekBytes(const std::string& path, std::size_t n)
{
    std::vector<std::uint8_t> bytes(n);
    if (n == 0) return bytes;
    gzFile gz = gzopen(path.c_str(), "rb");
    if (!gz) return {};
    const int got = gzread(gz, bytes.data(), static_cast<unsigned>(n));
    gzclose(gz);
    bytes.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    return bytes;
}

std::uint32_t bigEndian32(const std::uint8_t* p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

} // namespace orbit::data
