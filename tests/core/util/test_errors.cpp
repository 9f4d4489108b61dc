// Errors a GUI user can read (issue 14 §3). The core names the setting at fault in neutral words
// (`kernel`, `features.s`, `distribution vonmises.kappa`, `grid lambda`), never as a command-line
// flag: a panel shows the message as it is and points at its control, the CLI maps the field to
// its flag. Broken internal contracts are ContractError (a std::logic_error), not SpecError, and a
// size check names both sizes.
#include "orbit/data/Loaders.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/figures/ApproxError.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/training/RotatedImages.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/features/MatrixIo.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/RidgeRegression.hpp"
#include "orbit/orbits/OrbitSampler.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"

#include "RandomMatrices.hpp"

#include "TestPaths.hpp"

#include <QTest>
#include <QDir>
#include <QIODevice>
#include <QObject>
#include <QSet>
#include <QString>

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>

#include <functional>

using namespace orbit;

using Call = std::function<void()>;
Q_DECLARE_METATYPE(Call)

namespace {

/// 12 random 4 x 4 images with two classes.
Dataset images()
{
    Dataset d;
    d.kind = DataKind::Images;
    d.shape = Shape{4, 4, 1};
    d.X = orbittest::randomMatrix(12, 16, 3).cwiseAbs().cwiseMin(1.0f);
    for (int i = 0; i < 12; ++i) d.labels.push_back(i % 2);
    d.numClasses = 2;
    d.source = "images";
    return d;
}

/// A train configuration the core accepts, to spoil one field at a time.
TrainConfig goodTraining()
{
    TrainConfig c;
    c.features = "rf:s=8";
    c.learner = "ridge";
    c.eval = "holdout:0.25";
    return c;
}


/// The heads of the core's field names (orbit/util/Error.hpp): the settings of the table there,
/// and the properties of the data or parameters of a learner that have no setting of their own.
const QSet<QString>& vocabulary()
{
    static const QSet<QString> words = {
        "kernel", "features", "group", "distribution", "data", "test-data", "index", "inputs", "format", "subset", "points",
        "samples", "r", "learner", "eval", "grid", "validation", "inner-folds", "learning-curve", "block-rows", "estimator",
        "output", "rotate", "rotate-max", "pad", "transform-group", "transform-distribution", "s-list", "r-list",
        "ref-r", "repeats", "learn", "bounds", "values", "max-evals", "precision", "per-class", "dist-per-class",
        "rotate-classes", "sweep", "input", "model", "mean", "swap", "jitter",
        // without a setting of their own
        "labels", "targets", "classes", "folds", "lambda", "shift", "holdout", "kfold", "bins", "pca", "cell",
        "cases", "metric", "class"};
    return words;
}

/// The head of a field: up to its first ' ' or '.'.
QString headOf(const QString& field)
{
    const qsizetype cut = field.indexOf(QRegularExpression("[ .]"));
    return cut < 0 ? field : field.left(cut);
}

} // namespace

