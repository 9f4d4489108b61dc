#pragma once
// Where the bundled sample data lives: next to the executable (data/, copied at build time), in
// the install tree (../share/orbitlab/data), or in the source tree (resources/data).
#include <QString>
#include <QStringList>

namespace orbitui {

/// Directories searched for sample data, in order.
QStringList sampleDataDirectories();
/// The absolute path of a bundled sample file, or empty when none of the directories holds it.
QString findSampleData(const QString& fileName);
/// The dataset the application opens with (the handwritten digits).
inline QString defaultSampleFile() { return QStringLiteral("digits.png"); }

} // namespace orbitui
