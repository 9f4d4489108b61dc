#include "orbit/models/Npz.hpp"

#include "data/LoaderSupport.hpp"
#include "orbit/data/Loaders.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <set>

namespace orbit {

static_assert(std::endian::native == std::endian::little, "the .npz reader and writer assume a little-endian host");

namespace {

constexpr std::uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEndOfDirectory = 0x06054b50,
                        kZip64EndOfDirectory = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr std::uint64_t kZipLimit = 0xffffffffULL;
constexpr std::uint64_t kDeflateMaxRatio = 1032;  // deflate's largest inflated / compressed size
constexpr std::uint16_t kZip64Extra = 0x0001;
constexpr std::uint16_t kDosDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01

// ---- little-endian bytes ---------------------------------------------------------------------

void put16(std::string& out, std::uint16_t v) { out.append({char(v & 0xff), char(v >> 8)}); }

void put32(std::string& out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}

std::uint64_t getLE(const std::string& bytes, std::size_t at, int width)
{
    std::uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + std::size_t(i)]);
    return v;
}

// ---- UTF-8 <-> UTF-32 (the '<U' dtype) -------------------------------------------------------

std::u32string toUtf32(const std::string& s)
{
    std::u32string out;
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        char32_t cp = extra <= 0 ? c : c & (0x3f >> extra);
        bool ok = extra >= 0 && i + std::size_t(extra) < s.size();
        for (int k = 1; ok && k <= extra; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + std::size_t(k)]);
            ok = (cc >> 6) == 2;
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (!ok || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            out.push_back(0xfffd);  // not UTF-8: the replacement character
            ++i;
            continue;
        }
        out.push_back(cp);
        i += std::size_t(extra) + 1;
    }
    return out;
}

/// UTF-8 of one code point; false for one that is not a character (NumPy never writes such).
bool appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    const int extra = cp < 0x80 ? 0 : cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;  // continuation bytes
    static constexpr std::uint32_t lead[] = {0x00, 0xc0, 0xe0, 0xf0};
    out.push_back(char(lead[extra] | (cp >> (6 * extra))));
    for (int k = extra - 1; k >= 0; --k) out.push_back(char(0x80 | ((cp >> (6 * k)) & 0x3f)));
    return true;
}

// ---- .npy ------------------------------------------------------------------------------------

std::string descrOf(const NpyArray& a, std::size_t& itemBytes, std::vector<std::u32string>& wide)
{
    switch (a.type) {
    case NpyArray::Type::Float32: itemBytes = 4; return "<f4";
    case NpyArray::Type::Float64: itemBytes = 8; return "<f8";
    case NpyArray::Type::Int64: itemBytes = 8; return "<i8";
    case NpyArray::Type::UInt64: itemBytes = 8; return "<u8";
    case NpyArray::Type::Text: {
        std::size_t width = 1;
        for (const std::string& s : a.text) {
            wide.push_back(toUtf32(s));
            width = std::max(width, wide.back().size());
        }
        itemBytes = 4 * width;
        return "<U" + std::to_string(width);
    }
    }
    throw ContractError("encodeNpz", "unknown array type");
}

