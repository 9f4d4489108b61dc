// orbitlab._orbitlab: the core for Python. The estimators (orbitlab/*.py) validate their inputs
// the scikit-learn way and call these functions; everything numeric happens here, in the core.
#include "Compute.hpp"

#include "orbit/data/Loaders.hpp"
#include "orbit/data/MoleculeMoves.hpp"
#include "orbit/training/Experiment.hpp"
#include "orbit/locality/LocalityLearning.hpp"
#include "orbit/training/TrainedModel.hpp"
#include "orbit/training/Training.hpp"
#include "orbit/training/TrainSettings.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/learn/BayesianLinearRegression.hpp"
#include "orbit/learn/FeatureKernel.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/registry/Registry.hpp"
#include "orbit/util/Spec.hpp"

#include <pybind11/stl.h>

#include <cmath>

namespace orbitpy {

namespace {

using orbit::DataKind;
using orbit::MatrixXfR;
using orbit::Shape;

py::tuple shapeTuple(const Shape& s) { return py::make_tuple(s.height, s.width, s.channels); }



// ---- fitted maps -------------------------------------------------------------------------------

/// A fitted feature map and the recipe that rebuilds it (pickles, saved models).
struct FittedMap {
    orbit::MapRecipe recipe;
    std::unique_ptr<orbit::FeatureMap> map;
};



std::unique_ptr<FittedMap> rebuild(orbit::MapRecipe recipe, int nJobs, const py::object& verbose)
{
    auto f = std::make_unique<FittedMap>();
    f->map = computing(nJobs, verbose, [&](const orbit::Progress& p) { return recipe.build(p); });
    f->recipe = std::move(recipe);
    return f;
}

std::unique_ptr<FittedMap> fitMap(const std::string& features, const std::string& group, const std::string& dist,
                                  const std::string& kernel, const std::string& kind, const std::vector<int>& shape,
                                  std::uint64_t seed, const py::array& X, int nJobs, const py::object& verbose)
{
    const Rows rows(X);
    const Shape s = shapeOf(shape);
    if (rows.cols() != s.dim())
        throw orbit::SpecError("data", "rows of " + std::to_string(rows.cols()) + " values for inputs of " +
                                           std::to_string(s.dim()) + " (image_shape)");
    auto f = std::make_unique<FittedMap>();
    f->map = computing(nJobs, verbose, [&](const orbit::Progress& p) {
        // The median rule reads only its seeded sample; a map whose fit reads its rows gets them all.
        const MatrixXfR sample = orbit::usesMedianRule(kernel)
                                     ? rows.select(orbit::medianSampleRows(std::size_t(rows.rows()), 1000, seed))
                                     : MatrixXfR(0, rows.cols());
        f->recipe = orbit::fittedMapRecipe(features, group, dist, kernel, kindOf(kind), s, seed, sample,
                                           orbit::fitReadsRows(features) ? rows.all() : MatrixXfR());
        return f->recipe.build(p);
    });
    return f;
}

/// The features of every row of X, one core call per block of kTransformBlockRows rows (the
/// batching of `orbitlab-cli features`). Maps whose rows do not depend on their index read each
/// block from X into a small buffer; the others (input-dependent group samples, e.g. noisy sort)
/// need X whole, as the core indexes it.
py::array_t<float> transformRows(const FittedMap& f, const py::array& X, int nJobs, const py::object& verbose)
{
    const Rows rows(X);
    if (rows.cols() != f.recipe.shape.dim())
        throw orbit::SpecError("data", "rows of " + std::to_string(rows.cols()) + " values; the map was fitted on " +
                                           std::to_string(f.recipe.shape.dim()));
    py::array_t<float> out({rows.rows(), Eigen::Index(f.map->dim())});
    float* o = out.mutable_data();
    computing(nJobs, verbose, [&](const orbit::Progress& p) {
        const orbit::RowBlocks blocks{rows.rows(), orbit::kTransformBlockRows};
        const bool whole = f.map->usesRowIndex();
        const MatrixXfR all = whole ? rows.all() : MatrixXfR();
        MatrixXfR in, part;
        for (Eigen::Index b = 0; b < blocks.count(); ++b) {
            const Eigen::Index b0 = blocks.begin(b), b1 = blocks.end(b);
            orbit::reportProgress(p, double(b0) / double(rows.rows()), "features " + std::to_string(b0) + "/" + std::to_string(rows.rows()));
            if (whole) {
                f.map->transform(all, std::size_t(b0), std::size_t(b1), part);
            } else {
                rows.copy(b0, b1, in);
                f.map->transform(in, 0, std::size_t(b1 - b0), part);
            }
            std::memcpy(o + b0 * part.cols(), part.data(), std::size_t(part.size()) * sizeof(float));
        }
        return 0;
    });
    return out;
}

// ---- learners ----------------------------------------------------------------------------------


/// Bayesian linear regression on F with the evidence-chosen alpha, beta (labels: one-hot classes
/// 0..C-1; else standardised targets).
py::dict blrFit(const py::array& F, const py::object& y, int numClasses, double alpha, double beta, bool optimise,
                int maxIterations, double tolerance, int nJobs, const py::object& verbose)
{
    const Rows rows(F);
    std::vector<int> labels;
    std::vector<double> targets;
    if (numClasses > 0)
        labels = y.cast<std::vector<int>>();
    else
        targets = y.cast<std::vector<double>>();
    orbit::BayesianLinearRegression::Options o;
    o.alpha = alpha;
    o.beta = beta;
    o.optimise = optimise;
    o.maxIterations = maxIterations;
    o.tolerance = tolerance;
    orbit::BayesianLinearRegression blr(o);
    computing(nJobs, verbose, [&](const orbit::Progress& p) {
        orbit::reportProgress(p, 0.0, "Bayesian evidence");
        const MatrixXfR Phi = rows.all();
        if (numClasses > 0)
            blr.fit(Phi, labels, numClasses);
        else
            blr.fit(Phi, targets);
        return 0;
    });
    py::dict d;
    d["weights"] = toArray(blr.weights());
    d["alpha"] = blr.alpha();
    d["beta"] = blr.beta();
    d["log_evidence"] = blr.logEvidence();
    d["effective_parameters"] = blr.effectiveParameters();
    d["iterations"] = blr.iterations();
    d["converged"] = blr.converged();
    d["coding"] = codingDict(blr.coding());
    return d;
}

/// F W + b, the rows of F read block by block (orbit::linearScores' blocks).
py::array_t<double> linearScores(const py::array& F, const py::array_t<double, py::array::forcecast>& W,
                                 const py::array_t<double, py::array::forcecast>& b)
{
    const Rows rows(F);
    const Eigen::MatrixXd w = toMatrix(W);
    const Eigen::VectorXd bias = toVector(b);
    if (rows.cols() != w.rows())
        throw orbit::SpecError("data", "features of " + std::to_string(rows.cols()) + " values; the model takes " +
                                           std::to_string(w.rows()));
    py::array_t<double> out({rows.rows(), w.cols()});
    double* o = out.mutable_data();
    computing(0, py::none(), [&](const orbit::Progress&) {
        const orbit::RowBlocks blocks{rows.rows(), orbit::kTransformBlockRows};
        MatrixXfR in;
        for (Eigen::Index k = 0; k < blocks.count(); ++k) {
            rows.copy(blocks.begin(k), blocks.end(k), in);
            const Eigen::MatrixXd S = orbit::linearScores(in, w, bias);
            for (Eigen::Index i = 0; i < S.rows(); ++i)
                for (Eigen::Index j = 0; j < S.cols(); ++j) o[(blocks.begin(k) + i) * S.cols() + j] = S(i, j);
        }
        return 0;
    });
    return out;
}

/// krr's decision values on features F against a saved model's support rows and dual weights
/// (orbit::kernelRidgeScores: the bits of `orbitlab-cli predict`).
py::array_t<double> kernelRidgeScores(const py::array& F, const py::array& support,
                                      const py::array_t<double, py::array::forcecast>& dual, const std::string& kernel)
{
    const Rows rows(F), supportRows(support);
    if (rows.cols() != supportRows.cols())
        throw orbit::SpecError("data", "features of " + std::to_string(rows.cols()) + " values; the model takes " +
                                           std::to_string(supportRows.cols()));
    const Eigen::MatrixXd D = toMatrix(dual);
    if (D.rows() != supportRows.rows())
        throw orbit::SpecError("dual_weights", "one row per support row: " + std::to_string(D.rows()) + " for " +
                                                   std::to_string(supportRows.rows()));
    const orbit::BaseKernel k = orbit::makeKernel(kernel, MatrixXfR());
    if (k.kind() != orbit::BaseKernel::Kind::Gaussian) throw orbit::SpecError("kernel", "krr uses a Gaussian kernel", kernel);
    const Eigen::MatrixXd S = computing(0, py::none(), [&](const orbit::Progress&) {
        const MatrixXfR Sv = supportRows.all();
        return orbit::kernelRidgeScores(rows.all(), Sv, orbit::featureSquaredNorms(Sv), k.sigma(), D);
    });
    return toArray(S);
}

// ---- data --------------------------------------------------------------------------------------

/// A loaded dataset; X is a view of its rows (no copy), kept alive by this object.
struct PyDataset {
    orbit::Dataset data;
};

std::shared_ptr<PyDataset> load(const std::string& path, const std::string& format, std::size_t n, bool rotate,
                                double rotateMax, int pad, const std::string& transformGroup,
                                const std::string& transformDist, std::uint64_t seed)
{
    orbit::DataRecipe recipe;
    recipe.file = path;
    recipe.format = format;
    recipe.n = n;
    recipe.rotate = rotate;
    recipe.rotateMaxDegrees = rotateMax;
    recipe.pad = pad;
    recipe.transformGroup = transformGroup;
    recipe.transformDist = transformDist;
    recipe.seed = seed;
    auto d = std::make_shared<PyDataset>();
    d->data = computing(0, py::none(), [&](const orbit::Progress&) { return orbit::prepareDataset(recipe); });
    return d;
}

std::shared_ptr<PyDataset> datasetFrom(const py::array& X, const py::object& labels, int numClasses,
                                       const py::object& targets, const std::string& kind, const std::vector<int>& shape)
{
    auto d = std::make_shared<PyDataset>();
    d->data.kind = kindOf(kind);
    d->data.shape = shapeOf(shape);
    const Rows rows(X);
    if (rows.cols() != d->data.shape.dim())
        throw orbit::SpecError("data", "rows of " + std::to_string(rows.cols()) + " values for inputs of " +
                                           std::to_string(d->data.shape.dim()) + " (image_shape)");
    d->data.X = rows.all();
    if (!labels.is_none()) {
        d->data.labels = labels.cast<std::vector<int>>();
        d->data.numClasses = numClasses;
    }
    if (!targets.is_none()) d->data.targets = targets.cast<std::vector<double>>();
    d->data.source = "<array>";
    return d;
}

// ---- locality, training ------------------------------------------------------------------------

py::dict pointDict(const orbit::EvidencePoint& p)
{
    py::dict d;
    d["params"] = p.params;
    d["log_evidence"] = p.logEvidence;
    d["stage"] = p.stage;
    if (!p.gradient.empty()) d["gradient"] = p.gradient;
    return d;
}

py::dict learnLocality(const PyDataset& data, const py::dict& c, int nJobs, const py::object& verbose)
{
    orbit::LocalityConfig config;
    config.features = c["features"].cast<std::string>();
    config.group = c["group"].cast<std::string>();
    config.dist = c["dist"].cast<std::string>();
    config.kernel = c["kernel"].cast<std::string>();
    config.learn = c["learn"].cast<std::vector<std::string>>();
    config.bounds = c["bounds"].cast<std::map<std::string, std::pair<double, double>>>();
    config.maxEvaluations = c["max_evals"].cast<int>();
    config.seed = c["seed"].cast<std::uint64_t>();
    config.validate();
    const orbit::LearnResult r = computing(nJobs, verbose, [&](const orbit::Progress& p) {
        return orbit::learnLocality(data.data, config, p);
    });
    py::dict d;
    d["params"] = r.learned;
    d["dist"] = r.dist;
    d["log_evidence"] = r.logEvidence;
    d["method"] = r.method;
    d["bounds"] = r.bounds;
    py::list trajectory;
    for (const orbit::EvidencePoint& p : r.trajectory) trajectory.append(pointDict(p));
    d["trajectory"] = trajectory;
    d["evaluations"] = r.trajectory.size();
    d["train_rows"] = r.trainRows;
    d["seconds"] = r.seconds;
    return d;
}

/// A training setting's Python value (the type orbitlab.train converted it to) as the CLI's text.
std::string settingText(const orbit::TrainSetting& s, const py::handle& v)
{
    switch (s.type) {
    case orbit::SettingType::Text: return v.is_none() ? std::string() : v.cast<std::string>();
    case orbit::SettingType::Integer: return std::to_string(v.cast<long long>());
    case orbit::SettingType::Number: return orbit::formatNumber(v.cast<double>());
    case orbit::SettingType::Numbers: return v.is_none() ? std::string() : orbit::numbersText(v.cast<std::vector<double>>());
    case orbit::SettingType::Grid: {
        if (v.is_none()) return {};
        std::vector<orbit::ParamAxis> grid;
        for (const auto& [name, values] : v.cast<std::vector<std::pair<std::string, std::vector<double>>>>())
            grid.push_back({name, values});
        return orbit::gridText(grid);
    }
    }
    return {};
}

/// A setting's value as Python gives it back: a spec or None, an int, a float, a list or None.
py::object settingObject(const orbit::TrainSetting& s, const orbit::TrainConfig& c)
{
    const orbit::SettingValue v = orbit::settingValue(s, c);
    switch (s.type) {
    case orbit::SettingType::Text: return v.text.empty() ? py::object(py::none()) : py::object(py::str(v.text));
    case orbit::SettingType::Integer: return py::int_(v.integer);
    case orbit::SettingType::Number: return py::float_(v.number);
    case orbit::SettingType::Numbers: return v.numbers.empty() ? py::object(py::none()) : py::object(py::cast(v.numbers));
    case orbit::SettingType::Grid: {
        if (v.grid.empty()) return py::none();
        py::dict grid;
        for (const orbit::ParamAxis& a : v.grid) grid[py::str(a.name)] = a.values;
        return grid;
    }
    }
    return py::none();
}

/// The training settings' table (orbit/training/TrainSettings.hpp), for orbitlab.train's signature.
py::list trainSettings()
{
    const orbit::TrainConfig defaults;
    py::list rows;
    for (const orbit::TrainSetting& s : orbit::trainSettings()) {
        py::dict row;
        row["key"] = s.key;
        row["flag"] = s.flag;
        row["type"] = orbit::toString(s.type);
        row["default"] = settingObject(s, defaults);
        row["help"] = s.help;
        row["range"] = s.rangeText();
        rows.append(row);
    }
    return rows;
}

/// The run's config from orbitlab.train's keywords, row by row of the table; validated.
orbit::TrainConfig trainConfigFrom(const py::dict& c)
{
    for (const auto& item : c) {
        const std::string key = item.first.cast<std::string>();
        const orbit::TrainSetting* s = orbit::findTrainSetting(key);
        if (!s || s->key != key) throw py::type_error("train() got an unexpected keyword argument '" + key + "'");
    }
    orbit::TrainConfig t;
    for (const orbit::TrainSetting& s : orbit::trainSettings())
        if (c.contains(s.key)) orbit::applySetting(t, s, settingText(s, c[py::str(s.key)]));
    t.validate();
    return t;
}

py::dict trainResultDict(const orbit::TrainResult& r)
{
    py::dict d;
    d["metric"] = r.metric;
    d["mean"] = r.mean;
    d["std"] = r.stddev;
    d["mae"] = r.mae;
    d["log_evidence"] = r.logEvidence ? py::object(py::float_(*r.logEvidence)) : py::object(py::none());
    py::list folds;
    for (const orbit::FoldResult& f : r.folds) {
        py::dict fd;
        fd["score"] = f.score;
        fd["mae"] = f.mae;
        fd["log_evidence"] = f.logEvidence;
        fd["chosen"] = f.chosen;
        fd["seconds"] = f.seconds;
        folds.append(fd);
    }
    d["folds"] = folds;
    py::list grid;
    for (const orbit::GridRow& g : r.grid) {
        py::dict gd;
        gd["params"] = g.params;
        gd["validation"] = g.validation;
        gd["log_evidence"] = g.logEvidence;
        grid.append(gd);
    }
    d["grid"] = grid;
    d["feature_dim"] = r.featureDim;
    d["features"] = r.featureSpec;
    d["seconds"] = r.seconds;
    return d;
}

/// A finished train() run: its result, and the model of its first outer split on demand.
struct TrainRun {
    std::shared_ptr<PyDataset> data;
    orbit::TrainConfig config;
    orbit::TrainResult result;
};

std::shared_ptr<TrainRun> train(const std::shared_ptr<PyDataset>& data, const py::dict& c, int nJobs, const py::object& verbose)
{
    auto run = std::make_shared<TrainRun>();
    run->data = data;
    run->config = trainConfigFrom(c);
    run->result = computing(nJobs, verbose, [&](const orbit::Progress& p) { return orbit::train(data->data, run->config, p); });
    return run;
}

/// The distribution's parameters on data of this kind and shape: (name, value, learnable, sweepable).
std::vector<std::tuple<std::string, double, bool, bool>> distributionParameters(const std::string& group, const std::string& dist,
                                                                                 const std::string& kind, const std::vector<int>& shape)
{
    const Shape s = shapeOf(shape);
    const auto g = orbit::makeGroup(group, s);
    g->checkShape(kindOf(kind), s);
    const auto d = orbit::makeDistribution(dist, *g);
    std::vector<std::tuple<std::string, double, bool, bool>> out;
    for (const auto& [name, value] : d->parameters()) {
        const orbit::ParamDescriptor& p = d->parameterDescriptor(name);
        out.emplace_back(name, value, p.learnable, p.sweepable);
    }
    return out;
}



void registerErrors()
{
    // The core's one-line messages become ValueError (bad input), RuntimeError (a broken internal
    // contract) and KeyboardInterrupt (a cancel the signal handler did not raise itself).
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const orbit::LoadError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const orbit::SpecError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const orbit::ContractError& e) {
            PyErr_SetString(PyExc_RuntimeError, (std::string("internal error: ") + e.what()).c_str());
        } catch (const orbit::Cancelled&) {
            PyErr_SetNone(PyExc_KeyboardInterrupt);
        }
    });
}

} // namespace

} // namespace orbitpy

