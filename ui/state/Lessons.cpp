#include "state/Lessons.hpp"

#include "state/AnalysisSettings.hpp"
#include "state/PanelRegistry.hpp"
#include "state/SampleData.hpp"
#include "state/TrainingSettings.hpp"

#include "orbit/registry/Registry.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace orbitui {

namespace {

/// The folder the lesson files are compiled into (resources/lessons/, ui/CMakeLists.txt).
const QString kLessonFolder = QStringLiteral(":/lessons");

[[noreturn]] void refuseFile(const QString& file, const QString& where, const QString& what)
{
    throw std::logic_error("lesson file " + file.toStdString() + ": " + where.toStdString() + ": " + what.toStdString());
}

/// `base` with every value of `over` put in, objects merged key by key; an object that names
/// another thing ("distribution": {"name": "noisysort", ...}) replaces the default's whole.
QJsonObject merged(QJsonObject base, const QJsonObject& over)
{
    for (auto it = over.begin(); it != over.end(); ++it) {
        const QJsonValue old = base.value(it.key());
        const bool sameThing = old.isObject() && it->isObject() &&
                               (!it->toObject().contains("name") || it->toObject().value("name") == old.toObject().value("name"));
        base.insert(it.key(), sameThing ? QJsonValue(merged(old.toObject(), it->toObject())) : QJsonValue(*it));
    }
    return base;
}

/// Sets the session field `path` ("orbit.distribution.kappa", "predict.t") of `json`, making the
/// objects on its way (a session leaves out parts at their defaults); false when the path runs
/// through a value that is not an object. A name the session does not read changes nothing, which
/// checkLesson refuses.
bool setField(QJsonObject& json, const QStringList& path, const QJsonValue& value)
{
    if (path.isEmpty())
        return false;
    if (path.size() == 1) {
        json.insert(path.front(), value);
        return true;
    }
    QJsonValue child = json.value(path.front());
    if (child.isUndefined())
        child = QJsonObject();
    if (!child.isObject())
        return false;
    QJsonObject o = child.toObject();
    if (!setField(o, path.mid(1), value))
        return false;
    json.insert(path.front(), o);
    return true;
}

/// The session `json` describes; a field it cannot read is the lesson file's error.
SessionState sessionOf(const QJsonObject& json, const QString& file, const QString& where)
{
    try {
        return sessionFromJson(json);
    } catch (const orbit::SpecError& e) {
        refuseFile(file, where, QString::fromStdString(e.field() + ": " + e.detail() + (e.value().empty() ? "" : " (" + e.value() + ")")));
    }
}

QString readText(const QJsonObject& o, const QString& key, const QString& file, const QString& where)
{
    const QJsonValue v = o.value(key);
    if (v.isString() && !v.toString().trimmed().isEmpty())
        return v.toString();
    if (v.isArray()) {  // a step's text: its paragraphs, one string each
        QString text;
        for (const QJsonValue& part : v.toArray()) {
            if (!part.isString())
                refuseFile(file, where + "." + key, "expected text");
            text += part.toString();
        }
        if (!text.trimmed().isEmpty())
            return text;
    }
    refuseFile(file, where + "." + key, "expected text");
}

void onlyKeys(const QJsonObject& o, const QStringList& keys, const QString& file, const QString& where)
{
    for (const QString& k : o.keys())
        if (!keys.contains(k))
            refuseFile(file, where, "unknown key " + k + " (expected " + keys.join(", ") + ")");
}

} // namespace

