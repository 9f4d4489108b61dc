#include "orbit/features/MatrixIo.hpp"

#include "orbit/util/Error.hpp"

#include <bit>
#include <filesystem>
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

namespace {

MatrixRowWriter::Format formatOf(const std::string& path)
{
    const std::string e = extension(path);
    if (e == "npy") return MatrixRowWriter::Format::Npy;
    if (e == "csv") return MatrixRowWriter::Format::Csv;
    throw SpecError("output", "unknown output extension (use .npy or .csv)", path);
}

} // namespace

MatrixRowWriter::MatrixRowWriter(const std::string& path, Eigen::Index rows, Eigen::Index cols)
    : MatrixRowWriter(path, rows, cols, formatOf(path))
{
}

MatrixRowWriter::MatrixRowWriter(const std::string& path, Eigen::Index rows, Eigen::Index cols, Format format)
    : path_(path), npy_(format == Format::Npy), rows_(rows), cols_(cols)
{
    static_assert(std::endian::native == std::endian::little, "the .npy writer assumes a little-endian host");
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    const bool special = !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
    writing_ = special ? path : path + ".part";
    file_.reset(std::fopen(writing_.c_str(), npy_ ? "wb" : "w"));
    if (!file_) throw SpecError("output", "cannot open for writing", path);
    if (!npy_) return;
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                         std::to_string(cols) + "), }";
    const std::size_t preamble = 10;  // magic (6) + version (2) + header length (2)
    const std::size_t total = ((preamble + header.size() + 1 + 63) / 64) * 64;
    header.append(total - preamble - header.size() - 1, ' ');
    header.push_back('\n');
    const auto len = static_cast<std::uint16_t>(header.size());
    const unsigned char start[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(len & 0xff),
                                     static_cast<unsigned char>(len >> 8)};
    std::fwrite(start, 1, sizeof start, file_.get());
    std::fwrite(header.data(), 1, header.size(), file_.get());
}

void MatrixRowWriter::append(const MatrixXfR& rows)
{
    if (!file_) throw ContractError("MatrixRowWriter", "append after finish");
    if (rows.rows() == 0) return;
    requireSize("MatrixRowWriter", "columns", rows.cols(), cols_);
    if (written_ + rows.rows() > rows_)
        throw ContractError("MatrixRowWriter", std::to_string(written_ + rows.rows()) + " rows of " + std::to_string(rows_));
    if (npy_) {
        std::fwrite(rows.data(), sizeof(float), static_cast<std::size_t>(rows.size()), file_.get());
    } else {
        for (Eigen::Index i = 0; i < rows.rows(); ++i) {
            for (Eigen::Index j = 0; j < rows.cols(); ++j) std::fprintf(file_.get(), j ? ",%.*g" : "%.*g", 9, double(rows(i, j)));
            std::fputc('\n', file_.get());
        }
    }
    written_ += rows.rows();
}

MatrixRowWriter::~MatrixRowWriter()
{
    if (!file_) return;  // finished (or never opened)
    file_.reset();
    if (writing_ != path_) {
        std::error_code ec;
        std::filesystem::remove(writing_, ec);  // a half-written part file goes; the destination stays
    }
}

void MatrixRowWriter::finish()
{
    if (!file_) return;
    requireSize("MatrixRowWriter", "rows written", written_, rows_);
    const bool failed = std::ferror(file_.get()) != 0;
    FILE* f = file_.release();
    const bool closed = std::fclose(f) == 0;
    std::error_code ec;
    if (!closed || failed) {
        if (writing_ != path_) std::filesystem::remove(writing_, ec);
        throw SpecError("output", "write failed", path_);
    }
    if (writing_ == path_) return;
    std::filesystem::rename(writing_, path_, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(writing_, ignored);
        throw SpecError("output", "cannot write: " + ec.message(), path_);
    }
}

void writeNpy(const std::string& path, const MatrixXfR& M)
{
    MatrixRowWriter w(path, M.rows(), M.cols(), MatrixRowWriter::Format::Npy);
    w.append(M);
    w.finish();
}

void writeCsv(const std::string& path, const MatrixXfR& M)
{
    MatrixRowWriter w(path, M.rows(), M.cols(), MatrixRowWriter::Format::Csv);
    w.append(M);
    w.finish();
}
void writeCsv(const std::string& path, const Eigen::MatrixXd& M) { writeCsvImpl(path, M, 17); }

void writeMatrix(const std::string& path, const MatrixXfR& M)
{
    const std::string e = extension(path);
    if (e == "npy") return writeNpy(path, M);
    if (e == "csv") return writeCsv(path, M);
    throw SpecError("output", "unknown output extension (use .npy or .csv)", path);
}

} // namespace orbit
