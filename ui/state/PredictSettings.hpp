#pragma once
// The Predict view's setting (issue 44): its input (a row of the data, a drawn image or an image
// file), the transformation swept over it and where its slider stands, and the models A and B it
// asks; the sweep ranges of its chart; the session's "predict" part (state/SessionParts.hpp).
#include "orbit/figures/PredictSweep.hpp"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace orbitui {

struct PredictSettings {
    static constexpr const char* kSessionKey = "predict";
    static constexpr bool kPinned = false;
    /// Where the input comes from: "row" (the selected row of the data: the session's
    /// data.selected), "drawn" (the canvas) or "file" (an image dropped, pasted or opened).
    QString input = QStringLiteral("row");
    /// The drawn canvas as an 8-bit grey PNG of the data's image size (empty: nothing drawn).
    QByteArray drawn;
    /// The image file of input "file" (a pasted image is kept as `drawn`).
    QString imageFile;
    /// The CLI's parameter name (rotation, translation-x, translation-y, scale, permutation).
    QString parameter = QStringLiteral("rotation");
    /// Where the slider stands (degrees, pixels, a zoom factor, a shuffle number).
    double t = 0.0;
    /// The model files of A and B; empty: A is Compare's pinned A as last fitted, B the Training
    /// panel's last run.
    QString modelA, modelB;
    /// Molecules: the two atoms (0-based, in the file's order) swapped in the input, or empty for
    /// none; and the standard deviation (Angstrom) of the Gaussian jitter of its atoms' positions
    /// (orbit::jitteredMolecule; only where the data have positions).
    QList<int> swap;
    double jitter = 0.0;
    bool operator==(const PredictSettings&) const = default;
    /// {"input": ..., "drawn": base64 PNG, "image": ..., "parameter": ..., "t": ..., "model_a": ...,
    /// "model_b": ..., "swap": [i, j], "jitter": ...}; fields at their defaults are left out.
    QJsonObject toJson() const;
    /// Reads a "predict" object; missing fields keep their defaults. Throws orbit::SpecError naming the
    /// field ("predict.parameter") and the value for a malformed one.
    static PredictSettings fromJson(const QJsonObject& o);
};

/// The jitter slider's largest standard deviation (Angstrom) and its step.
constexpr double kMaxJitter = 0.5;
constexpr double kJitterStep = 0.01;

/// The parameters a sweep of data of `kind` can move: rotation, translation-x, translation-y and
/// scale for images, permutation for Coulomb matrices; none for other vectors.
QStringList predictParameters(orbit::DataKind kind);
/// The chart's range of `parameter`: rotation -180..180 every 5 degrees (73 values), translation
/// -6..6 pixels every half pixel (25), scale 0.5..2 every 0.05 (31), permutation 0..20 (21).
/// SpecError("sweep") for an unknown name.
orbit::SweepRange predictSweepRange(const QString& parameter);
/// The range as `orbitlab-cli predict --sweep` writes it: "rotation:-180:180:73".
QString sweepRangeText(const orbit::SweepRange& range);
/// The slider's step of `parameter` (1 degree, 0.5 pixel, 0.05, 1 shuffle) and its identity value.
double predictSliderStep(const QString& parameter);
double predictIdentity(const QString& parameter);

} // namespace orbitui