Lesson parseLesson(const QByteArray& bytes, const QString& file)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        refuseFile(file, "byte " + QString::number(error.offset), error.errorString());
    if (!doc.isObject())
        refuseFile(file, "top level", "expected an object");
    const QJsonObject o = doc.object();
    onlyKeys(o, {"name", "title", "data", "start", "steps"}, file, "top level");
    Lesson l;
    l.name = readText(o, "name", file, "lesson");
    l.title = readText(o, "title", file, "lesson");
    l.dataFile = readText(o, "data", file, "lesson");
    if (!o.value("start").isObject())
        refuseFile(file, "start", "expected the session's fields of the first step (an object)");
    const QJsonObject start = merged(settingsJson(SessionState{}), o.value("start").toObject());
    l.start = sessionOf(start, file, "start");
    if (!o.value("steps").isArray() || o.value("steps").toArray().isEmpty())
        refuseFile(file, "steps", "expected a list of steps");
    const QJsonArray steps = o.value("steps").toArray();
    for (int i = 0; i < steps.size(); ++i) {
        const QString where = QString("steps[%1]").arg(i);
        if (!steps.at(i).isObject())
            refuseFile(file, where, "expected an object");
        const QJsonObject st = steps.at(i).toObject();
        onlyKeys(st, {"title", "set", "with", "text"}, file, where);
        LessonStep step{readText(st, "title", file, where), readText(st, "text", file, where), {}, {}, {}, {}};
        if (i == 0 && st.contains("set"))
            refuseFile(file, where, "the first step loads the lesson and changes nothing (no \"set\")");
        if (st.contains("with") && !(st.value("set").toObject().contains("data") && st.value("with").isObject()))
            refuseFile(file, where + ".with", "only a step that sets \"data\" has \"with\" (the settings that suit the new data, an object)");
        if (i > 0 && st.value("set").toObject().contains("data")) {
            // Another bundled data file, with the settings that suit it: a new scene of the lesson.
            const QJsonObject set = st.value("set").toObject();
            const QJsonValue name = set.value("data");
            if (set.size() != 1 || !name.isString() || name.toString().isEmpty() || name.toString().contains('/') ||
                name.toString().contains('\\'))
                refuseFile(file, where + ".set", "expected {\"data\": \"FILE\"} alone, FILE a bundled data file's name (resources/data)");
            const QJsonObject with = st.value("with").toObject();
            if (with.value("data").toObject().contains("path") || with.contains("format") || with.contains("version"))
                refuseFile(file, where + ".with", "expected session parts (data.selected, orbit, training, predict, panel, ...), "
                                                  "not a data path or a format");
            step.field = QStringLiteral("data.path");
            step.dataFile = name.toString();
            step.with = with.keys();
            step.change = [file = name.toString(), with](SessionState& s) {
                const QString path = findSampleData(file);
                QJsonObject json = merged(settingsJson(s), with);
                s = sessionFromJson(json);
                s.dataPath = path.isEmpty() ? file : path;  // not found: the window says the file is missing
            };
        } else if (i > 0) {
            const QJsonObject set = st.value("set").toObject();
            if (set.size() != 1)
                refuseFile(file, where + ".set", "expected exactly one session field and its value, e.g. {\"orbit.r\": 64}");
            step.field = set.begin().key();
            const QStringList path = step.field.split('.');
            const QJsonValue value = set.begin().value();
            QJsonObject probe = settingsJson(l.start);
            if (!setField(probe, path, value))
                refuseFile(file, where + ".set", "no session field " + step.field);
            step.change = [path, value](SessionState& s) {
                QJsonObject json = settingsJson(s);
                setField(json, path, value);
                s = sessionFromJson(json);
            };
        }
        l.steps.push_back(std::move(step));
    }
    try {
        checkLesson(l);
    } catch (const std::logic_error& e) {
        refuseFile(file, "lesson", QString::fromStdString(e.what()));
    } catch (const orbit::SpecError& e) {  // a step's value the session does not take
        refuseFile(file, "steps", QString::fromStdString(e.field() + ": " + e.detail() + " (" + e.value() + ")"));
    }
    return l;
}