std::string npyBytes(const NpyArray& a, const std::string& name)
{
    if (a.size() != (a.type == NpyArray::Type::Float32   ? a.f32.size()
                     : a.type == NpyArray::Type::Float64 ? a.f64.size()
                     : a.type == NpyArray::Type::Int64   ? a.i64.size()
                     : a.type == NpyArray::Type::UInt64  ? a.u64.size()
                                                         : a.text.size()))
        throw ContractError("encodeNpz", "array " + name + " holds another number of values than its shape says");
    std::size_t item = 0;
    std::vector<std::u32string> wide;
    const std::string descr = descrOf(a, item, wide);
    std::string shape;
    for (std::size_t i = 0; i < a.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape[i]);
    shape = "(" + shape + (a.shape.size() == 1 ? ",)" : ")");
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const std::size_t preamble = 10;
    const std::size_t total = ((preamble + header.size() + 1 + 63) / 64) * 64;
    header.append(total - preamble - header.size() - 1, ' ');
    header.push_back('\n');
    std::string out = std::string("\x93NUMPY", 6);
    out.push_back(char(1));
    out.push_back(char(0));
    put16(out, std::uint16_t(header.size()));
    out += header;
    const std::size_t start = out.size();
    out.resize(start + item * a.size());
    char* p = out.data() + start;
    if (a.size() == 0) return out;  // an empty array has no data (its vectors may hold nullptr)
    switch (a.type) {
    case NpyArray::Type::Float32: std::memcpy(p, a.f32.data(), 4 * a.f32.size()); break;
    case NpyArray::Type::Float64: std::memcpy(p, a.f64.data(), 8 * a.f64.size()); break;
    case NpyArray::Type::Int64: std::memcpy(p, a.i64.data(), 8 * a.i64.size()); break;
    case NpyArray::Type::UInt64: std::memcpy(p, a.u64.data(), 8 * a.u64.size()); break;
    case NpyArray::Type::Text:
        std::memset(p, 0, item * a.size());
        for (std::size_t i = 0; i < wide.size(); ++i)
            for (std::size_t k = 0; k < wide[i].size(); ++k) {
                const std::uint32_t cp = wide[i][k];
                std::memcpy(p + i * item + 4 * k, &cp, 4);
            }
        break;
    }
    return out;
}

/// The reader of one member: errors name the archive and the member.
class NpyReader {
public:
    NpyReader(const std::string& file, std::string member) : file_(file), member_("member " + std::move(member)) {}

