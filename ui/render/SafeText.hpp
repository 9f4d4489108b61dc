#pragma once
// orbit::safeText for the widgets: text from files and arguments shown with its control, bidi and
// invalid characters escaped (see orbit/util/SafeText.hpp). Labels that show it use Qt::PlainText.
#include "orbit/util/SafeText.hpp"

#include <QString>

#include <string>

namespace orbitui {

/// Raw bytes (a path or a name as the core holds it) as safe text; maxChars > 0 cuts it short.
inline QString safeText(const std::string& raw, std::size_t maxChars = 0)
{
    return QString::fromStdString(orbit::safeText(raw, maxChars));
}
/// The same for a QString (idempotent: a message escaped by the core passes unchanged).
inline QString safeText(const QString& text, std::size_t maxChars = 0) { return safeText(text.toStdString(), maxChars); }
/// A path for a message: escaped, and cut around a "…" when very long (orbit::safePath).
inline QString safePath(const QString& path) { return QString::fromStdString(orbit::safePath(path.toStdString())); }

} // namespace orbitui
