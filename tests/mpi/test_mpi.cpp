// orbitlab-cli spread over MPI ranks gives the numbers of one process: features byte for byte,
// `train --json` metrics bit for bit; and a rank that fails ends the job with its message, never a
// hang.
#include "FileBytes.hpp"
#include "MpiRunner.hpp"
#include "TestPaths.hpp"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QByteArray>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonValue>
#include <QObject>
#include <QString>
#include <QStringList>

#include <QProcess>

#include <algorithm>
#include <cmath>
#include <functional>

using orbittest::fileBytes;
using orbittest::MpiRun;
using orbittest::runMpi;

namespace {

/// The JSON without what may differ between runs: timings, the number of ranks itself, and what
/// one rank held or moved.
QJsonValue withoutTimings(const QJsonValue& v)
{
    if (v.isObject()) {
        QJsonObject o;
        const QJsonObject in = v.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            if (!it.key().contains("seconds") && it.key() != "ranks" && it.key() != "feature_rows_held" &&
                it.key() != "input_rows_held" && it.key() != "rank_counters") o.insert(it.key(), withoutTimings(it.value()));
        return o;
    }
    if (v.isArray()) {
        QJsonArray a;
        for (const QJsonValue& x : v.toArray()) a.append(withoutTimings(x));
        return a;
    }
    return v;
}

QString message(const MpiRun& r) { return QString::fromUtf8(r.err.right(2000)); }

/// `rank_counters` of a run at P ranks: one entry per rank in rank order, byte counts >= 0 and
/// wait_seconds finite and >= 0; no bytes at P = 1 (nothing leaves the process); at P = 2 what each
/// rank sent is what the other received (every call counts its payload once on each side).
void checkRankCounters(const QJsonObject& j, int P)
{
    const QJsonArray each = j["rank_counters"].toArray();
    QCOMPARE(each.size(), qsizetype(P));
    for (int q = 0; q < P; ++q) {
        const QJsonObject c = each[q].toObject();
        QCOMPARE(c["rank"].toInt(-1), q);
        const double sent = c["bytes_sent"].toDouble(-1.0), received = c["bytes_received"].toDouble(-1.0);
        const double wait = c["wait_seconds"].toDouble(-1.0);
        QVERIFY2(sent >= 0.0 && received >= 0.0 && std::isfinite(wait) && wait >= 0.0,
                 qPrintable(QJsonDocument(c).toJson(QJsonDocument::Compact)));
        if (P == 1) QVERIFY2(sent == 0.0 && received == 0.0, qPrintable(QJsonDocument(c).toJson(QJsonDocument::Compact)));
    }
    if (P == 2)
        for (int q = 0; q < 2; ++q)
            QVERIFY2(each[q].toObject()["bytes_sent"].toDouble() == each[1 - q].toObject()["bytes_received"].toDouble() &&
                         each[q].toObject()["bytes_sent"].toDouble() > 0.0,
                     qPrintable(QJsonDocument(each).toJson(QJsonDocument::Compact)));
}

/// Runs `args` under mpirun at P = 1 .. maxRanks: every run succeeds, passes `check`, and prints
/// the JSON of P = 1 but for timings and the rank count.
void sameJsonAtEveryRankCount(const QStringList& args, int maxRanks, const std::function<void(const QJsonObject&, int)>& check)
{
    QJsonValue one;
    for (int P = 1; P <= maxRanks; ++P) {
        const MpiRun r = runMpi(P, args);
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(message(r)));
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        check(j, P);
        if (QTest::currentTestFailed()) return;
        checkRankCounters(j, P);
        if (QTest::currentTestFailed()) return;
        if (P == 1)
            one = withoutTimings(j);
        else
            QVERIFY2(withoutTimings(j) == one,
                     qPrintable(QString("P=%1: %2\nP=1: %3")
                                    .arg(P)
                                    .arg(QString::fromUtf8(QJsonDocument(withoutTimings(j).toObject()).toJson()))
                                    .arg(QString::fromUtf8(QJsonDocument(one.toObject()).toJson()))));
    }
}

} // namespace

