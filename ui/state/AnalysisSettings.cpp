#include "state/AnalysisSettings.hpp"

#include "state/JsonFields.hpp"

#include "orbit/registry/Figures.hpp"

#include <optional>

namespace orbitui {

int kernelsDefault(const char* key) { return static_cast<int>(orbit::kernelsFigure().setting(key).defaultValue); }

int approximationDefault(const char* key) { return static_cast<int>(orbit::approximationFigure().setting(key).defaultValue); }

QString kernelsDefaultMethod() { return QString::fromStdString(orbit::kernelsFigure().setting("method").defaultText); }

QString approximationDefaultMethod()
{
    return QString::fromStdString(orbit::approximationFigure().setting("method").defaultText);
}

std::vector<int> approximationDefaultList(const char* key) { return orbit::approximationFigure().defaultList(key); }

double figuresDefaultBandwidth() { return orbit::kernelsFigure().setting("bandwidth").defaultValue; }

namespace {

/// A whole number of the figure setting `key`, in its valid range (`lowest` below it: r's 0, the
/// orbit settings' r).
int readSetting(const QJsonObject& o, const QString& path, const orbit::FigureDescriptor& figure, const char* key,
                int fallback, std::optional<int> lowest = std::nullopt)
{
    const orbit::ParamDescriptor& p = figure.setting(key);
    return readInt(o, key, path, fallback, lowest.value_or(static_cast<int>(p.minimum)), static_cast<int>(p.maximum));
}

/// The figure's bandwidth: a number in its valid range.
double readBandwidth(const QJsonObject& o, const QString& path, const orbit::FigureDescriptor& figure, double fallback)
{
    const double v = readNumber(o, "bandwidth", path, fallback);
    const orbit::ParamDescriptor& p = figure.setting("bandwidth");
    if (!p.accepts(v))
        badSessionField(path + ".bandwidth", QString::fromStdString("expected a number " + p.rangeText()), o.value("bandwidth"));
    return v;
}

/// The figure's approximation method: one of its choices.
QString readMethod(const QJsonObject& o, const QString& path, const orbit::FigureDescriptor& figure, const QString& fallback)
{
    QStringList choices;
    for (const std::string& c : figure.setting("method").choices)
        choices << QString::fromStdString(c);
    return readChoice(o, "method", path, fallback, choices);
}

} // namespace

QJsonObject KernelsSettings::toJson() const
{
    return {{"n", n},           {"r", r},                 {"method", method},        {"s", s},
            {"kernel", kernel}, {"bandwidth", bandwidth}, {"auto_apply", autoApply}};
}

KernelsSettings KernelsSettings::fromJson(const QJsonObject& o)
{
    const QString path = kSessionKey;
    const orbit::FigureDescriptor& figure = orbit::kernelsFigure();
    KernelsSettings k;
    k.n = readSetting(o, path, figure, "n", k.n);
    k.r = readSetting(o, path, figure, "r", k.r, 0);  // 0: the orbit settings' r
    k.method = readMethod(o, path, figure, k.method);
    k.s = readSetting(o, path, figure, "s", k.s);
    k.kernel = QString::fromStdString(readKernel(o, path, k.kernel.toStdString()));
    k.bandwidth = readBandwidth(o, path, figure, k.bandwidth);
    k.autoApply = readBool(o, "auto_apply", path, k.autoApply);
    return k;
}

QJsonObject ApproximationSettings::toJson() const
{
    return {{"n", n},          {"method", method},   {"s_list", intsToJson(sList)},   {"r_list", intsToJson(rList)},
            {"ref_r", refR},   {"repeats", repeats}, {"bandwidth", bandwidth},        {"auto_apply", autoApply}};
}

ApproximationSettings ApproximationSettings::fromJson(const QJsonObject& o)
{
    const QString path = kSessionKey;
    const orbit::FigureDescriptor& figure = orbit::approximationFigure();
    ApproximationSettings a;
    a.n = readSetting(o, path, figure, "n", a.n);
    a.method = readMethod(o, path, figure, a.method);
    const orbit::ParamDescriptor &s = figure.setting("s"), &r = figure.setting("r");
    a.sList = readIntList(o, "s_list", path, a.sList, static_cast<int>(s.minimum), static_cast<int>(s.maximum));
    a.rList = readIntList(o, "r_list", path, a.rList, static_cast<int>(r.minimum), static_cast<int>(r.maximum));
    a.refR = readSetting(o, path, figure, "ref_r", a.refR);
    a.repeats = readSetting(o, path, figure, "repeats", a.repeats);
    a.bandwidth = readBandwidth(o, path, figure, a.bandwidth);
    a.autoApply = readBool(o, "auto_apply", path, a.autoApply);
    return a;
}

} // namespace orbitui
