#include "Session.hpp"

#include "orbit/util/Error.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cmath>

namespace orbitui {

namespace {

constexpr char kFormat[] = "orbitlab-session";
constexpr int kVersion = 1;

QString fieldName(const QString& path, const QString& key) { return path.isEmpty() ? key : path + "." + key; }

[[noreturn]] void bad(const QString& field, const QString& detail, const QJsonValue& value)
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
        bad(fieldName(path, key), "expected a finite number", v);
    return v.toDouble();
}

int readInt(const QJsonObject& o, const QString& key, const QString& path, int fallback, int lo, int hi)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    const double d = v.toDouble(std::nan(""));
    if (!v.isDouble() || d != std::floor(d) || d < lo || d > hi)
        bad(fieldName(path, key), QString("expected an integer in [%1, %2]").arg(lo).arg(hi), v);
    return static_cast<int>(d);
}

QString readString(const QJsonObject& o, const QString& key, const QString& path, const QString& fallback)
{
    if (!o.contains(key))
        return fallback;
    const QJsonValue v = o.value(key);
    if (!v.isString())
        bad(fieldName(path, key), "expected a string", v);
    return v.toString();
}

QJsonObject distToJson(const DistributionParams& p)
{
    return {{"name", QString::fromStdString(p.name)}, {"kappa", p.kappa}, {"a", p.a},
            {"sigma", p.sigma}, {"mu", p.mu}};
}

DistributionParams distFromJson(const QJsonObject& parent, const QString& key, const QString& path,
                                DistributionParams p)
{
    if (!parent.contains(key))
        return p;
    const QJsonValue v = parent.value(key);
    const QString where = path + "." + key;
    if (!v.isObject())
        bad(where, "expected an object", v);
    const QJsonObject o = v.toObject();
    static const QStringList names{"vonmises", "uniform", "gaussian", "lognormal", "noisysort", "haar", "delta"};
    const QString name = readString(o, "name", where, QString::fromStdString(p.name));
    if (!names.contains(name))
        bad(where + ".name", "unknown distribution", name);
    p.name = name.toStdString();
    p.kappa = readNumber(o, "kappa", where, p.kappa);
    p.a = readNumber(o, "a", where, p.a);
    p.sigma = readNumber(o, "sigma", where, p.sigma);
    p.mu = readNumber(o, "mu", where, p.mu);
    return p;
}

} // namespace

QJsonObject toJson(const SessionState& s)
{
    QJsonArray embedding;
    for (int i : s.embeddingInputs)
        embedding.append(i);
    const OrbitSettings& o = s.orbit;
    QJsonObject orbitJson{{"group", QString::fromStdString(o.group)},
                          {"cyclic_n", o.cyclicN},
                          {"orthogonal_k", o.orthogonalK},
                          {"distribution", distToJson(o.dist)},
                          {"rotation", distToJson(o.rotation)},
                          {"translation", distToJson(o.translation)},
                          {"scale", distToJson(o.scale)},
                          {"r", o.r},
                          {"seed", QString::number(o.seed)},
                          {"group_spec", QString::fromStdString(o.groupSpec())},
                          {"dist_spec", QString::fromStdString(o.distSpec())}};
    return {{"format", kFormat},
            {"version", kVersion},
            {"data", QJsonObject{{"path", s.dataPath}, {"selected", s.selectedIndex}, {"embedding", embedding}}},
            {"orbit", orbitJson},
            {"panel", s.panel}};
}

