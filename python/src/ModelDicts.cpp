// The dicts that carry a saved model, a fitted map's recipe and a target coding between the core
// and orbitlab's Python code (save_model, load_model, pickles, sweep).
#include "Compute.hpp"

#include "orbit/models/SavedModel.hpp"

#include <pybind11/stl.h>

namespace orbitpy {

using orbit::Shape;

namespace {

py::tuple shapeTuple(const Shape& s) { return py::make_tuple(s.height, s.width, s.channels); }

} // namespace

py::dict recipeDict(const orbit::MapRecipe& r)
{
    py::dict d;
    d["features"] = r.features;
    d["group"] = r.group;
    d["dist"] = r.dist;
    d["kernel"] = r.kernel;
    d["context_seed"] = r.contextSeed;
    d["fit_seed"] = r.fitSeed;
    d["kind"] = std::string(orbit::toString(r.kind));
    d["shape"] = shapeTuple(r.shape);
    d["fit_rows"] = toArray(r.fitRows);
    return d;
}

orbit::MapRecipe recipeFrom(const py::dict& d)
{
    orbit::MapRecipe r;
    r.features = d["features"].cast<std::string>();
    r.group = d["group"].cast<std::string>();
    r.dist = d["dist"].cast<std::string>();
    r.kernel = d["kernel"].cast<std::string>();
    r.contextSeed = d["context_seed"].cast<std::uint64_t>();
    r.fitSeed = d["fit_seed"].cast<std::uint64_t>();
    r.kind = kindOf(d["kind"].cast<std::string>());
    r.shape = shapeOf(d["shape"].cast<std::vector<int>>());
    if (d.contains("fit_rows") && !d["fit_rows"].is_none()) {
        const Rows rows{d["fit_rows"].cast<py::array>()};
        if (rows.rows() > 0) r.fitRows = rows.all();
    }
    return r;
}

py::dict codingDict(const orbit::TargetCoding& c)
{
    const char* kind = c.kind == orbit::TargetCoding::Kind::OneHot         ? "onehot"
                       : c.kind == orbit::TargetCoding::Kind::PlusMinusOne ? "plusminusone"
                                                                           : "regression";
    py::dict d;
    d["kind"] = kind;
    d["num_classes"] = c.numClasses;
    d["mean"] = c.mean;
    d["scale"] = c.scale;
    return d;
}

py::dict modelDict(const orbit::SavedModel& m)
{
    py::dict d;
    d["format_version"] = m.formatVersion();
    d["map"] = recipeDict(m.map);
    d["dim"] = m.dim;
    d["learner"] = m.learner;
    d["chosen"] = m.chosen;
    if (m.hasSupport()) {
        d["support"] = toArray(m.support);
        d["dual"] = toArray(m.dual);
        d["kernel"] = m.kernel;
    } else {
        d["weights"] = toArray(m.weights);
        d["bias"] = py::array_t<double>(m.bias.size(), m.bias.data());
    }
    d["coding"] = codingDict(m.coding);
    if (!m.textLabels.empty())
        d["classes"] = m.textLabels;
    else if (!m.integerLabels.empty())
        d["classes"] = m.integerLabels;
    else
        d["classes"] = py::none();
    d["class_names"] = m.classNames;
    d["target_unit"] = m.targetUnit;
    d["alpha"] = m.alpha;
    d["beta"] = m.beta;
    d["log_evidence"] = m.logEvidence;
    d["trained_on"] = m.trainedOn;
    d["train_rows"] = m.trainRows;
    // Regression blr and gp: the posterior's Cholesky factor (format 4), what the intervals need.
    d["posterior_factor"] = m.hasPosterior() ? py::object(toArray(m.posteriorFactor)) : py::object(py::none());
    if (m.isExact()) {  // the group samples' seed and sub-streams, the gp's variances
        d["exact"] = py::dict(py::arg("orbit_seed") = m.orbitSeed, py::arg("support_streams") = m.supportStreams,
                              py::arg("first_stream") = m.firstStream, py::arg("gp_signal") = m.gpSignal,
                              py::arg("gp_noise") = m.gpNoise);
    }
    return d;
}

orbit::SavedModel modelFrom(const py::dict& d)
{
    orbit::SavedModel m;
    m.map = recipeFrom(d["map"].cast<py::dict>());
    m.dim = d["dim"].cast<Eigen::Index>();
    m.learner = d["learner"].cast<std::string>();
    m.chosen = d["chosen"].cast<std::string>();
    if (m.hasSupport()) {
        m.support = Rows(d["support"].cast<py::array>()).all();
        m.dual = toMatrix(d["dual"].cast<py::array_t<double, py::array::forcecast>>());
        m.kernel = d["kernel"].cast<std::string>();
    } else {
        m.weights = toMatrix(d["weights"].cast<py::array_t<double, py::array::forcecast>>());
        m.bias = toVector(d["bias"].cast<py::array_t<double, py::array::forcecast>>());
    }
    const py::dict coding = d["coding"].cast<py::dict>();
    const std::string kind = coding["kind"].cast<std::string>();
    m.coding.kind = kind == "onehot"         ? orbit::TargetCoding::Kind::OneHot
                    : kind == "plusminusone" ? orbit::TargetCoding::Kind::PlusMinusOne
                                             : orbit::TargetCoding::Kind::Regression;
    m.coding.numClasses = coding["num_classes"].cast<int>();
    m.coding.mean = coding["mean"].cast<double>();
    m.coding.scale = coding["scale"].cast<double>();
    if (m.coding.isClassification()) {
        const py::object classes = d["classes"];
        try {
            m.integerLabels = classes.cast<std::vector<std::int64_t>>();
        } catch (const py::cast_error&) {
            m.textLabels = classes.cast<std::vector<std::string>>();
        }
    }
    if (d.contains("class_names")) m.classNames = d["class_names"].cast<std::vector<std::string>>();
    if (d.contains("target_unit")) m.targetUnit = d["target_unit"].cast<std::string>();
    if (d.contains("alpha")) m.alpha = d["alpha"].cast<double>();
    if (d.contains("beta")) m.beta = d["beta"].cast<double>();
    if (d.contains("log_evidence")) m.logEvidence = d["log_evidence"].cast<double>();
    if (d.contains("trained_on")) m.trainedOn = d["trained_on"].cast<std::string>();
    if (d.contains("train_rows")) m.trainRows = d["train_rows"].cast<std::int64_t>();
    if (d.contains("posterior_factor") && !d["posterior_factor"].is_none())
        m.posteriorFactor = Rows(d["posterior_factor"].cast<py::array>()).all();
    if (m.isExact()) {
        const py::dict e = d["exact"].cast<py::dict>();
        m.orbitSeed = e["orbit_seed"].cast<std::uint64_t>();
        m.supportStreams = e["support_streams"].cast<std::vector<std::int64_t>>();
        m.firstStream = e["first_stream"].cast<std::int64_t>();
        m.gpSignal = e["gp_signal"].cast<double>();
        m.gpNoise = e["gp_noise"].cast<double>();
    }
    m.checkConsistent();
    return m;
}

} // namespace orbitpy
