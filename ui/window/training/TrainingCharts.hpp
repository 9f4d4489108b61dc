#pragma once
// The Training panel's charts: the validation score along the main grid axis (with the log evidence
// on a second axis for blr, so a locality such as kappa can be chosen by the evidence next to the
// validation accuracy) and the learning curve. Both are redrawn from a finished TrainResult.
#include "orbit/training/Training.hpp"
#include "orbit/figures/TrainingSummary.hpp"

#include <QString>

#include <string>

namespace orbitui {

class ChartBox;
using orbit::AxisCurve;

/// Whether the run scored RMSE (regression targets) rather than accuracy (the registry's metric).
bool isRmse(const orbit::TrainResult& result);

/// Replaces the chart of `box` by the validation score of `result` along `curve` (log x axis for
/// lambda, C and ranges over a factor 50) and, when the curve has a finite log evidence, the
/// evidence on a right-hand axis. Hides `box` when the curve has fewer than two points. `unit` (the
/// targets' unit, e.g. "kcal/mol", or empty) is written on the RMSE axis.
void drawScoreChart(ChartBox* box, const orbit::TrainResult& result, const AxisCurve& curve, const QString& unit = {});

/// Replaces the chart of `box` by the learning curve of `result` (test score against training
/// samples), or a note saying how to get one when the run made none; `unit` as for drawScoreChart.
void drawLearningCurve(ChartBox* box, const orbit::TrainResult& result, const QString& unit = {});

/// "test RMSE" -> "test RMSE (kcal/mol)" for an RMSE-scored result with a known unit; else `text`.
QString withScoreUnit(const QString& text, const orbit::TrainResult& result, const QString& unit);

} // namespace orbitui
