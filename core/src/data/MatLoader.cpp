// QM7 .mat (MATLAB v5, read with matio): X (N x n x n Coulomb matrices), T (1 x N energies),
// optional P (folds x N/folds indices), Z (N x n charges), R (N x n x 3 positions).
#include "data/LoaderSupport.hpp"
#include "data/MatPrecheck.hpp"
#include "orbit/util/Error.hpp"

#include <matio.h>

#include <cmath>
#include <memory>
#include <mutex>

namespace orbit {

using namespace orbit::data;

namespace {

struct MatCloser {
    void operator()(mat_t* m) const { Mat_Close(m); }
};
struct VarFreer {
    void operator()(matvar_t* v) const { Mat_VarFree(v); }
};
using MatFile = std::unique_ptr<mat_t, MatCloser>;
using MatVar = std::unique_ptr<matvar_t, VarFreer>;

std::string dimsText(const matvar_t* v)
{
    std::string s;
    for (int i = 0; i < v->rank; ++i) {
        if (i > 0) s += 'x';
        s += std::to_string(v->dims[i]);
    }
    return s;
}

std::size_t elementCount(const matvar_t* v)
{
    std::size_t n = 1;
    for (int i = 0; i < v->rank; ++i) n = checkedProduct({n, v->dims[i]});
    return n;
}

/// The variable's numeric data as doubles (column-major, as MATLAB stores it).
std::vector<double> numeric(const std::string& path, const matvar_t* v)
{
    const std::size_t n = elementCount(v);
    if (v->isComplex || !v->data)
        fail(LoadErrorKind::BadValue, path, std::string("variable ") + v->name, "must be a real numeric array");
    std::vector<double> out(n);
    auto copy = [&](auto* p) {
        if (v->nbytes / sizeof(*p) < n)  // a malformed file may declare more than matio delivered
            fail(LoadErrorKind::Truncated, path, std::string("variable ") + v->name,
                 "holds fewer values than its dimensions declare", dimsText(v));
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<double>(p[i]);
    };
    switch (v->class_type) {
    case MAT_C_DOUBLE: copy(static_cast<const double*>(v->data)); break;
    case MAT_C_SINGLE: copy(static_cast<const float*>(v->data)); break;
    case MAT_C_INT8: copy(static_cast<const std::int8_t*>(v->data)); break;
    case MAT_C_UINT8: copy(static_cast<const std::uint8_t*>(v->data)); break;
    case MAT_C_INT16: copy(static_cast<const std::int16_t*>(v->data)); break;
    case MAT_C_UINT16: copy(static_cast<const std::uint16_t*>(v->data)); break;
    case MAT_C_INT32: copy(static_cast<const std::int32_t*>(v->data)); break;
    case MAT_C_UINT32: copy(static_cast<const std::uint32_t*>(v->data)); break;
    case MAT_C_INT64: copy(static_cast<const std::int64_t*>(v->data)); break;
    case MAT_C_UINT64: copy(static_cast<const std::uint64_t*>(v->data)); break;
    default:
        fail(LoadErrorKind::BadValue, path, std::string("variable ") + v->name, "must be a real numeric array",
             std::to_string(static_cast<int>(v->class_type)));
    }
    return out;
}

/// Reads a variable after checking its declared size against the memory limit; null if absent.
MatVar readVar(const std::string& path, mat_t* mat, const char* name, std::size_t maxBytes)
{
    MatVar info(Mat_VarReadInfo(mat, name));
    if (!info) return nullptr;
    if (checkedProduct({elementCount(info.get()), sizeof(double)}) > maxBytes)
        fail(LoadErrorKind::TooLarge, path, std::string("variable ") + name,
             "its declared size exceeds the memory limit of " + std::to_string(maxBytes) + " bytes", dimsText(info.get()));
    MatVar var(Mat_VarRead(mat, name));
    if (!var || !var->data || var->rank < 1)
        fail(LoadErrorKind::Truncated, path, std::string("variable ") + name, "its data could not be read",
             dimsText(info.get()));
    return var;
}

[[noreturn]] void badShape(const std::string& path, const matvar_t* v, const std::string& expected)
{
    fail(LoadErrorKind::BadShape, path, std::string("variable ") + v->name, "expected " + expected, dimsText(v));
}

void silenceMatio()
{
    static std::once_flag once;
    std::call_once(once, [] { Mat_LogInitFunc("orbitcore", [](int, char*) {}); });
}

/// Fold of each molecule from P (rows = folds, entries = 0- or 1-based molecule indices).
std::vector<int> foldsFrom(const std::string& path, const matvar_t* p, std::size_t n)
{
    if (p->rank != 2 || checkedProduct({p->dims[0], p->dims[1]}) != n)
        badShape(path, p, "folds x (N / folds) indices covering all " + std::to_string(n) + " molecules");
    const std::vector<double> v = numeric(path, p);
    double lo = v[0];
    for (double x : v) lo = std::min(lo, x);
    const double base = lo >= 1 ? 1 : 0;  // MATLAB files may index from 1
    std::vector<int> folds(n, -1);
    const std::size_t rows = p->dims[0];
    for (std::size_t k = 0; k < v.size(); ++k) {
        const double idx = v[k] - base;
        const std::size_t fold = k % rows;  // column-major: element (fold, j) at fold + rows * j
        if (idx < 0 || idx >= static_cast<double>(n) || idx != std::floor(idx) || folds[static_cast<std::size_t>(idx)] >= 0)
            fail(LoadErrorKind::BadValue, path, "P(" + std::to_string(fold + 1) + "," + std::to_string(k / rows + 1) + ")",
                 "fold entries must list every molecule index exactly once", std::to_string(v[k]));
        folds[static_cast<std::size_t>(idx)] = static_cast<int>(fold);
    }
    return folds;
}

} // namespace

Dataset loadMat(const std::string& path, const LoadOptions& options)
{
    requireFile(path);
    silenceMatio();
    precheckMat5(path, options.maxBytes);  // before matio allocates from the headers (v5, then v4)
    precheckMat4(path);
    MatFile mat(Mat_Open(path.c_str(), MAT_ACC_RDONLY));
    if (!mat) fail(LoadErrorKind::BadMagic, path, "header", "not a MATLAB .mat file matio can read");

    MatVar x = readVar(path, mat.get(), "X", options.maxBytes);
    if (!x) fail(LoadErrorKind::MissingVariable, path, "variable X", "the Coulomb matrices X (N x n x n) are missing");
    MatVar t = readVar(path, mat.get(), "T", options.maxBytes);
    if (!t) fail(LoadErrorKind::MissingVariable, path, "variable T", "the energies T (1 x N) are missing");

    if (x->rank != 3 || x->dims[1] != x->dims[2] || x->dims[0] == 0 || x->dims[1] == 0)
        badShape(path, x.get(), "N x n x n Coulomb matrices");
    const std::size_t n = x->dims[0], atoms = x->dims[1];
    if (t->rank != 2 || std::min(t->dims[0], t->dims[1]) != 1 || std::max(t->dims[0], t->dims[1]) != n)
        badShape(path, t.get(), "1 x " + std::to_string(n) + " energies (one per matrix of X)");

    const std::size_t keep = applyLimit(n, options.limit);
    const std::size_t pad = options.padTo > 0 ? static_cast<std::size_t>(options.padTo) : atoms;
    if (pad < atoms)
        throw SpecError("data padding",
                        "the Coulomb matrix size is smaller than the " + std::to_string(atoms) + " x " +
                            std::to_string(atoms) + " matrices of " + path,
                        std::to_string(options.padTo));
    checkFloatMemory(path, "variable X", keep, checkedProduct({pad, pad}), options.maxBytes);

    Dataset d;
    d.kind = DataKind::Coulomb;
    d.shape = {static_cast<int>(pad), static_cast<int>(pad), 1};
    d.X.setZero(static_cast<Eigen::Index>(keep), static_cast<Eigen::Index>(pad * pad));
    {
        const std::vector<double> xv = numeric(path, x.get());
        for (std::size_t i = 0; i < keep; ++i)
            for (std::size_t r = 0; r < atoms; ++r)
                for (std::size_t c = 0; c < atoms; ++c) {
                    const double v = xv[i + n * (r + atoms * c)];  // X(i, r, c), column-major
                    if (!std::isfinite(static_cast<float>(v)))  // also beyond float32's range
                        fail(LoadErrorKind::NonFinite, path,
                             "X(" + std::to_string(i + 1) + "," + std::to_string(r + 1) + "," + std::to_string(c + 1) + ")",
                             "non-finite Coulomb matrix entry", std::to_string(v));
                    d.X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(r * pad + c)) = static_cast<float>(v);
                }
    }
    const std::vector<double> tv = numeric(path, t.get());
    for (std::size_t i = 0; i < keep; ++i) {
        if (!std::isfinite(tv[i]))
            fail(LoadErrorKind::NonFinite, path, "T(" + std::to_string(i + 1) + ")", "non-finite energy", std::to_string(tv[i]));
        d.targets.push_back(tv[i]);
    }
    d.targetUnit = unitFromReadme(path, "T");  // the .mat itself does not say