class TestErrors : public QObject {
    Q_OBJECT

private slots:
    // Each row spoils one setting through the public API; the error names it in the core's words.
    void fieldsAreNeutral_data()
    {
        QTest::addColumn<Call>("call");
        QTest::addColumn<QString>("field");  // what e.field() starts with
        const Dataset data = images();
        const auto rotation = makeGroup("rotation", data.shape);
        auto row = [](const char* name, const char* field, Call call) {
            QTest::newRow(name) << call << QString(field);
        };
        // kernels
        row("unknown kernel", "kernel", [data] { makeKernel("laplace:sigma=1", data.X); });
        row("negative sigma", "kernel", [data] { makeKernel("gaussian:sigma=-1", data.X); });
        row("kernel syntax", "kernel", [data] { makeKernel("gaussian:sigma", data.X); });
        // feature maps and their keys
        row("unknown map", "features", [data] { makeFeatureMap("wavelets", makeFeatureContext(data, "", "", "", 1)); });
        row("rf s = 0", "features", [data] {
            makeFeatureMap("rf:s=0", makeFeatureContext(data, "", "", "gaussian:sigma=1", 1));
        });
        row("irf without a group", "features", [data] {
            makeFeatureMap("irf:s=4,r=2", makeFeatureContext(data, "", "", "gaussian:sigma=1", 1));
        });
        row("kif eta", "features kif.eta", [data] {
            makeFeatureMap("kif:k=2,eta=median,r=2",
                           makeFeatureContext(data, "rotation", "haar", "gaussian:sigma=1", 1));
        });
        row("second layer", "features", [data] { makeFeatureMap("raw+rf:s=4", makeFeatureContext(data, "", "", "", 1)); });
        row("sorted on vectors", "features", [data] {
            Dataset v = data;
            v.kind = DataKind::Vectors;
            v.shape = Shape{1, 16, 1};
            makeFeatureMap("sorted", makeFeatureContext(v, "", "", "", 1));
        });
        // groups
        row("unknown group", "group", [data] { makeGroup("shear", data.shape); });
        row("cyclic n = 0", "group cyclic.n", [data] { makeGroup("cyclic:n=0", data.shape); });
        row("rotation on molecules", "group", [] { makeGroup("rotation")->checkShape(DataKind::Coulomb, Shape{5, 5, 1}); });
        row("infinite group listed", "group", [rotation, data] { rotation->elements(data.shape); });
        // distributions
        row("negative kappa", "distribution vonmises.kappa", [rotation] { makeDistribution("vonmises:kappa=-1", *rotation); });
        row("unknown distribution", "distribution", [rotation] { makeDistribution("cauchy:gamma=1", *rotation); });
        row("wrong group", "distribution", [rotation] { makeDistribution("lognormal:mu=0,sigma=1", *rotation); });
        row("group without distribution", "distribution", [data] { makeFeatureContext(data, "rotation", "", "", 1); });
        row("distribution without group", "group", [data] { makeFeatureContext(data, "", "haar", "", 1); });
        row("noisysort without its input", "distribution", [] {
            const auto P = makeGroup("permutation", Shape{3, 3, 1});
            Rng rng = makeRng(1, 1);
            makeDistribution("noisysort:sigma=1", *P)->sample(rng, *P, Shape{3, 3, 1}, nullptr);
        });
        row("orbit samples r = 0", "r", [rotation, data] {
            OrbitSampler(rotation, makeDistribution("haar", *rotation), data.shape, 0, 1);
        });
        // training: grid, evaluation, learner and the rest of the configuration
        row("grid value", "grid lambda", [] {
            TrainConfig c = goodTraining();
            c.grid = {{"lambda", {-1.0}}};
            c.validate();
        });
        row("grid axis", "grid C", [] {
            TrainConfig c = goodTraining();
            c.grid = {{"C", {1.0}}};
            c.validate();
        });
        row("grid syntax", "grid", [] { parseGrid("lambda"); });
        row("grid number", "grid lambda", [] { parseGrid("lambda=1,abc"); });
        row("grid bandwidth and kernel", "grid median", [] {
            TrainConfig c = goodTraining();
            c.kernel = "gaussian:sigma=1";
            c.grid = {{"median", {1.0}}};
            c.validate();
        });
        row("group without its distribution", "distribution", [] {
            TrainConfig c = goodTraining();
            c.group = "rotation";
            c.validate();
        });
        row("eval", "eval", [] {
            TrainConfig c = goodTraining();
            c.eval = "holdout:1.5";
            c.validate();
        });
        row("learner", "learner", [] {
            TrainConfig c = goodTraining();
            c.learner = "forest";
            c.validate();
        });
        row("validation", "validation", [] {
            TrainConfig c = goodTraining();
            c.validationFraction = 1.0;
            c.validate();
        });
        row("inner folds", "inner-folds", [] {
            TrainConfig c = goodTraining();
            c.innerFolds = 1;
            c.validate();
        });
        row("test data of another shape", "test-data", [data] {
            Dataset other = data;
            other.shape.width += 1;
            other.X.resize(other.X.rows(), other.shape.dim());
            other.X.setZero();
            data.followedBy(other);
        });
        row("block rows", "block-rows", [] {
            TrainConfig c = goodTraining();
            c.blockRows = 0;
            c.validate();
        });
        row("learning curve", "learning-curve", [] {
            TrainConfig c = goodTraining();
            c.learningCurve = {0.0};
            c.validate();
        });
        row("no labels", "data", [data] {
            Dataset d = data;
            d.labels.clear();
            d.numClasses = 0;
            train(d, goodTraining());
        });
        // data preparation, formats, output files
        row("subset too small", "subset", [data] { prepareDataset(data, 2, false, 28, 0); });
        row("pad too small", "pad", [data] { rotatedImages(data, 2, 0); });
        row("transform without distribution", "transform-distribution", [data] {
            DataRecipe r;
            r.transformGroup = "rotation";
            prepareDataset(data, r);
        });
        row("molecule padding", "data", [] {
            LoadOptions o;
            o.padTo = 1;  // smaller than the fixture's molecules
            loadDataset(orbittest::fixture("data/xyz/valid.extxyz"), o);
        });
        row("blr iterations", "learner", [] {
            BayesianLinearRegression::Options o;
            o.maxIterations = 0;
            BayesianLinearRegression blr(o);
        });
        row("format", "format", [] { parseFormat("hdf5"); });
        row("output extension", "output", [] { writeMatrix("features.txt", MatrixXfR::Zero(1, 1)); });
        row("kernel plot points", "points", [data] { kernelPlotIndices(data, 0, 0); });
        // the approximation-error experiment
        row("s-list", "s-list", [] {
            ApproxErrorConfig c;
            c.sList = {0};
            c.rList = {1};
            c.validate();
        });
        row("ref-r", "ref-r", [] {
            ApproxErrorConfig c;
            c.sList = {1};
            c.rList = {1};
            c.refR = 0;
            c.validate();
        });
    }
    void fieldsAreNeutral()
    {
        QFETCH(Call, call);
        QFETCH(QString, field);
        try {
            call();
            QFAIL("accepted");
        } catch (const SpecError& e) {
            const QString f = QString::fromStdString(e.field());
            QVERIFY2(f.startsWith(field), qPrintable(f + " does not start with " + field));
            // No flag anywhere: not in the field, not in the detail, not in the message.
            QVERIFY2(!f.startsWith('-'), qPrintable(f));
            QVERIFY2(vocabulary().contains(headOf(f)), qPrintable(f + ": not a word of the vocabulary"));
            QVERIFY2(!QString::fromStdString(e.detail()).contains("--"), e.what());
            QVERIFY2(!QString(e.what()).contains("--"), e.what());
            QVERIFY2(!QString(e.what()).contains(" -r"), e.what());
            QVERIFY2(!QString(e.what()).contains('\n'), e.what());
        }
    }

