#include "orbit/util/ReadableNumber.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace orbit {

namespace {

/// Drops trailing zeros after a decimal point, then the point itself.
std::string trimZeros(std::string text)
{
    if (text.find('.') == std::string::npos) return text;
    while (!text.empty() && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

} // namespace

std::string readableNumber(double v, int digits)
{
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    digits = std::clamp(digits, 1, 17);
    char buf[64];
    // The exponent after rounding to `digits` significant digits (9.9999 -> 10).
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    const std::string sci = buf;
    const std::size_t e = sci.find('e');
    const int exponent = std::stoi(sci.substr(e + 1));
    const double rounded = std::stod(sci);
    std::string text;
    if (rounded == 0.0) {
        text = "0";
    } else if (exponent >= -4 && exponent < 6) {
        std::snprintf(buf, sizeof buf, "%.*f", std::max(0, digits - 1 - exponent), rounded);
        text = trimZeros(buf);
    } else {
        text = trimZeros(sci.substr(0, e)) + "e" + std::to_string(exponent);
    }
    return text == "-0" ? "0" : text;
}

std::string readableParameter(const std::string& name, double value, int digits)
{
    return name + " = " + readableNumber(value, digits);
}

std::string readableParameters(const std::map<std::string, double>& values, int digits)
{
    std::string text;
    for (const auto& [name, value] : values) text += (text.empty() ? "" : ", ") + readableParameter(name, value, digits);
    return text;
}

} // namespace orbit
