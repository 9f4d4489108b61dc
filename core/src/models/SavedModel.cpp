#include "orbit/models/SavedModel.hpp"

#include "data/LoaderSupport.hpp"
#include "orbit/models/ExactModel.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/linalg/Gram.hpp"
#include "orbit/parallel/Ranks.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Spec.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace orbit {

namespace {

const char* kFormatName = "orbitlab-model";
const char* kWrittenBy = "Orbit Lab 0.1.0";

const char* codingName(TargetCoding::Kind kind)
{
    switch (kind) {
    case TargetCoding::Kind::PlusMinusOne: return "plusminusone";
    case TargetCoding::Kind::OneHot: return "onehot";
    case TargetCoding::Kind::Regression: return "regression";
    }
    return "?";
}

/// A dataset that only carries what makeFeatureContext reads: kind, shape and (median rule) a sample.
Dataset contextData(DataKind kind, const Shape& shape, MatrixXfR sample)
{
    Dataset d;
    d.kind = kind;
    d.shape = shape;
    d.X = std::move(sample);
    if (d.X.cols() != shape.dim()) d.X.resize(0, shape.dim());
    return d;
}

std::string shapeText(DataKind kind, const Shape& s)
{
    return std::string(toString(kind)) + " of " + std::to_string(s.height) + " x " + std::to_string(s.width) + " x " +
           std::to_string(s.channels);
}

/// Reads the arrays of one archive by name, each read at most once, with errors naming the member.
class ArchiveReader {
public:
    ArchiveReader(const NpzArchive& arrays, const std::string& file) : file_(file)
    {
        for (const auto& [name, a] : arrays) byName_[name] = &a;
    }

    bool has(const std::string& name) const { return byName_.count(name) != 0; }

    [[noreturn]] void fail(LoadErrorKind kind, const std::string& name, const std::string& detail, const std::string& value = {}) const
    {
        data::fail(kind, file_, "member " + name + ".npy", detail, value);
    }

    const NpyArray& get(const std::string& name) const
    {
        const auto it = byName_.find(name);
        if (it == byName_.end())
            data::fail(LoadErrorKind::MissingVariable, file_, "member " + name + ".npy",
                       "missing: not an Orbit Lab model, or one cut short");
        return *it->second;
    }

    const NpyArray& typed(const std::string& name, NpyArray::Type type, std::size_t dims) const
    {
        const NpyArray& a = get(name);
        if (a.type != type || a.shape.size() != dims) {
            NpyArray want;
            want.type = type;
            fail(LoadErrorKind::BadShape, name,
                 "expected a " + std::to_string(dims) + "-d " + want.typeName() + " array, found a " +
                     std::to_string(a.shape.size()) + "-d " + a.typeName() + " one");
        }
        return a;
    }

    std::string text(const std::string& name) const { return typed(name, NpyArray::Type::Text, 0).text.front(); }
    std::string text(const std::string& name, const std::string& fallback) const { return has(name) ? text(name) : fallback; }
    double number(const std::string& name) const { return typed(name, NpyArray::Type::Float64, 0).f64.front(); }
    std::int64_t integer(const std::string& name) const { return typed(name, NpyArray::Type::Int64, 0).i64.front(); }
    std::uint64_t seed(const std::string& name) const
    {
        const NpyArray& a = get(name);
        if (a.shape.empty() && a.type == NpyArray::Type::UInt64) return a.u64.front();
        if (a.shape.empty() && a.type == NpyArray::Type::Int64 && a.i64.front() >= 0) return std::uint64_t(a.i64.front());
        fail(LoadErrorKind::BadShape, name, "expected a non-negative integer seed");
    }

private:
    const std::string& file_;
    std::map<std::string, const NpyArray*> byName_;
};

} // namespace

// ---- the map ---------------------------------------------------------------------------------

std::unique_ptr<FeatureMap> MapRecipe::build(const Progress& progress) const
{
    if (fitRows.rows() > 0 && fitRows.cols() != shape.dim())
        throw ContractError("MapRecipe::build", "fit rows of " + std::to_string(fitRows.cols()) + " values for inputs of " +
                                                    std::to_string(shape.dim()));
    const FeatureContext context = makeFeatureContext(contextData(kind, shape, {}), group, dist, kernel, contextSeed);
    auto map = makeFeatureMap(features, context);
    if (fitRows.rows() > 0) {
        map->fit(fitRows, fitSeed, progress);
    } else {
        const MatrixXfR none(0, shape.dim());
        map->fit(none, fitSeed, progress);
    }
    return map;
}

