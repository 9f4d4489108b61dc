// The core's folders are layers (docs/design.md, "Targets and layers"): a file of core/src/<area>/ or
// core/include/orbit/<area>/ includes only its own area and the areas before it in kOrder. All of
// them compile into one library, so nothing but this suite stops an include against the order; it
// reads every #include of core/src and core/include and names each one that runs upward, with its
// file, line and the two areas.
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTest>

namespace {

/// The areas from the bottom. An area may include itself and the areas before it, never one after.
///  - util: errors, spec strings, random engines, the compute budget, progress and cancellation;
///  - data: loaders and Dataset; linalg: the products and factorisations of the hot paths, the Gram
///    matrices; parallel: the ranks of a job and the block sums over them;
///  - analysis: PCA and k-means; evaluation: splits, metrics, grids, learning curves;
///  - registry: the descriptors, which the spec parsers of the areas above read;
///  - groups, distributions, orbits (the sampler), kernels, features, learn: the mathematics;
///  - models: saved models; training: `train`, `experiment`, the exact kernel machines;
///  - locality: learning the distribution by the evidence; figures: what the panels and the CLI's
///    figure commands show; bench: the speed of the hot paths.
const QStringList kOrder{"util",  "data",     "linalg",   "parallel", "analysis", "evaluation",
                         "registry", "groups", "distributions", "orbits", "kernels",  "features",
                         "learn", "models",   "training", "locality", "figures",  "bench"};

/// The area of an include written in a file of `from` (an area), or empty for a header of the same
/// folder or one outside the core (<Eigen/Core>, "linear.h"): "orbit/<area>/X.hpp" (public) or
/// "<area>/X.hpp" (private, beside the sources).
QString areaOf(const QString& target)
{
    if (target.startsWith('<'))
        return {};
    const QStringList parts = target.split('/');
    if (parts.size() >= 3 && parts[0] == "orbit")
        return parts[1];
    if (parts.size() == 2)
        return parts[0];
    return {};
}

/// Why a file of area `from` may not include `target`, or empty when it may.
QString violation(const QString& from, const QString& target)
{
    const QString to = areaOf(target);
    if (to.isEmpty() || to == from)
        return {};
    const qsizetype f = kOrder.indexOf(from), t = kOrder.indexOf(to);
    if (f < 0)
        return from + " is not an area of kOrder: place it in the order";
    if (t < 0)
        return to + " is not an area of kOrder";
    if (t > f)
        return from + " is below " + to + " (" + kOrder.mid(f, t - f + 1).join(" < ") + ")";
    return {};
}

struct Include {
    QString file, area, target;
    int line = 0;
};

/// Every quoted or angled #include of the .hpp and .cpp files under `dir` (core/src or
/// core/include/orbit), with the area its file is in (the first folder under `dir`).
std::vector<Include> includesUnder(const QString& dir, const QString& prefix)
{
    static const QRegularExpression directive(QStringLiteral("^\\s*#\\s*include\\s*([<\"][^>\"]+[>\"])"));
    std::vector<Include> out;
    QDirIterator it(dir, {"*.hpp", "*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QString rel = QDir(dir).relativeFilePath(path);
        int number = 0;
        for (const QByteArray& raw : f.readAll().split('\n')) {
            ++number;
            const auto m = directive.match(QString::fromUtf8(raw));
            if (!m.hasMatch())
                continue;
            const QString t = m.captured(1);
            out.push_back({prefix + rel, rel.section('/', 0, 0), t.startsWith('"') ? t.mid(1, t.size() - 2) : t, number});
        }
    }
    return out;
}

} // namespace

class CoreLayersTest : public QObject {
    Q_OBJECT
private slots:
    void theRuleNamesWhatRunsUpward_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("data -> util") << "data" << "orbit/util/Progress.hpp" << true;
        QTest::newRow("groups -> registry") << "groups" << "orbit/registry/Registry.hpp" << true;
        QTest::newRow("features -> analysis") << "features" << "orbit/analysis/KMeans.hpp" << true;
        QTest::newRow("locality -> training, private") << "locality" << "training/TrainingGrid.hpp" << true;
        QTest::newRow("same folder") << "learn" << "orbit/learn/TargetCoding.hpp" << true;
        QTest::newRow("outside the core") << "linalg" << "<Eigen/Core>" << true;
        QTest::newRow("a library's header") << "learn" << "linear.h" << true;
        QTest::newRow("data -> evaluation") << "data" << "orbit/evaluation/Splits.hpp" << false;
        QTest::newRow("registry -> groups") << "registry" << "orbit/groups/OrthogonalSetGroup.hpp" << false;
        QTest::newRow("analysis -> features, private") << "analysis" << "features/OrbitPlan.hpp" << false;
        QTest::newRow("parallel -> training") << "parallel" << "orbit/training/Training.hpp" << false;
        QTest::newRow("training -> locality") << "training" << "orbit/locality/EvidenceObjective.hpp" << false;
        QTest::newRow("an area out of the order") << "experiments" << "orbit/util/Error.hpp" << false;
        QTest::newRow("into an area out of the order") << "util" << "orbit/experiments/Training.hpp" << false;
    }
    void theRuleNamesWhatRunsUpward()
    {
        QFETCH(QString, from);
        QFETCH(QString, target);
        QFETCH(bool, allowed);
        QCOMPARE(violation(from, target).isEmpty(), allowed);
    }

    void everyFolderIsInTheOrder()
    {
        const QString root = QStringLiteral(ORBIT_SOURCE_DIR) + "/core";
        QStringList missing;
        for (const QString& dir : {root + "/src", root + "/include/orbit"})
            for (const QString& area : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                if (!kOrder.contains(area))
                    missing << dir + "/" + area;
        QVERIFY2(missing.isEmpty(), qPrintable("not in kOrder: " + missing.join(", ")));
    }

    void noFileOfTheCoreIncludesUpward()
    {
        const QString root = QStringLiteral(ORBIT_SOURCE_DIR) + "/core";
        std::vector<Include> all = includesUnder(root + "/src", "core/src/");
        for (const Include& i : includesUnder(root + "/include/orbit", "core/include/orbit/"))
            all.push_back(i);
        QVERIFY2(all.size() > 1000, qPrintable(QStringLiteral("only %1 includes read: is ORBIT_SOURCE_DIR right?").arg(all.size())));
        QStringList wrong;
        for (const Include& i : all) {
            const QString why = violation(i.area, i.target);
            if (!why.isEmpty())
                wrong << QStringLiteral("%1:%2 includes %3: %4").arg(i.file).arg(i.line).arg(i.target, why);
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join('\n')));
    }
};

QTEST_GUILESS_MAIN(CoreLayersTest)
#include "test_core_layers.moc"