    NpyArray read(const std::string& b) const
    {
        if (b.size() < 10 || b.compare(0, 6, std::string("\x93NUMPY", 6)) != 0)
            fail(LoadErrorKind::BadMagic, "not a .npy array (no \\x93NUMPY magic)");
        const int major = static_cast<unsigned char>(b[6]);
        if (major < 1 || major > 3) fail(LoadErrorKind::BadShape, "a .npy format version this reader does not know", std::to_string(major));
        const std::size_t lenBytes = major == 1 ? 2 : 4;
        if (b.size() < 8 + lenBytes) fail(LoadErrorKind::Truncated, "the .npy header is cut short");
        const std::size_t hlen = std::size_t(getLE(b, 8, int(lenBytes)));
        const std::size_t dataAt = 8 + lenBytes + hlen;
        if (dataAt > b.size()) fail(LoadErrorKind::Truncated, "the .npy header is cut short");
        const std::string header = b.substr(8 + lenBytes, hlen);
        const std::string descr = quoted(header, "descr");
        const bool fortran = word(header, "fortran_order") == "True";
        NpyArray a;
        a.shape = shapeOf(header);
        std::size_t n = 1;
        for (long long d : a.shape) {
            if (d < 0) fail(LoadErrorKind::BadShape, "a negative dimension in the shape", header);
            n = data::checkedProduct({n, std::size_t(d)});
        }
        std::size_t item = 0;
        enum class Raw { F4, F8, I8, I4, U8, U1, B1, U } raw;
        if (descr == "<f4") raw = Raw::F4, item = 4;
        else if (descr == "<f8") raw = Raw::F8, item = 8;
        else if (descr == "<i8") raw = Raw::I8, item = 8;
        else if (descr == "<i4") raw = Raw::I4, item = 4;
        else if (descr == "<u8") raw = Raw::U8, item = 8;
        else if (descr == "|u1") raw = Raw::U1, item = 1;
        else if (descr == "|b1") raw = Raw::B1, item = 1;
        else if (descr.size() > 2 && descr.compare(0, 2, "<U") == 0) {
            raw = Raw::U;
            const auto width = parseInteger(descr.substr(2));
            if (!width || *width < 1 || *width > (1 << 20)) fail(LoadErrorKind::BadShape, "a text width this reader does not take", descr);
            item = 4 * std::size_t(*width);
        } else {
            fail(LoadErrorKind::BadShape, "a dtype saved models do not use (float32, float64, int64, uint64, text)", descr);
        }
        const std::size_t need = data::checkedProduct({n, item});
        if (need == std::numeric_limits<std::size_t>::max() || b.size() - dataAt < need)
            fail(LoadErrorKind::Truncated, "the array's data are cut short (" + std::to_string(b.size() - dataAt) + " bytes of " +
                                               std::to_string(need) + ")");
        const char* p = b.data() + dataAt;
        // Values in C order: a Fortran-ordered array (2-d or more) is read with its index reversed.
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        if (fortran && a.shape.size() > 1) fortranToC(a.shape, order);
        switch (raw) {
        case Raw::F4: a.type = NpyArray::Type::Float32; a.f32.resize(n); for (std::size_t i = 0; i < n; ++i) std::memcpy(&a.f32[i], p + 4 * order[i], 4); break;
        case Raw::F8: a.type = NpyArray::Type::Float64; a.f64.resize(n); for (std::size_t i = 0; i < n; ++i) std::memcpy(&a.f64[i], p + 8 * order[i], 8); break;
        case Raw::I8: a.type = NpyArray::Type::Int64; a.i64.resize(n); for (std::size_t i = 0; i < n; ++i) std::memcpy(&a.i64[i], p + 8 * order[i], 8); break;
        case Raw::U8: a.type = NpyArray::Type::UInt64; a.u64.resize(n); for (std::size_t i = 0; i < n; ++i) std::memcpy(&a.u64[i], p + 8 * order[i], 8); break;
        case Raw::I4:
            a.type = NpyArray::Type::Int64;
            a.i64.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                std::int32_t v = 0;
                std::memcpy(&v, p + 4 * order[i], 4);
                a.i64[i] = v;
            }
            break;
        case Raw::U1:
        case Raw::B1:
            a.type = NpyArray::Type::Int64;
            a.i64.resize(n);
            for (std::size_t i = 0; i < n; ++i) a.i64[i] = static_cast<unsigned char>(p[order[i]]);
            break;
        case Raw::U:
            a.type = NpyArray::Type::Text;
            a.text.resize(n);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t k = 0; k < item / 4; ++k) {
                    std::uint32_t cp = 0;
                    std::memcpy(&cp, p + item * order[i] + 4 * k, 4);
                    if (cp == 0) break;
                    if (!appendUtf8(a.text[i], cp)) fail(LoadErrorKind::BadValue, "text that is not unicode", std::to_string(cp));
                }
            break;
        }
        return a;
    }

