#include "orbit/figures/PredictSweep.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/PermutationGroup.hpp"
#include "orbit/groups/RotationGroup.hpp"
#include "orbit/groups/ScaleGroup.hpp"
#include "orbit/groups/TranslationGroup.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/Spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>

namespace orbit {

namespace {

/// The rows of a matrix with row `index` set to x and the others never written (nor read: a
/// transform of [index, index + 1) reads its own row only; the pages of the rest are never touched).
MatrixXfR rowAt(const float* x, Eigen::Index dim, std::size_t index)
{
    MatrixXfR X(Eigen::Index(index) + 1, dim);
    std::copy_n(x, dim, X.row(Eigen::Index(index)).data());
    return X;
}

bool isIdentity(SweepParameter p, double t)
{
    return p == SweepParameter::Scale ? t == 1.0 : t == 0.0;
}

/// Whether the model's map averages over group samples at all (an invariant map with a group).
bool hasGroupSamples(const SavedModel& m)
{
    if (trim(m.map.group).empty() || trim(m.map.dist).empty()) return false;
    if (m.isExact()) return true;  // the exact kernel's own group samples (no map)
    const FeatureMapDescriptor* d = findFeatureMap(parseSpec(split(m.map.features, '+').front(), "features").name);
    return d && d->invariant;
}

} // namespace

const char* toString(SweepParameter parameter)
{
    switch (parameter) {
    case SweepParameter::Rotation: return "rotation";
    case SweepParameter::TranslationX: return "translation-x";
    case SweepParameter::TranslationY: return "translation-y";
    case SweepParameter::Scale: return "scale";
    case SweepParameter::Permutation: return "permutation";
    }
    return "?";
}

SweepParameter parseSweepParameter(const std::string& name)
{
    for (SweepParameter p : {SweepParameter::Rotation, SweepParameter::TranslationX, SweepParameter::TranslationY,
                             SweepParameter::Scale, SweepParameter::Permutation})
        if (name == toString(p)) return p;
    throw SpecError("sweep", "unknown parameter (rotation, translation-x, translation-y, scale or permutation)", name);
}

SweepRange parseSweep(const std::string& text)
{
    const std::vector<std::string> parts = split(text, ':');
    if (parts.size() != 4) throw SpecError("sweep", "expected NAME:FROM:TO:COUNT, e.g. rotation:0:360:73", text);
    SweepRange r;
    r.parameter = parseSweepParameter(trim(parts[0]));
    const std::optional<double> from = parseDouble(trim(parts[1])), to = parseDouble(trim(parts[2]));
    const std::optional<long long> count = parseInteger(trim(parts[3]));
    if (!from || !to || !std::isfinite(*from) || !std::isfinite(*to))
        throw SpecError("sweep", "FROM and TO must be finite numbers", text);
    if (!count || *count < 2) throw SpecError("sweep", "a sweep needs at least 2 points (COUNT >= 2)", text);
    if (*count > 100000) throw SpecError("sweep", "at most 100000 points", text);
    for (long long i = 0; i < *count; ++i) {
        // The ends exactly: FROM and TO themselves, and FROM + i (TO - FROM) / (COUNT - 1) between.
        const double t = i == *count - 1 ? *to : *from + double(i) * (*to - *from) / double(*count - 1);
        r.values.push_back(t);
    }
    for (double t : r.values) checkSweepValue(r.parameter, t);
    return r;
}

void checkSweepValue(SweepParameter parameter, double t)
{
    if (!std::isfinite(t)) throw SpecError("sweep", "values must be finite", formatNumber(t));
    if (parameter == SweepParameter::Scale && !(t > 0)) throw SpecError("sweep", "scale factors must be > 0", formatNumber(t));
    if (parameter == SweepParameter::Permutation && (t < 0 || t != std::floor(t) || t > 1e15))
        throw SpecError("sweep", "permutation values are shuffle numbers, whole and >= 0 (0 is the molecule as it is)",
                        formatNumber(t));
}

std::shared_ptr<const Group> makeSweepGroup(SweepParameter parameter)
{
    switch (parameter) {
    case SweepParameter::Rotation: return std::make_shared<RotationGroup>();
    case SweepParameter::TranslationX:
    case SweepParameter::TranslationY: return std::make_shared<TranslationGroup>();
    case SweepParameter::Scale: return std::make_shared<ScaleGroup>();
    case SweepParameter::Permutation: return std::make_shared<PermutationGroup>();
    }
    throw ContractError("makeSweepGroup", "unknown parameter");
}

int atomsOf(const float* coulomb, int n)
{
    int atoms = 0;
    for (int i = 0; i < n; ++i)
        if (coulomb[std::size_t(i) * std::size_t(n) + std::size_t(i)] != 0.0f) atoms = i + 1;
    return atoms;
}

std::vector<int> permutationOfAtoms(int n, int atoms, std::uint64_t k, std::uint64_t seed)
{
    if (atoms < 0 || atoms > n) throw ContractError("permutationOfAtoms", "atoms outside [0, n]");
    std::vector<int> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    if (k == 0) return perm;
    Rng rng = makeRng(seed, k);
    for (int i = atoms - 1; i > 0; --i) {
        const int j = std::min(i, int(uniform01(rng) * double(i + 1)));
        std::swap(perm[std::size_t(i)], perm[std::size_t(j)]);
    }
    return perm;
}

GroupElement sweepElement(SweepParameter parameter, double t, const float* x, const Shape& shape, std::uint64_t seed)
{
    checkSweepValue(parameter, t);
    GroupElement g;
    switch (parameter) {
    case SweepParameter::Rotation: {
        double theta = std::remainder(t / 180.0 * std::numbers::pi, 2.0 * std::numbers::pi);
        if (theta <= -std::numbers::pi) theta = std::numbers::pi;
        g.theta = theta;
        break;
    }
    case SweepParameter::TranslationX: g.dx = t; break;
    case SweepParameter::TranslationY: g.dy = t; break;
    case SweepParameter::Scale: g.scale = t; break;
    case SweepParameter::Permutation:
        g.perm = permutationOfAtoms(shape.height, atomsOf(x, shape.height), std::uint64_t(t), seed);
        break;
    }
    return g;
}

void checkSweepInput(SweepParameter parameter, DataKind kind)
{
    if (parameter == SweepParameter::Permutation && kind != DataKind::Coulomb)
        throw SpecError("sweep", std::string("permutation permutes a molecule's atoms: the model takes ") + toString(kind),
                        toString(parameter));
    if (parameter != SweepParameter::Permutation && kind != DataKind::Images)
        throw SpecError("sweep", std::string("moves images: the model takes ") + toString(kind), toString(parameter));
}

Eigen::RowVectorXd scoresOfRow(const ModelPredictor& predictor, const float* x, std::size_t index, double* sd)
{
    if (sd) *sd = std::numeric_limits<double>::quiet_NaN();
    const Eigen::Index d = predictor.model().map.shape.dim();
    // An exact kernel machine draws row I's group samples from its own stream (no map).
    if (predictor.model().isExact()) {
        Eigen::VectorXd rowSd;
        const Eigen::MatrixXd S = predictor.exactScoresAt(rowAt(x, d, 0), std::int64_t(index), {}, sd ? &rowSd : nullptr);
        if (sd) *sd = rowSd(0);
        return S.row(0);
    }
    const bool byIndex = predictor.map().usesRowIndex();
    const MatrixXfR X = byIndex ? rowAt(x, d, index) : rowAt(x, d, 0);
    const std::size_t row = byIndex ? index : 0;
    MatrixXfR F;
    predictor.map().transform(X, row, row + 1, F);
    if (sd && predictor.hasInterval()) *sd = predictor.featureSd(F)(0);
    return predictor.featureScores(F).row(0);
}

SweepResult predictSweep(const ModelPredictor& predictor, const float* x, std::size_t index, const SweepRange& range,
                         std::uint64_t seed, const Progress& progress)
{
    const SavedModel& m = predictor.model();
    checkSweepInput(range.parameter, m.map.kind);
    const Shape& shape = m.map.shape;
    const auto group = makeSweepGroup(range.parameter);
    group->checkShape(m.map.kind, shape);
    SweepResult r;
    r.range = range;
    r.scores.resize(Eigen::Index(range.values.size()), m.outputs());
    std::vector<float> moved(std::size_t(shape.dim()));
    for (std::size_t i = 0; i < range.values.size(); ++i) {
        const double t = range.values[i];
        reportProgress(progress, double(i) / double(range.values.size()),
                       std::string(toString(range.parameter)) + " " + formatNumber(t));
        const float* input = x;
        if (!isIdentity(range.parameter, t)) {
            group->apply(sweepElement(range.parameter, t, x, shape, seed), x, moved.data(), shape);
            input = moved.data();
        }
        double sd = 0.0;
        r.scores.row(Eigen::Index(i)) = scoresOfRow(predictor, input, index, predictor.hasInterval() ? &sd : nullptr);
        if (predictor.hasInterval()) {
            r.lower.push_back(-2.0 * sd);  // the value is added below
            r.upper.push_back(2.0 * sd);
        }
    }
    if (m.isClassification()) r.top = predictor.classes(r.scores);
    else r.value = predictor.targets(r.scores);
    for (std::size_t i = 0; i < r.lower.size(); ++i) {
        r.lower[i] += r.value[i];
        r.upper[i] += r.value[i];
    }
    return r;
}

MonteCarloError monteCarloError(const ModelPredictor& predictor, const float* x, std::size_t index, int draws,
                                std::uint64_t seed)
{
    if (draws < 2) throw ContractError("monteCarloError", "needs at least 2 draws");
    const SavedModel& m = predictor.model();
    MonteCarloError e;
    e.sd = Eigen::RowVectorXd::Zero(m.outputs());
    if (!hasGroupSamples(m)) {
        e.how = "no group samples: the model is deterministic";
        return e;
    }
    Eigen::MatrixXd S(draws, m.outputs());
    const Shape& shape = m.map.shape;
    if (m.isExact() || predictor.map().usesRowIndex()) {
        for (int k = 0; k < draws; ++k) S.row(k) = scoresOfRow(predictor, x, index + 1 + std::size_t(k));
        e.how = "the samples of " + std::to_string(draws) + " other rows' streams";
    } else {
        const auto group = makeGroup(m.map.group, shape, m.map.contextSeed);
        const auto dist = makeDistribution(m.map.dist, *group);
        const bool haar = dist->isHaar() && group->hasHaarProbability() && group->isClosed();
        if (!haar) {
            e.sd.setConstant(std::numeric_limits<double>::quiet_NaN());
            e.how = "not estimated: shared samples from " + m.map.dist + " (only Haar's can be redrawn by moving the input)";
            return e;
        }
        Rng rng = makeRng(seed, 0x5eedu);
        std::vector<float> moved(std::size_t(shape.dim()));
        for (int k = 0; k < draws; ++k) {
            group->apply(dist->sample(rng, *group, shape, x), x, moved.data(), shape);
            S.row(k) = scoresOfRow(predictor, moved.data(), index);
        }
        e.how = "the input moved by " + std::to_string(draws) + " Haar-random elements (a fresh draw of the shared samples)";
    }
    const Eigen::RowVectorXd mean = S.colwise().mean();
    e.sd = ((S.rowwise() - mean).array().square().colwise().sum() / double(draws - 1)).sqrt();
    return e;
}

std::string sweepCsv(const SavedModel& model, const SweepResult& result)
{
    auto number17 = [](double v) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        return std::string(buf);
    };
    std::string out = "t";
    if (model.isClassification())
        for (int c = 0; c < model.outputs(); ++c) out += ",score_" + model.labelText(c);
    else
        out += std::string(",value") + (result.hasInterval() ? ",lower,upper" : "");
    out += "\n";
    for (std::size_t i = 0; i < result.range.values.size(); ++i) {
        out += number17(result.range.values[i]);
        if (model.isClassification()) {
            for (Eigen::Index c = 0; c < result.scores.cols(); ++c) out += "," + number17(result.scores(Eigen::Index(i), c));
        } else {
            out += "," + number17(result.value[i]);
            if (result.hasInterval()) out += "," + number17(result.lower[i]) + "," + number17(result.upper[i]);
        }
        out += "\n";
    }
    return out;
}

} // namespace orbit