    if (MatVar z = readVar(path, mat.get(), "Z", options.maxBytes)) {
        if (z->rank != 2 || z->dims[0] != n || z->dims[1] != atoms)
            badShape(path, z.get(), std::to_string(n) + " x " + std::to_string(atoms) + " atomic numbers");
        const std::vector<double> zv = numeric(path, z.get());
        d.charges.resize(keep);
        for (std::size_t i = 0; i < keep; ++i)
            for (std::size_t a = 0; a < atoms; ++a) {
                const double q = zv[i + n * a];
                if (q < 0 || q > 118 || q != std::floor(q))
                    fail(LoadErrorKind::BadValue, path, "Z(" + std::to_string(i + 1) + "," + std::to_string(a + 1) + ")",
                         "atomic numbers must be integers in [0, 118] (0 = padding)", std::to_string(q));
                if (q > 0) d.charges[i].push_back(static_cast<int>(q));
            }
    }
    if (MatVar r = readVar(path, mat.get(), "R", options.maxBytes)) {
        if (r->rank != 3 || r->dims[0] != n || r->dims[1] != atoms || r->dims[2] != 3)
            badShape(path, r.get(), std::to_string(n) + " x " + std::to_string(atoms) + " x 3 positions");
    }
    if (MatVar p = readVar(path, mat.get(), "P", options.maxBytes)) {
        std::vector<int> folds = foldsFrom(path, p.get(), n);
        folds.resize(keep);
        d.folds = std::move(folds);
    }
    return finish(std::move(d), path, Format::Mat);
}

} // namespace orbit
