#include "state/Session.hpp"

#include "state/AtomicWrite.hpp"
#include "state/JsonFields.hpp"

#include "orbit/locality/PerClassLocality.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/training/TrainSettings.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <functional>
#include <optional>

namespace orbitui {

namespace {

constexpr char kFormat[] = "orbitlab-session";
constexpr int kVersion = 1;

/// The registry's names of a list of descriptors, for the reader's choices.
template <class D>
QStringList namesOf(const std::vector<D>& descriptors)
{
    QStringList names;
    for (const D& d : descriptors)
        names << QString::fromStdString(d.name);
    return names;
}

/// A name the registry must know: else "<field>: unknown <what> (expected a, b, c)" with the value.
template <class D>
void requireRegistered(const QString& field, const QString& what, const QString& name, const std::vector<D>& all)
{
    if (!namesOf(all).contains(name))
        badSessionField(field, QString("unknown %1 (expected %2)").arg(what, namesOf(all).join(", ")), name);
}

QJsonObject distToJson(const DistributionParams& p)
{
    QJsonObject o{{"name", QString::fromStdString(p.name)}};
    for (const auto& [key, value] : p.values)
        o.insert(QString::fromStdString(key), value);
    return o;
}

/// The distribution `key` of `parent` on a group of `kind`, or `p` when there is none. A named
/// distribution takes the values the object gives (any registry key: older sessions wrote every one)
/// and the registry's defaults for the rest of its own parameters.
DistributionParams distFromJson(const QJsonObject& parent, const QString& key, const QString& path, DistributionParams p,
                                orbit::GroupKind kind)
{
    if (!parent.contains(key))
        return p;
    const QJsonValue v = parent.value(key);
    const QString where = path + "." + key;
    if (!v.isObject())
        badSessionField(where, "expected an object", v);
    const QJsonObject o = v.toObject();
    if (o.contains("name")) {
        const QString name = readString(o, "name", where, {});
        requireRegistered(where + ".name", "distribution", name, orbit::distributionDescriptors());
        p = DistributionParams{name.toStdString(), {}};
    }
    for (const std::string& k : DistributionParams::keys())
        if (o.contains(QString::fromStdString(k)))
            p.setValue(k, readNumber(o, QString::fromStdString(k), where, 0.0));
    p.choose(p.name, kind);
    return p;
}

QStringList toQStringList(const std::vector<std::string>& names)
{
    QStringList out;
    for (const std::string& n : names)
        out << QString::fromStdString(n);
    return out;
}

/// A table row's value (TrainingSettings::more) as JSON of its type, as the experiment files write it.
QJsonValue settingToJson(const orbit::TrainSetting& row, const std::string& text)
{
    orbit::SettingValue v;
    try {
        v = orbit::readSetting(row, text);
    } catch (const orbit::SpecError&) {
        return QString::fromStdString(text);  // as it is: reading the session refuses it by its field
    }
    switch (row.type) {
    case orbit::SettingType::Integer: return double(v.integer);
    case orbit::SettingType::Number: return v.number;
    case orbit::SettingType::Numbers: return numbersToJson(v.numbers);
    default: return QString::fromStdString(v.text);
    }
}

/// The CLI's text of a table row's JSON value (a number, a list of numbers or a string), checked by
/// the table; a malformed one is refused as "training.<key>".
std::string settingFromJson(const orbit::TrainSetting& row, const QJsonValue& v)
{
    const QString field = "training." + QString::fromStdString(row.key);
    std::string text;
    if (v.isDouble()) {
        text = orbit::formatNumber(v.toDouble());
    } else if (v.isString()) {
        text = v.toString().toStdString();
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (int i = 0; i < a.size(); ++i) {
            if (!a.at(i).isDouble())
                badSessionField(QString("%1[%2]").arg(field).arg(i), "expected a number", a.at(i));
            text += (i ? "," : "") + orbit::formatNumber(a.at(i).toDouble());
        }
    } else {
        badSessionField(field, QString::fromStdString("expected " + row.rangeText()), v);
    }
    try {
        orbit::TrainConfig config;  // the table's own writing of the value: "0.250" reads back as "0.25"
        orbit::applySetting(config, row, text);
        return row.get(config);
    } catch (const orbit::SpecError& e) {
        badSessionField(field, QString::fromStdString(e.detail()), v);
    }
}

QJsonObject trainingToJson(const TrainingSettings& t)
{
    // "features": toJson writes featureSpec() when it is the preset's.
    QJsonObject o{{"preset", QString::fromStdString(t.preset)}, {"s", t.s}, {"r", t.r},
            {"features", QString::fromStdString(t.spec)}, {"custom_features", !t.spec.empty()},
            {"learner", QString::fromStdString(t.learner)}, {"kernel", QString::fromStdString(t.kernel)},
            {"eval", QString::fromStdString(t.eval)}, {"holdout_fraction", t.holdoutFraction}, {"k", t.k},
            {"lambda", numbersToJson(t.lambdas)}, {"C", numbersToJson(t.costs)}, {"median", numbersToJson(t.medians)},
            {"sweep_axis", QString::fromStdString(t.localityAxis)}, {"sweep_values", numbersToJson(t.locality)},
            {"learn", QJsonArray::fromStringList(toQStringList(t.learn))}, {"learn_evaluations", t.learnEvaluations},
            {"learn_landscape", t.learnLandscape}, {"learn_per_input", t.learnPerInput},
            {"learn_per_class", t.learnPerClass}, {"learn_learner", QString::fromStdString(t.learnLearner)},
            {"subset", t.subset}, {"learning_curve", t.learningCurve}, {"seed", QString::number(t.seed)}};
    for (const auto& [key, text] : t.more)  // the table's rows the form does not set, under their keys
        if (const orbit::TrainSetting* row = orbit::findTrainSetting(key))
            o.insert(QString::fromStdString(key), settingToJson(*row, text));
    return o;
}

TrainingSettings trainingFromJson(const QJsonObject& parent)
{
    TrainingSettings t;
    if (!parent.contains("training"))
        return t;
    const QString path = "training";
    if (!parent.value(path).isObject())
        badSessionField(path, "expected an object", parent.value(path));
    const QJsonObject o = parent.value(path).toObject();
    QStringList presetNames;
    for (const std::string& p : featurePresets())  // the registry's first-layer maps
        presetNames << QString::fromStdString(p);
    t.preset = readChoice(o, "preset", path, QString::fromStdString(t.preset), presetNames).toStdString();
    t.s = readInt(o, "s", path, t.s, 1, 1 << 24);
    t.r = readInt(o, "r", path, t.r, 1, 1 << 20);
    if (o.contains("custom_features") && !o.value("custom_features").isBool())
        badSessionField(path + ".custom_features", "expected true or false", o.value("custom_features"));
    const QString features = readString(o, "features", path, {}).trimmed();
    if (o.value("custom_features").toBool() && features.isEmpty())
        badSessionField(path + ".features", "expected a features spec", o.value("features"));
    if (o.value("custom_features").toBool())
        t.spec = features.toStdString();
    t.learner = readChoice(o, "learner", path, QString::fromStdString(t.learner), namesOf(orbit::learnerDescriptors())).toStdString();
    t.kernel = readKernel(o, path, t.kernel);
    t.eval = readChoice(o, "eval", path, QString::fromStdString(t.eval), namesOf(orbit::evaluationDescriptors())).toStdString();
    t.holdoutFraction = readNumber(o, "holdout_fraction", path, t.holdoutFraction);
    if (!(t.holdoutFraction > 0 && t.holdoutFraction < 1))
        badSessionField(path + ".holdout_fraction", "expected a fraction in (0, 1)", o.value("holdout_fraction"));
    const orbit::ParamDescriptor& folds = orbit::evaluationDescriptor(orbit::EvaluationKind::KFold).parameters.front();
    t.k = readInt(o, "k", path, t.k, static_cast<int>(folds.minimum), static_cast<int>(folds.maximum));
    t.lambdas = readNumbers(o, "lambda", path, t.lambdas);
    t.costs = readNumbers(o, "C", path, t.costs);
    t.medians = readNumbers(o, "median", path, t.medians);
    t.localityAxis = readString(o, "sweep_axis", path, {}).toStdString();
    t.locality = readNumbers(o, "sweep_values", path, t.locality);
    if (o.contains("learn")) {
        // Names are checked against the distribution when the pane offers them; unknown ones are not checked.
        const QJsonValue v = o.value("learn");
        if (!v.isArray())
            badSessionField(path + ".learn", "expected a list of parameter names", v);
        const QJsonArray a = v.toArray();
        for (int i = 0; i < a.size(); ++i) {
            if (!a.at(i).isString())
                badSessionField(QString("%1.learn[%2]").arg(path).arg(i), "expected a parameter name", a.at(i));
            t.learn.push_back(a.at(i).toString().toStdString());
        }
    }
    t.learnEvaluations = readInt(o, "learn_evaluations", path, t.learnEvaluations, 3, 500);
    t.learnLandscape = readInt(o, "learn_landscape", path, t.learnLandscape, 0, 64);
    t.learnPerInput = readBool(o, "learn_per_input", path, t.learnPerInput);
    t.learnPerClass = readBool(o, "learn_per_class", path, t.learnPerClass);
    t.learnLearner = readChoice(o, "learn_learner", path, QString::fromStdString(t.learnLearner), {"blr", "gp"}).toStdString();
    t.subset = readInt(o, "subset", path, t.subset, 0, 1 << 30);
    if (o.contains("learning_curve")) {
        if (!o.value("learning_curve").isBool())
            badSessionField(path + ".learning_curve", "expected true or false", o.value("learning_curve"));
        t.learningCurve = o.value("learning_curve").toBool();
    }
    t.seed = readSeed(o, "seed", path, t.seed);
    for (const orbit::TrainSetting& row : orbit::trainSettings())
        if (!formSetsRow(row.key) && o.contains(QString::fromStdString(row.key)))
            t.more[row.key] = settingFromJson(row, o.value(QString::fromStdString(row.key)));
    return t;
}

/// The session's own fields; every other object is a panel's part. A pinned setting keeps the
/// orbit, the training and its parts.
const QStringList kSessionKeys{"format", "version", "data", "orbit", "training", "panel", "pinned"};

QJsonObject pinnedToJson(const PinnedSetting& p)
{
    SessionState s;
    s.orbit = p.orbit;
    s.training = p.training;
    const QJsonObject whole = settingsJson(s);
    QJsonObject o{{"orbit", whole.value("orbit")}, {"training", whole.value("training")}};
    p.parts.writeTo(o, /*pinnedOnly=*/true);
    return o;
}

/// Reads "pinned" with the session's own readers; their errors are renamed "pinned.<field>".
PinnedSetting pinnedFromJson(const QJsonValue& v)
{
    if (!v.isObject())
        badSessionField("pinned", "expected an object", v);
    QJsonObject whole = v.toObject();
    for (const QString& key : kSessionKeys)  // no data, panel or pinned A of its own
        if (key != "orbit" && key != "training")
            whole.remove(key);
    whole.insert("format", kFormat);
    whole.insert("version", kVersion);
    SessionState s;
    try {
        s = sessionFromJson(whole);
    } catch (const orbit::SpecError& e) {
        throw orbit::SpecError("pinned." + e.field(), e.detail(), e.value());
    }
    return {s.orbit, s.training, s.parts.pinnedParts()};
}

} // namespace

QJsonObject settingsJson(const SessionState& s)
{
    QJsonArray embedding;
    for (int i : s.embeddingInputs)
        embedding.append(i);
    const OrbitSettings& o = s.orbit;
    QJsonObject orbitJson{{"group", QString::fromStdString(o.group)},
                          {"distribution", distToJson(o.dist)},
                          {"r", o.r},
                          {"seed", QString::number(o.seed)}};
    for (const auto& [g, p] : groupEditorParameters())  // "cyclic_n", "orthogonal_k"
        orbitJson.insert(QString::fromStdString(g + "_" + p->key), o.groupValue(g, p->key));
    for (const auto& [factor, dist] : o.factorDists)
        orbitJson.insert(QString::fromStdString(factor), distToJson(dist));
    if (!o.distPerClass.empty())
        orbitJson.insert("dist_per_class", QString::fromStdString(o.distPerClass));
    QJsonObject json{{"format", kFormat},
                     {"version", kVersion},
                     {"data", QJsonObject{{"path", s.dataPath}, {"selected", s.selectedIndex}, {"embedding", embedding}}},
                     {"orbit", orbitJson},
                     {"training", trainingToJson(s.training)},
                     {"panel", s.panel}};
    s.parts.writeTo(json);
    if (s.pinned)
        json.insert("pinned", pinnedToJson(*s.pinned));
    return json;
}

namespace {

/// `json` (an orbit and a training object) with what the settings imply, for people and scripts
/// reading the file; never read back: orbit.group_spec, orbit.dist_spec, training.features.
QJsonObject withDerived(QJsonObject json, const OrbitSettings& o, const TrainingSettings& t)
{
    QJsonObject orbit = json.value("orbit").toObject();
    orbit.insert("group_spec", QString::fromStdString(o.groupSpec()));
    orbit.insert("dist_spec", QString::fromStdString(o.distSpec()));
    json.insert("orbit", orbit);
    QJsonObject training = json.value("training").toObject();
    training.insert("features", QString::fromStdString(t.featureSpec()));
    json.insert("training", training);
    return json;
}

} // namespace

QJsonObject toJson(const SessionState& s)
{
    QJsonObject json = withDerived(settingsJson(s), s.orbit, s.training);
    if (s.pinned)
        json.insert("pinned", withDerived(json.value("pinned").toObject(), s.pinned->orbit, s.pinned->training));
    return json;
}

PinnedSetting pinnedOf(const SessionState& s) { return {s.orbit, s.training, s.parts.pinnedParts()}; }

QStringList sessionDifferences(const SessionState& a, const SessionState& b)
{
    QStringList out;
    const std::function<void(const QString&, const QJsonValue&, const QJsonValue&)> diff =
        [&](const QString& path, const QJsonValue& x, const QJsonValue& y) {
            // A missing part (written only off its defaults: "predict") is empty: its fields are named.
            const bool xo = x.isObject() || (x.isUndefined() && y.isObject());
            const bool yo = y.isObject() || (y.isUndefined() && x.isObject());
            if (xo && yo) {
                const QJsonObject ox = x.toObject(), oy = y.toObject();
                QStringList keys = ox.keys();
                for (const QString& k : oy.keys())
                    if (!ox.contains(k))
                        keys << k;
                keys.sort();
                for (const QString& k : keys)
                    diff(path.isEmpty() ? k : path + "." + k, ox.value(k), oy.value(k));
            } else if (x != y) {
                out << path;
            }
        };
    diff({}, settingsJson(a), settingsJson(b));
    return out;
}

SessionState sessionFromJson(const QJsonObject& json)
{
    if (json.value("format").toString() != kFormat)
        badSessionField("format", QString("not an Orbit Lab session (expected \"%1\")").arg(kFormat), json.value("format"));
    const int version = readInt(json, "version", "", kVersion, 1, 1000000);
    if (version > kVersion)
        badSessionField("version", QString("written by a newer Orbit Lab (this one reads version %1)").arg(kVersion),
            json.value("version"));

    SessionState s;
    if (json.contains("data")) {
        if (!json.value("data").isObject())
            badSessionField("data", "expected an object", json.value("data"));
        const QJsonObject d = json.value("data").toObject();
        s.dataPath = readString(d, "path", "data", {});
        s.selectedIndex = readInt(d, "selected", "data", 0, 0, 1 << 30);
        if (d.contains("embedding")) {
            if (!d.value("embedding").isArray())
                badSessionField("data.embedding", "expected a list of sample indices", d.value("embedding"));
            const QJsonArray a = d.value("embedding").toArray();
            for (int i = 0; i < a.size(); ++i) {
                const double v = a.at(i).toDouble(-1.0);
                if (!a.at(i).isDouble() || v < 0 || v != std::floor(v) || v > (1 << 30))
                    badSessionField(QString("data.embedding[%1]").arg(i), "expected a sample index", a.at(i));
                s.embeddingInputs.push_back(static_cast<int>(v));
            }
        }
    }
    if (json.contains("orbit")) {
        if (!json.value("orbit").isObject())
            badSessionField("orbit", "expected an object", json.value("orbit"));
        const QJsonObject o = json.value("orbit").toObject();
        OrbitSettings& os = s.orbit;
        const QString group = readString(o, "group", "orbit", QString::fromStdString(os.group));
        requireRegistered("orbit.group", "group", group, orbit::groupDescriptors());
        os.group = group.toStdString();
        for (const auto& [g, p] : groupEditorParameters())
            os.groupValues[g + "." + p->key] = readInt(o, QString::fromStdString(g + "_" + p->key), "orbit", os.groupValue(g, p->key),
                                                       static_cast<int>(p->minimum), static_cast<int>(p->maximum));
        os.dist = distFromJson(o, "distribution", "orbit", os.dist, os.factorKind(os.group));
        for (auto& [factor, dist] : os.factorDists)
            dist = distFromJson(o, QString::fromStdString(factor), "orbit", dist, orbit::findGroup(factor)->kind);
        os.r = readInt(o, "r", "orbit", os.r, 1, 1 << 20);
        os.seed = readSeed(o, "seed", "orbit", os.seed);
        os.distPerClass = readString(o, "dist_per_class", "orbit", {}).toStdString();
        try {  // the syntax here; the classes and specs against the data where they are used
            orbit::ClassDistributions::parse(os.distPerClass, os.distSpec(), 1 << 20);
        } catch (const orbit::SpecError& e) {
            badSessionField("orbit.dist_per_class", QString::fromStdString(e.detail()), o.value("dist_per_class"));
        }
    }
    s.training = trainingFromJson(json);
    s.parts = SessionParts::fromJson(json, kSessionKeys);
    s.panel = readString(json, "panel", "", {});
    if (json.contains("pinned"))
        s.pinned = pinnedFromJson(json.value("pinned"));
    return s;
}

QString saveSession(const QString& path, const SessionState& s)
{
    return writeAtomically(path, QJsonDocument(toJson(s)).toJson(QJsonDocument::Indented));
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

} // namespace orbitui
