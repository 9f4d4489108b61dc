#pragma once
// Predict panel (issue 44, "Try it"): an input (a row of the data, a drawing on a canvas of the
// data's image size, or an image file dropped, pasted or opened), a transformation of it from the
// sweep parameters (rotation, translation-x / -y and scale for images, a shuffle of the atoms for
// molecules) on a slider, for molecules also two chosen atoms swapped and a jitter of the atoms'
// positions where the file has them, and the answers of two trained models A and B live: class scores as bars
// (or the predicted value), computed on the worker with only the latest slider value computed. The
// sweep chart shows each class's score over the parameter's whole range for A and B, the slider's
// value marked and, for a model averaging over rotations, its central 90 % window shaded; it is
// computed when the input or a model changes, not per slider step. Its numbers are those of
// `orbitlab-cli predict --sweep` (exportCharts writes the same CSV).
#include "state/PredictSettings.hpp"
#include "widgets/Panel.hpp"

#include <QImage>

#include <array>
#include <functional>
#include <memory>

class QButtonGroup;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace orbitui {

class ChartBox;
class DrawCanvas;
class LabState;
class ScoreBars;
class TaskRunner;
class PredictChart;
struct PredictAnswer;
struct PredictInput;
struct PredictModel;
struct TrainingResult;

class PredictPanel : public Panel {
    Q_OBJECT
public:
    explicit PredictPanel(LabState* state, QWidget* parent = nullptr);
    ~PredictPanel() override;

    void cancel() override;
    bool hasCharts() const override { return true; }
    /// predict-sweep.csv (B's sweep) and predict-sweep-a.csv (A's), the CSV `orbitlab-cli predict
    /// --sweep --out` writes; for a drawn input also predict-input.png, the drawing the command reads.
    QStringList exportCharts(const QString& dir, QString* error) const override;

    PredictSettings settings() const;
    void applySettings(const PredictSettings& s);

    /// Where the models of runs come from: B the Training panel's last run, A Compare's pinned A
    /// as last fitted (either may answer null). runsChanged() asks them again.
    void setRunSources(std::function<std::shared_ptr<const TrainingResult>()> runB,
                       std::function<std::shared_ptr<const TrainingResult>()> runA);
    void runsChanged();

    /// Uses the model file at `path` as model m (0: A, 1: B); an empty path goes back to the run.
    void openModel(int model, const QString& path);
    /// Makes the image file at `path` the input (Open image…, a drop on this panel). A file that is
    /// not an image says so in one line; the setting is kept.
    void openImage(const QString& path);
    /// Makes `image` the input as a drawing (a paste), scaled to the data's shape with a note.
    void pasteImage(const QImage& image);
    /// Moves the slider to `t` (rounded to its step).
    void setValue(double t);

    /// What is shown: the models' answers at the slider's value and their sweep (null before one).
    std::shared_ptr<const PredictAnswer> answer() const { return answer_; }
    std::shared_ptr<const PredictAnswer> sweep() const { return sweep_; }
    /// The input the models are asked about (null before one is ready).
    std::shared_ptr<const PredictInput> input() const { return input_; }
    /// The sweep of model m as the CLI writes it (orbit::sweepCsv); empty without one.
    QString sweepCsv(int model) const;
    /// Model m's name as shown, empty without a model.
    QString modelName(int model) const;
    DrawCanvas* canvas() const { return canvas_; }
    /// The molecule controls: the atom pickers (0, 1), Swap (checked: the input has them swapped)
    /// and the jitter slider (steps of kJitterStep Angstrom).
    QComboBox* atomPicker(int k) const { return atoms_[std::size_t(k)]; }
    QPushButton* swapButton() const { return swap_; }
    QSlider* jitterSlider() const { return jitter_; }
    QSlider* slider() const { return slider_; }
    ScoreBars* bars() const { return bars_; }
    ChartBox* chart() const;
    QString statusText() const;
    /// How many answers at a slider value were drawn (tests, bench).
    int answerCount() const { return answers_; }

protected:
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* buildInput();
    QWidget* buildModels();
    /// The molecule controls (PredictMolecule.cpp): atom pickers, Swap, jitter; shown for molecules.
    QWidget* buildMolecule();
    /// Fills the atom pickers from the selected molecule and enables what the input allows.
    void updateMolecule();
    void updateMoleculeText();
    void connectRunners();
    void datasetChanged();
    void parameterChanged();
    void sliderMoved();
    void updateValueText();
    /// Asks again for what is out of date: the input, the models, then the sweep and the answer.
    void refresh();
    void requestInput();
    void requestModel(int model);
    void requestAnswer();
    void requestSweep();
    void drawAnswer(std::shared_ptr<const PredictAnswer> answer);
    /// " (as in the file E0, a change of d; Monte Carlo error e: within it)" for a moved molecule.
    QString movedText(double value, double asInFile, double mcError) const;
    void fail(const QString& source, const QString& message);
    void succeed(const QString& source);

    LabState* state_;
    PredictSettings settings_;
    std::function<std::shared_ptr<const TrainingResult>()> runB_, runA_;
    std::array<std::shared_ptr<const TrainingResult>, 2> runs_;      ///< the runs the models were made from
    std::array<std::shared_ptr<const PredictModel>, 2> models_;
    std::array<TaskRunner*, 2> modelRunners_{};
    std::array<bool, 2> modelStale_{true, true};
    std::shared_ptr<const PredictInput> input_;
    bool inputStale_ = true;
    TaskRunner* inputRunner_;
    TaskRunner* answerRunner_;
    TaskRunner* sweepRunner_;
    std::shared_ptr<const PredictAnswer> answer_, sweep_;
    QString errorSource_;
    int answers_ = 0;
    bool applying_ = false;

    // Input.
    QButtonGroup* source_ = nullptr;
    QSpinBox* row_ = nullptr;
    QStackedWidget* inputStack_ = nullptr;
    QLabel* rowPicture_ = nullptr;
    DrawCanvas* canvas_ = nullptr;
    QLabel* filePicture_ = nullptr;
    QLabel* inputNote_ = nullptr;
    QLabel* moved_ = nullptr;
    // Transformation.
    QComboBox* parameter_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* valueText_ = nullptr;
    // Molecules.
    QWidget* molecule_ = nullptr;
    std::array<QComboBox*, 2> atoms_{};
    QPushButton* swap_ = nullptr;
    QSlider* jitter_ = nullptr;
    QLabel* jitterText_ = nullptr;
    // Answers.
    ScoreBars* bars_ = nullptr;
    PredictChart* chart_ = nullptr;
    std::array<QLabel*, 2> modelLabels_{};
    QLabel* status_ = nullptr;
};

} // namespace orbitui