bool fitReadsRows(const std::string& features)
{
    const auto parts = split(features, '+');
    const Spec first = parseSpec(parts.front(), "features");
    const FeatureMapDescriptor* d = findFeatureMap(first.name);
    if (!d) throw SpecError("features", "unknown feature map", first.name);
    if (d->fitReadsRows(first)) return true;
    return parts.size() > 1 && !parseSpec(parts[1], "features").has("sigma");
}

MapRecipe fittedMapRecipe(const std::string& features, const std::string& group, const std::string& dist,
                          const std::string& kernel, DataKind kind, const Shape& shape, std::uint64_t seed,
                          const MatrixXfR& medianSample, MatrixXfR rows)
{
    MapRecipe r;
    r.features = features;
    r.group = group;
    r.dist = dist;
    r.kind = kind;
    r.shape = shape;
    r.contextSeed = r.fitSeed = seed;
    if (!trim(kernel).empty()) r.kernel = makeKernel(kernel, medianSample, seed).spec();
    if (fitReadsRows(features)) r.fitRows = std::move(rows);
    return r;
}

MatrixXfR transformAll(const FeatureMap& map, const MatrixXfR& X, const Progress& progress)
{
    MatrixXfR F(X.rows(), map.dim()), part;
    const RowBlocks blocks{X.rows(), kTransformBlockRows};
    for (Eigen::Index b = 0; b < blocks.count(); ++b) {
        reportProgress(progress, double(blocks.begin(b)) / double(std::max<Eigen::Index>(1, X.rows())),
                       "features " + std::to_string(blocks.begin(b)) + "/" + std::to_string(X.rows()));
        map.transform(X, std::size_t(blocks.begin(b)), std::size_t(blocks.end(b)), part);
        F.middleRows(blocks.begin(b), part.rows()) = part;
    }
    return F;
}

Eigen::MatrixXd linearScores(const MatrixXfR& F, const Eigen::MatrixXd& W, const Eigen::VectorXd& b)
{
    requireSize("linearScores", "bias length", b.size(), W.cols());
    Eigen::MatrixXd S(F.rows(), W.cols());
    const RowBlocks blocks{F.rows(), kTransformBlockRows};
    for (Eigen::Index k = 0; k < blocks.count(); ++k) {
        const Eigen::Index b0 = blocks.begin(k), n = blocks.end(k) - b0;
        S.middleRows(b0, n) = timesDouble(MatrixXfR(F.middleRows(b0, n)), W);
        S.middleRows(b0, n).rowwise() += b.transpose();
    }
    return S;
}

Eigen::MatrixXd kernelRidgeScores(const MatrixXfR& F, const MatrixXfR& support, const Eigen::VectorXd& supportNorms,
                                  double sigma, const Eigen::MatrixXd& dual)
{
    requireSize("kernelRidgeScores", "feature dimension", F.cols(), support.cols());
    requireSize("kernelRidgeScores", "support norms", supportNorms.size(), support.rows());
    requireSize("kernelRidgeScores", "dual weight rows", dual.rows(), support.rows());
    const BaseKernel k = BaseKernel::gaussian(sigma);
    Eigen::MatrixXd S(F.rows(), dual.cols());
    const RowBlocks blocks{F.rows(), kTransformBlockRows};
    for (Eigen::Index b = 0; b < blocks.count(); ++b) {
        const Eigen::Index b0 = blocks.begin(b), n = blocks.end(b) - b0;
        const MatrixXfR Fb = F.middleRows(b0, n);
        Eigen::MatrixXd K = featureInnerProducts(Fb, support);
        const Eigen::VectorXd n2 = featureSquaredNorms(Fb);
        for (Eigen::Index j = 0; j < K.cols(); ++j)
            for (Eigen::Index i = 0; i < n; ++i) K(i, j) = k.fromInnerProduct(K(i, j), n2[i], supportNorms[j]);
        S.middleRows(b0, n) = dualScores(K, dual);
    }
    return S;
}

