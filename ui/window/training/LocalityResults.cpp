// The end of a Learn locality (LocalityPane): the learned values applied, the summary in words and
// the chart completed, for the BLR learn (one locality or per class) and the exact GP's.
#include "window/training/LocalityPane.hpp"

#include "render/ParameterLabels.hpp"
#include "state/LabState.hpp"
#include "state/workers/LocalityTask.hpp"
#include "window/training/LocalityView.hpp"
#include "window/training/PerClassView.hpp"

#include "orbit/util/Error.hpp"

#include <QLabel>
#include <QPushButton>

#include <algorithm>

namespace orbitui {

namespace {

/// "κ = 0.84, translation σ = 1.2".
QString learnedValuesText(const std::map<std::string, double>& values)
{
    QStringList parts;
    for (const auto& [name, v] : values)
        parts << QStringLiteral("%1 = %2").arg(axisLabel(name), QString::number(v, 'g', 4));
    return parts.join(", ");
}

/// The GP's curve as the chart's picture: the best log marginal likelihood at each value it tried
/// (the line it climbs) and its values in the order tried (`live`, the steps drawn while it ran: the
/// scan, then the steps in the best bracket), the best one marked; without them, the curve's points.
LearnPicture exactCurvePicture(const std::string& param, const orbit::ExactLearnFold& fold,
                               const std::vector<orbit::EvidencePoint>& live)
{
    LearnPicture p;
    p.parameters = {param};
    p.learnedLandscape = true;
    p.marginalLikelihood = true;
    for (const auto& [value, logLikelihood] : fold.curve) {
        orbit::EvidencePoint e;
        e.params = {{param, value}};
        e.logEvidence = logLikelihood;
        e.stage = "scan";
        p.landscapePoints.push_back(e);
    }
    p.path = live.size() == fold.curve.size() ? live : p.landscapePoints;
    for (std::size_t i = 0; i < p.path.size(); ++i)
        if (p.best < 0 || p.path[i].logEvidence > p.path[std::size_t(p.best)].logEvidence)
            p.best = int(i);
    return p;
}

} // namespace

void LocalityPane::onFinished(std::shared_ptr<const LocalityResult> result)
{
    if (!result)
        return;
    last_ = result;
    finished_ = true;
    if (result->exact) {
        onExactFinished(*result);
        return;
    }
    if (result->perClass) {
        const orbit::PerClassResult& p = *result->perClass;
        classes_.clear();
        for (const orbit::ClassLocality& c : p.classes)
            classes_[c.label] = c;
        perClassView_->finish(p, result->globalConfusion, result->perClassConfusion);
        applyValues(p.global.learned);
        keepClasses();
        QString text = tr("Learned every class's %1 (%2 classes, %3 training samples, %4 s). Log evidence %5 per class, "
                          "%6 with one %7 for every class (a few nats per class is what the extra parameters buy; "
                          "tens or more mean the classes want different localities).")
                           .arg(learnedValuesText(p.global.learned).section(' ', 0, 0))
                           .arg(p.classes.size())
                           .arg(p.trainRows)
                           .arg(p.seconds, 0, 'f', 1)
                           .arg(p.logEvidence, 0, 'f', 1)
                           .arg(p.globalPerClassEvidence, 0, 'f', 1)
                           .arg(learnedValuesText(p.global.learned));
        if (p.test && p.global.test)
            text += tr("\nHeld-out accuracy: %1 per class, %2 with one locality, on %3 samples.")
                        .arg(*p.test, 0, 'f', 3)
                        .arg(*p.global.test, 0, 'f', 3)
                        .arg(p.testRows.size());
        text += tr("\nThe per-class distributions are kept in the settings (Training with blr, ridge or svm fits "
                   "them); click a class to see it.");
        summary_->setText(text);
        learnButton_->setEnabled(true);
        undoButton_->setEnabled(before_.has_value());
        emit stopped(QString());
        return;
    }
    const orbit::LearnResult& r = result->learn;
    applyValues(r.learned);
    std::size_t pilotEvaluations = 0;
    for (const orbit::PilotLevel& level : r.pilots)
        pilotEvaluations += level.trajectory.size();
    const QString pilots = pilotEvaluations == 0 ? QString() : tr(" and %1 on cheap pilots").arg(pilotEvaluations);
    QString text = tr("Learned %1 (log evidence %2) with %3 full-size evaluations%4 (%5, %6) on %7 training samples in %8 s.")
                       .arg(learnedValuesText(r.learned))
                       .arg(r.logEvidence, 0, 'f', 2)
                       .arg(r.trajectory.size())
                       .arg(pilots, QString::fromStdString(r.method), r.converged ? tr("converged") : tr("budget spent"))
                       .arg(r.trainRows)
                       .arg(r.seconds, 0, 'f', 1);
    if (r.test) {
        const bool rmse = r.metric == "rmse";
        const QString unit = QString::fromStdString(result->request.dataset->targetUnit);
        text += tr("\nHeld-out %1 of the learned model: %2 on %3 samples.")
                    .arg(rmse ? tr("RMSE") : tr("accuracy"),
                         rmse ? QString::number(*r.test, 'f', 2) + (unit.isEmpty() ? QString() : " " + unit)
                              : QString::number(*r.test, 'f', 3))
                    .arg(r.testRows);
    }
    text += tr("\nThe Group panel now shows the learned distribution; Undo puts back the one from before.");
    if (result->request.landscape.empty())
        view_->setLearnedLandscape(result->learnedLandscape);
    summary_->setText(text);
    learnButton_->setEnabled(true);
    undoButton_->setEnabled(before_.has_value());
    emit stopped(QString());
}

void LocalityPane::onExactFinished(const LocalityResult& result)
{
    const orbit::ExactLearnResult& r = *result.exact;
    if (r.folds.empty())
        return;
    // The first fold is the split BLR learns on: its value goes into the orbit settings.
    const orbit::ExactLearnFold& first = r.folds.front();
    applyValues(first.params);
    const auto ds = state_->dataset();
    if (ds)
        try {
            const auto dist = buildOrbit(state_->orbitSettings(), ds->kind, ds->shape).dist;
            const orbit::ParamDescriptor& p = dist->parameterDescriptor(r.param);
            const std::vector<orbit::EvidencePoint> live = view_->picture().path;
            view_->show({{r.param, p, {p.learnMinimum, p.learnMaximum}}}, exactCurvePicture(r.param, first, live));
        } catch (const orbit::SpecError&) {
            // the orbit settings changed under the learn (it would have been abandoned): no chart
        }
    const bool rmse = r.metric == "rmse";
    const QString unit = QString::fromStdString(result.request.dataset->targetUnit);
    auto score = [&](double v) {
        return rmse ? QString::number(v, 'f', 2) + (unit.isEmpty() ? QString() : " " + unit) : QString::number(v, 'f', 3);
    };
    QStringList lines;
    for (std::size_t k = 0; k < r.folds.size(); ++k) {
        const orbit::ExactLearnFold& f = r.folds[k];
        QString line = tr("%1Learned %2 by the exact GP (%3): bandwidth %4, signal %5, noise %6, log marginal likelihood "
                          "%7 (%8 values, %9 evaluations) on %10 training samples.")
                           .arg(r.folds.size() > 1 ? tr("Fold %1: ").arg(k + 1) : QString())
                           .arg(learnedValuesText(f.params), QString::fromStdString(result.request.config.features))
                           .arg(f.hyper.sigma, 0, 'g', 4)
                           .arg(f.hyper.signal, 0, 'g', 4)
                           .arg(f.hyper.noise, 0, 'g', 4)
                           .arg(f.logEvidence, 0, 'f', 2)
                           .arg(f.outerEvaluations)
                           .arg(f.innerEvaluations)
                           .arg(f.trainRows);
        if (f.test)
            line += tr(" Held-out %1: %2 on %3 samples%4.")
                        .arg(rmse ? tr("RMSE") : tr("accuracy"), score(*f.test))
                        .arg(f.testRows)
                        .arg(f.mae ? tr(" (MAE %1)").arg(score(*f.mae)) : QString());
        lines << line;
    }
    if (r.folds.size() > 1 && r.mean)
        lines << tr("Mean held-out %1 over %2 folds: %3 ± %4.")
                     .arg(rmse ? tr("RMSE") : tr("accuracy"))
                     .arg(r.folds.size())
                     .arg(score(*r.mean), score(r.stddev.value_or(0.0)));
    lines << tr("%1 s in all, %2 ms per marginal-likelihood evaluation. The Group panel now shows the %3learned "
                "distribution; Undo puts back the one from before.")
                 .arg(r.seconds, 0, 'f', 1)
                 .arg(1000.0 * r.secondsPerEvaluation, 0, 'f', 1)
                 .arg(r.folds.size() > 1 ? tr("first fold's ") : QString());
    summary_->setText(lines.join('\n'));
    learnButton_->setEnabled(true);
    undoButton_->setEnabled(before_.has_value());
    emit stopped(QString());
}

} // namespace orbitui