private:
    [[noreturn]] void fail(LoadErrorKind kind, const std::string& detail, const std::string& value = {}) const
    {
        data::fail(kind, file_, member_, detail, value);
    }

    /// The text after `'key':` up to the next comma at depth 0 (or the closing brace), trimmed.
    std::string word(const std::string& header, const std::string& key) const
    {
        const auto at = header.find("'" + key + "'");
        if (at == std::string::npos) fail(LoadErrorKind::BadShape, "the .npy header has no '" + key + "'", header);
        auto colon = header.find(':', at);
        if (colon == std::string::npos) fail(LoadErrorKind::BadShape, "the .npy header is malformed", header);
        std::size_t end = colon + 1;
        int depth = 0;
        while (end < header.size() && !(depth == 0 && (header[end] == ',' || header[end] == '}'))) {
            if (header[end] == '(') ++depth;
            if (header[end] == ')') --depth;
            ++end;
        }
        return trim(header.substr(colon + 1, end - colon - 1));
    }

    std::string quoted(const std::string& header, const std::string& key) const
    {
        const std::string w = word(header, key);
        if (w.size() < 2 || (w.front() != '\'' && w.front() != '"') || w.back() != w.front())
            fail(LoadErrorKind::BadShape, "the .npy header's " + key + " is not a string", w);
        return w.substr(1, w.size() - 2);
    }

    std::vector<long long> shapeOf(const std::string& header) const
    {
        const std::string w = word(header, "shape");
        if (w.size() < 2 || w.front() != '(' || w.back() != ')') fail(LoadErrorKind::BadShape, "the .npy header's shape is not a tuple", w);
        std::vector<long long> shape;
        for (const std::string& part : split(w.substr(1, w.size() - 2), ',')) {
            const std::string t = trim(part);
            if (t.empty()) continue;
            const auto v = parseInteger(t);
            if (!v) fail(LoadErrorKind::BadShape, "the .npy header's shape has a dimension that is not an integer", t);
            shape.push_back(*v);
        }
        return shape;
    }

    static void fortranToC(const std::vector<long long>& shape, std::vector<std::size_t>& order)
    {
        // Element i in C order has index (i_0, .., i_k); in Fortran order it sits at
        // i_0 + s_0 (i_1 + s_1 (...)).
        const std::size_t k = shape.size();
        std::vector<std::size_t> idx(k, 0);
        for (std::size_t i = 0; i < order.size(); ++i) {
            std::size_t f = 0;
            for (std::size_t d = k; d-- > 0;) f = f * std::size_t(shape[d]) + idx[d];
            order[i] = f;
            for (std::size_t d = k; d-- > 0;) {
                if (++idx[d] < std::size_t(shape[d])) break;
                idx[d] = 0;
            }
        }
    }

    const std::string& file_;
    std::string member_;
};

// ---- zip ------------------------------------------------------------------------------------

struct Member {
    std::string name;
    std::uint16_t method = 0;
    std::uint32_t crc = 0;
    std::uint64_t compressed = 0, size = 0, localOffset = 0;
};

std::string inflateRaw(const std::string& in, std::size_t size, const std::string& file, const std::string& member)
{
    std::string out(size, '\0');
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw ContractError("decodeNpz", "zlib could not start");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&z, Z_FINISH);
    const std::size_t produced = out.size() - z.avail_out;
    inflateEnd(&z);
    if (status != Z_STREAM_END || produced != size)
        data::fail(status == Z_BUF_ERROR ? LoadErrorKind::Truncated : LoadErrorKind::BadValue, file, "member " + member,
                   "its compressed data do not inflate to the size the archive states (damaged or altered)");
    return out;
}

} // namespace

std::size_t NpyArray::size() const
{
    std::size_t n = 1;
    for (long long d : shape) n *= std::size_t(d);
    return n;
}

const char* NpyArray::typeName() const
{
    switch (type) {
    case Type::Float32: return "float32";
    case Type::Float64: return "float64";
    case Type::Int64: return "int64";
    case Type::UInt64: return "uint64";
    case Type::Text: return "text";
    }
    return "?";
}

namespace {

/// An array of one type from its values: 0-d for one value (`scalar`), else 1-d.
template <class T>
NpyArray valuesOf(NpyArray::Type type, std::vector<T> NpyArray::*member, std::vector<T> values, bool scalar)
{
    NpyArray a;
    a.type = type;
    if (!scalar) a.shape = {static_cast<long long>(values.size())};
    a.*member = std::move(values);
    return a;
}

} // namespace

NpyArray NpyArray::number(double v) { return valuesOf(Type::Float64, &NpyArray::f64, std::vector<double>{v}, true); }
NpyArray NpyArray::integer(std::int64_t v) { return valuesOf(Type::Int64, &NpyArray::i64, std::vector<std::int64_t>{v}, true); }
NpyArray NpyArray::unsignedInteger(std::uint64_t v) { return valuesOf(Type::UInt64, &NpyArray::u64, std::vector<std::uint64_t>{v}, true); }
NpyArray NpyArray::string(const std::string& v) { return valuesOf(Type::Text, &NpyArray::text, std::vector<std::string>{v}, true); }
NpyArray NpyArray::strings(const std::vector<std::string>& v) { return valuesOf(Type::Text, &NpyArray::text, v, false); }
NpyArray NpyArray::integers(const std::vector<std::int64_t>& v) { return valuesOf(Type::Int64, &NpyArray::i64, v, false); }
NpyArray NpyArray::numbers(const std::vector<double>& v) { return valuesOf(Type::Float64, &NpyArray::f64, v, false); }

