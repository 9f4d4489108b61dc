// Writes seed inputs that cannot live in the repository as fixtures: small QM7-style MATLAB v5
// files (X: N x n x n Coulomb matrices, T: 1 x N, P: folds, Z: N x n), plain and zlib-compressed.
// Usage: orbit_fuzz_make_seeds OUTDIR
#include <matio.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

bool writeVar(mat_t* mat, const char* name, std::vector<std::size_t> dims, std::vector<double> values,
              matio_compression compression)
{
    matvar_t* v = Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, static_cast<int>(dims.size()), dims.data(),
                                values.data(), 0);
    if (!v) return false;
    const bool ok = Mat_VarWrite(mat, v, compression) == 0;
    Mat_VarFree(v);
    return ok;
}

bool writeQm7Like(const std::string& path, matio_compression compression)
{
    constexpr std::size_t N = 5, n = 3;
    mat_t* mat = Mat_CreateVer(path.c_str(), nullptr, MAT_FT_MAT5);
    if (!mat) return false;
    std::vector<double> X(N * n * n), T(N), P(N), Z(N * n);
    for (std::size_t i = 0; i < X.size(); ++i) X[i] = 0.5 * static_cast<double>(i % 7);
    for (std::size_t i = 0; i < N; ++i) {
        T[i] = -100.0 - static_cast<double>(i);
        P[i] = static_cast<double>(i);
    }
    for (std::size_t i = 0; i < Z.size(); ++i) Z[i] = static_cast<double>(1 + i % 6);
    bool ok = writeVar(mat, "X", {N, n, n}, X, compression) && writeVar(mat, "T", {1, N}, T, compression)
              && writeVar(mat, "P", {5, N / 5}, P, compression) && writeVar(mat, "Z", {N, n}, Z, compression);
    Mat_Close(mat);
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    if (!writeQm7Like(dir + "/qm7like.mat", MAT_COMPRESSION_NONE) || !writeQm7Like(dir + "/qm7like-z.mat", MAT_COMPRESSION_ZLIB)) {
        std::fprintf(stderr, "cannot write MAT seeds in %s\n", dir.c_str());
        return 1;
    }
    return 0;
}
