#pragma once
// Text taken from files and arguments, made safe to print: a message that quotes it stays one line
// of printable UTF-8 of bounded length, whatever bytes the file or argument held. A file cannot
// clear the terminal (ESC[2J), retitle the window (ESC]0;...BEL), reorder what the reader sees
// (U+202E) or fill the screen (a 1 MB field).
#include <cstddef>
#include <string>
#include <string_view>

namespace orbit {

/// The longest value a message quotes, in characters.
inline constexpr std::size_t kQuoteMaxChars = 60;
/// The longest file path a message quotes, in characters (its start and end are kept).
inline constexpr std::size_t kPathMaxChars = 160;

/// `raw` as printable text. Valid printable UTF-8 is kept as is; everything else is escaped:
///   - a byte that is not part of valid UTF-8 (stray continuation bytes, overlong forms, surrogates,
///     code points above U+10FFFF), a C0 control (< 0x20) and DEL (0x7f) -> `\xHH`;
///   - C1 controls (U+0080..U+009F), bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E,
///     U+2066..U+2069), invisible separators and joiners (U+200B..U+200D, U+2028, U+2029, U+2060,
///     U+FEFF) -> `\uHHHH`.
/// Backslashes are kept, so the function is idempotent (safeText(safeText(x)) == safeText(x)) and a
/// message can be passed through it again by whoever prints it.
/// maxChars > 0: a result longer than maxChars characters is cut to at most maxChars characters,
/// the last being "…"; an escape is never split.
std::string safeText(std::string_view raw, std::size_t maxChars = 0);
/// The same; `cut` says whether the text had to be cut. Reads no further into `raw` than it needs
/// to decide that, so a 1 GB value costs what a short one does.
std::string safeText(std::string_view raw, std::size_t maxChars, bool& cut);

/// A file path for a message: safeText, and a path longer than maxChars characters keeps its start
/// and its end (the file name) around a "…".
std::string safePath(std::string_view raw, std::size_t maxChars = kPathMaxChars);

/// A value for a message: `'text'`, or `'tex…' (1048576 bytes)` when it had to be cut.
std::string quoteValue(std::string_view raw, std::size_t maxChars = kQuoteMaxChars);

/// True if `text` is valid UTF-8 without any character safeText escapes (the property every
/// message of the core has; the tests and fuzzers check it).
bool isSafeText(std::string_view text);

} // namespace orbit
