#pragma once
// Whole files as bytes, for the suites that compare what two runs wrote.
#include <QByteArray>
#include <QFile>
#include <QString>

namespace orbittest {

/// The bytes of the file at `path`; empty when it cannot be read.
inline QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace orbittest
