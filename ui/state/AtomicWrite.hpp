#pragma once
// Writing a file all or nothing: sessions and the working state (its autosave) both go through it.
#include <QByteArray>
#include <QString>

namespace orbitui {

/// Writes `bytes` to `path` all or nothing: a temporary file beside it, flushed to the disk
/// (fdatasync), then renamed over `path`. A kill at any moment leaves the old file or the new one.
/// Returns an error message or empty.
QString writeAtomically(const QString& path, const QByteArray& bytes);

} // namespace orbitui
