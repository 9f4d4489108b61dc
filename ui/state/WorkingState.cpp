#include "state/WorkingState.hpp"

#include "state/Comparison.hpp"
#include "state/JsonFields.hpp"

#include "orbit/util/Error.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace orbitui {

namespace {

constexpr char kWorkingStateFormat[] = "orbitlab-working-state";
constexpr int kWorkingStateVersion = 1;
constexpr char kFileName[] = "working-state.json";

/// A session object read as a session file is, its errors named under `field` ("session.orbit.r").
SessionState sessionAt(const QJsonValue& v, const QString& field)
{
    if (!v.isObject())
        badSessionField(field, "expected an object", v);
    try {
        return sessionFromJson(v.toObject());
    } catch (const orbit::SpecError& e) {
        throw orbit::SpecError(field.toStdString() + "." + e.field(), e.detail(), e.value());
    }
}

QDateTime readTime(const QJsonObject& o, const QString& key, const QString& field)
{
    if (!o.contains(key))
        return {};
    const QDateTime t = QDateTime::fromString(o.value(key).toString(), Qt::ISODateWithMs);
    if (!o.value(key).isString() || !t.isValid())
        badSessionField(field, "expected a date and time (ISO 8601)", o.value(key));
    return t.toUTC();
}

QString readText(const QJsonObject& o, const QString& key, const QString& field)
{
    if (!o.contains(key))
        return {};
    if (!o.value(key).isString())
        badSessionField(field, "expected a string", o.value(key));
    return o.value(key).toString();
}

} // namespace

bool WorkingState::sessionModified() const
{
    if (sessionFile.isEmpty() || !savedSession)
        return false;
    SessionState now = session, saved = *savedSession;
    now.panel = saved.panel;  // looking at another panel changes nothing
    return !sessionDifferences(saved, now).isEmpty();
}

QJsonObject toJson(const WorkingState& w)
{
    QJsonObject json{{"format", kWorkingStateFormat}, {"version", kWorkingStateVersion}, {"session", toJson(w.session)}, {"clean_exit", w.cleanExit}};
    if (w.savedAt.isValid())
        json.insert("saved_at", w.savedAt.toUTC().toString(Qt::ISODateWithMs));
    if (!w.sessionFile.isEmpty())
        json.insert("session_file", w.sessionFile);
    if (w.savedSession)
        json.insert("saved_session", toJson(*w.savedSession));
    if (w.lesson >= 0)
        json.insert("lesson", QJsonObject{{"index", w.lesson}, {"step", w.lessonStep}});
    if (w.learnUndo) {
        SessionState undo;
        undo.orbit = *w.learnUndo;
        json.insert("learn_undo", toJson(undo).value("orbit"));
    }
    if (!w.learned.isEmpty() || w.learnedAt.isValid()) {
        QJsonObject learned{{"text", w.learned}};
        if (w.learnedAt.isValid())  // an absent time reads back as none; an empty one would be refused
            learned.insert("at", w.learnedAt.toUTC().toString(Qt::ISODateWithMs));
        if (!w.learnPicture.empty())
            learned.insert("picture", toJson(w.learnPicture));
        json.insert("learned", learned);
    }
    if (!w.trained.isEmpty())
        json.insert("trained", w.trained);
    QJsonObject view;
    if (!w.groupFactor.isEmpty())
        view.insert("group_factor", w.groupFactor);
    if (w.thumbnailSize > 0)
        view.insert("thumbnail_size", w.thumbnailSize);
    if (!view.isEmpty())
        json.insert("view", view);
    return json;
}

