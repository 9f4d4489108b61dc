#pragma once
// Paths the test suites read: the data bundled in resources/data/ (digits, G2: in every clone), the
// fixtures, QM7 (never in the repository: found beside it or named by the user) and Fashion-MNIST.
#include <cstdlib>
#include <filesystem>
#include <string>

namespace orbittest {
inline std::string fixture(const std::string& rel) { return std::string(ORBIT_FIXTURES_DIR) + "/" + rel; }
inline std::string fashion(const std::string& rel) { return std::string(ORBIT_FASHION_DIR) + "/" + rel; }
inline std::string source(const std::string& rel) { return std::string(ORBIT_SOURCE_DIR) + "/" + rel; }
/// resources/data/<name>: digits.png (OpenCV's 5000 digits) and g2.extxyz (144 G2 molecules).
inline std::string bundledFile(const std::string& name) { return source("resources/data/" + name); }

/// Where QM7 (extended XYZ) is looked for, first match wins: $ORBIT_QM7, the CMake cache variable
/// ORBIT_QM7_FILE, ORBIT_SHARED_DIR/data/qm7/qm7.extxyz (the shared folder beside the repository).
struct Qm7Location {
    std::string path;
    bool named = false;  ///< named by the user, or a shared data folder exists: missing is an error
};
inline Qm7Location qm7Location()
{
    if (const char* env = std::getenv("ORBIT_QM7"); env && *env) return {env, true};
    if (std::string(ORBIT_QM7_FILE).size() > 0) return {ORBIT_QM7_FILE, true};
    const std::string shared = std::string(ORBIT_SHARED_DIR) + "/data";
    return {shared + "/qm7/qm7.extxyz", std::filesystem::is_directory(shared)};
}
/// The one line a test that needs QM7 skips with on a bare clone.
inline const char* qm7SkipReason()
{
    return "QM7 not found (it is not redistributable): name your qm7.extxyz with -DORBIT_QM7_FILE=PATH "
           "(CMake) or ORBIT_QM7=PATH (environment), or put it in ../shared/data/qm7/";
}
} // namespace orbittest

/// Declares `const std::string var` = the QM7 path, or skips the test when QM7 is nowhere to be
/// found. With the shared data folder present (CI) or a path named by the user, a missing file fails
/// instead: the tests then run exactly as they did before data became optional.
#define ORBIT_REQUIRE_QM7(var)                                                                                    \
    const orbittest::Qm7Location var##Location = orbittest::qm7Location();                                        \
    if (!std::filesystem::exists(var##Location.path)) {                                                           \
        if (var##Location.named) QFAIL(qPrintable(QString::fromStdString("missing QM7 file " + var##Location.path))); \
        QSKIP(orbittest::qm7SkipReason());                                                                        \
    }                                                                                                             \
    const std::string var = var##Location.path
