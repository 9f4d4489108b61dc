#include "orbit/util/SafeText.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace orbit {

namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026, one character

bool needsEscape(std::uint32_t cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
           (cp >= 0x2028 && cp <= 0x202e) || cp == 0x2060 || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

/// Decodes one strictly valid UTF-8 sequence at raw[i]; returns its length (0 if invalid).
std::size_t decode(std::string_view raw, std::size_t i, std::uint32_t& cp)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(raw[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xbf;  // the allowed range of the second byte
    if (b0 >= 0xc2 && b0 <= 0xdf) len = 2, cp = b0 & 0x1f;
    else if (b0 == 0xe0) len = 3, lo = 0xa0, cp = 0;
    else if (b0 >= 0xe1 && b0 <= 0xec) len = 3, cp = b0 & 0x0f;
    else if (b0 == 0xed) len = 3, hi = 0x9f, cp = 0x0d;  // no UTF-16 surrogates
    else if (b0 >= 0xee && b0 <= 0xef) len = 3, cp = b0 & 0x0f;
    else if (b0 == 0xf0) len = 4, lo = 0x90, cp = 0;
    else if (b0 >= 0xf1 && b0 <= 0xf3) len = 4, cp = b0 & 0x07;
    else if (b0 == 0xf4) len = 4, hi = 0x8f, cp = 4;  // nothing above U+10FFFF
    else return 0;
    if (i + len > raw.size()) return 0;
    for (std::size_t k = 1; k < len; ++k) {
        const unsigned char b = byte(i + k);
        if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xbf)) return 0;
        cp = (cp << 6) | (b & 0x3f);
    }
    return len;
}

/// One character of the output: the raw bytes [begin, begin + size) kept, or their escape.
struct Unit {
    std::size_t begin = 0, size = 0;
    std::uint32_t escaped = 0;  // 0: kept; else 1 + the byte (\xHH) or 0x1000000 + the code point (\uHHHH)
    std::size_t chars() const { return escaped == 0 ? 1 : escaped < 0x1000000 ? 4 : 6; }
};

Unit unitAt(std::string_view raw, std::size_t i)
{
    Unit u;
    u.begin = i;
    std::uint32_t cp = 0;
    u.size = decode(raw, i, cp);
    if (u.size == 0) {
        u.size = 1;
        u.escaped = 1 + static_cast<unsigned char>(raw[i]);
    } else if (needsEscape(cp)) {
        u.escaped = cp < 0x80 ? 1 + cp : 0x1000000 + cp;
    }
    return u;
}

void append(std::string& out, std::string_view raw, const Unit& u)
{
    if (u.escaped == 0) {
        out.append(raw.substr(u.begin, u.size));
        return;
    }
    char buffer[16];
    if (u.escaped < 0x1000000) std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(u.escaped - 1));
    else std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(u.escaped - 0x1000000));
    out += buffer;
}

} // namespace

std::string safeText(std::string_view raw, std::size_t maxChars, bool& cut)
{
    cut = false;
    std::string out;
    std::size_t used = 0;     // characters appended
    std::size_t pending = 0;  // raw position of the first unit not yet appended (beyond the budget)
    std::size_t pendingChars = 0;
    for (std::size_t i = 0; i < raw.size();) {
        const Unit u = unitAt(raw, i);
        i += u.size;
        if (maxChars == 0 || (pendingChars == 0 && used + u.chars() <= maxChars - 1)) {
            append(out, raw, u);
            used += u.chars();
            pending = i;
            continue;
        }
        // Over the budget for "text…": keep the units aside until we know whether all fit.
        pendingChars += u.chars();
        if (used + pendingChars > maxChars) {
            cut = true;
            out += kEllipsis;
            return out;
        }
    }
    // Everything fits into maxChars: the units kept aside are appended after all.
    for (std::size_t i = pending; i < raw.size();) {
        const Unit u = unitAt(raw, i);
        append(out, raw, u);
        i += u.size;
    }
    return out;
}

std::string safeText(std::string_view raw, std::size_t maxChars)
{
    bool cut = false;
    return safeText(raw, maxChars, cut);
}

std::string safePath(std::string_view raw, std::size_t maxChars)
{
    bool cut = false;
    std::string whole = safeText(raw, maxChars, cut);
    if (!cut) return whole;
    std::vector<Unit> us;
    for (std::size_t i = 0; i < raw.size();) {
        us.push_back(unitAt(raw, i));
        i += us.back().size;
    }
    const std::size_t headBudget = (maxChars - 1) / 3;
    std::size_t head = 0, used = 0;
    while (head < us.size() && used + us[head].chars() <= headBudget) used += us[head++].chars();
    std::size_t tailBudget = maxChars - 1 - used, tail = us.size();
    while (tail > head && us[tail - 1].chars() <= tailBudget) tailBudget -= us[--tail].chars();
    std::string out;
    for (std::size_t k = 0; k < head; ++k) append(out, raw, us[k]);
    out += kEllipsis;
    for (std::size_t k = tail; k < us.size(); ++k) append(out, raw, us[k]);
    return out;
}

std::string quoteValue(std::string_view raw, std::size_t maxChars)
{
    bool cut = false;
    std::string out = "'" + safeText(raw, maxChars, cut) + "'";
    if (cut) out += " (" + std::to_string(raw.size()) + " bytes)";
    return out;
}

bool isSafeText(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t cp = 0;
        const std::size_t len = decode(text, i, cp);
        if (len == 0 || needsEscape(cp)) return false;
        i += len;
    }
    return true;
}

} // namespace orbit
