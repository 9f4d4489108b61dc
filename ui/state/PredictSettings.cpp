#include "state/PredictSettings.hpp"

#include "state/JsonFields.hpp"

#include "orbit/util/Error.hpp"

#include <QJsonArray>
#include <QJsonValue>

#include <cmath>

namespace orbitui {

QStringList predictParameters(orbit::DataKind kind)
{
    switch (kind) {
    case orbit::DataKind::Images:
        return {"rotation", "translation-x", "translation-y", "scale"};
    case orbit::DataKind::Coulomb:
        return {"permutation"};
    default:
        return {};
    }
}

orbit::SweepRange predictSweepRange(const QString& parameter)
{
    const orbit::SweepParameter p = orbit::parseSweepParameter(parameter.toStdString());
    switch (p) {
    case orbit::SweepParameter::Rotation:
        return orbit::parseSweep("rotation:-180:180:73");
    case orbit::SweepParameter::TranslationX:
        return orbit::parseSweep("translation-x:-6:6:25");
    case orbit::SweepParameter::TranslationY:
        return orbit::parseSweep("translation-y:-6:6:25");
    case orbit::SweepParameter::Scale:
        return orbit::parseSweep("scale:0.5:2:31");
    case orbit::SweepParameter::Permutation:
        break;
    }
    return orbit::parseSweep("permutation:0:20:21");
}

QString sweepRangeText(const orbit::SweepRange& range)
{
    return QStringLiteral("%1:%2:%3:%4")
        .arg(QString::fromUtf8(orbit::toString(range.parameter)))
        .arg(range.values.front(), 0, 'g', 17)
        .arg(range.values.back(), 0, 'g', 17)
        .arg(range.values.size());
}

double predictSliderStep(const QString& parameter)
{
    if (parameter == "rotation" || parameter == "permutation")
        return 1.0;
    return parameter == "scale" ? 0.05 : 0.5;
}

double predictIdentity(const QString& parameter) { return parameter == "scale" ? 1.0 : 0.0; }

QJsonObject PredictSettings::toJson() const
{
    const PredictSettings& s = *this;
    const PredictSettings d;
    QJsonObject o;
    if (s.input != d.input)
        o.insert("input", s.input);
    if (!s.drawn.isEmpty())
        o.insert("drawn", QString::fromLatin1(s.drawn.toBase64()));
    if (!s.imageFile.isEmpty())
        o.insert("image", s.imageFile);
    if (s.parameter != d.parameter)
        o.insert("parameter", s.parameter);
    if (s.t != d.t)
        o.insert("t", s.t);
    if (!s.modelA.isEmpty())
        o.insert("model_a", s.modelA);
    if (!s.modelB.isEmpty())
        o.insert("model_b", s.modelB);
    if (s.swap.size() == 2)
        o.insert("swap", QJsonArray{s.swap[0], s.swap[1]});
    if (s.jitter != d.jitter)
        o.insert("jitter", s.jitter);
    return o;
}

namespace {

QString predictString(const QJsonObject& o, const char* key, const QString& fallback)
{
    if (!o.contains(key))
        return fallback;
    if (!o.value(key).isString())
        badSessionField(QStringLiteral("predict.%1").arg(key), "expected a string", o.value(key));
    return o.value(key).toString();
}

} // namespace

PredictSettings PredictSettings::fromJson(const QJsonObject& o)
{
    PredictSettings s;
    s.input = predictString(o, "input", s.input);
    if (s.input != "row" && s.input != "drawn" && s.input != "file")
        badSessionField("predict.input", "expected row, drawn or file", o.value("input"));
    const QString drawn = predictString(o, "drawn", {});
    if (!drawn.isEmpty()) {
        const auto decoded = QByteArray::fromBase64Encoding(drawn.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded || !decoded.decoded.startsWith("\x89PNG"))
            badSessionField("predict.drawn", "expected a PNG image in base64", o.value("drawn"));
        s.drawn = decoded.decoded;
    }
    s.imageFile = predictString(o, "image", {});
    s.parameter = predictString(o, "parameter", s.parameter);
    try {
        orbit::parseSweepParameter(s.parameter.toStdString());
    } catch (const orbit::SpecError&) {
        badSessionField("predict.parameter", "expected rotation, translation-x, translation-y, scale or permutation",
                        o.value("parameter"));
    }
    if (o.contains("t")) {
        const QJsonValue v = o.value("t");
        const orbit::SweepRange range = predictSweepRange(s.parameter);
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < range.values.front() ||
            v.toDouble() > range.values.back())
            badSessionField("predict.t", QStringLiteral("expected a number in [%1, %2]")
                                             .arg(range.values.front())
                                             .arg(range.values.back()),
                            v);
        s.t = v.toDouble();
    } else {
        s.t = predictIdentity(s.parameter);
    }
    s.modelA = predictString(o, "model_a", {});
    s.modelB = predictString(o, "model_b", {});
    if (o.contains("swap")) {
        const QJsonArray a = o.value("swap").toArray();
        auto atom = [](const QJsonValue& v) { return v.isDouble() && v.toDouble() == std::floor(v.toDouble()) && v.toDouble() >= 0 && v.toDouble() < 1e5; };
        if (!o.value("swap").isArray() || a.size() != 2 || !atom(a[0]) || !atom(a[1]))
            badSessionField("predict.swap", "expected two atom numbers [i, j] (0-based)", o.value("swap"));
        s.swap = {a[0].toInt(), a[1].toInt()};
    }
    if (o.contains("jitter")) {
        const QJsonValue v = o.value("jitter");
        if (!v.isDouble() || !(v.toDouble() >= 0.0 && v.toDouble() <= kMaxJitter))
            badSessionField("predict.jitter", QStringLiteral("expected a standard deviation in [0, %1] Angstrom").arg(kMaxJitter), v);
        s.jitter = v.toDouble();
    }
    return s;
}

} // namespace orbitui
