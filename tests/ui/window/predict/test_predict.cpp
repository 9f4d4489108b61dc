// The Predict panel on the bundled digits, offscreen, with models trained by `orbitlab-cli train
// --save-model` in process: at the identity its answer has the bits of `predict --index I`; its
// sweep curve is the CSV of the command Copy as command gives (run in process), and its export
// writes that CSV; a digit drawn from a row's pixels reaches the model as that row (the same input
// floats, the same scores); the session keeps the drawing, the parameter and the slider; and a file
// that is not an image, a model of another input shape and a cut model file each give one line,
// keeping the setting.
#include "state/LabState.hpp"
#include "state/Session.hpp"
#include "state/commands/CliCommand.hpp"
#include "state/workers/PredictTask.hpp"
#include "widgets/DrawCanvas.hpp"
#include "window/predict/PredictPanel.hpp"
#include "window/shell/MainWindow.hpp"
#include "window/shell/SessionController.hpp"

#include "CliRunner.hpp"
#include "WindowFixture.hpp"

#include <QAbstractButton>
#include <QDir>
#include <QFile>
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

bool oneLine(const QString& text) { return !text.isEmpty() && !text.contains('\n'); }

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

        const std::string python = predictPython(s);
        QVERIFY2(python.find("orbitlab.sweep(model, x, parameter=\"rotation\"") != std::string::npos ||
                     python.find("orbitlab.sweep(model, x, parameter='rotation'") != std::string::npos,
                 python.c_str());
        QVERIFY(python.find("np.linspace(-180, 180, 73)") != std::string::npos);
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
        QImage drawn(shape.width, shape.height, QImage::Format_Grayscale8);
        const float* row = ds->sample(kSix);
        for (int y = 0; y < shape.height; ++y)
            for (int x = 0; x < shape.width; ++x)
                drawn.scanLine(y)[x] = uchar(std::lround(row[y * shape.width + x] * 255.0f));
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
        QCOMPARE(s.predict.input, QStringLiteral("drawn"));
        QVERIFY(!s.predict.drawn.isEmpty());
        QCOMPARE(s.predict.t, 90.0);
        QCOMPARE(s.predict.modelB, path("raw.npz"));
        const SessionState back = sessionFromJson(toJson(s));
        QCOMPARE(back.predict, s.predict);

        orbittest::WindowFixture other;
        other.window->show();
        other.window->session()->apply(back);
        QVERIFY(QTest::qWaitFor([&] { return other.window->state()->dataset() != nullptr; }, 60000));
        other.window->showPanel("predict");
        QVERIFY(QTest::qWaitFor([&] { return other.window->isIdle() && other.window->predictPanel()->isIdle(); }, 120000));
        PredictPanel& p = *other.window->predictPanel();
        QCOMPARE(p.settings(), s.predict);
        QCOMPARE(p.canvas()->image(), panel().canvas()->image());
        QVERIFY(p.answer());
        QCOMPARE(p.answer()->request.range.values.front(), 90.0);
        QCOMPARE(answerFields(p, 1), answerFields(panel(), 1));

        QJsonObject old = toJson(s);
        old.remove("predict");
        QCOMPARE(orbittest::sessionRejection(old), QString());
        QCOMPARE(sessionFromJson(old).predict, PredictSettings{});
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
};

QTEST_MAIN(TestPredict)
#include "test_predict.moc"