NpyArray NpyArray::matrix(const MatrixXfR& m)
{
    NpyArray a;
    a.type = Type::Float32;
    a.shape = {m.rows(), m.cols()};
    a.f32.assign(m.data(), m.data() + m.size());
    return a;
}

NpyArray NpyArray::matrix(const Eigen::MatrixXd& m)
{
    NpyArray a;
    a.type = Type::Float64;
    a.shape = {m.rows(), m.cols()};
    a.f64.resize(std::size_t(m.size()));
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) a.f64[std::size_t(i * m.cols() + j)] = m(i, j);
    return a;
}

std::string encodeNpz(const NpzArchive& arrays)
{
    std::string out, directory;
    std::set<std::string> names;
    for (const auto& [name, array] : arrays) {
        if (name.empty() || name.find('/') != std::string::npos || !names.insert(name).second)
            throw ContractError("encodeNpz", "array names must be distinct, non-empty and without '/': " + name);
        const std::string file = name + ".npy";
        const std::string data = npyBytes(array, name);
        if (data.size() >= kZipLimit || out.size() >= kZipLimit)
            throw SpecError("output", "a saved model larger than 4 GiB is not written", name);
        const auto crc = static_cast<std::uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
        const auto offset = static_cast<std::uint32_t>(out.size());
        auto common = [&](std::string& s) {
            put16(s, 20);  // version needed: 2.0
            put16(s, 0);   // flags
            put16(s, 0);   // stored
            put16(s, 0);   // time 00:00
            put16(s, kDosDate1980);
            put32(s, crc);
            put32(s, static_cast<std::uint32_t>(data.size()));
            put32(s, static_cast<std::uint32_t>(data.size()));
            put16(s, static_cast<std::uint16_t>(file.size()));
            put16(s, 0);  // extra
        };
        put32(out, kLocalHeader);
        common(out);
        out += file;
        out += data;
        put32(directory, kCentralHeader);
        put16(directory, (3 << 8) | 20);  // made by: Unix, 2.0
        common(directory);
        put16(directory, 0);  // comment
        put16(directory, 0);  // disk
        put16(directory, 0);  // internal attributes
        put32(directory, 0644u << 16);
        put32(directory, offset);
        directory += file;
    }
    if (out.size() + directory.size() >= kZipLimit) throw SpecError("output", "a saved model larger than 4 GiB is not written");
    const auto directoryAt = static_cast<std::uint32_t>(out.size());
    out += directory;
    put32(out, kEndOfDirectory);
    put16(out, 0);
    put16(out, 0);
    put16(out, static_cast<std::uint16_t>(arrays.size()));
    put16(out, static_cast<std::uint16_t>(arrays.size()));
    put32(out, static_cast<std::uint32_t>(directory.size()));
    put32(out, directoryAt);
    put16(out, 0);
    return out;
}

