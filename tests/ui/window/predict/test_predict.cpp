// The Predict panel on the bundled digits, offscreen, with models trained by `orbitlab-cli train
// --save-model` in process: at the identity its answer has the bits of `predict --index I`; its
// sweep curve is the CSV of the command Copy as command gives (run in process), and its export
// writes that CSV; a digit drawn from a row's pixels reaches the model as that row (the same input
// floats, the same scores); the session keeps the drawing, the parameter and the slider; a file
// that is not an image, a model of another input shape and a cut model file each give one line,
// keeping the setting; dropped and pasted images (scaled with a note); a G2 molecule's atoms
// shuffled, against the CLI; and the models of runs (B the last run, A the pinned A), B's answer
// that of the file Save model… writes.
#include "state/PredictSettings.hpp"
#include "state/LabState.hpp"
#include "state/Session.hpp"
#include "state/WorkingState.hpp"
#include "state/commands/CliCommand.hpp"
#include "state/workers/PredictTask.hpp"

#include "orbit/data/MoleculeMoves.hpp"
#include "state/Comparison.hpp"
#include "window/compare/CompareActions.hpp"
#include "window/compare/ComparisonViews.hpp"
#include "window/training/ModelSaver.hpp"
#include "window/training/TrainingComparison.hpp"
#include "window/training/TrainingPanel.hpp"
#include "widgets/ChartBox.hpp"
#include "widgets/DrawCanvas.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"

#include "CliRunner.hpp"
#include "QuickSettings.hpp"
#include "WindowFixture.hpp"

#include <QAbstractButton>
#include <QDir>
#include <QComboBox>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QPushButton>
#include <QMimeData>
#include <QUrl>
#include <QObject>
#include <QSlider>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace orbitui;

