#pragma once
// Reading the fields of a session's JSON objects (state/Session.hpp and its parts,
// state/SessionParts.hpp): each reader returns `fallback` for a missing key and throws
// orbit::SpecError naming the field ("kernels.n": `path` and `key`) and its value for a malformed one.
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace orbitui {

/// Throws orbit::SpecError naming `field` ("orbit.r"), with `value` as its JSON text (a string as
/// itself): how the session and working-state readers report a malformed field.
[[noreturn]] void badSessionField(const QString& field, const QString& detail, const QJsonValue& value);
/// "path.key", or "key" at the top.
QString fieldName(const QString& path, const QString& key);

double readNumber(const QJsonObject& o, const QString& key, const QString& path, double fallback);
/// A whole number in [lo, hi].
int readInt(const QJsonObject& o, const QString& key, const QString& path, int fallback, int lo, int hi);
QString readString(const QJsonObject& o, const QString& key, const QString& path, const QString& fallback);
bool readBool(const QJsonObject& o, const QString& key, const QString& path, bool fallback);
/// A string that is one of `choices`.
QString readChoice(const QJsonObject& o, const QString& key, const QString& path, const QString& fallback,
                   const QStringList& choices);
/// A non-empty list of finite numbers.
std::vector<double> readNumbers(const QJsonObject& o, const QString& key, const QString& path, std::vector<double> fallback);
/// A non-empty list of whole numbers in [lo, hi].
std::vector<int> readIntList(const QJsonObject& o, const QString& key, const QString& path, std::vector<int> fallback,
                             int lo, int hi);
/// A 64-bit seed written as a decimal string.
std::uint64_t readSeed(const QJsonObject& o, const QString& key, const QString& path, std::uint64_t fallback);
/// A base-kernel choice (state/KernelChoice.hpp) under "kernel"; missing: `fallback`.
std::string readKernel(const QJsonObject& o, const QString& path, const std::string& fallback);

QJsonArray numbersToJson(const std::vector<double>& values);
QJsonArray intsToJson(const std::vector<int>& values);

} // namespace orbitui
