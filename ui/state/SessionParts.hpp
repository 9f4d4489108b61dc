#pragma once
// A panel's own part of the session: its settings struct, kept in a session under its key ("kernels")
// and read and written by the struct itself. The session (state/Session.hpp) goes over the parts
// instead of naming each, so a panel that brings its settings adds no member and no reader here or
// in Session.cpp: its struct and its line (window/panels/PanelDescriptor.hpp, `.session<S>()`).
//
// A part S is a value type with
//
//   static constexpr const char* kSessionKey = "kernels";  // its object in a session file
//   static constexpr bool kPinned = true;   // it belongs to A of an A/B comparison (state/Comparison.hpp)
//   QJsonObject toJson() const;             // its object; empty: left out of the file
//   static S fromJson(const QJsonObject&);  // missing fields keep their defaults; a malformed one
//                                           // throws orbit::SpecError naming "<key>.<field>"
//   bool operator==(const S&) const;
//
// A part is registered before main() in every program that uses it (SessionParts::get or edit, or
// the panel line that keeps it). A session's object that no registered part reads (a file written by
// a program with more panels) is kept as it was found: written back unchanged, compared as JSON.
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace orbitui {

/// One part's value, whatever its type.
class PartValue {
public:
    virtual ~PartValue() = default;
    virtual QJsonObject toJson() const = 0;
    virtual std::unique_ptr<PartValue> clone() const = 0;
    /// Whether this equals `other`, or the part's defaults when `other` is null.
    virtual bool equals(const PartValue* other) const = 0;
};

namespace parts_detail {

template <typename S>
class Typed final : public PartValue {
public:
    explicit Typed(S v) : value(std::move(v)) {}
    QJsonObject toJson() const override { return value.toJson(); }
    std::unique_ptr<PartValue> clone() const override { return std::make_unique<Typed>(value); }
    bool equals(const PartValue* other) const override
    {
        if (!other)
            return value == S{};
        const auto* t = dynamic_cast<const Typed*>(other);
        return t ? value == t->value : toJson() == other->toJson();
    }
    S value;
};

} // namespace parts_detail

/// How a registered part is read and what its defaults are.
struct SessionPartCodec {
    std::string key;
    bool pinned = false;
    /// The part read from its object (throws orbit::SpecError naming "<key>.<field>").
    std::function<std::unique_ptr<PartValue>(const QJsonObject&)> read;
    /// The part at its defaults.
    std::function<std::unique_ptr<PartValue>()> defaults;
};

/// Registers `codec` (again: replaces the one of its key). Not thread-safe: at static initialisation.
void registerSessionPart(SessionPartCodec codec);
/// The registered parts, by key.
const std::map<std::string, SessionPartCodec>& sessionPartCodecs();
/// The codec of part S.
template <typename S>
SessionPartCodec sessionPartCodec()
{
    return {S::kSessionKey, S::kPinned,
            [](const QJsonObject& o) -> std::unique_ptr<PartValue> { return std::make_unique<parts_detail::Typed<S>>(S::fromJson(o)); },
            []() -> std::unique_ptr<PartValue> { return std::make_unique<parts_detail::Typed<S>>(S{}); }};
}

namespace parts_detail {
/// Registers S before main(), in every program that uses it.
template <typename S>
inline const bool kRegistered = (registerSessionPart(sessionPartCodec<S>()), true);
} // namespace parts_detail

/// The panels' parts of one session (or of a pinned A), each a value: copies are deep.
class SessionParts {
public:
    SessionParts() = default;
    SessionParts(const SessionParts& other);
    SessionParts& operator=(const SessionParts& other);
    SessionParts(SessionParts&&) noexcept = default;
    SessionParts& operator=(SessionParts&&) noexcept = default;

    /// Part S as kept, or at its defaults.
    template <typename S>
    const S& get() const
    {
        (void)parts_detail::kRegistered<S>;
        static const S defaults{};
        const auto* t = typed<S>();
        return t ? t->value : defaults;
    }
    /// Part S to change (kept from now on, at its defaults if it was not).
    template <typename S>
    S& edit()
    {
        (void)parts_detail::kRegistered<S>;
        if (auto* t = const_cast<parts_detail::Typed<S>*>(typed<S>()))
            return t->value;
        auto made = std::make_unique<parts_detail::Typed<S>>(S{});
        S& value = made->value;
        parts_[S::kSessionKey] = std::move(made);
        return value;
    }

    /// Every registered part present in `file` (a session's top-level object), and every other object
    /// under a key none of `ownKeys` names kept as it is. A part whose value is not an object is
    /// refused by its key.
    static SessionParts fromJson(const QJsonObject& file, const QStringList& ownKeys);
    /// Writes each part into `file` under its key (a registered part not kept: its defaults), but
    /// those whose object is empty. `pinnedOnly`: the parts of a pinned A alone.
    void writeTo(QJsonObject& file, bool pinnedOnly = false) const;
    /// The pinned parts alone (what A of a comparison keeps), and the objects kept unread (pinned or
    /// not in the program that wrote them).
    SessionParts pinnedParts() const;

    /// Equal when every part is: a part kept by one side only equals the other's defaults.
    bool operator==(const SessionParts& other) const;

private:
    template <typename S>
    const parts_detail::Typed<S>* typed() const
    {
        const auto it = parts_.find(S::kSessionKey);
        if (it == parts_.end())
            return nullptr;
        if (const auto* t = dynamic_cast<const parts_detail::Typed<S>*>(it->second.get()))
            return t;
        unregisteredPart(S::kSessionKey);  // cannot be: S registered before main()
    }
    [[noreturn]] static void unregisteredPart(const char* key);

    std::map<std::string, std::unique_ptr<PartValue>> parts_;
};

} // namespace orbitui
