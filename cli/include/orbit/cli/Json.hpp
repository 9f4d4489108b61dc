#pragma once
// JSON output of the CLI (nlohmann::json, with doubles written so they round-trip).
#include <nlohmann/json.hpp>

namespace orbit::cli {
using Json = nlohmann::ordered_json;
}
