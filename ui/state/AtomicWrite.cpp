#include "state/AtomicWrite.hpp"

#include <QSaveFile>

#include <unistd.h>

namespace orbitui {

QString writeAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString("%1: cannot write: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size() || !file.flush())
        return QString("%1: cannot write: %2").arg(path, file.errorString());
    if (::fdatasync(file.handle()) != 0)  // the new content is on the disk before the rename
        return QString("%1: cannot write: fdatasync failed").arg(path);
    if (!file.commit())
        return QString("%1: cannot write: %2").arg(path, file.errorString());
    return {};
}

} // namespace orbitui
