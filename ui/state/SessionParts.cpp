#include "state/SessionParts.hpp"

#include "state/JsonFields.hpp"

#include <set>
#include <stdexcept>

namespace orbitui {

namespace {

std::map<std::string, SessionPartCodec>& codecs()
{
    static std::map<std::string, SessionPartCodec> all;
    return all;
}

/// A part no registered codec reads: its object as it was found.
class KeptObject final : public PartValue {
public:
    explicit KeptObject(QJsonObject o) : json_(std::move(o)) {}
    QJsonObject toJson() const override { return json_; }
    std::unique_ptr<PartValue> clone() const override { return std::make_unique<KeptObject>(json_); }
    bool equals(const PartValue* other) const override { return other ? json_ == other->toJson() : json_.isEmpty(); }

private:
    QJsonObject json_;
};

} // namespace

void registerSessionPart(SessionPartCodec codec)
{
    const std::string key = codec.key;
    codecs()[key] = std::move(codec);
}

const std::map<std::string, SessionPartCodec>& sessionPartCodecs() { return codecs(); }

void SessionParts::unregisteredPart(const char* key)
{
    throw std::logic_error(std::string("session part ") + key + " was read before its type registered");
}

SessionParts::SessionParts(const SessionParts& other)
{
    for (const auto& [key, value] : other.parts_)
        parts_[key] = value->clone();
}

SessionParts& SessionParts::operator=(const SessionParts& other)
{
    if (this != &other)
        *this = SessionParts(other);
    return *this;
}

SessionParts SessionParts::fromJson(const QJsonObject& file, const QStringList& ownKeys)
{
    SessionParts parts;
    for (auto it = file.begin(); it != file.end(); ++it) {
        if (ownKeys.contains(it.key()))
            continue;
        const std::string key = it.key().toStdString();
        const auto codec = codecs().find(key);
        if (codec == codecs().end()) {
            if (it.value().isObject())
                parts.parts_[key] = std::make_unique<KeptObject>(it.value().toObject());
            continue;
        }
        if (!it.value().isObject())
            badSessionField(it.key(), "expected an object", it.value());
        parts.parts_[key] = codec->second.read(it.value().toObject());
    }
    return parts;
}

void SessionParts::writeTo(QJsonObject& file, bool pinnedOnly) const
{
    for (const auto& [key, codec] : codecs())
        if (!parts_.count(key) && (codec.pinned || !pinnedOnly))
            if (const QJsonObject o = codec.defaults()->toJson(); !o.isEmpty())
                file.insert(QString::fromStdString(key), o);
    for (const auto& [key, value] : parts_)
        if (const QJsonObject o = value->toJson(); !o.isEmpty())
            file.insert(QString::fromStdString(key), o);
}

SessionParts SessionParts::pinnedParts() const
{
    SessionParts out;
    for (const auto& [key, value] : parts_)
        if (const auto codec = codecs().find(key); codec == codecs().end() || codec->second.pinned)
            out.parts_[key] = value->clone();
    return out;
}

bool SessionParts::operator==(const SessionParts& other) const
{
    std::set<std::string> keys;
    for (const auto& p : parts_)
        keys.insert(p.first);
    for (const auto& p : other.parts_)
        keys.insert(p.first);
    for (const std::string& key : keys) {
        const auto a = parts_.find(key), b = other.parts_.find(key);
        const bool same = a == parts_.end() ? b->second->equals(nullptr)
                          : b == other.parts_.end() ? a->second->equals(nullptr)
                                                    : a->second->equals(b->second.get());
        if (!same)
            return false;
    }
    return true;
}

} // namespace orbitui