// ---- the model -------------------------------------------------------------------------------

std::string SavedModel::labelText(int c) const
{
    if (!textLabels.empty()) return textLabels.at(std::size_t(c));
    if (!integerLabels.empty()) return std::to_string(integerLabels.at(std::size_t(c)));
    return std::to_string(c);
}

bool SavedModel::isExact() const { return isExactFeatures(map.features); }

const LearnerDescriptor* SavedModel::learnerInfo() const { return findLearner(learner); }
bool SavedModel::hasSupport() const { return learnerInfo() && learnerInfo()->dualWeights; }
bool SavedModel::isGaussianProcess() const { return learnerInfo() && learnerInfo()->gaussianProcess; }

namespace {

/// "krr or gp": the learners whose models run on the exact kernel (exact) or on features.
std::string learnersOn(bool exact)
{
    return learnerList([exact](const LearnerDescriptor& l) { return exact ? l.onExactKernel : l.onFeatures; });
}

/// "blr or gp", the learners that keep a posterior; `m`'s does when it is a regression.
std::string posteriorLearners() { return learnerList([](const LearnerDescriptor& l) { return l.posterior; }); }
bool keepsPosterior(const SavedModel& m) { return m.learnerInfo() && m.learnerInfo()->posterior && !m.isClassification(); }

} // namespace

void SavedModel::checkConsistent() const
{
    const auto C = Eigen::Index(outputs());
    if (isExact()) {
        if (!learnerInfo() || !learnerInfo()->onExactKernel)
            throw ContractError("SavedModel", "an exact kernel machine is " + learnersOn(true) + ", not " + learner);
        if (dim != map.shape.dim() || support.rows() < 1 || support.cols() != dim)
            throw ContractError("SavedModel", "an exact model's support rows are the inputs themselves (N x " +
                                                  std::to_string(map.shape.dim()) + ")");
        if (dual.rows() != support.rows() || dual.cols() != C || supportStreams.size() != std::size_t(support.rows()))
            throw ContractError("SavedModel", "an exact model needs a dual weight row and a sub-stream per support row");
        if (isGaussianProcess() && !(gpSignal > 0 && gpNoise > 0))
            throw ContractError("SavedModel", "a gp needs positive signal and noise variances");
    } else if (isKernelRidge()) {
        if (support.rows() < 1 || support.cols() != dim)
            throw ContractError("SavedModel", "support rows are " + std::to_string(support.rows()) + " x " +
                                                  std::to_string(support.cols()) + ", expected N x " + std::to_string(dim));
        if (dual.rows() != support.rows() || dual.cols() != C)
            throw ContractError("SavedModel", "dual weights are " + std::to_string(dual.rows()) + " x " + std::to_string(dual.cols()) +
                                                  ", expected " + std::to_string(support.rows()) + " x " + std::to_string(C));
        if (kernel.rfind("gaussian:sigma=", 0) != 0)
            throw ContractError("SavedModel", "krr's kernel must be a resolved Gaussian, not '" + kernel + "'");
    } else if (weights.rows() != dim || weights.cols() != C)
        throw ContractError("SavedModel", "weights are " + std::to_string(weights.rows()) + " x " + std::to_string(weights.cols()) +
                                              ", expected " + std::to_string(dim) + " x " + std::to_string(C));
    if (!isKernelRidge() && !isExact() && bias.size() != C) throw ContractError("SavedModel", "bias has " + std::to_string(bias.size()) + " entries, expected " + std::to_string(C));
    if (hasPosterior()) {
        const Eigen::Index n = hasSupport() ? support.rows() : dim;
        if (!keepsPosterior(*this))
            throw ContractError("SavedModel", "only a regression " + posteriorLearners() + " keeps a posterior, not " + learner);
        if (posteriorFactor.rows() != n || posteriorFactor.cols() != n)
            throw ContractError("SavedModel", "posterior_factor must be " + std::to_string(n) + " x " + std::to_string(n));
        if (!hasSupport() && !(beta > 0)) throw ContractError("SavedModel", learner + "'s posterior needs beta > 0");
    }
    if (isClassification()) {
        const std::size_t labels = textLabels.empty() ? integerLabels.size() : textLabels.size();
        if (labels != std::size_t(C) || (!textLabels.empty() && !integerLabels.empty()))
            throw ContractError("SavedModel", "classes: one label per column, integers or text");
        if (!classNames.empty() && classNames.size() != std::size_t(C))
            throw ContractError("SavedModel", "class_names: one name per class");
    }
}