namespace {

constexpr int kSix = 3000;  // the first 6 of the sheet (5 rows of 100 per class)

std::string number17(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string readAll(const QString& path)
{
    std::ifstream f(path.toStdString(), std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// The fields of line `line` of a CSV text after the first `skip`.
std::vector<std::string> csvFields(const std::string& text, int line, int skip)
{
    std::stringstream in(text);
    std::string l;
    for (int i = 0; i <= line; ++i)
        std::getline(in, l);
    std::vector<std::string> out;
    std::stringstream ss(l);
    for (std::string f; std::getline(ss, f, ',');)
        out.push_back(f);
    out.erase(out.begin(), out.begin() + skip);
    return out;
}

std::vector<std::string> answerFields(const PredictPanel& p, int model)
{
    std::vector<std::string> out;
    const auto& r = p.answer()->results[std::size_t(model)];
    for (Eigen::Index c = 0; c < r->scores.cols(); ++c)
        out.push_back(number17(r->scores(0, c)));
    return out;
}

/// Row i of the digits as the 8-bit grey image a file of it holds.
QImage rowImage(const orbit::Dataset& ds, std::size_t i)
{
    QImage image(ds.shape.width, ds.shape.height, QImage::Format_Grayscale8);
    const float* row = ds.sample(i);
    for (int y = 0; y < ds.shape.height; ++y)
        for (int x = 0; x < ds.shape.width; ++x)
            image.scanLine(y)[x] = uchar(std::lround(row[y * ds.shape.width + x] * 255.0f));
    return image;
}

bool oneLine(const QString& text) { return !text.isEmpty() && !text.contains('\n'); }

/// Runs the Python of Copy as Python with /usr/bin/python3 and the built module; its printed lines
/// as numbers (t, then the scores or the value). Empty when the module was not built.
std::vector<std::vector<double>> runPython(const std::string& script, QString* error)
{
    const QString module = QStringLiteral(ORBIT_PYTHON_DIR);
    if (!QFileInfo::exists(module + "/orbitlab/__init__.py") || !QFileInfo::exists("/usr/bin/python3"))
        return {};
    QProcess python;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", module);
    env.insert("PYTHONDONTWRITEBYTECODE", "1");
    python.setProcessEnvironment(env);
    python.start("/usr/bin/python3", {"-c", QString::fromStdString(script)});
    if (!python.waitForFinished(300000) || python.exitCode() != 0) {
        *error = QString::fromUtf8(python.readAllStandardError());
        return {};
    }
    std::vector<std::vector<double>> lines;
    for (const QString& line : QString::fromUtf8(python.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts)) {
        std::vector<double> numbers;
        for (const QString& word : line.split(' ', Qt::SkipEmptyParts))
            numbers.push_back(word.toDouble());
        lines.push_back(numbers);
    }
    return lines;
}

} // namespace

class TestPredict : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<orbittest::WindowFixture> fx_;

    QString path(const char* name) const { return dir_.filePath(name); }
    MainWindow& w() { return *fx_->window; }
    PredictPanel& panel() { return *w().predictPanel(); }

    void train(const std::vector<std::string>& args, const char* model)
    {
        std::vector<std::string> all = {"train", "--eval", "holdout:0.2", "--seed", "1", "--save-model", path(model).toStdString()};
        all.insert(all.end(), args.begin(), args.end());
        const auto r = orbittest::runCli(all);
        QVERIFY2(r.status == 0, r.err.c_str());
    }

    bool settle() { return QTest::qWaitFor([&] { return w().isIdle() && panel().isIdle(); }, 120000); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        const std::string digits = orbittest::digitsPng().toStdString();
        train({"--data", digits, "--n", "600", "--features", "raw", "--learner", "ridge"}, "raw.npz");
        train({"--data", digits, "--n", "600", "--features", "irf:s=200,r=8", "--group", "rotation", "--dist",
               "vonmises:kappa=2", "--learner", "ridge"},
              "local.npz");
        train({"--data", orbittest::g2Xyz().toStdString(), "--features", "rf:s=100", "--learner", "blr"}, "g2.npz");
        train({"--data", orbittest::g2Xyz().toStdString(), "--features", "irf:s=200,r=8", "--group", "permutation", "--dist",
               "noisysort:sigma=1", "--learner", "blr"},
              "g2-invariant.npz");
        // A model file cut short, as a copy interrupted half-way leaves it.
        QFile whole(path("raw.npz"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QFile cut(path("cut.npz"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(whole.readAll().left(int(whole.size() / 2)));
        cut.close();
        QFile text(path("notes.png"));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("these are words, not pixels\n");
        text.close();

        fx_ = std::make_unique<orbittest::WindowFixture>();
        w().resize(1280, 720);
        w().show();
        QVERIFY(orbittest::loadAndSettle(w(), orbittest::digitsPng()));
        QVERIFY(w().showPanel("predict"));
        w().state()->setSelectedIndex(kSix);
        panel().openModel(1, path("local.npz"));
        QVERIFY(settle());
        QVERIFY2(!panel().hasError(), qPrintable(panel().errorText()));
        QVERIFY(panel().answer());
        QVERIFY(panel().sweep());
    }

    // At t = 0 the panel's answer has the bits of predict --index I (one row, one call).
    void identityGivesPredictIndexBits()
    {
        panel().setValue(0.0);
        QVERIFY(settle());
        const auto r = orbittest::runCli({"predict", "--model", path("local.npz").toStdString(), "--data",
                                          orbittest::digitsPng().toStdString(), "--index", std::to_string(kSix), "--out",
                                          path("one.csv").toStdString()});
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(panel().answer()->request.range.values.front(), 0.0);
        QCOMPARE(answerFields(panel(), 1), csvFields(readAll(path("one.csv")), 1, 2));
        // The sweep's row at 0 (rotation -180..180 every 5 degrees: row 36) is the same answer.
        QCOMPARE(csvFields(panel().sweepCsv(1).toStdString(), 37, 1), csvFields(readAll(path("one.csv")), 1, 2));
    }

    // The chart's curve is the CSV of the command Copy as command gives, run in process; the
    // panel's export writes the same file.
    void curveIsTheCommandsCsv()
    {
        const SessionState s = w().session()->capture();
        CliCommand command = predictCommand(s);
        QVERIFY(command.args.back() == "predict-sweep.csv");
        command.args.back() = path("cli-sweep.csv").toStdString();
        const auto r = orbittest::runCli(command.args);
        QVERIFY2(r.status == 0, r.err.c_str());
        const std::string cli = readAll(path("cli-sweep.csv"));
        QVERIFY(cli.rfind("t,score_0,", 0) == 0);
        QCOMPARE(panel().sweepCsv(1).toStdString(), cli);
        QString error;
        QVERIFY(QDir().mkpath(dir_.filePath("export")));
        const QStringList written = panel().exportCharts(dir_.filePath("export"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(written.contains(dir_.filePath("export/predict-sweep.csv")));
        QCOMPARE(readAll(dir_.filePath("export/predict-sweep.csv")), cli);
        QCOMPARE(panel().chart()->csv().toStdString(), cli);  // the chart's "Data CSV…"

        const std::string python = predictPython(s);
        QVERIFY2(python.find("orbitlab.sweep(model, x, parameter=\"rotation\"") != std::string::npos ||
                     python.find("orbitlab.sweep(model, x, parameter='rotation'") != std::string::npos,
                 python.c_str());
        QVERIFY(python.find("np.linspace(-180, 180, 73)") != std::string::npos);
        // The Python runs, and prints the chart's numbers: t and B's scores per angle.
        QString pythonError;
        const auto lines = runPython(python, &pythonError);
        QVERIFY2(pythonError.isEmpty(), qPrintable(pythonError));
        if (lines.empty())
            QSKIP("the Python module is not built (target orbitlab_python)");
        const orbit::SweepResult& sweep = *panel().sweep()->results[1];
        QCOMPARE(lines.size(), sweep.range.values.size());
        for (std::size_t i = 0; i < lines.size(); ++i) {
            QCOMPARE(lines[i].size(), std::size_t(1 + sweep.scores.cols()));
            QCOMPARE(lines[i][0], sweep.range.values[i]);
            for (Eigen::Index c = 0; c < sweep.scores.cols(); ++c)
                QCOMPARE(lines[i][std::size_t(1 + c)], sweep.scores(Eigen::Index(i), c));  // the same doubles
        }
    }

    // Turning moves the answer; the models' answer is computed for the latest slider value only.
    void sliderStepsAnswerTheLatestValue()
    {
        for (int v = 0; v <= 90; v += 5)
            panel().setValue(v);
        QVERIFY(settle());
        QCOMPARE(panel().answer()->request.range.values.front(), 90.0);
        QVERIFY(answerFields(panel(), 1) != csvFields(readAll(path("one.csv")), 1, 2));
        panel().setValue(0.0);
        QVERIFY(settle());
    }

    // A digit drawn with a row's pixels reaches the model as that row: the same input floats and,
    // for a model without group samples (raw pixels), the same scores.
    void drawnDigitIsTheRow()
    {
        panel().openModel(1, path("raw.npz"));
        QVERIFY(settle());
        const auto ds = w().state()->dataset();
        const orbit::Shape shape = ds->shape;
        const QImage drawn = rowImage(*ds, kSix);
        const float* row = ds->sample(kSix);
        const std::vector<std::string> rowScores = answerFields(panel(), 1);
        panel().canvas()->setImage(drawn);
        panel().findChild<QAbstractButton*>("predictSource-drawn")->click();
        QVERIFY(settle());
        QVERIFY2(!panel().hasError(), qPrintable(panel().errorText()));
        QCOMPARE(panel().input()->index, std::size_t(0));
        QCOMPARE(panel().input()->x, std::vector<float>(row, row + shape.dim()));
        QCOMPARE(answerFields(panel(), 1), rowScores);
    }

    // The session keeps the drawing, the parameter, the slider and the model files; an old session
    // without "predict" still loads (the defaults).
    void sessionKeepsInputAndSliders()
    {
        panel().setValue(90.0);
        QVERIFY(settle());
        const SessionState s = w().session()->capture();
        QCOMPARE(s.part<PredictSettings>().input, QStringLiteral("drawn"));
        QVERIFY(!s.part<PredictSettings>().drawn.isEmpty());
        QCOMPARE(s.part<PredictSettings>().t, 90.0);
        QCOMPARE(s.part<PredictSettings>().modelB, path("raw.npz"));
        const SessionState back = sessionFromJson(toJson(s));
        QCOMPARE(back.part<PredictSettings>(), s.part<PredictSettings>());
        WorkingState kept;  // autosave and recovery keep the session as it is
        kept.session = s;
        QCOMPARE(workingStateFromJson(toJson(kept)).session.part<PredictSettings>(), s.part<PredictSettings>());

        orbittest::WindowFixture other;
        other.window->show();
        other.window->session()->apply(back);
        QVERIFY(QTest::qWaitFor([&] { return other.window->state()->dataset() != nullptr; }, 60000));
        other.window->showPanel("predict");
        QVERIFY(QTest::qWaitFor([&] { return other.window->isIdle() && other.window->predictPanel()->isIdle(); }, 120000));
        PredictPanel& p = *other.window->predictPanel();
        QCOMPARE(p.settings(), s.part<PredictSettings>());
        QCOMPARE(p.canvas()->image(), panel().canvas()->image());
        QVERIFY(p.answer());
        QCOMPARE(p.answer()->request.range.values.front(), 90.0);
        QCOMPARE(answerFields(p, 1), answerFields(panel(), 1));

        QJsonObject old = toJson(s);
        old.remove("predict");
        QCOMPARE(orbittest::sessionRejection(old), QString());
        QCOMPARE(sessionFromJson(old).part<PredictSettings>(), PredictSettings{});
        QJsonObject badT = toJson(s);
        QJsonObject predict = badT.value("predict").toObject();
        predict.insert("t", 1000);
        badT.insert("predict", predict);
        QVERIFY(orbittest::sessionRejection(badT).contains("predict.t"));
    }

    // Each bad input is one line in the panel; the setting is kept and the other model still answers.
    void badInputsSayOneLine()
    {
        const PredictSettings before = panel().settings();
        panel().openImage(path("notes.png"));
        QVERIFY(settle());
        QVERIFY(panel().hasError());
        QVERIFY2(oneLine(panel().errorText()) && panel().errorText().contains("notes.png"), qPrintable(panel().errorText()));
        qInfo("%s", qPrintable(panel().errorText()));
        panel().findChild<QAbstractButton*>("predictSource-drawn")->click();
        QVERIFY(settle());
        QVERIFY2(!panel().hasError(), qPrintable(panel().errorText()));

        panel().openModel(0, path("g2.npz"));
        QVERIFY(settle());
        QVERIFY(panel().hasError());
        QVERIFY2(oneLine(panel().errorText()) && panel().errorText().contains("Model A"), qPrintable(panel().errorText()));
        qInfo("%s", qPrintable(panel().errorText()));
        QVERIFY(panel().answer()->results[1]);  // B still answers

        panel().openModel(0, path("cut.npz"));
        QVERIFY(settle());
        QVERIFY(panel().hasError());
        QVERIFY2(oneLine(panel().errorText()) && panel().errorText().contains("cut.npz"), qPrintable(panel().errorText()));
        qInfo("%s", qPrintable(panel().errorText()));
        QVERIFY(panel().answer()->results[1]);
        QCOMPARE(panel().settings().modelB, before.modelB);
        QCOMPARE(panel().settings().drawn, before.drawn);
        QCOMPARE(w().state()->dataset()->count(), std::size_t(5000));
    }

    // An image file dropped on the panel is its input: a file of a row's pixels is that row; a larger
    // one is scaled to the data's shape with a note, and so is a pasted image.
    void droppedAndPastedImages()
    {
        panel().openModel(0, QString());  // A back to the (absent) pinned run: its file's failure goes
        const auto ds = w().state()->dataset();
        const QImage six = rowImage(*ds, kSix);
        QVERIFY(six.save(path("six.png")));
        QVERIFY(six.scaled(40, 40).save(path("six-40.png")));
        for (const char* name : {"six.png", "six-40.png"}) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path(name))});
            QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&panel(), &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&panel(), &drop);
            QVERIFY(drop.isAccepted());
            QVERIFY(settle());
            QVERIFY2(!panel().hasError(), qPrintable(panel().errorText()));
            QCOMPARE(panel().settings().input, QStringLiteral("file"));
            QCOMPARE(panel().settings().imageFile, path(name));
        }
        QVERIFY2(panel().input()->note.contains("scaled to 20x20"), qPrintable(panel().input()->note));
        panel().openImage(path("six.png"));
        QVERIFY(settle());
        QVERIFY(panel().input()->note.isEmpty());
        const float* row = ds->sample(kSix);
        QCOMPARE(panel().input()->x, std::vector<float>(row, row + ds->shape.dim()));

        panel().pasteImage(six.scaled(40, 40));
        QVERIFY(settle());
        QCOMPARE(panel().settings().input, QStringLiteral("drawn"));
        QVERIFY2(panel().input()->note.contains("scaled to 20x20"), qPrintable(panel().input()->note));
    }

    // A molecule: the slider shuffles its atoms, the answer is the predicted energy, and the curve is
    // the CLI's for the same model, row and sweep.
    void moleculeShufflesAtoms()
    {
        QVERIFY(orbittest::loadAndSettle(w(), orbittest::g2Xyz()));
        w().state()->setSelectedIndex(5);
        panel().openModel(0, QString());
        panel().openModel(1, path("g2.npz"));
        panel().findChild<QAbstractButton*>("predictSource-row")->click();
        QVERIFY(settle());
        QVERIFY2(!panel().hasError(), qPrintable(panel().errorText()));
        QCOMPARE(panel().settings().parameter, QStringLiteral("permutation"));
        QVERIFY(panel().answer()->results[1]->value.size() == 1);
        const auto r = orbittest::runCli({"predict", "--model", path("g2.npz").toStdString(), "--data",
                                          orbittest::g2Xyz().toStdString(), "--index", "5", "--sweep", "permutation:0:20:21",
                                          "--out", path("g2-sweep.csv").toStdString()});
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(panel().sweepCsv(1).toStdString(), readAll(path("g2-sweep.csv")));
        panel().setValue(3);
        QVERIFY(settle());
        QCOMPARE(panel().answer()->request.range.values.front(), 3.0);
        QCOMPARE(number17(panel().answer()->results[1]->value.front()), csvFields(readAll(path("g2-sweep.csv")), 4, 1).front());
    }

    // Two chosen atoms of acetamide swapped (O and an H): the input is the row with their rows and
    // columns exchanged; the noisy-sort model's energy changes within its Monte Carlo error, the plain
    // model's by more, and the line under the bars says so; Copy as command and Copy as Python give
    // the chart's numbers. The jitter moves the atoms where the file has positions (G2 is extended
    // XYZ) and is disabled, saying why, where it has none.
    void moleculeSwapAndJitter()
    {
        constexpr int kAcetamide = 100;
        w().state()->setSelectedIndex(kAcetamide);
        panel().openModel(0, path("g2.npz"));
        panel().openModel(1, path("g2-invariant.npz"));
        panel().setValue(0);
        QVERIFY(settle());
        QVERIFY2(!panel().hasError(), qPrintable(panel().errorText()));
        const auto ds = w().state()->dataset();
        const float* rowData = ds->sample(kAcetamide);
        const std::vector<float> row(rowData, rowData + ds->shape.dim());
        QCOMPARE(panel().input()->x, row);
        QVERIFY(panel().swapButton()->isEnabled() && panel().jitterSlider()->isEnabled());
        QCOMPARE(panel().atomPicker(0)->count(), 9);
        QCOMPARE(panel().atomPicker(0)->itemText(0), QStringLiteral("0 O"));

        panel().atomPicker(0)->setCurrentIndex(0);
        panel().atomPicker(1)->setCurrentIndex(5);
        panel().swapButton()->click();
        QVERIFY(settle());
        QVERIFY2(!panel().hasError(), qPrintable(panel().errorText()));
        QCOMPARE(panel().settings().swap, (QList<int>{0, 5}));
        QCOMPARE(panel().input()->x, orbit::swappedAtoms(row.data(), ds->shape, 0, 5));
        QCOMPARE(panel().input()->row, row);
        const auto& answer = *panel().answer();
        QVERIFY(answer.asInFile[0] && answer.asInFile[1]);
        const double plainChange = answer.results[0]->value.front() - answer.asInFile[0]->first;
        const double invariantChange = answer.results[1]->value.front() - answer.asInFile[1]->first;
        const double mc = answer.asInFile[1]->second;
        qInfo("swap 0,5: plain change %.6g (Monte Carlo error %g), invariant change %.6g (Monte Carlo error %.6g)", plainChange,
              answer.asInFile[0]->second, invariantChange, mc);
        QCOMPARE(answer.asInFile[0]->second, 0.0);  // no group samples, no Monte Carlo error
        QVERIFY(mc > 0);
        QVERIFY2(std::abs(invariantChange) <= 2 * mc, qPrintable(panel().statusText()));
        QVERIFY2(std::abs(plainChange) > 2 * mc, qPrintable(panel().statusText()));
        QVERIFY2(panel().statusText().contains("within it") && panel().statusText().contains("larger than it"),
                 qPrintable(panel().statusText()));

        // Copy as command: the same sweep of the swapped molecule; Copy as Python: the same numbers.
        const SessionState s = w().session()->capture();
        QCOMPARE(s.part<PredictSettings>().swap, (QList<int>{0, 5}));
        CliCommand command = predictCommand(s);
        QVERIFY(std::find(command.args.begin(), command.args.end(), "0,5") != command.args.end());
        command.args.back() = path("swap-sweep.csv").toStdString();
        const auto r = orbittest::runCli(command.args);
        QVERIFY2(r.status == 0, r.err.c_str());
        QCOMPARE(panel().sweepCsv(1).toStdString(), readAll(path("swap-sweep.csv")));
        QString error;
        const auto lines = runPython(predictPython(s), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        if (!lines.empty()) {
            const orbit::SweepResult& sweep = *panel().sweep()->results[1];
            QCOMPARE(lines.size(), sweep.value.size());
            for (std::size_t i = 0; i < lines.size(); ++i)
                QCOMPARE(lines[i].back(), sweep.value[i]);
        }

        // The jitter: 0.05 Angstrom moves the atoms (the loader's formula at moved positions); back to 0, the row.
        panel().swapButton()->click();
        panel().jitterSlider()->setValue(5);
        QVERIFY(settle());
        QCOMPARE(panel().settings().jitter, 5 * kJitterStep);
        QCOMPARE(panel().input()->x, orbit::jitteredMolecule(*ds, kAcetamide, 5 * kJitterStep, 0));
        QVERIFY(panel().input()->x != row);
        QVERIFY(panel().answer()->results[0]->value.front() != panel().answer()->asInFile[0]->first);
        QVERIFY(std::find(predictCommand(w().session()->capture()).args.begin(), predictCommand(w().session()->capture()).args.end(),
                          "--jitter") != predictCommand(w().session()->capture()).args.end());
        panel().jitterSlider()->setValue(0);
        QVERIFY(settle());
        QCOMPARE(panel().input()->x, row);
        QVERIFY(panel().input()->row.empty());

        // Coulomb matrices without positions (as read from CSV or .mat): the jitter is disabled and says why.
        auto noPositions = std::make_shared<orbit::Dataset>(*ds);
        noPositions->positions.clear();
        w().state()->setDataset(noPositions, w().state()->datasetPath());
        w().state()->setSelectedIndex(kAcetamide);
        QVERIFY(settle());
        QVERIFY(!panel().jitterSlider()->isEnabled());
        QVERIFY2(panel().jitterSlider()->toolTip().contains("no atom positions"), qPrintable(panel().jitterSlider()->toolTip()));
        QVERIFY(panel().swapButton()->isEnabled());
        w().state()->setDataset(ds, w().state()->datasetPath());
        QVERIFY(settle());
    }

    // Models of runs: B is the Training panel's last run, A Compare's pinned A as last fitted; B's
    // answer is that of the file Save model… writes for the run.
    void modelsOfTrainingRuns()
    {
        orbittest::WindowFixture f;
        MainWindow& win = *f.window;
        win.show();
        TrainingSettings t = orbittest::quickInvariantBlr(64, 4, 7);
        t.learner = "ridge";
        t.lambdas = {1e-2};
        win.trainingPanel()->setSettings(t);
        QVERIFY(orbittest::loadAndSettle(win, orbittest::digitsPng()));
        win.compare()->pinCurrentAsA();
        t.s = 128;
        win.trainingPanel()->setSettings(t);
        QVERIFY(win.trainingPanel()->run());
        QVERIFY(QTest::qWaitFor([&] { return win.isIdle() && win.trainingPanel()->lastResult() && win.comparisonViews()->training()->resultA(); },
                                300000));
        win.state()->setSelectedIndex(kSix);
        win.showPanel("predict");
        PredictPanel& p = *win.predictPanel();
        QVERIFY(QTest::qWaitFor([&] { return win.isIdle() && p.isIdle() && p.answer() && p.sweep(); }, 300000));
        QVERIFY2(!p.hasError(), qPrintable(p.errorText()));
        QVERIFY2(p.modelName(0).contains("irf:s=64"), qPrintable(p.modelName(0)));
        QVERIFY2(p.modelName(1).contains("irf:s=128"), qPrintable(p.modelName(1)));
        QVERIFY(p.answer()->results[0] && p.answer()->results[1]);
        const std::vector<std::string> fromRun = answerFields(p, 1);

        QVERIFY(win.trainingPanel()->modelSaver()->save(path("run.npz")));
        QVERIFY(QTest::qWaitFor([&] { return win.trainingPanel()->isIdle(); }, 120000));
        p.openModel(1, path("run.npz"));
        QVERIFY(QTest::qWaitFor([&] { return win.isIdle() && p.isIdle(); }, 120000));
        QCOMPARE(p.modelName(1), QStringLiteral("run.npz (irf:s=128,r=4, ridge)"));
        QCOMPARE(answerFields(p, 1), fromRun);
    }
};

QTEST_MAIN(TestPredict)
#include "test_predict.moc"
