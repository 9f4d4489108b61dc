#include "state/LearnPicture.hpp"

#include "state/JsonFields.hpp"

#include <QJsonArray>

#include <cmath>

namespace orbitui {

namespace {

QJsonArray arrayAt(const QJsonObject& o, const char* key, const QString& field)
{
    if (!o.contains(key))
        return {};
    if (!o.value(key).isArray())
        badSessionField(field + "." + key, "expected a list", o.value(key));
    return o.value(key).toArray();
}

double finiteAt(const QJsonValue& v, const QString& field)
{
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        badSessionField(field, "expected a finite number", v);
    return v.toDouble();
}

QJsonObject pointJson(const orbit::EvidencePoint& p, bool withStage)
{
    QJsonObject params;
    for (const auto& [name, value] : p.params)
        params.insert(QString::fromStdString(name), value);
    QJsonObject o{{"params", params}, {"log_evidence", p.logEvidence}};
    if (withStage && !p.stage.empty())
        o.insert("stage", QString::fromStdString(p.stage));
    return o;
}

/// A point holding a finite value for each of `names` (and nothing else).
orbit::EvidencePoint pointAt(const QJsonValue& v, const std::vector<std::string>& names, const QString& field)
{
    if (!v.isObject())
        badSessionField(field, "expected an object", v);
    const QJsonObject o = v.toObject();
    if (!o.value("params").isObject())
        badSessionField(field + ".params", "expected an object", o.value("params"));
    const QJsonObject params = o.value("params").toObject();
    if (params.size() != qsizetype(names.size()))
        badSessionField(field + ".params", QString("expected a value for each of the %1 parameters").arg(names.size()), params);
    orbit::EvidencePoint p;
    for (const std::string& name : names) {
        const QString key = QString::fromStdString(name);
        if (!params.contains(key))
            badSessionField(field + ".params", "has no value for " + key, params);
        p.params[name] = finiteAt(params.value(key), field + ".params." + key);
    }
    p.logEvidence = finiteAt(o.value("log_evidence"), field + ".log_evidence");
    if (o.contains("stage")) {
        if (!o.value("stage").isString())
            badSessionField(field + ".stage", "expected a string", o.value("stage"));
        p.stage = o.value("stage").toString().toStdString();
    }
    return p;
}

} // namespace

QJsonObject toJson(const LearnPicture& p)
{
    QJsonArray names, landscape, points, path;
    for (const std::string& n : p.parameters)
        names.append(QString::fromStdString(n));
    for (const std::vector<double>& values : p.landscape) {
        QJsonArray a;
        for (double v : values)
            a.append(v);
        landscape.append(a);
    }
    for (const orbit::EvidencePoint& e : p.landscapePoints)
        points.append(pointJson(e, false));
    for (const orbit::EvidencePoint& e : p.path)
        path.append(pointJson(e, true));
    QJsonObject o{{"parameters", names},     {"landscape", landscape}, {"landscape_points", points},
                  {"learned_landscape", p.learnedLandscape}, {"path", path}, {"best", p.best}};
    if (p.marginalLikelihood)
        o.insert("marginal_likelihood", true);
    return o;
}

LearnPicture learnPictureFromJson(const QJsonObject& json, const QString& field)
{
    LearnPicture p;
    const QJsonArray names = arrayAt(json, "parameters", field);
    if (names.isEmpty())
        badSessionField(field + ".parameters", "expected the names of the learned parameters", json.value("parameters"));
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (!names[i].isString() || names[i].toString().isEmpty())
            badSessionField(QString("%1.parameters[%2]").arg(field).arg(i), "expected a parameter name", names[i]);
        p.parameters.push_back(names[i].toString().toStdString());
    }
    const QJsonArray landscape = arrayAt(json, "landscape", field);
    if (!landscape.isEmpty() && landscape.size() != names.size())
        badSessionField(field + ".landscape", QString("expected one list of values per parameter (%1)").arg(names.size()), json.value("landscape"));
    for (qsizetype k = 0; k < landscape.size(); ++k) {
        const QString at = QString("%1.landscape[%2]").arg(field).arg(k);
        if (!landscape[k].isArray() || landscape[k].toArray().isEmpty())
            badSessionField(at, "expected a list of values", landscape[k]);
        std::vector<double> values;
        for (qsizetype i = 0; i < landscape[k].toArray().size(); ++i)
            values.push_back(finiteAt(landscape[k].toArray()[i], QString("%1[%2]").arg(at).arg(i)));
        p.landscape.push_back(std::move(values));
    }
    const QJsonArray points = arrayAt(json, "landscape_points", field);
    for (qsizetype i = 0; i < points.size(); ++i)
        p.landscapePoints.push_back(pointAt(points[i], p.parameters, QString("%1.landscape_points[%2]").arg(field).arg(i)));
    if (json.contains("learned_landscape") && !json.value("learned_landscape").isBool())
        badSessionField(field + ".learned_landscape", "expected true or false", json.value("learned_landscape"));
    p.learnedLandscape = json.value("learned_landscape").toBool();
    const QJsonArray path = arrayAt(json, "path", field);
    for (qsizetype i = 0; i < path.size(); ++i)
        p.path.push_back(pointAt(path[i], p.parameters, QString("%1.path[%2]").arg(field).arg(i)));
    const QJsonValue best = json.value("best");
    if (json.contains("best") && (!best.isDouble() || best.toDouble() != std::floor(best.toDouble()) || best.toDouble() < -1 ||
                                  best.toDouble() >= double(p.path.size())))
        badSessionField(field + ".best", QString("expected -1 or a point of the path (0 to %1)").arg(qsizetype(p.path.size()) - 1), best);
    p.best = json.contains("best") ? best.toInt() : -1;
    if (json.contains("marginal_likelihood") && !json.value("marginal_likelihood").isBool())
        badSessionField(field + ".marginal_likelihood", "expected true or false", json.value("marginal_likelihood"));
    p.marginalLikelihood = json.value("marginal_likelihood").toBool();
    return p;
}

} // namespace orbitui