NpzArchive toArchive(const SavedModel& m)
{
    m.checkConsistent();
    using A = NpyArray;
    NpzArchive a;
    a.emplace_back("format", A::string(kFormatName));
    a.emplace_back("format_version", A::integer(m.formatVersion()));
    a.emplace_back("written_by", A::string(kWrittenBy));
    a.emplace_back("input_kind", A::string(toString(m.map.kind)));
    a.emplace_back("input_shape", A::integers({m.map.shape.height, m.map.shape.width, m.map.shape.channels}));
    a.emplace_back("map_features", A::string(m.map.features));
    a.emplace_back("map_group", A::string(m.map.group));
    a.emplace_back("map_dist", A::string(m.map.dist));
    a.emplace_back("map_kernel", A::string(m.map.kernel));
    a.emplace_back("map_context_seed", A::unsignedInteger(m.map.contextSeed));
    a.emplace_back("map_fit_seed", A::unsignedInteger(m.map.fitSeed));
    if (!m.isExact() && fitReadsRows(m.map.features)) a.emplace_back("map_fit_rows", A::matrix(m.map.fitRows));
    a.emplace_back("map_dim", A::integer(m.dim));
    a.emplace_back("learner", A::string(m.learner));
    a.emplace_back("chosen", A::string(m.chosen));
    if (m.hasSupport()) {
        a.emplace_back("kernel", A::string(m.kernel));
        a.emplace_back("support_rows", A::matrix(m.support));
        a.emplace_back("dual_weights", A::matrix(m.dual));
    } else {
        a.emplace_back("weights", A::matrix(m.weights));
        a.emplace_back("bias", A::numbers(std::vector<double>(m.bias.data(), m.bias.data() + m.bias.size())));
    }
    a.emplace_back("coding", A::string(codingName(m.coding.kind)));
    if (m.isClassification()) {
        a.emplace_back("classes", m.textLabels.empty() ? A::integers(m.integerLabels) : A::strings(m.textLabels));
        if (!m.classNames.empty()) a.emplace_back("class_names", A::strings(m.classNames));
    } else {
        a.emplace_back("target_mean", A::number(m.coding.mean));
        a.emplace_back("target_scale", A::number(m.coding.scale));
        if (!m.targetUnit.empty()) a.emplace_back("target_unit", A::string(m.targetUnit));
    }
    if (m.isExact()) {
        a.emplace_back("orbit_seed", A::unsignedInteger(m.orbitSeed));
        a.emplace_back("support_streams", A::integers(m.supportStreams));
        a.emplace_back("first_stream", A::integer(m.firstStream));
        if (m.isGaussianProcess()) {
            a.emplace_back("gp_signal", A::number(m.gpSignal));
            a.emplace_back("gp_noise", A::number(m.gpNoise));
            a.emplace_back("log_evidence", A::number(m.logEvidence));
        }
    } else if (std::isfinite(m.logEvidence)) {
        a.emplace_back("alpha", A::number(m.alpha));
        a.emplace_back("beta", A::number(m.beta));
        a.emplace_back("log_evidence", A::number(m.logEvidence));
    }
    if (m.hasPosterior()) a.emplace_back("posterior_factor", A::matrix(m.posteriorFactor));
    a.emplace_back("trained_on", A::string(m.trainedOn));
    a.emplace_back("train_rows", A::integer(m.trainRows));
    return a;
}