PYBIND11_MODULE(_orbitlab, m)
{
    using namespace orbitpy;
    namespace py = pybind11;
    m.doc() = "The Orbit Lab core (C++) for the orbitlab package: feature maps, learners, locality learning, saved models.";
    registerErrors();
    registerExactKernels(m);
    registerSweep(m);

    py::class_<FittedMap>(m, "FittedMap")
        .def_property_readonly("dim", [](const FittedMap& f) { return f.map->dim(); })
        .def_property_readonly("spec", [](const FittedMap& f) { return f.map->spec(); })
        .def_property_readonly("kernel", [](const FittedMap& f) { return f.map->kernel(); })
        .def_property_readonly("uses_row_index", [](const FittedMap& f) { return f.map->usesRowIndex(); })
        .def_property_readonly("recipe", [](const FittedMap& f) { return recipeDict(f.recipe); })
        .def("transform", &transformRows, py::arg("X"), py::arg("n_jobs") = 0, py::arg("verbose") = py::none())
        .def(py::pickle([](const FittedMap& f) { return recipeDict(f.recipe); },
                        [](const py::dict& d) { return rebuild(recipeFrom(d), 0, py::none()); }));
    m.def("fit_map", &fitMap, py::arg("features"), py::arg("group"), py::arg("dist"), py::arg("kernel"), py::arg("kind"),
          py::arg("shape"), py::arg("seed"), py::arg("X"), py::arg("n_jobs") = 0, py::arg("verbose") = py::none());
    m.def("map_from_recipe", [](const py::dict& d, int nJobs, const py::object& verbose) { return rebuild(recipeFrom(d), nJobs, verbose); },
          py::arg("recipe"), py::arg("n_jobs") = 0, py::arg("verbose") = py::none());

    m.def("blr_fit", &blrFit, py::arg("F"), py::arg("y"), py::arg("num_classes"), py::arg("alpha") = 1.0,
          py::arg("beta") = 1.0, py::arg("optimise") = true, py::arg("max_iter") = 1000, py::arg("tol") = 1e-9,
          py::arg("n_jobs") = 0, py::arg("verbose") = py::none());
    m.def("linear_scores", &linearScores, py::arg("F"), py::arg("W"), py::arg("b"));
    m.def("kernel_ridge_scores", &kernelRidgeScores, py::arg("F"), py::arg("support"), py::arg("dual"), py::arg("kernel"));

    py::class_<PyDataset, std::shared_ptr<PyDataset>>(m, "Dataset")
        .def_property_readonly("X",
                               [](py::object self) {
                                   const auto& d = self.cast<const PyDataset&>().data;
                                   return py::array_t<float>({d.X.rows(), d.X.cols()},
                                                             {d.X.cols() * Eigen::Index(sizeof(float)), Eigen::Index(sizeof(float))},
                                                             d.X.data(), self);
                               })
        .def_property_readonly("labels", [](const PyDataset& d) { return d.data.labels; })
        .def_property_readonly("targets", [](const PyDataset& d) { return d.data.targets; })
        .def_property_readonly("num_classes", [](const PyDataset& d) { return d.data.numClasses; })
        .def_property_readonly("class_names", [](const PyDataset& d) { return d.data.classNames; })
        .def_property_readonly("target_unit", [](const PyDataset& d) { return d.data.targetUnit; })
        .def_property_readonly("folds", [](const PyDataset& d) { return d.data.folds; })
        .def_property_readonly("kind", [](const PyDataset& d) { return std::string(orbit::toString(d.data.kind)); })
        .def_property_readonly("shape", [](const PyDataset& d) { return shapeTuple(d.data.shape); })
        .def_property_readonly("source", [](const PyDataset& d) { return d.data.source; })
        .def_property_readonly("format", [](const PyDataset& d) { return d.data.format; });
    m.def("load", &load, py::arg("path"), py::arg("format") = "", py::arg("n") = 0, py::arg("rotate") = false,
          py::arg("rotate_max") = 0.0, py::arg("pad") = 28, py::arg("transform_group") = "",
          py::arg("transform_dist") = "", py::arg("seed") = 0);
    m.def("dataset", &datasetFrom, py::arg("X"), py::arg("labels"), py::arg("num_classes"), py::arg("targets"),
          py::arg("kind"), py::arg("shape"));

    m.def("learn_locality", &learnLocality, py::arg("data"), py::arg("config"), py::arg("n_jobs") = 0,
          py::arg("verbose") = py::none());
    py::class_<TrainRun, std::shared_ptr<TrainRun>>(m, "TrainRun")
        .def_property_readonly("result", [](const TrainRun& r) { return trainResultDict(r.result); })
        .def("model", [](const TrainRun& r, int nJobs, const py::object& verbose) {
            return modelDict(computing(nJobs, verbose, [&](const orbit::Progress& p) {
                return orbit::trainedModel(r.data->data, r.config, r.result, p);
            }));
        }, py::arg("n_jobs") = 0, py::arg("verbose") = py::none());
    m.def("train_settings", &trainSettings);
    m.def("train", &train, py::arg("data"), py::arg("config"), py::arg("n_jobs") = 0, py::arg("verbose") = py::none());
    m.def("subset", [](const std::shared_ptr<PyDataset>& d, std::size_t n, std::uint64_t seed) {
        // The Training panel's seeded subset (ui/workers/TrainingTask's seededSubset): n = 0 or n >= count keeps all.
        if (n == 0 || n >= d->data.count()) return d;
        auto s = std::make_shared<PyDataset>();
        s->data = d->data.subset(orbit::subsetRows(d->data.count(), n, seed));
        return s;
    }, py::arg("data"), py::arg("n"), py::arg("seed"));
    m.def("move_atoms", [](const std::shared_ptr<PyDataset>& d, std::size_t index, const std::vector<int>& swap, double jitter,
                           std::uint64_t seed) {
        // The Predict view's Swap and Jitter (orbit/data/MoleculeMoves.hpp): jitter first, then the swap.
        const orbit::Dataset& data = d->data;
        if (data.kind != orbit::DataKind::Coulomb) throw orbit::SpecError("data", "moving atoms needs molecules", orbit::toString(data.kind));
        if (index >= data.count()) throw orbit::SpecError("index", "no such row", std::to_string(index));
        std::vector<float> x = jitter != 0.0 ? orbit::jitteredMolecule(data, index, jitter, seed)
                                             : std::vector<float>(data.sample(index), data.sample(index) + data.shape.dim());
        if (!swap.empty()) {
            if (swap.size() != 2) throw orbit::SpecError("swap", "two atom numbers [i, j]", std::to_string(swap.size()) + " numbers");
            x = orbit::swappedAtoms(x.data(), data.shape, swap[0], swap[1]);
        }
        return py::array_t<float>(py::ssize_t(x.size()), x.data());
    }, py::arg("data"), py::arg("index"), py::arg("swap"), py::arg("jitter"), py::arg("seed"));
    m.def("feature_map_info", [](const std::string& features) {
        const std::string head = orbit::trim(features.substr(0, features.find_first_of(":+")));
        const orbit::FeatureMapDescriptor* d = orbit::findFeatureMap(head);
        if (!d) throw orbit::SpecError("features", "unknown feature map", head);
        py::dict info;
        info["invariant"] = d->invariant;
        info["uses_base_kernel"] = d->usesBaseKernel;
        return info;
    });
    m.def("distribution_info", [](const std::string& dist) {
        // The registry's word on a --dist spec; an affine spec (rotation=...,translation=...) names
        // factors, none of whose distributions depends on the input.
        const orbit::DistributionDescriptor* d =
            orbit::findDistribution(orbit::trim(dist.substr(0, dist.find_first_of(":="))));
        py::dict info;
        info["depends_on_input"] = d && d->dependsOnInput;
        return info;
    }, py::arg("dist"));
    m.def("learner_info", [](const std::string& name) {
        const orbit::LearnerDescriptor& d = orbit::parseLearner(name);
        py::dict info;
        info["axis"] = d.axis();
        info["gaussian_kernel"] = d.gaussianKernel;
        info["classes_only"] = d.classesOnly;
        return info;
    });
    m.def("dist_with", [](const std::string& group, const std::string& dist, const std::string& kind, const std::vector<int>& shape,
                          const std::map<std::string, double>& values) {
        const Shape s = shapeOf(shape);
        const auto g = orbit::makeGroup(group, s);
        g->checkShape(kindOf(kind), s);
        return orbit::makeDistribution(dist, *g)->withParameters(values)->spec();
    });
    m.def("distribution_parameters", &distributionParameters, py::arg("group"), py::arg("dist"), py::arg("kind"), py::arg("shape"));
    m.def("feature_seed", &orbit::featureSeed);

    m.attr("MODEL_FORMAT_VERSION") = orbit::SavedModel::kFormatVersion;
    m.attr("TRANSFORM_BLOCK_ROWS") = orbit::kTransformBlockRows;
    m.def("save_model", [](const std::string& path, const py::dict& d) { orbit::saveModel(path, modelFrom(d)); });
    m.def("load_model", [](const std::string& path) { return modelDict(orbit::loadModel(path)); });
    m.def("encode_model", [](const py::dict& d) { return py::bytes(orbit::encodeModel(modelFrom(d))); });
    m.def("decode_model", [](const py::bytes& b, const std::string& name) { return modelDict(orbit::decodeModel(std::string(b), name)); });
    m.def("model_scores", [](const py::dict& d, const py::array& X, int nJobs, const py::object& verbose) {
        const orbit::SavedModel model = modelFrom(d);
        const orbit::MatrixXfR x = Rows(X).all();
        return toArray(computing(nJobs, verbose, [&](const orbit::Progress& p) {
            return orbit::ModelPredictor(model, "<model>", p).scores(x, p);
        }));
    }, py::arg("model"), py::arg("X"), py::arg("n_jobs") = 0, py::arg("verbose") = py::none());
    m.def("check_model_input", [](const py::dict& d, const std::string& kind, const std::vector<int>& shape, const std::string& source) {
        orbit::SavedModel m;
        m.map = recipeFrom(d["map"].cast<py::dict>());
        orbit::checkModelInput(m, kindOf(kind), shapeOf(shape), source);
    });

    m.def("compute_budget", &orbit::computeBudget);
}
