#include "state/SampleData.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace orbitui {

QStringList sampleDataDirectories()
{
    const QString app = QCoreApplication::applicationDirPath();
    return {app + "/data", app + "/../share/orbitlab/data", QStringLiteral(ORBIT_RESOURCE_DATA_DIR)};
}

QString findSampleData(const QString& fileName)
{
    for (const QString& dir : sampleDataDirectories()) {
        const QFileInfo info(QDir(dir).filePath(fileName));
        if (info.isFile())
            return info.canonicalFilePath();
    }
    return {};
}

} // namespace orbitui
