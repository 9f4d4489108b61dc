// orbitlab._orbitlab.sweep: a saved model's answer to one input moved over a range of one parameter
// (orbit/figures/PredictSweep.hpp; `orbitlab-cli predict --sweep`, orbitlab.sweep).
#include "Compute.hpp"

#include "orbit/figures/PredictSweep.hpp"
#include "orbit/models/SavedModel.hpp"

#include <pybind11/stl.h>

namespace orbitpy {

namespace {

py::dict sweepOf(const py::dict& model, const py::array& x, const std::string& parameter, const std::vector<double>& values,
                 std::size_t index, std::uint64_t seed)
{
    orbit::SavedModel m = modelFrom(model);
    const Rows rows(x);
    if (rows.rows() != 1 || rows.cols() != m.map.shape.dim())
        throw orbit::SpecError("data", "one input of " + std::to_string(m.map.shape.dim()) + " values (the model's input shape), found " +
                                           std::to_string(rows.rows()) + " x " + std::to_string(rows.cols()));
    if (values.empty()) throw orbit::SpecError("sweep", "needs at least one value");
    orbit::SweepRange range;
    range.parameter = orbit::parseSweepParameter(parameter);
    range.values = values;
    for (double t : values) orbit::checkSweepValue(range.parameter, t);
    const orbit::MatrixXfR input = rows.all();
    orbit::SweepResult r;
    {
        py::gil_scoped_release release;
        const orbit::ModelPredictor predictor(std::move(m), "<model>");
        r = orbit::predictSweep(predictor, input.data(), index, range, seed);
    }
    py::dict d;
    d["t"] = values;
    d["scores"] = toArray(r.scores);
    d["top"] = r.top;
    d["value"] = r.value;
    d["lower"] = r.lower;
    d["upper"] = r.upper;
    return d;
}

} // namespace

void registerSweep(py::module_& m)
{
    m.def("sweep", &sweepOf, py::arg("model"), py::arg("x"), py::arg("parameter"), py::arg("values"), py::arg("index") = 0,
          py::arg("seed") = 0);
}

} // namespace orbitpy
