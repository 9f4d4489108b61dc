#include "state/JsonFields.hpp"

#include "state/KernelChoice.hpp"

#include "orbit/util/Error.hpp"

#include <QJsonDocument>

#include <cmath>

namespace orbitui {

QString fieldName(const QString& path, const QString& key) { return path.isEmpty() ? key : path + "." + key; }

void badSessionField(const QString& field, const QString& detail, const QJsonValue& value)
{
    QString text = value.isString() ? value.toString()
                                    : QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
                                          .mid(1).chopped(1);
    throw orbit::SpecError(field.toStdString(), detail.toStdString(), text.toStdString());
}

double readNumber(const QJsonObject& o, const QString& key, const QString& path, double fallback)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        badSessionField(fieldName(path, key), "expected a finite number", v);
    return v.toDouble();
}

int readInt(const QJsonObject& o, const QString& key, const QString& path, int fallback, int lo, int hi)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || d != std::floor(d) || d < lo || d > hi)
        badSessionField(fieldName(path, key), QString("expected an integer in [%1, %2]").arg(lo).arg(hi), v);
    return static_cast<int>(d);
}

QString readString(const QJsonObject& o, const QString& key, const QString& path, const QString& fallback)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    if (!v.isString())
        badSessionField(fieldName(path, key), "expected a string", v);
    return v.toString();
}

std::uint64_t readSeed(const QJsonObject& o, const QString& key, const QString& path, std::uint64_t fallback)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    bool ok = false;
    const quint64 seed = v.isString() ? v.toString().toULongLong(&ok) : 0;
    if (!ok)
        badSessionField(fieldName(path, key), "expected a non-negative integer as a decimal string", v);
    return seed;
}

QJsonArray numbersToJson(const std::vector<double>& values)
{
    QJsonArray a;
    for (double v : values)
        a.append(v);
    return a;
}

std::vector<double> readNumbers(const QJsonObject& o, const QString& key, const QString& path, std::vector<double> fallback)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    if (!v.isArray() || v.toArray().isEmpty())
        badSessionField(fieldName(path, key), "expected a non-empty list of numbers", v);
    std::vector<double> out;
    const QJsonArray a = v.toArray();
    for (int i = 0; i < a.size(); ++i) {
        if (!a.at(i).isDouble() || !std::isfinite(a.at(i).toDouble()))
            badSessionField(QString("%1[%2]").arg(fieldName(path, key)).arg(i), "expected a finite number", a.at(i));
        out.push_back(a.at(i).toDouble());
    }
    return out;
}

QString readChoice(const QJsonObject& o, const QString& key, const QString& path, const QString& fallback,
                   const QStringList& choices)
{
    const QString value = readString(o, key, path, fallback);
    if (!choices.contains(value))
        badSessionField(fieldName(path, key), "expected one of " + choices.join(", "), value);
    return value;
}

std::string readKernel(const QJsonObject& o, const QString& path, const std::string& fallback)
{
    const QString v = readString(o, "kernel", path, QString::fromStdString(fallback));
    try {
        checkKernelChoice(v.toStdString());
    } catch (const orbit::SpecError& e) {
        badSessionField(path + ".kernel", QString::fromStdString(e.detail()), v);
    }
    return v.toStdString();
}

bool readBool(const QJsonObject& o, const QString& key, const QString& path, bool fallback)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    if (!v.isBool())
        badSessionField(fieldName(path, key), "expected true or false", v);
    return v.toBool();
}

std::vector<int> readIntList(const QJsonObject& o, const QString& key, const QString& path, std::vector<int> fallback,
                             int lo, int hi)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    if (!v.isArray() || v.toArray().isEmpty())
        badSessionField(fieldName(path, key), "expected a non-empty list of integers", v);
    std::vector<int> out;
    const QJsonArray a = v.toArray();
    for (int i = 0; i < a.size(); ++i) {
        const double d = a.at(i).toDouble(std::nan(""));
        if (!a.at(i).isDouble() || d != std::floor(d) || d < lo || d > hi)
            badSessionField(QString("%1[%2]").arg(fieldName(path, key)).arg(i), QString("expected an integer in [%1, %2]").arg(lo).arg(hi),
                a.at(i));
        out.push_back(static_cast<int>(d));
    }
    return out;
}

QJsonArray intsToJson(const std::vector<int>& v)
{
    QJsonArray a;
    for (int x : v)
        a.append(x);
    return a;
}

} // namespace orbitui