namespace {

Eigen::MatrixXd doubles(const NpyArray& a)
{
    Eigen::MatrixXd M(a.shape[0], a.shape[1]);
    for (Eigen::Index i = 0; i < M.rows(); ++i)
        for (Eigen::Index j = 0; j < M.cols(); ++j) M(i, j) = a.f64[std::size_t(i * M.cols() + j)];
    return M;
}

/// weights (map_dim x outputs) and bias (outputs) of ridge, blr and svm.
void readLinear(const ArchiveReader& in, SavedModel& m)
{
    using Type = NpyArray::Type;
    const NpyArray& W = in.typed("weights", Type::Float64, 2);
    if (W.shape[0] != m.dim || W.shape[1] != m.coding.outputs())
        in.fail(LoadErrorKind::BadShape, "weights",
                "expected " + std::to_string(m.dim) + " x " + std::to_string(m.coding.outputs()) + " (map_dim x outputs), found " +
                    std::to_string(W.shape[0]) + " x " + std::to_string(W.shape[1]));
    m.weights = doubles(W);
    const NpyArray& b = in.typed("bias", Type::Float64, 1);
    if (b.shape[0] != m.coding.outputs())
        in.fail(LoadErrorKind::BadShape, "bias", "expected " + std::to_string(m.coding.outputs()) + " entries", std::to_string(b.shape[0]));
    m.bias = Eigen::Map<const Eigen::VectorXd>(b.f64.data(), Eigen::Index(b.f64.size()));
    if (!m.weights.allFinite()) in.fail(LoadErrorKind::BadValue, "weights", "NaN or infinite weights");
    if (!m.bias.allFinite()) in.fail(LoadErrorKind::BadValue, "bias", "NaN or infinite bias");
}

/// krr: kernel (a resolved Gaussian), support_rows (N x map_dim) and dual_weights (N x outputs).
/// exact: kernel any shift-invariant kernel with its bandwidth (gaussian, laplacian or matern with
/// sigma), the support rows the inputs themselves.
void readKernelRidge(const ArchiveReader& in, SavedModel& m)
{
    using Type = NpyArray::Type;
    m.kernel = in.text("kernel");
    try {
        const Spec k = parseSpec(m.kernel, "kernel");
        if (m.isExact()) {
            if (!kernelFamily(m.kernel).stationary() || !k.has("sigma") || k.has("median"))
                in.fail(LoadErrorKind::BadValue, "kernel", "must be a gaussian, laplacian or matern kernel with its bandwidth sigma",
                        m.kernel);
        } else if (kernelFamily(m.kernel).kind() != BaseKernel::Kind::Gaussian || !k.has("sigma") || k.params.size() != 1) {
            in.fail(LoadErrorKind::BadValue, "kernel", "must be a Gaussian with its bandwidth, gaussian:sigma=S", m.kernel);
        }
        const BaseKernel kernel = makeKernel(m.kernel, MatrixXfR());
        if (!(kernel.sigma() > 0)) in.fail(LoadErrorKind::BadValue, "kernel", "needs sigma > 0", m.kernel);
        m.kernel = kernel.spec();  // canonical (no spaces): the form checkConsistent and the writer take
    } catch (const SpecError& e) {
        in.fail(LoadErrorKind::BadValue, "kernel", e.what(), m.kernel);
    }
    const NpyArray& S = in.typed("support_rows", Type::Float32, 2);
    if (S.shape[0] < 1 || S.shape[1] != m.dim)
        in.fail(LoadErrorKind::BadShape, "support_rows",
                "expected N x " + std::to_string(m.dim) + " (map_dim), N >= 1, found " + std::to_string(S.shape[0]) + " x " +
                    std::to_string(S.shape[1]));
    m.support = Eigen::Map<const MatrixXfR>(S.f32.data(), S.shape[0], S.shape[1]);
    if (!m.support.allFinite()) in.fail(LoadErrorKind::BadValue, "support_rows", "NaN or infinite features");
    const NpyArray& D = in.typed("dual_weights", Type::Float64, 2);
    if (D.shape[0] != S.shape[0] || D.shape[1] != m.coding.outputs())
        in.fail(LoadErrorKind::BadShape, "dual_weights",
                "expected " + std::to_string(S.shape[0]) + " x " + std::to_string(m.coding.outputs()) +
                    " (a row per row of support_rows x outputs), found " + std::to_string(D.shape[0]) + " x " +
                    std::to_string(D.shape[1]));
    m.dual = doubles(D);
    if (!m.dual.allFinite()) in.fail(LoadErrorKind::BadValue, "dual_weights", "NaN or infinite weights");
}

/// exact: the group samples' seed and sub-streams, and the gp's variances.
void readExact(const ArchiveReader& in, SavedModel& m)
{
    using Type = NpyArray::Type;
    m.orbitSeed = in.seed("orbit_seed");
    const NpyArray& streams = in.typed("support_streams", Type::Int64, 1);
    if (streams.shape[0] != m.support.rows())
        in.fail(LoadErrorKind::BadShape, "support_streams", "expected one sub-stream per row of support_rows (" +
                                                                std::to_string(m.support.rows()) + ")",
                std::to_string(streams.shape[0]));
    for (std::int64_t v : streams.i64)
        if (v < 0) in.fail(LoadErrorKind::BadValue, "support_streams", "sub-streams are row indices, not negative", std::to_string(v));
    m.supportStreams = streams.i64;
    m.firstStream = in.integer("first_stream");
    if (m.firstStream < 0 || m.firstStream > (std::int64_t(1) << 52))
        in.fail(LoadErrorKind::BadValue, "first_stream", "must be a row index in [0, 2^52]", std::to_string(m.firstStream));
    if (!m.isGaussianProcess()) return;
    m.gpSignal = in.number("gp_signal");
    m.gpNoise = in.number("gp_noise");
    for (const auto& [name, v] : {std::pair<const char*, double>{"gp_signal", m.gpSignal}, {"gp_noise", m.gpNoise}})
        if (!(v > 0) || !std::isfinite(v)) in.fail(LoadErrorKind::BadValue, name, "must be a positive variance", formatNumber(v));
    m.logEvidence = in.number("log_evidence");
}

/// Regression blr and gp (version 4): posterior_factor, the lower Cholesky factor of the posterior
/// precision (blr, map_dim x map_dim) or of the gp's C (N x N, a row per support row).
void readPosterior(const ArchiveReader& in, SavedModel& m)
{
    using Type = NpyArray::Type;
    const bool blr = !m.hasSupport();  // the posterior precision of a linear model, else the support's C
    if (!keepsPosterior(m))
        in.fail(LoadErrorKind::BadValue, "posterior_factor", "only a regression " + posteriorLearners() + " keeps a posterior", m.learner);
    const Eigen::Index n = blr ? m.dim : m.support.rows();
    const NpyArray& L = in.typed("posterior_factor", Type::Float32, 2);
    if (L.shape[0] != n || L.shape[1] != n)
        in.fail(LoadErrorKind::BadShape, "posterior_factor",
                "expected " + std::to_string(n) + " x " + std::to_string(n) + (blr ? " (map_dim x map_dim)" : " (support rows squared)") +
                    ", found " + std::to_string(L.shape[0]) + " x " + std::to_string(L.shape[1]));
    m.posteriorFactor = Eigen::Map<const MatrixXfR>(L.f32.data(), L.shape[0], L.shape[1]);
    if (!m.posteriorFactor.allFinite()) in.fail(LoadErrorKind::BadValue, "posterior_factor", "NaN or infinite entries");
    if (!(m.posteriorFactor.diagonal().array() > 0).all())
        in.fail(LoadErrorKind::BadValue, "posterior_factor", "a Cholesky factor needs a positive diagonal");
    if (blr && !(m.beta > 0 && std::isfinite(m.beta)))
        in.fail(LoadErrorKind::BadValue, "beta", "blr's posterior needs the noise precision beta > 0", formatNumber(m.beta));
}

} // namespace

