#pragma once
// Numbers as people write them, for status lines and text output: "kappa = 10", not
// "kappa=9.999999999999993". Spec strings and JSON keep every digit (formatNumber in Spec.hpp).
#include <map>
#include <string>

namespace orbit {

/// `v` rounded to `digits` significant digits (1..17), without trailing zeros: fixed-point between
/// 1e-4 and 1e6 ("10", "0.03144", "14", "1000", "-2.5"), else mantissa and exponent ("1.2e-05" is
/// "1.2e-5", 2.5e7 is "2.5e7"); "0" for zero (never "-0"), "inf", "-inf" and "nan" as such.
std::string readableNumber(double v, int digits = 4);

/// "name = value" with readableNumber.
std::string readableParameter(const std::string& name, double value, int digits = 4);

/// "kappa = 10, a = 0.5": every entry as readableParameter, in the map's order.
std::string readableParameters(const std::map<std::string, double>& values, int digits = 4);

} // namespace orbit