NpzArchive decodeNpz(const std::string& b, const std::string& file)
{
    using data::fail;
    auto need = [&](std::uint64_t at, std::uint64_t n, const std::string& where) {
        if (at > b.size() || n > b.size() - at)
            fail(LoadErrorKind::Truncated, file, where, "the file ends before the archive's records do (cut short?)");
    };
    if (b.size() < 4 || (getLE(b, 0, 4) != kLocalHeader && getLE(b, 0, 4) != kEndOfDirectory))
        fail(LoadErrorKind::BadMagic, file, "", "not a .npz archive (no zip header)");
    if (b.size() < 22)
        fail(LoadErrorKind::Truncated, file, "", "the archive is cut short (" + std::to_string(b.size()) + " bytes)");
    // The end-of-directory record: the last 22 bytes, or before a comment of at most 65535 bytes.
    std::size_t end = std::string::npos;
    for (std::size_t at = b.size() - 22 + 1; at-- > 0 && b.size() - at <= 22 + 65535;)
        if (getLE(b, at, 4) == kEndOfDirectory) {
            end = at;
            break;
        }
    if (end == std::string::npos)
        fail(LoadErrorKind::Truncated, file, "end of archive", "no zip directory at the end (the file is cut short?)");
    std::uint64_t count = getLE(b, end + 10, 2), dirSize = getLE(b, end + 12, 4), dirAt = getLE(b, end + 16, 4);
    if ((count == 0xffff || dirSize == kZipLimit || dirAt == kZipLimit) && end >= 20 && getLE(b, end - 20, 4) == kZip64Locator) {
        const std::uint64_t at = getLE(b, end - 20 + 8, 8);
        need(at, 56, "end of archive");
        if (getLE(b, at, 4) != kZip64EndOfDirectory) fail(LoadErrorKind::BadMagic, file, "end of archive", "a broken zip64 record");
        count = getLE(b, at + 32, 8);
        dirSize = getLE(b, at + 40, 8);
        dirAt = getLE(b, at + 48, 8);
    }
    need(dirAt, dirSize, "zip directory");
    std::vector<Member> members;
    std::uint64_t at = dirAt;
    for (std::uint64_t i = 0; i < count; ++i) {
        need(at, 46, "zip directory");
        if (getLE(b, at, 4) != kCentralHeader) fail(LoadErrorKind::BadValue, file, "zip directory", "a damaged directory entry");
        Member m;
        m.method = std::uint16_t(getLE(b, at + 10, 2));
        m.crc = std::uint32_t(getLE(b, at + 16, 4));
        m.compressed = getLE(b, at + 20, 4);
        m.size = getLE(b, at + 24, 4);
        const std::uint64_t nameLen = getLE(b, at + 28, 2), extraLen = getLE(b, at + 30, 2), commentLen = getLE(b, at + 32, 2);
        m.localOffset = getLE(b, at + 42, 4);
        need(at + 46, nameLen + extraLen + commentLen, "zip directory");
        m.name = b.substr(std::size_t(at + 46), std::size_t(nameLen));
        // zip64: the sizes and the offset that did not fit, in this order, in extra field 0x0001.
        for (std::uint64_t e = at + 46 + nameLen; e + 4 <= at + 46 + nameLen + extraLen;) {
            const auto id = std::uint16_t(getLE(b, std::size_t(e), 2));
            const std::uint64_t len = getLE(b, std::size_t(e + 2), 2);
            if (id == kZip64Extra) {
                std::uint64_t p = e + 4;
                auto take = [&](std::uint64_t& v) {
                    if (v == kZipLimit && p + 8 <= e + 4 + len) {
                        v = getLE(b, std::size_t(p), 8);
                        p += 8;
                    }
                };
                take(m.size);
                take(m.compressed);
                take(m.localOffset);
            }
            e += 4 + len;
        }
        members.push_back(m);
        at += 46 + nameLen + extraLen + commentLen;
    }
    // Each member's bytes are its own: members whose records and data overlap (one deflated stream
    // claimed by many names, a zip bomb) would inflate the same bytes again and again.
    const std::uint64_t limit = loadMemoryLimit(std::size_t(8) << 30);
    std::uint64_t claimed = 0, inflated = 0;
    for (const Member& m : members) {
        claimed += 30 + m.name.size() + std::min<std::uint64_t>(m.compressed, b.size() + 1);  // no wrap-around
        inflated += std::min<std::uint64_t>(m.size, limit + 1);
        if (claimed > b.size())
            fail(LoadErrorKind::BadValue, file, "member " + m.name, "members that overlap: more data than the file holds (damaged or altered)");
        if (inflated > limit)
            fail(LoadErrorKind::TooLarge, file, "member " + m.name, "the members together are larger than this machine's load memory limit",
                 std::to_string(inflated));
    }
    NpzArchive arrays;
    std::set<std::string> seen;
    for (const Member& m : members) {
        const std::string where = "member " + m.name;
        if (m.name.size() < 5 || m.name.compare(m.name.size() - 4, 4, ".npy") != 0)
            fail(LoadErrorKind::BadMagic, file, where, "not a .npy member");
        need(m.localOffset, 30, where);
        if (getLE(b, std::size_t(m.localOffset), 4) != kLocalHeader) fail(LoadErrorKind::BadValue, file, where, "a damaged zip header");
        const std::uint64_t dataAt = m.localOffset + 30 + getLE(b, std::size_t(m.localOffset + 26), 2) + getLE(b, std::size_t(m.localOffset + 28), 2);
        need(dataAt, m.compressed, where);
        if (m.size > loadMemoryLimit(std::size_t(8) << 30))
            fail(LoadErrorKind::TooLarge, file, where, "larger than this machine's load memory limit", std::to_string(m.size));
        // Deflate holds at most 1032 bytes per byte (258-byte matches of one bit each): a larger
        // stated size is damage, and is refused before the inflated buffer is allocated.
        if (m.method == 8 && m.size / kDeflateMaxRatio > m.compressed)
            fail(LoadErrorKind::BadValue, file, where, "a stated size its compressed data cannot inflate to (damaged or altered)",
                 std::to_string(m.size));
        std::string content = b.substr(std::size_t(dataAt), std::size_t(m.compressed));
        if (m.method == 8)
            content = inflateRaw(content, std::size_t(m.size), file, m.name);
        else if (m.method != 0)
            fail(LoadErrorKind::BadShape, file, where, "a zip compression method other than stored or deflate", std::to_string(m.method));
        else if (m.size != m.compressed)
            fail(LoadErrorKind::BadValue, file, where, "stored sizes that disagree (damaged or altered)");
        const auto crc = static_cast<std::uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(content.data()), static_cast<uInt>(content.size())));
        if (crc != m.crc)
            fail(LoadErrorKind::BadValue, file, where, "its CRC-32 does not match its data (the file is damaged or was altered)");
        const std::string name = m.name.substr(0, m.name.size() - 4);
        if (!seen.insert(name).second) fail(LoadErrorKind::BadValue, file, where, "the archive holds this member twice");
        arrays.emplace_back(name, NpyReader(file, m.name).read(content));
    }
    return arrays;
}