class TestMpi : public QObject {
    Q_OBJECT

private slots:
    void featuresAreTheSameBytesAtAnyRankCount_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QStringList>("options");
        // At P > 1 each rank reads only its blocks' rows and the median rule's sample of 1000: fewer
        // than all on the digits and QM7, all of G2's 144 (and all for Nystrom, fitted on the data).
        QTest::addColumn<bool>("readsPart");
        const QString digits = QString::fromStdString(orbittest::bundledFile("digits.png"));
        const QString g2 = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        QTest::newRow("digits irf rotation") << digits
                                             << QStringList{"--features", "irf:s=64,r=8", "--group", "rotation", "--dist",
                                                            "vonmises:kappa=1", "--block-rows", "300"}
                                             << true;
        QTest::newRow("digits rf") << digits << QStringList{"--features", "rf:s=50", "--block-rows", "1000"} << true;
        QTest::newRow("g2 irf noisy sort") << g2
                                           << QStringList{"--features", "irf:s=40,r=6", "--group", "permutation", "--dist",
                                                          "noisysort:sigma=0.5", "--block-rows", "16"}
                                           << false;
        QTest::newRow("g2 nystrom") << g2 << QStringList{"--features", "nystrom:s=30", "--block-rows", "7"} << false;
        // CSV, written as the rows reach rank 0 (a piece per block).
        QTest::newRow("g2 rf csv") << g2 << QStringList{"--features", "rf:s=20", "--block-rows", "10", "--out-ext", ".csv"}
                                   << false;
        QTest::newRow("qm7 sorted") << QString("qm7") << QStringList{"--features", "sorted"} << true;
        QTest::newRow("qm7 irf noisy sort") << QString("qm7")
                                            << QStringList{"--features", "irf:s=100,r=4", "--group", "permutation",
                                                           "--dist", "noisysort:sigma=1"}
                                            << true;
    }

    void featuresAreTheSameBytesAtAnyRankCount()
    {
        QFETCH(QString, data);
        QFETCH(QStringList, options);
        QFETCH(bool, readsPart);
        QString ext = ".npy";
        if (const qsizetype at = options.indexOf("--out-ext"); at >= 0) {
            ext = options.at(at + 1);
            options.remove(at, 2);
        }
        if (data == "qm7") {
            ORBIT_REQUIRE_QM7(qm7);
            data = QString::fromStdString(qm7);
        }
        QTemporaryDir dir;
        QByteArray one;
        for (int P : {1, 2, 3}) {
            const QString out = dir.filePath(QString("f%1").arg(P) + ext);
            const MpiRun r = runMpi(P, QStringList{"features", "--data", data, "--out", out, "--json"} + options);
            QVERIFY2(r.finished && r.exitCode == 0, qPrintable(message(r)));
            const QJsonObject j = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(j["ranks"].toInt(), P);
            QVERIFY(j["rows"].toInt() > 0 && j["dims"].toInt() > 0);
            checkRankCounters(j, P);
            const int read = j["input_rows_held"].toInt();
            QVERIFY2(P > 1 && readsPart ? read < j["rows"].toInt() : read == j["rows"].toInt(),
                     qPrintable(QString("P=%1 read %2 of %3 rows").arg(P).arg(read).arg(j["rows"].toInt())));
            const QByteArray bytes = fileBytes(out);
            QVERIFY(bytes.size() > 128);
            if (P == 1)
                one = bytes;
            else
                QVERIFY2(bytes == one, qPrintable(QString("P=%1 wrote other bytes than P=1").arg(P)));
        }
    }

    void trainGivesTheSameMetricsAtAnyRankCount_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("maxRanks");
        QTest::addColumn<bool>("spread");  // the feature rows stay on the ranks that computed them
        // At P > 1 each rank reads fewer input rows than all: its run of blocks and the median rule's
        // sample (1000 rows: all or most of the small sets, so those rows only check "at most all").
        QTest::addColumn<bool>("readsPart");
        const QString digits = QString::fromStdString(orbittest::bundledFile("digits.png"));
        const QString g2 = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        const QStringList g2Irf = {"--data", g2, "--features", "irf:s=60,r=6", "--group", "permutation", "--dist",
                                   "noisysort:sigma=0.1", "--eval", "kfold:3", "--block-rows", "16"};
        QTest::newRow("g2 ridge") << (g2Irf + QStringList{"--learner", "ridge"}) << 3 << true << false;
        QTest::newRow("g2 blr") << (g2Irf + QStringList{"--learner", "blr"}) << 2 << true << false;
        const QStringList digitsIrf = {"--data", digits, "--n", "1200", "--features", "irf:s=120,r=6", "--group", "rotation",
                                       "--dist", "vonmises:kappa=1", "--block-rows", "100"};
        QTest::newRow("digits ridge kfold") << (digitsIrf + QStringList{"--learner", "ridge", "--eval", "kfold:3", "--grid",
                                                                        "lambda=1e-3,1e-1"})
                                            << 3 << true << false;
        QTest::newRow("digits blr holdout") << (digitsIrf + QStringList{"--learner", "blr", "--eval", "holdout:0.25"}) << 2 << true << false;
        // Fits that do not split over rows are dealt out (one per C or lambda, in turn over the run).
        QTest::newRow("digits svm") << (digitsIrf + QStringList{"--learner", "svm", "--grid", "C=0.1,1", "--eval", "holdout:0.25"})
                                    << 3 << false << false;
        QTest::newRow("g2 krr") << (g2Irf + QStringList{"--learner", "krr", "--kernel", "gaussian:median=1", "--grid", "lambda=1e-4,1e-2;median=1"}) << 3 << false << false;
        QTest::newRow("g2 ridge dual") << QStringList{"--data", g2, "--features", "irf:s=200,r=4", "--group", "permutation",
                                                      "--dist", "noisysort:sigma=0.1", "--eval", "holdout:0.3", "--learner",
                                                      "ridge", "--kernel", "gaussian:median=1"}
                                       << 2 << false << false;
        // A separate test file: its rows come last and in no training set; the ranks' runs of
        // blocks are weighted by the feature rows and the product rows they hold.
        QTest::newRow("digits ridge test-data") << (digitsIrf + QStringList{"--learner", "ridge", "--test-data", digits,
                                                                            "--grid", "lambda=1e-3,1e-1"})
                                                << 3 << true << false;
        QTest::newRow("g2 blr holdout") << (g2Irf.mid(0, g2Irf.size() - 4) + QStringList{"--eval", "holdout:0.3", "--block-rows", "16", "--learner", "blr"})
                                        << 3 << true << false;
        // A fixed bandwidth (no median sample): each rank reads about its share of the 5000 digits,
        // rotated after the subset on --n, and of a separate test file.
        const QStringList fixed = {"--data", digits, "--features", "irf:s=60,r=4", "--group", "rotation", "--dist",
                                   "vonmises:kappa=1", "--kernel", "gaussian:sigma=6", "--block-rows", "250"};
        QTest::newRow("digits ridge reads its rows") << (fixed + QStringList{"--learner", "ridge", "--eval", "holdout:0.25"})
                                                     << 3 << true << true;
        QTest::newRow("digits svm reads its rows") << (fixed + QStringList{"--learner", "svm", "--grid", "C=1", "--eval", "holdout:0.25"})
                                                   << 2 << false << true;
        QTest::newRow("rotated subset and test file read their rows")
            << (fixed + QStringList{"--n", "2000", "--rotate", "--learner", "blr", "--test-data", digits}) << 3 << true << true;
    }

    void trainGivesTheSameMetricsAtAnyRankCount()
    {
        QFETCH(QStringList, options);
        QFETCH(int, maxRanks);
        QFETCH(bool, spread);
        QFETCH(bool, readsPart);
        int rows = 0;  // every feature row: what one process holds
        sameJsonAtEveryRankCount(QStringList{"train", "--json"} + options, maxRanks, [&](const QJsonObject& j, int P) {
            QCOMPARE(j["ranks"].toInt(), P);
            QVERIFY(j["stage_seconds"].toObject().contains("reduction"));
            // Every rank's own stages, in rank order; the slowest rank's are their maxima.
            const QJsonArray each = j["rank_stage_seconds"].toArray();
            QCOMPARE(each.size(), qsizetype(P));
            for (const char* stage : {"features", "products", "reduction", "solve"}) {
                double most = 0.0;
                for (const QJsonValue& r : each) most = std::max(most, r.toObject()[stage].toDouble(-1.0));
                QCOMPARE(most, j["stage_seconds"].toObject()[stage].toDouble());
            }
            QVERIFY(j["mean"].isDouble());
            const int held = j["feature_rows_held"].toInt();
            if (P == 1) rows = held;
            QVERIFY2(held > 0 && (spread ? held < rows || P == 1 : held == rows),
                     qPrintable(QString("P=%1 held %2 of %3 feature rows").arg(P).arg(held).arg(rows)));
            const int read = j["input_rows_held"].toInt(), all = j["n"].toInt();
            QVERIFY2(P > 1 ? read <= all && (!readsPart || read < all) : read == all,
                     qPrintable(QString("P=%1 read %2 of %3 input rows").arg(P).arg(read).arg(all)));
        });
    }

    /// learn and evidence spread every evaluation's features, normal equations and gradient sums
    /// over the ranks' row blocks: the same trajectory, learned value and curve as one process.
    void learnAndEvidenceGiveTheSameNumbersAtAnyRankCount_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("maxRanks");
        // At P > 1 a rank reads fewer input rows than this (0: no bound; small sets are read whole
        // by the median rule's sample of 1000).
        QTest::addColumn<int>("readsBelow");
        const QString digits = QString::fromStdString(orbittest::bundledFile("digits.png"));
        const QString g2 = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        const QStringList rotated = {"--data", digits, "--n", "300", "--features", "irf:s=40,r=6", "--group", "rotation",
                                     "--dist", "vonmises:kappa=1", "--block-rows", "64"};
        QTest::newRow("learn kappa (gradient)") << (QStringList{"learn"} + rotated +
                                                    QStringList{"--learn", "kappa", "--max-evals", "6", "--eval", "holdout:0.3"})
                                                << 3 << 0;
        QTest::newRow("evidence curve") << (QStringList{"evidence"} + rotated + QStringList{"--param", "kappa", "--values", "0.5,2,8"})
                                        << 2 << 0;
        QTest::newRow("learn noisy sort (no gradient)")
            << QStringList{"learn", "--data", g2, "--features", "irf:s=30,r=4", "--group", "permutation", "--dist",
                           "noisysort:sigma=0.5", "--learn", "sigma", "--max-evals", "5", "--block-rows", "32"}
            << 2 << 0;
        // The held-out score: fitted on the learning rows' block sums and predicted block by block
        // by the ranks holding the test rows (regression, a map without tangents); in the dual form
        // (more features than learning rows) on every rank whole.
        QTest::newRow("learn noisy sort held out")
            << QStringList{"learn", "--data", g2, "--features", "irf:s=30,r=4", "--group", "permutation", "--dist",
                           "noisysort:sigma=0.5", "--learn", "sigma", "--max-evals", "3", "--block-rows", "16", "--eval", "holdout:0.3"}
            << 3 << 0;
        QTest::newRow("learn dual held out")
            << (QStringList{"learn", "--data", digits, "--n", "80", "--features", "irf:s=90,r=4", "--group", "rotation",
                            "--dist", "vonmises:kappa=1", "--block-rows", "16", "--learn", "kappa", "--max-evals", "3",
                            "--eval", "holdout:0.25"})
            << 2 << 0;
        QTest::newRow("evidence dual (more features than rows)")
            << (QStringList{"evidence", "--data", digits, "--n", "60", "--features", "irf:s=80,r=4", "--group", "rotation",
                            "--dist", "vonmises:kappa=1", "--block-rows", "16", "--param", "kappa", "--values", "1,4"})
            << 2 << 0;
        QTest::newRow("learn reads its rows")
            << QStringList{"learn", "--data", digits, "--features", "irf:s=30,r=4", "--group", "rotation", "--dist",
                           "vonmises:kappa=1", "--kernel", "gaussian:sigma=6", "--block-rows", "250", "--learn", "kappa",
                           "--max-evals", "3", "--eval", "holdout:0.2"}
            << 2 << 5000;
        // With pilots (an eighth and a quarter of the 4000 learning rows): each rank reads its blocks
        // of every pilot's rows too.
        QTest::newRow("learn with pilots reads its rows")
            << QStringList{"learn", "--data", digits, "--features", "irf:s=600,r=4", "--group", "rotation", "--dist",
                           "vonmises:kappa=1", "--kernel", "gaussian:sigma=6", "--block-rows", "250", "--learn", "kappa",
                           "--max-evals", "6", "--eval", "holdout:0.2"}
            << 2 << 5000;
        QTest::newRow("evidence reads its rows")
            << QStringList{"evidence", "--data", digits, "--features", "irf:s=30,r=4", "--group", "rotation", "--dist",
                           "vonmises:kappa=1", "--kernel", "gaussian:sigma=6", "--block-rows", "250", "--param", "kappa",
                           "--values", "1,4"}
            << 2 << 5000;
    }

    void learnAndEvidenceGiveTheSameNumbersAtAnyRankCount()
    {
        QFETCH(QStringList, options);
        QFETCH(int, maxRanks);
        QFETCH(int, readsBelow);
        const bool heldOut = options.contains("--eval");
        sameJsonAtEveryRankCount(options + QStringList{"--json"}, maxRanks, [&](const QJsonObject& j, int P) {
            QVERIFY(j.contains("log_evidence"));
            QCOMPARE(j["ranks"].toInt(), P);
            const QJsonObject stages = j["stage_seconds"].toObject();
            for (const char* stage : {"features", "products", "reduction", "solve"})
                QVERIFY2(stages[stage].isDouble() && stages[stage].toDouble() >= 0.0, stage);
            QVERIFY(stages["features"].toDouble() > 0.0);
            QVERIFY(j["feature_rows_held"].toInt() > 0);
            const int read = j["input_rows_held"].toInt();
            QVERIFY2(read > 0 && (P == 1 || readsBelow == 0 || read < readsBelow),
                     qPrintable(QString("P=%1 read %2 input rows").arg(P).arg(read)));
            if (heldOut) QVERIFY2(j["test"].isDouble() && j["test_rows"].toInt() > 0, qPrintable(QJsonDocument(j).toJson()));
            if (options.contains("irf:s=600,r=4")) QCOMPARE(j["pilots"].toArray().size(), qsizetype(2));
        });
    }

    /// Exact kernel machines deal whole outer folds out (fold f on rank f mod P): the same folds,
    /// choices, predictions and learned localities at any number of ranks, each fold's numbers
    /// computed by one rank.
    void exactMachinesDealTheirFoldsOut_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("maxRanks");
        const QString digits = QString::fromStdString(orbittest::bundledFile("digits.png"));
        const QString g2 = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        const QStringList g2Exact = {"--data", g2, "--features", "exact:r=3", "--group", "permutation", "--dist",
                                     "noisysort:sigma=0.5", "--kernel", "laplacian:median=1", "--eval", "kfold:3"};
        QTest::newRow("train gp") << (QStringList{"train", "--learner", "gp"} + g2Exact) << 3;
        QTest::newRow("train krr classes") << QStringList{"train", "--data", digits, "--n", "240", "--features", "exact:r=2",
                                                          "--group", "rotation", "--dist", "vonmises:kappa=2", "--learner",
                                                          "krr", "--eval", "kfold:3", "--grid", "lambda=1e-3,1e-1"}
                                           << 2;
        QTest::newRow("learn gp") << (QStringList{"learn", "--learner", "gp", "--learn", "sigma", "--max-evals", "4",
                                                  "--inner-evals", "5", "--scan", "3"} +
                                      g2Exact)
                                  << 2;
    }

    void exactMachinesDealTheirFoldsOut()
    {
        QFETCH(QStringList, options);
        QFETCH(int, maxRanks);
        sameJsonAtEveryRankCount(options + QStringList{"--json"}, maxRanks, [&](const QJsonObject& j, int P) {
            QCOMPARE(j["ranks"].toInt(), P);
            QCOMPARE(j["folds"].toArray().size(), qsizetype(3));
            QVERIFY2(j["mean"].isDouble(), qPrintable(QJsonDocument(j).toJson()));
        });
    }

    /// learn --per-class deals the classes out to the ranks whole (class c on rank c mod P), after the
    /// global learn, the classes at the global theta and the shared scan, which are spread over the
    /// ranks' row blocks: the same classes, evidences and held-out decisions as one process.
    /// evidence --per-class: every class's curve, the same at any rank count.
    void perClassGivesTheSameClassesAtAnyRankCount()
    {
        const QString digits = QString::fromStdString(orbittest::bundledFile("digits.png"));
        const QStringList rotated = {"--data", digits, "--n", "300", "--rotate", "--features", "irf:s=40,r=6", "--group",
                                     "rotation", "--dist", "uniform:a=0.5", "--block-rows", "64", "--eval", "holdout:0.3"};
        sameJsonAtEveryRankCount(QStringList{"learn"} + rotated + QStringList{"--learn", "a", "--max-evals", "4", "--per-class", "--json"},
                                 3, [&](const QJsonObject& j, int P) {
                                     QCOMPARE(j["ranks"].toInt(), P);
                                     QCOMPARE(j["per_class"].toArray().size(), qsizetype(10));
                                     QVERIFY(j["test"].isDouble());
                                 });
        sameJsonAtEveryRankCount(QStringList{"evidence"} + rotated + QStringList{"--param", "a", "--values", "0.3,1.5", "--per-class", "--json"},
                                 2, [&](const QJsonObject& j, int P) {
                                     QCOMPARE(j["ranks"].toInt(), P);
                                     QCOMPARE(j["per_class"].toArray().size(), qsizetype(10));
                                 });
    }

    /// An experiment deals its settings out to the ranks: the same table as one process.
    void experimentDealsItsSettingsOut()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath("g2.json");
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QString(R"({"title": "G2 on ranks", "data": {"file": "%1", "eval": "kfold:3", "seed": 3},
  "defaults": {"learner": "ridge", "grid": {"lambda": [0.001, 0.1]}},
  "settings": [
    {"name": "sorted", "features": "sorted"},
    {"name": "rf", "features": "rf:s=50"},
    {"name": "noisy sort", "features": "irf:s=50,r=4", "group": "permutation", "dist": "noisysort:sigma=0.2"},
    {"name": "blr", "features": "rf:s=40", "learner": "blr", "grid": {}}
  ]})")
                        .arg(QString::fromStdString(orbittest::bundledFile("g2.extxyz")))
                        .toUtf8());
        }
        QJsonValue one;
        for (int P : {1, 3}) {
            const QString out = dir.filePath(QString("out%1").arg(P));
            const MpiRun r = runMpi(P, {"experiment", config, "--json", "--out", out});
            QVERIFY2(r.finished && r.exitCode == 0, qPrintable(message(r)));
            const QJsonObject j = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(j["ranks"].toInt(), P);
            QCOMPARE(j["settings"].toArray().size(), 4);
            QCOMPARE(j["settings"].toArray()[2].toObject()["name"].toString(), QString("noisy sort"));
            QVERIFY(QFile::exists(out + "/results.md"));
            checkRankCounters(j, P);
            QVERIFY(QFile::exists(out + "/rows"));
            if (P == 1)
                one = withoutTimings(j);
            else
                QVERIFY2(withoutTimings(j) == one, "the table differs from one process's");
        }
    }

    /// The counters of features at P = 2, by hand: rank 1 owns blocks [7, 15) of G2's 144 rows in
    /// blocks of 10, so it sends rows 70 .. 143 (74 rows of `dims` floats) to rank 0, and both take
    /// part in four maxima (seconds, computing, gathering, input_rows_held), 8 bytes each way. The
    /// same numbers over any transport. One process without mpirun: one rank of zeros.
    void countersOfFeaturesAtTwoRanksByHand()
    {
        QTemporaryDir dir;
        const QString g2 = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        const QStringList args = {"features", "--data", g2, "--features", "rf:s=20", "--block-rows", "10", "--json"};
        const MpiRun r = runMpi(2, args + QStringList{"--out", dir.filePath("f.npy")});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(message(r)));
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["rows"].toInt(), 144);
        const qint64 rows1 = 144 - 70, dims = j["dims"].toInt();
        QVERIFY(dims > 0);
        const QJsonArray c = j["rank_counters"].toArray();
        QCOMPARE(c.size(), qsizetype(2));
        const auto bytes = [&](int q, const char* key) { return qint64(c[q].toObject()[key].toDouble(-1.0)); };
        QCOMPARE(bytes(1, "bytes_sent"), 4 * rows1 * dims + 4 * 8);
        QCOMPARE(bytes(0, "bytes_received"), 4 * rows1 * dims + 4 * 8);
        QCOMPARE(bytes(0, "bytes_sent"), qint64(4 * 8));
        QCOMPARE(bytes(1, "bytes_received"), qint64(4 * 8));
        for (int q = 0; q < 2; ++q) {
            const double wait = c[q].toObject()["wait_seconds"].toDouble(-1.0);
            QVERIFY2(std::isfinite(wait) && wait >= 0.0, qPrintable(QString::number(wait)));
        }

        QProcess one;  // no mpirun: no MPI at all
        one.start(ORBIT_CLI_PATH, args + QStringList{"--out", dir.filePath("one.npy")});
        QVERIFY(one.waitForFinished(120000) && one.exitCode() == 0);
        const QJsonArray zeros = QJsonDocument::fromJson(one.readAllStandardOutput()).object()["rank_counters"].toArray();
        QCOMPARE(zeros.size(), qsizetype(1));
        const QJsonObject z = zeros[0].toObject();
        QVERIFY2(z["rank"].toInt(-1) == 0 && z["bytes_sent"].toDouble(-1.0) == 0.0 && z["bytes_received"].toDouble(-1.0) == 0.0 &&
                     z["wait_seconds"].toDouble(-1.0) == 0.0,
                 qPrintable(QJsonDocument(z).toJson(QJsonDocument::Compact)));
    }

    /// Rank 1 reads a truncated file: the job ends non-zero with rank 1's message naming the file.
    void aRankWithABadFileEndsTheJob()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath("truncated.extxyz");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(fileBytes(QString::fromStdString(orbittest::bundledFile("g2.extxyz"))).left(700));
        }
        const QString good = QString::fromStdString(orbittest::bundledFile("g2.extxyz"));
        const QString script = QString("if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then d='%1'; else d='%2'; fi; "
                                       "exec '%3' train --data \"$d\" --features sorted --learner ridge --eval kfold:3")
                                   .arg(bad, good, ORBIT_CLI_PATH);
        const MpiRun r = runMpi(2, {"-c", script}, 120000, "/bin/sh");
        QVERIFY2(r.finished, "the job hung");
        QVERIFY2(r.exitCode != 0, qPrintable(message(r)));
        QVERIFY2(r.err.contains("[rank 1 of 2]") && r.err.contains("truncated.extxyz"), qPrintable(message(r)));
    }

    /// A bad row that only rank 1 reads (the last molecule's two atoms at one place): rank 0 never
    /// sees it, and the job still ends non-zero with rank 1's message naming the file and lines.
    void aBadRowOnlyOneRankReadsEndsTheJob()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath("clash.extxyz");
        {
            QStringList lines = QString::fromUtf8(fileBytes(QString::fromStdString(orbittest::bundledFile("g2.extxyz")))).split('\n');
            qsizetype last = 0;
            for (qsizetype at = 0; at < lines.size() && !lines[at].trimmed().isEmpty(); at += lines[at].toInt() + 2) last = at;
            QStringList first = lines[last + 2].split(' ', Qt::SkipEmptyParts), second = lines[last + 3].split(' ', Qt::SkipEmptyParts);
            for (int k = 1; k <= 3; ++k) second[k] = first[k];
            lines[last + 3] = second.join(' ');
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(lines.join('\n').toUtf8());
        }
        // A fixed bandwidth: no median sample, so rank 0 reads only its own rows.
        const MpiRun r = runMpi(2, {"train", "--data", bad, "--features", "irf:s=30,r=2", "--group", "permutation", "--dist",
                                    "noisysort:sigma=0.1", "--kernel", "gaussian:sigma=100", "--block-rows", "16"});
        QVERIFY2(r.finished, "the job hung");
        QVERIFY2(r.exitCode != 0, qPrintable(message(r)));
        QVERIFY2(r.err.contains("[rank 1 of 2]") && r.err.contains("clash.extxyz") && r.err.contains("same position"),
                 qPrintable(message(r)));
        QVERIFY2(!r.err.contains("[rank 0 of 2]"), qPrintable(message(r)));
    }

    /// Rank 1 is killed while rank 0 computes: the job ends non-zero instead of waiting for it. The
    /// training takes about a minute on one core, so rank 1 is still computing when it is killed 2 s
    /// in, however fast the machine (with s=400, r=16 a fast machine finished first).
    void aKilledRankEndsTheJob()
    {
        const QString digits = QString::fromStdString(orbittest::bundledFile("digits.png"));
        const QString train = QString("'%1' train --data '%2' --features irf:s=3000,r=32 --group rotation "
                                      "--dist vonmises:kappa=1 --learner ridge --eval kfold:5 --block-rows 250")
                                  .arg(ORBIT_CLI_PATH, digits);
        const QString script = QString("if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then %1 & sleep 2; kill -9 $!; wait $!; exit 137; "
                                       "else exec %1; fi")
                                   .arg(train);
        const MpiRun r = runMpi(2, {"-c", script}, 240000, "/bin/sh");
        QVERIFY2(r.finished, "the job hung");
        QVERIFY2(r.exitCode != 0, qPrintable(message(r)));
        QVERIFY2(r.out.isEmpty(), "rank 0 finished without rank 1");
    }

    void badOptionsFailOnEveryRankWithoutHanging()
    {
        const MpiRun r = runMpi(3, {"train", "--data", "/nonexistent/data.extxyz", "--features", "sorted"}, 60000);
        QVERIFY2(r.finished, "the job hung");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("/nonexistent/data.extxyz"), qPrintable(message(r)));
    }
};

QTEST_GUILESS_MAIN(TestMpi)
#include "test_mpi.moc"
