#pragma once
// Shareable settings: a whole session as one line of text, like TensorFlow Playground's link, for a
// desktop app. Copy setting (Edit menu) writes it, File ▸ Open setting… and `orbitlab --setting TEXT`
// read it. (The CLI line that recomputes a panel is state/commands/CliCommand.hpp.)
#include "state/Session.hpp"

#include <QString>

namespace orbitui {

/// The text every setting starts with; the version follows it: "orbitlab-setting:1:".
inline constexpr char kSettingPrefix[] = "orbitlab-setting:";
/// The version this build writes and the newest it reads.
inline constexpr int kSettingVersion = 1;

/// "orbitlab-setting:1:" followed by base64url (RFC 4648 §5, no padding) of the zlib-compressed
/// compact JSON of toJson(s) (qCompress: a 4-byte big-endian length, then the zlib stream with its
/// checksum). Guarantees: one line of [A-Za-z0-9_:-], no spaces (safe in chat, e-mail, a shell
/// argument), and decodeSetting(encodeSetting(s)) == s for every session sessionFromJson accepts.
QString encodeSetting(const SessionState& s);

/// The session of a setting text. Whitespace anywhere in `text` (a pasted line wrapped by a mail
/// client, a trailing newline) is ignored. Throws orbit::SpecError naming what is wrong, one line:
/// field "setting" for the envelope (empty, wrong prefix, unknown version, bad base64, cut short
/// or damaged, too large, not JSON), field "setting <session field>" (e.g. "setting orbit.r") with
/// sessionFromJson's detail and value for a malformed field. Nothing is applied on failure.
SessionState decodeSetting(const QString& text);

/// True when `text` (trimmed) starts with kSettingPrefix: what the Open setting dialog pre-fills
/// from the clipboard.
bool looksLikeSetting(const QString& text);

} // namespace orbitui