void writeNpz(const std::string& path, const NpzArchive& arrays)
{
    const std::string bytes = encodeNpz(arrays);
    const std::string part = path + ".part";
    {
        std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(part.c_str(), "wb"), &std::fclose);
        if (!f) throw SpecError("output", "cannot open for writing", path);
        const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f.get()) == bytes.size() && std::fflush(f.get()) == 0;
        if (!ok || std::fclose(f.release()) != 0) {
            std::remove(part.c_str());
            throw SpecError("output", "write failed", path);
        }
    }
    std::error_code ec;
    std::filesystem::rename(part, path, ec);
    if (ec) {
        std::remove(part.c_str());
        throw SpecError("output", "cannot replace the file (" + ec.message() + ")", path);
    }
}

NpzArchive readNpz(const std::string& path)
{
    data::requireFile(path);
    const std::uintmax_t size = data::fileSize(path);
    data::checkMemory(path, "", std::size_t(size), loadMemoryLimit(std::size_t(8) << 30), "the archive");
    std::ifstream in(path, std::ios::binary);
    if (!in) data::fail(LoadErrorKind::FileNotFound, path, "", "cannot open");
    std::string bytes(std::size_t(size), '\0');
    in.read(bytes.data(), std::streamsize(size));
    if (std::size_t(in.gcount()) != size) data::fail(LoadErrorKind::Changed, path, "", "the file changed while it was read");
    return decodeNpz(bytes, path);
}

} // namespace orbit
