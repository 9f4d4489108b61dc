#include "orbit/features/MatrixIo.hpp"

#include "orbit/util/Error.hpp"

#include <bit>
#include <cstdio>
#include <fstream>
#include <memory>

namespace orbit {

namespace {

std::string extension(const std::string& path)
{
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string e = path.substr(dot + 1);
    for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
    return e;
}

template <class M>
void writeCsvImpl(const std::string& path, const M& m, int digits)
{
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
    if (!f) throw SpecError("output", "cannot open for writing", path);
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            std::fprintf(f.get(), j ? ",%.*g" : "%.*g", digits, double(m(i, j)));
        std::fputc('\n', f.get());
    }
    if (std::ferror(f.get())) throw SpecError("output", "write failed", path);
}

} // namespace

void writeNpy(const std::string& path, const MatrixXfR& M)
{
    static_assert(std::endian::native == std::endian::little, "the .npy writer assumes a little-endian host");
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(M.rows()) + ", " +
                         std::to_string(M.cols()) + "), }";
    const std::size_t preamble = 10;  // magic (6) + version (2) + header length (2)
    const std::size_t total = ((preamble + header.size() + 1 + 63) / 64) * 64;
    header.append(total - preamble - header.size() - 1, ' ');
    header.push_back('\n');
    std::ofstream out(path, std::ios::binary);
    if (!out) throw SpecError("output", "cannot open for writing", path);
    const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    out.write(reinterpret_cast<const char*>(magic), 8);
    const std::uint16_t len = static_cast<std::uint16_t>(header.size());
    const unsigned char lenBytes[2] = {static_cast<unsigned char>(len & 0xff), static_cast<unsigned char>(len >> 8)};
    out.write(reinterpret_cast<const char*>(lenBytes), 2);
    out.write(header.data(), std::streamsize(header.size()));
    out.write(reinterpret_cast<const char*>(M.data()), std::streamsize(sizeof(float) * M.size()));
    if (!out) throw SpecError("output", "write failed", path);
}

void writeCsv(const std::string& path, const MatrixXfR& M) { writeCsvImpl(path, M, 9); }
void writeCsv(const std::string& path, const Eigen::MatrixXd& M) { writeCsvImpl(path, M, 17); }

void writeMatrix(const std::string& path, const MatrixXfR& M)
{
    const std::string e = extension(path);
    if (e == "npy") return writeNpy(path, M);
    if (e == "csv") return writeCsv(path, M);
    throw SpecError("output", "unknown output extension (use .npy or .csv)", path);
}

} // namespace orbit
