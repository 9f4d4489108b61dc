#pragma once
// Paths the test suites read: the shared data beside the repository, the fixtures, Fashion-MNIST.
#include <string>

namespace orbittest {
inline std::string sharedData(const std::string& rel) { return std::string(ORBIT_SHARED_DIR) + "/data/" + rel; }
inline std::string fixture(const std::string& rel) { return std::string(ORBIT_FIXTURES_DIR) + "/" + rel; }
inline std::string fashion(const std::string& rel) { return std::string(ORBIT_FASHION_DIR) + "/" + rel; }
inline std::string source(const std::string& rel) { return std::string(ORBIT_SOURCE_DIR) + "/" + rel; }
} // namespace orbittest
