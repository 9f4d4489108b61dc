#include "state/Share.hpp"

#include "orbit/util/Error.hpp"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

#include <zlib.h>

namespace orbitui {

namespace {

/// Far above any session (a few kB of JSON); refuses a paste that would inflate into gigabytes.
constexpr qsizetype kMaxJsonBytes = 4 << 20;
constexpr qsizetype kMaxTextChars = 1 << 20;

constexpr auto kBase64 = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;

[[noreturn]] void bad(const std::string& detail, const QString& value = {})
{
    throw orbit::SpecError("setting", detail, value.toStdString());
}

QByteArray compressed(const QByteArray& in)
{
    uLongf size = compressBound(static_cast<uLong>(in.size()));
    QByteArray out(static_cast<qsizetype>(size), Qt::Uninitialized);
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(in.constData()),
                  static_cast<uLong>(in.size()), Z_BEST_COMPRESSION) != Z_OK)
        throw orbit::ContractError("encodeSetting", "zlib could not compress the session");
    out.truncate(static_cast<qsizetype>(size));
    return out;
}

/// The zlib stream `in` inflated, at most kMaxJsonBytes; the whole of `in` must be one stream.
QByteArray inflated(const QByteArray& in)
{
    z_stream z{};
    if (inflateInit(&z) != Z_OK)
        throw orbit::ContractError("decodeSetting", "zlib could not start");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.constData()));
    z.avail_in = static_cast<uInt>(in.size());
    QByteArray out;
    char buffer[16384];
    int status = Z_OK;
    while (status == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        status = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, static_cast<qsizetype>(sizeof buffer - z.avail_out));
        if (out.size() > kMaxJsonBytes) {
            inflateEnd(&z);
            bad("inflates to more than " + std::to_string(kMaxJsonBytes >> 20) + " MB: not a setting Orbit Lab wrote");
        }
    }
    const uInt left = z.avail_in;
    inflateEnd(&z);
    if (status == Z_BUF_ERROR)  // no progress possible: the input ended before the stream did
        bad("the text is cut short (copy the whole line)");
    if (status != Z_STREAM_END)
        bad("the text is damaged (its compressed data or checksum do not check out)");
    if (left != 0)
        bad("unexpected text after the end of the setting (" + std::to_string(left) + " bytes)");
    return out;
}

} // namespace

QString encodeSetting(const SessionState& s)
{
    const QByteArray json = QJsonDocument(toJson(s)).toJson(QJsonDocument::Compact);
    return QString::fromLatin1(kSettingPrefix) + QString::number(kSettingVersion) + ":" +
           QString::fromLatin1(compressed(json).toBase64(kBase64));
}

bool looksLikeSetting(const QString& text) { return text.trimmed().startsWith(QLatin1String(kSettingPrefix)); }

SessionState decodeSetting(const QString& pasted)
{
    if (pasted.size() > kMaxTextChars)
        bad("longer than " + std::to_string(kMaxTextChars) + " characters: not a setting Orbit Lab wrote",
            pasted.left(40));
    QString text = pasted;
    text.remove(QRegularExpression(QStringLiteral("\\s")));
    if (text.isEmpty())
        bad("empty: paste the line that Copy setting put on the clipboard");
    const QString prefix = QString::fromLatin1(kSettingPrefix);
    if (!text.startsWith(prefix))
        bad("does not start with " + prefix.toStdString(), text);
    const qsizetype colon = text.indexOf(':', prefix.size());
    if (colon < 0)
        bad("no version after " + prefix.toStdString(), text);
    const QString versionText = text.mid(prefix.size(), colon - prefix.size());
    bool ok = false;
    const int version = versionText.toInt(&ok);
    if (!ok || version < 1)
        bad("expected a version number after " + prefix.toStdString(), versionText);
    if (version > kSettingVersion)
        bad("version " + std::to_string(version) + " was written by a newer Orbit Lab (this one reads version " +
                std::to_string(kSettingVersion) + ")",
            versionText);
    const QString payload = text.mid(colon + 1);
    if (payload.isEmpty())
        bad("nothing after " + (prefix + versionText).toStdString() + ": (copy the whole line)");
    static const QRegularExpression outside(QStringLiteral("[^A-Za-z0-9_-]"));
    if (const auto m = outside.match(payload); m.hasMatch())
        bad("not base64url: a character outside A-Z a-z 0-9 - _ at position " +
                std::to_string(colon + 1 + m.capturedStart()),
            m.captured());
    const auto decoded = QByteArray::fromBase64Encoding(payload.toLatin1(), kBase64 | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        bad("not base64url (its length does not fit: the text is cut short?)", QString::number(payload.size()) + " characters");
    const QByteArray json = inflated(*decoded);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (doc.isNull())
        bad("not valid JSON inside (offset " + std::to_string(error.offset) + "): " + error.errorString().toStdString());
    if (!doc.isObject())
        bad("expected a JSON object inside");
    try {
        return sessionFromJson(doc.object());
    } catch (const orbit::SpecError& e) {
        throw orbit::SpecError("setting " + e.field(), e.detail(), e.value());
    }
}

} // namespace orbitui