WorkingState workingStateFromJson(const QJsonObject& json)
{
    if (json.value("format").toString() != kWorkingStateFormat)
        badSessionField("format", QString("not an Orbit Lab working state (expected \"%1\")").arg(kWorkingStateFormat), json.value("format"));
    const QJsonValue version = json.value("version");
    if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble()) || version.toDouble() < 1)
        badSessionField("version", "expected a positive integer", version);
    if (version.toDouble() > kWorkingStateVersion)
        badSessionField("version", QString("written by a newer Orbit Lab (this one reads version %1)").arg(kWorkingStateVersion), version);

    WorkingState w;
    if (!json.contains("session"))
        badSessionField("session", "missing", QJsonValue());
    w.session = sessionAt(json.value("session"), "session");
    w.sessionFile = readText(json, "session_file", "session_file");
    if (json.contains("saved_session"))
        w.savedSession = sessionAt(json.value("saved_session"), "saved_session");
    if (json.contains("lesson")) {
        const QJsonObject l = json.value("lesson").toObject();
        const QJsonValue index = l.value("index"), step = l.value("step");
        if (!json.value("lesson").isObject() || !index.isDouble() || index.toInt(-1) < 0)
            badSessionField("lesson.index", "expected a lesson number from 0", index);
        if (!step.isDouble() || step.toInt(-1) < 0)
            badSessionField("lesson.step", "expected a step number from 0", step);
        w.lesson = index.toInt();
        w.lessonStep = step.toInt();
    }
    if (json.contains("learn_undo")) {
        const QJsonObject session{{"format", "orbitlab-session"}, {"version", 1}, {"orbit", json.value("learn_undo")}};
        w.learnUndo = sessionAt(session, "learn_undo").orbit;
    }
    if (json.contains("learned")) {
        if (!json.value("learned").isObject())
            badSessionField("learned", "expected an object", json.value("learned"));
        const QJsonObject l = json.value("learned").toObject();
        w.learned = readText(l, "text", "learned.text");
        w.learnedAt = readTime(l, "at", "learned.at");
        if (l.contains("picture")) {
            if (!l.value("picture").isObject())
                badSessionField("learned.picture", "expected an object", l.value("picture"));
            w.learnPicture = learnPictureFromJson(l.value("picture").toObject(), "learned.picture");
        }
    }
    w.trained = readText(json, "trained", "trained");
    if (json.contains("view")) {
        if (!json.value("view").isObject())
            badSessionField("view", "expected an object", json.value("view"));
        const QJsonObject v = json.value("view").toObject();
        w.groupFactor = readText(v, "group_factor", "view.group_factor");
        if (v.contains("thumbnail_size")) {
            const QJsonValue px = v.value("thumbnail_size");
            if (!px.isDouble() || px.toDouble() != std::floor(px.toDouble()) || px.toDouble() < kMinThumbnailSize ||
                px.toDouble() > kMaxThumbnailSize)
                badSessionField("view.thumbnail_size", QString("expected whole pixels from %1 to %2").arg(kMinThumbnailSize).arg(kMaxThumbnailSize), px);
            w.thumbnailSize = px.toInt();
        }
    }
    w.savedAt = readTime(json, "saved_at", "saved_at");
    if (!json.value("clean_exit").isBool())
        badSessionField("clean_exit", "expected true or false", json.value("clean_exit"));
    w.cleanExit = json.value("clean_exit").toBool();
    return w;
}

QString describe(const WorkingState& w)
{
    QStringList parts;
    if (!w.session.dataPath.isEmpty())
        parts << QFileInfo(w.session.dataPath).fileName();
    parts << Comparison::describe(w.session.orbit);
    if (w.lesson >= 0)
        parts << QObject::tr("lesson %1, step %2").arg(w.lesson + 1).arg(w.lessonStep + 1);
    if (w.session.pinned)
        parts << QObject::tr("A pinned (%1)").arg(Comparison::describe(w.session.pinned->orbit));
    QString text = parts.join(", ");
    if (w.learnedAt.isValid() && w.savedAt.isValid()) {
        const qint64 minutes = std::max<qint64>(0, w.learnedAt.secsTo(w.savedAt)) / 60;
        text += "; " + (minutes == 0 ? QObject::tr("learned less than a minute before the end")
                                     : QObject::tr("learned %1 min before the end").arg(minutes));
    }
    if (!w.trained.isEmpty())
        text += "; " + QObject::tr("trained");
    return text;
}