namespace {

[[noreturn]] void refuse(const Lesson& l, int step, const std::string& what)
{
    throw std::logic_error("lesson " + l.name.toStdString() + " step " + std::to_string(step + 1) + ": " + what);
}

/// A parameter of the registry's distribution `name` on `groupName` with the value in `p`.
void checkDistribution(const Lesson& l, int step, const std::string& groupName, const DistributionParams& p)
{
    const orbit::GroupDescriptor* g = orbit::findGroup(groupName);
    if (!g)
        refuse(l, step, "no group " + groupName + " in the registry");
    const orbit::DistributionDescriptor* d = orbit::findDistribution(p.name);
    if (!d)
        refuse(l, step, "no distribution " + p.name + " in the registry");
    if (!d->appliesTo(g->kind))
        refuse(l, step, "distribution " + p.name + " does not apply to group " + groupName);
    for (const orbit::ParamDescriptor& param : d->parametersOn(g->kind))
        if (!param.accepts(p.value(param.key)))
            refuse(l, step, p.name + "." + param.key + " " + param.violation(p.value(param.key)));
}

bool contains(const std::vector<std::string>& list, const std::string& name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

/// Every name of the session is one the registry (or the panels) has.
void checkSession(const Lesson& l, int step, const SessionState& s)
{
    if (!orbit::findGroup(s.orbit.group))
        refuse(l, step, "no group " + s.orbit.group + " in the registry");
    for (const std::string& factor : s.orbit.factors())
        checkDistribution(l, step, factor, s.orbit.factor(factor));
    if (s.orbit.r < 1)
        refuse(l, step, "r must be >= 1");
    const TrainingSettings& t = s.training;
    if (!contains(featurePresets(), t.preset))
        refuse(l, step, "no feature map " + t.preset + " in the registry");
    if (!orbit::findLearner(t.learner))
        refuse(l, step, "no learner " + t.learner + " in the registry");
    if (!orbit::findEvaluation(t.eval))
        refuse(l, step, "no evaluation " + t.eval + " in the registry");
    const std::vector<std::string> axes = localityAxes(s.orbit);
    if (!t.localityAxis.empty() && !contains(axes, t.localityAxis))
        refuse(l, step, "sweep axis " + t.localityAxis + " is not a parameter of " + s.orbit.distSpec());
    for (const std::string& p : t.learn)
        if (!contains(axes, p))
            refuse(l, step, "learn " + p + " is not a parameter of " + s.orbit.distSpec());
    for (const QString& m : {s.part<KernelsSettings>().method, s.part<ApproximationSettings>().method})
        if (!orbit::findFeatureMap(m.toStdString()))
            refuse(l, step, "no feature map " + m.toStdString() + " in the registry");
    if (!lessonPanelNames().contains(s.panel))
        refuse(l, step, "no panel " + s.panel.toStdString());
}

} // namespace

void checkLesson(const Lesson& l)
{
    if (l.steps.empty() || l.steps.front().change)
        refuse(l, 0, "the first step loads the lesson and changes nothing");
    SessionState s = l.start;
    checkSession(l, 0, s);
    for (int i = 1; i < static_cast<int>(l.steps.size()); ++i) {
        const LessonStep& st = l.steps[static_cast<std::size_t>(i)];
        if (!st.change)
            refuse(l, i, "a step after the first must change a setting");
        SessionState next = s;
        st.change(next);
        const QStringList diff = sessionDifferences(s, next);
        // A data step may also change what its `with` names (the settings that suit the new data).
        QStringList beyond = diff;
        beyond.removeIf([&st](const QString& f) {
            return f != st.field && std::any_of(st.with.begin(), st.with.end(), [&f](const QString& w) { return f == w || f.startsWith(w + "."); });
        });
        if (beyond != QStringList{st.field} || !diff.contains(st.field))
            refuse(l, i, "changes {" + diff.join(", ").toStdString() + "}, not exactly " + st.field.toStdString() +
                             (st.with.isEmpty() ? std::string() : " and what its \"with\" names"));
        checkSession(l, i, next);
        s = next;
    }
}

const std::vector<Lesson>& lessons()
{
    static const std::vector<Lesson> table = [] {
        std::vector<Lesson> t;
        QStringList files = QDir(kLessonFolder).entryList({"*.json"}, QDir::Files, QDir::Name);  // 01-orbit.json, ...
        for (const QString& name : files) {
            QFile f(kLessonFolder + "/" + name);
            if (!f.open(QIODevice::ReadOnly))
                refuseFile(name, "file", "cannot be read");
            t.push_back(parseLesson(f.readAll(), name));
        }
        if (t.empty())
            throw std::logic_error("no lesson files in " + kLessonFolder.toStdString());
        return t;
    }();
    return table;
}

int findLesson(const QString& nameOrNumber)
{
    const auto& t = lessons();
    bool number = false;
    const int n = nameOrNumber.toInt(&number);
    if (number)
        return n >= 1 && n <= static_cast<int>(t.size()) ? n - 1 : -1;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (t[i].name.compare(nameOrNumber, Qt::CaseInsensitive) == 0)
            return static_cast<int>(i);
    return -1;
}

SessionState sessionAt(const Lesson& lesson, int step, const QString& dataPath)
{
    SessionState s = lesson.start;
    s.dataPath = dataPath;
    for (int i = 1; i <= step && i < static_cast<int>(lesson.steps.size()); ++i)
        lesson.steps[static_cast<std::size_t>(i)].change(s);
    return s;
}

QStringList lessonPanelNames() { return registeredPanelNames(); }

} // namespace orbitui