SavedModel fromArchive(const NpzArchive& arrays, const std::string& file)
{
    const ArchiveReader in(arrays, file);
    using Type = NpyArray::Type;
    if (!in.has("format") || in.text("format") != kFormatName)
        in.fail(in.has("format") ? LoadErrorKind::BadValue : LoadErrorKind::MissingVariable, "format",
                std::string("not an Orbit Lab model (expected '") + kFormatName + "')", in.has("format") ? in.text("format") : "");
    const std::int64_t version = in.integer("format_version");
    if (version > SavedModel::kFormatVersion)
        in.fail(LoadErrorKind::BadValue, "format_version",
                "written by a newer Orbit Lab (this one reads version " + std::to_string(SavedModel::kFormatVersion) + ")",
                std::to_string(version));
    if (version < 1) in.fail(LoadErrorKind::BadValue, "format_version", "must be 1 or more", std::to_string(version));

    SavedModel m;
    const std::string kind = in.text("input_kind");
    if (kind == "images") m.map.kind = DataKind::Images;
    else if (kind == "coulomb") m.map.kind = DataKind::Coulomb;
    else if (kind == "vectors") m.map.kind = DataKind::Vectors;
    else in.fail(LoadErrorKind::BadValue, "input_kind", "must be images, coulomb or vectors", kind);
    const NpyArray& shape = in.typed("input_shape", Type::Int64, 1);
    if (shape.i64.size() != 3) in.fail(LoadErrorKind::BadShape, "input_shape", "expected 3 values (height, width, channels)");
    for (std::int64_t v : shape.i64)
        if (v < 1 || v > (1 << 20)) in.fail(LoadErrorKind::BadValue, "input_shape", "dimensions must be in [1, 2^20]", std::to_string(v));
    if (shape.i64[0] * shape.i64[1] * shape.i64[2] > std::numeric_limits<int>::max())
        in.fail(LoadErrorKind::BadValue, "input_shape", "an input of more than 2^31 - 1 values",
                std::to_string(shape.i64[0] * shape.i64[1] * shape.i64[2]));
    m.map.shape = {int(shape.i64[0]), int(shape.i64[1]), int(shape.i64[2])};
    if (m.map.kind == DataKind::Coulomb && (m.map.shape.height != m.map.shape.width || m.map.shape.channels != 1))
        in.fail(LoadErrorKind::BadValue, "input_shape", "Coulomb matrices are n x n x 1");
    m.map.features = in.text("map_features");
    m.map.group = in.text("map_group");
    m.map.dist = in.text("map_dist");
    m.map.kernel = in.text("map_kernel");
    m.map.contextSeed = in.seed("map_context_seed");
    m.map.fitSeed = in.seed("map_fit_seed");
    bool readsRows = false;
    try {
        if (m.isExact()) (void)exactSamplesOf(m.map.features);
        else readsRows = fitReadsRows(m.map.features);
    } catch (const SpecError& e) {
        in.fail(LoadErrorKind::BadValue, "map_features", e.what(), m.map.features);
    }
    if (m.isExact() && version < SavedModel::kExactVersion)
        in.fail(LoadErrorKind::BadValue, "format_version",
                "an exact kernel machine is version " + std::to_string(SavedModel::kExactVersion) + " or later", std::to_string(version));
    if (readsRows) {
        const NpyArray& rows = in.typed("map_fit_rows", Type::Float32, 2);
        if (rows.shape[1] != m.map.shape.dim())
            in.fail(LoadErrorKind::BadShape, "map_fit_rows",
                    "rows of " + std::to_string(rows.shape[1]) + " values for inputs of " + std::to_string(m.map.shape.dim()));
        m.map.fitRows = Eigen::Map<const MatrixXfR>(rows.f32.data(), rows.shape[0], rows.shape[1]);
    }
    m.dim = Eigen::Index(in.integer("map_dim"));
    if (m.dim < 1) in.fail(LoadErrorKind::BadValue, "map_dim", "must be at least 1", std::to_string(m.dim));
    if (m.isExact() && m.dim != m.map.shape.dim())
        in.fail(LoadErrorKind::BadValue, "map_dim", "an exact model's support rows are its inputs, of " +
                                                        std::to_string(m.map.shape.dim()) + " values (input_shape)",
                std::to_string(m.dim));
    m.learner = in.text("learner");
    const LearnerDescriptor* learner = m.learnerInfo();
    if (m.isExact() && !(learner && learner->onExactKernel))
        in.fail(LoadErrorKind::BadValue, "learner", "an exact kernel machine is " + learnersOn(true), m.learner);
    if (!m.isExact() && !(learner && learner->onFeatures))
        in.fail(LoadErrorKind::BadValue, "learner", "must be " + learnersOn(false), m.learner);
    if (m.hasSupport() && version < SavedModel::kKernelRidgeVersion)
        in.fail(LoadErrorKind::BadValue, "format_version",
                "a krr model is version " + std::to_string(SavedModel::kKernelRidgeVersion) + " or later", std::to_string(version));
    m.chosen = in.text("chosen", "");

    const std::string coding = in.text("coding");
    if (coding == "plusminusone") m.coding.kind = TargetCoding::Kind::PlusMinusOne;
    else if (coding == "onehot") m.coding.kind = TargetCoding::Kind::OneHot;
    else if (coding == "regression") m.coding.kind = TargetCoding::Kind::Regression;
    else in.fail(LoadErrorKind::BadValue, "coding", "must be plusminusone, onehot or regression", coding);
    if (m.coding.isClassification()) {
        const NpyArray& classes = in.get("classes");
        if (classes.shape.size() != 1 || (classes.type != Type::Int64 && classes.type != Type::Text))
            in.fail(LoadErrorKind::BadShape, "classes", "expected a 1-d int64 or text array");
        if (classes.size() < 2) in.fail(LoadErrorKind::BadValue, "classes", "a classifier needs at least 2 classes", std::to_string(classes.size()));
        if (classes.type == Type::Int64) m.integerLabels = classes.i64;
        else m.textLabels = classes.text;
        m.coding.numClasses = int(classes.size());
        if (in.has("class_names")) m.classNames = in.typed("class_names", Type::Text, 1).text;
    } else {
        m.coding.mean = in.number("target_mean");
        m.coding.scale = in.number("target_scale");
        if (!std::isfinite(m.coding.mean) || !(m.coding.scale > 0) || !std::isfinite(m.coding.scale))
            in.fail(LoadErrorKind::BadValue, "target_scale", "the target scaling must be finite with a positive scale",
                    formatNumber(m.coding.scale));
        m.targetUnit = in.text("target_unit", "");
    }
    if (m.isExact()) {
        readKernelRidge(in, m);
        readExact(in, m);
    } else if (m.isKernelRidge()) {
        readKernelRidge(in, m);
    } else {
        readLinear(in, m);
    }
    if (!m.isExact() && in.has("log_evidence")) {
        m.alpha = in.number("alpha");
        m.beta = in.number("beta");
        m.logEvidence = in.number("log_evidence");
    }
    if (version >= SavedModel::kPosteriorVersion && in.has("posterior_factor")) readPosterior(in, m);
    m.trainedOn = in.text("trained_on", "");
    m.trainRows = in.has("train_rows") ? in.integer("train_rows") : 0;
    if (!m.classNames.empty() && m.classNames.size() != std::size_t(m.coding.numClasses))
        in.fail(LoadErrorKind::BadShape, "class_names", "expected one name per class", std::to_string(m.classNames.size()));
    return m;
}