StateStore::StateStore(QString directory, QObject* parent)
    : QObject(parent), directory_(std::move(directory)), writer_([this] { writerLoop(); })
{
}

StateStore::~StateStore()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    writer_.join();
}

QString StateStore::filePath() const { return QDir(directory_).filePath(kFileName); }

bool StateStore::acquire()
{
    if (holdsLock())
        return true;
    if (!QDir().mkpath(directory_))
        return false;
    lock_ = std::make_unique<QLockFile>(QDir(directory_).filePath("working-state.lock"));
    lock_->setStaleLockTime(0);  // a lock is stale only when its process is gone, however old
    if (!lock_->tryLock(0))
        return false;
    // A process killed while writing leaves its temporary file beside the state (QSaveFile's
    // working-state.json.XXXXXX); with the lock held, no one else is writing one.
    for (const QString& name : QDir(directory_).entryList({QString(kFileName) + ".??????"}, QDir::Files | QDir::Hidden))
        QFile::remove(QDir(directory_).filePath(name));
    return true;
}

StateStore::Previous StateStore::readPrevious()
{
    Previous p;
    QFile file(filePath());
    if (!file.exists())
        return p;
    const auto refuse = [&](const QString& what) {
        p.kind = Previous::Kind::Refused;
        p.message = QObject::tr("The saved working state %1 was not used (%2); starting clean.").arg(filePath(), what);
        QFile::remove(filePath() + ".bad");
        QFile::rename(filePath(), filePath() + ".bad");
        return p;
    };
    if (!file.open(QIODevice::ReadOnly))
        return refuse(file.errorString());
    if (file.size() > (64 << 20))
        return refuse(QObject::tr("%1 bytes is far too large").arg(file.size()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    file.close();
    if (doc.isNull() || !doc.isObject())
        return refuse(doc.isNull() ? QObject::tr("offset %1: not valid JSON: %2").arg(error.offset).arg(error.errorString())
                                   : QObject::tr("not a JSON object"));
    try {
        p.state = workingStateFromJson(doc.object());
    } catch (const std::exception& e) {
        return refuse(QString::fromUtf8(e.what()));
    }
    p.kind = p.state.cleanExit ? Previous::Kind::Clean : Previous::Kind::Unclean;
    return p;
}

void StateStore::schedule(const WorkingState& state)
{
    if (!holdsLock() || sealed_)
        return;
    const QByteArray bytes = QJsonDocument(toJson(state)).toJson(QJsonDocument::Compact);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pending_ = bytes;
    }
    wake_.notify_all();
}

QString StateStore::writeNow(const WorkingState& state)
{
    if (!holdsLock())
        return QObject::tr("%1: another Orbit Lab is using it").arg(directory_);
    {
        // Nothing older may land after this one: drop what is pending and wait for the write under way.
        std::unique_lock<std::mutex> lock(mutex_);
        pending_.reset();
        done_.wait(lock, [this] { return !writing_; });
    }
    sealed_ = state.cleanExit;  // a clean quit's state is the last word
    const QString error = writeAtomically(filePath(), QJsonDocument(toJson(state)).toJson(QJsonDocument::Compact));
    std::lock_guard<std::mutex> lock(mutex_);
    if (error.isEmpty())
        ++writes_;
    return error;
}

int StateStore::writes() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return writes_;
}

void StateStore::writerLoop()
{
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stop_ || pending_.has_value(); });
        if (!pending_)
            return;  // stopping with nothing left to write
        const QByteArray bytes = std::move(*pending_);
        pending_.reset();
        writing_ = true;
        lock.unlock();
        const QString error = writeAtomically(filePath(), bytes);
        if (!error.isEmpty())
            emit writeFailed(error);
        lock.lock();
        writing_ = false;
        if (error.isEmpty())
            ++writes_;
        done_.notify_all();
    }
}

} // namespace orbitui