    // Every throw of the core outside the CLI, read from the source: no string in it names a
    // command-line flag, and a SpecError whose field is written out starts with a word of the
    // vocabulary. (The rows above check the messages at run time; this finds the throws no row
    // reaches.)
    void noThrowInTheCoreNamesAFlag()
    {
        const QRegularExpression throwStatement("\\bthrow\\b[^;]*;");
        const QRegularExpression literal("\"((?:[^\"\\\\]|\\\\.)*)\"");
        const QRegularExpression flag("(^|[\\s(',])--?[a-z]");
        const QRegularExpression specField("\\bSpecError\\(\\s*\"([^\"]*)\"");
        int throws = 0, fields = 0;
        for (const char* root : {"/core/src", "/core/include"}) {
            QDirIterator it(QString(ORBIT_SOURCE_DIR) + root, {"*.cpp", "*.hpp"}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                if (path.contains("/cli/"))
                    continue;
                QFile file(path);
                QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
                QString text = QString::fromUtf8(file.readAll());
                text.remove(QRegularExpression("//[^\\n]*"));  // comments may mention flags
                for (auto m = throwStatement.globalMatch(text); m.hasNext();) {
                    const QString statement = m.next().captured(0);
                    ++throws;
                    for (auto l = literal.globalMatch(statement); l.hasNext();) {
                        const QString s = l.next().captured(1);
                        QVERIFY2(!flag.match(s).hasMatch(), qPrintable(path + ": " + statement));
                    }
                    if (const auto f = specField.match(statement); f.hasMatch()) {
                        ++fields;
                        QVERIFY2(vocabulary().contains(headOf(f.captured(1))),
                                 qPrintable(path + ": field '" + f.captured(1) + "' not in the vocabulary"));
                    }
                }
            }
        }
        // The scan saw the core's throws (not an empty or moved tree).
        QVERIFY2(throws > 300 && fields > 200, qPrintable(QString("%1 throws, %2 named fields").arg(throws).arg(fields)));
    }

    // A map used before its fit, or a block of the wrong width passed between core functions, is
    // a broken contract: ContractError, naming the function and both sizes.
    void contractViolationsAreNotUserErrors()
    {
        const Dataset data = images();
        const FeatureContext c = makeFeatureContext(data, "", "", "gaussian:sigma=1", 1);
        const auto map = makeFeatureMap("rf:s=8", c);
        MatrixXfR out;
        try {
            map->transform(data.X, 0, 2, out);
            QFAIL("transform before fit accepted");
        } catch (const ContractError& e) {
            QVERIFY2(QString(e.what()).startsWith("InvariantRandomFourier::transform: "), e.what());
            QVERIFY2(QString(e.what()).contains("before fit"), e.what());
        }
        map->fit(data.X, 1);
        try {
            map->transform(MatrixXfR::Zero(3, 15), 0, 3, out);
            QFAIL("a block of the wrong width accepted");
        } catch (const ContractError& e) {
            QVERIFY2(QString(e.what()).contains("15") && QString(e.what()).contains("16"), e.what());
        }
        // Not a SpecError: the CLI and the GUI must not present it as the user's mistake.
        try {
            map->transform(MatrixXfR::Zero(3, 15), 0, 3, out);
        } catch (const SpecError&) {
            QFAIL("a broken contract reported as bad input");
        } catch (const std::logic_error&) {
        }
        // The same for a learner asked to predict before it was fitted.
        QVERIFY_THROWS_EXCEPTION(ContractError, RidgeRegression(1.0).predictTargets(data.X));
    }
};

QTEST_APPLESS_MAIN(TestErrors)
#include "test_errors.moc"