SessionState sessionFromJson(const QJsonObject& json)
{
    if (json.value("format").toString() != kFormat)
        bad("format", QString("not an Orbit Lab session (expected \"%1\")").arg(kFormat), json.value("format"));
    const int version = readInt(json, "version", "", kVersion, 1, 1000000);
    if (version > kVersion)
        bad("version", QString("written by a newer Orbit Lab (this one reads version %1)").arg(kVersion),
            json.value("version"));

    SessionState s;
    if (json.contains("data")) {
        if (!json.value("data").isObject())
            bad("data", "expected an object", json.value("data"));
        const QJsonObject d = json.value("data").toObject();
        s.dataPath = readString(d, "path", "data", {});
        s.selectedIndex = readInt(d, "selected", "data", 0, 0, 1 << 30);
        if (d.contains("embedding")) {
            if (!d.value("embedding").isArray())
                bad("data.embedding", "expected a list of sample indices", d.value("embedding"));
            const QJsonArray a = d.value("embedding").toArray();
            for (int i = 0; i < a.size(); ++i) {
                const double v = a.at(i).toDouble(-1.0);
                if (!a.at(i).isDouble() || v < 0 || v != std::floor(v) || v > (1 << 30))
                    bad(QString("data.embedding[%1]").arg(i), "expected a sample index", a.at(i));
                s.embeddingInputs.push_back(static_cast<int>(v));
            }
        }
    }
    if (json.contains("orbit")) {
        if (!json.value("orbit").isObject())
            bad("orbit", "expected an object", json.value("orbit"));
        const QJsonObject o = json.value("orbit").toObject();
        OrbitSettings& os = s.orbit;
        static const QStringList groups{"rotation", "translation", "scale", "affine", "cyclic", "permutation", "orthogonal"};
        const QString group = readString(o, "group", "orbit", QString::fromStdString(os.group));
        if (!groups.contains(group))
            bad("orbit.group", "unknown group", group);
        os.group = group.toStdString();
        os.cyclicN = readInt(o, "cyclic_n", "orbit", os.cyclicN, 1, 1 << 20);
        os.orthogonalK = readInt(o, "orthogonal_k", "orbit", os.orthogonalK, 1, 1 << 20);
        os.dist = distFromJson(o, "distribution", "orbit", os.dist);
        os.rotation = distFromJson(o, "rotation", "orbit", os.rotation);
        os.translation = distFromJson(o, "translation", "orbit", os.translation);
        os.scale = distFromJson(o, "scale", "orbit", os.scale);
        os.r = readInt(o, "r", "orbit", os.r, 1, 1 << 20);
        if (o.contains("seed")) {
            const QJsonValue v = o.value("seed");
            bool ok = false;
            const quint64 seed = v.isString() ? v.toString().toULongLong(&ok) : 0;
            if (!ok)
                bad("orbit.seed", "expected a non-negative integer as a decimal string", v);
            os.seed = seed;
        }
    }
    s.panel = readString(json, "panel", "", {});
    return s;
}

QString saveSession(const QString& path, const SessionState& s)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString("%1: cannot write: %2").arg(path, file.errorString());
    file.write(QJsonDocument(toJson(s)).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return QString("%1: cannot write: %2").arg(path, file.errorString());
    return {};
}

std::optional<SessionState> loadSession(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QString("%1: cannot open session: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > (64 << 20)) {
        if (error)
            *error = QString("%1: not a session (%2 bytes is far too large)").arg(path).arg(file.size());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (doc.isNull() || !doc.isObject()) {
        if (error)
            *error = QString("%1: offset %2: not valid JSON: %3")
                         .arg(path)
                         .arg(parseError.offset)
                         .arg(doc.isNull() ? parseError.errorString() : QString("expected an object"));
        return std::nullopt;
    }
    try {
        return sessionFromJson(doc.object());
    } catch (const std::exception& e) {
        if (error)
            *error = QString("%1: %2").arg(path, QString::fromUtf8(e.what()));
        return std::nullopt;
    }
}

std::vector<Preset> presets()
{
    std::vector<Preset> out;
    {
        OrbitSettings s;
        s.group = "rotation";
        s.dist = DistributionParams{"vonmises", 0.2};
        s.r = 100;
        out.push_back({QStringLiteral("Rotated MNIST — LGIKA: von Mises κ = 0.2, r = 100"), s});
    }
    {
        OrbitSettings s;
        s.group = "permutation";
        s.dist = DistributionParams{"noisysort", 1.0, 0.5, 1.0};
        s.r = 70;
        out.push_back({QStringLiteral("QM7 — LGIKA: noisy sort σ = 1, r = 70"), s});
    }
    {
        OrbitSettings s;
        s.group = "affine";
        s.rotation = DistributionParams{"vonmises", 9.0};
        s.translation = DistributionParams{"gaussian", 1.0, 0.5, 0.3};
        s.scale = DistributionParams{"lognormal", 1.0, 0.5, 0.3, 0.0};
        s.r = 50;
        out.push_back({QStringLiteral("CIFAR-10 — LGIKA: log-normal (0, 0.3) × Gaussian translation × von Mises κ = 9, r = 50"), s});
    }
    return out;
}

} // namespace orbitui