void saveModel(const std::string& path, const SavedModel& model) { writeNpz(path, toArchive(model)); }

SavedModel loadModel(const std::string& path) { return fromArchive(readNpz(path), path); }

std::string encodeModel(const SavedModel& model) { return encodeNpz(toArchive(model)); }

SavedModel decodeModel(const std::string& bytes, const std::string& name) { return fromArchive(decodeNpz(bytes, name), name); }

std::string modelFileSize(const SavedModel& model, std::uintmax_t bytes)
{
    char size[32];
    if (bytes >= (1u << 20)) std::snprintf(size, sizeof size, "%.1f MB", double(bytes) / double(1u << 20));
    else if (bytes >= (1u << 10)) std::snprintf(size, sizeof size, "%.1f kB", double(bytes) / double(1u << 10));
    else std::snprintf(size, sizeof size, "%ju bytes", bytes);
    std::string text = size;
    if (model.isExact()) {
        const std::string n = std::to_string(model.support.rows());
        text += ": exact " + model.learner + " keeps its " + n + " training rows (" + n + " x " + std::to_string(model.support.cols()) +
                " float32)";
    } else if (model.isKernelRidge()) {
        const std::string n = std::to_string(model.support.rows());
        text += ": krr keeps the features of its " + n + " training rows (" + n + " x " + std::to_string(model.support.cols()) +
                " float32)";
    }
    return text;
}

void checkModelInput(const SavedModel& model, DataKind kind, const Shape& shape, const std::string& source)
{
    if (kind == model.map.kind && shape == model.map.shape) return;
    // Vectors of the right length fit any model (a CSV or NumPy array of flattened inputs).
    if (kind == DataKind::Vectors && shape.dim() == model.map.shape.dim()) return;
    throw SpecError("data", "the model takes " + shapeText(model.map.kind, model.map.shape) + " (input_shape), the data are " +
                                shapeText(kind, shape),
                    source);
}

} // namespace orbit
