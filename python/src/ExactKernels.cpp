// orbitlab._orbitlab's exact invariant kernel machines (orbit/training/ExactKernelMachines.hpp):
// the invariant kernel between two sets of rows, and a Gaussian process fitted on it, for the
// estimators InvariantKernelRidge and InvariantGaussianProcess (orbitlab/exact.py).
#include "Compute.hpp"

#include "orbit/training/ExactKernelMachines.hpp"
#include "orbit/kernels/BaseKernel.hpp"

#include <pybind11/stl.h>

namespace orbitpy {

namespace {

orbit::MatrixXfR rowsOf(const py::array& X, const orbit::Shape& shape)
{
    const Rows rows(X);
    if (rows.cols() != shape.dim())
        throw orbit::SpecError("data", "rows of " + std::to_string(rows.cols()) + " values for inputs of " +
                                           std::to_string(shape.dim()) + " (image_shape)");
    return rows.all();
}

/// K(i, j) = k_G(a_i, b_j) at the absolute kernel `kernel` (a sigma, not the median rule).
py::array_t<double> exactKernel(const py::array& A, const py::array& B, const std::string& group, const std::string& dist,
                                const std::string& kernel, const std::string& kind, const std::vector<int>& shape, int r,
                                std::uint64_t seed, int nJobs, const py::object& verbose)
{
    const orbit::Shape s = shapeOf(shape);
    const orbit::MatrixXfR a = rowsOf(A, s), b = rowsOf(B, s);
    const orbit::BaseKernel k = orbit::makeKernel(kernel, a, seed);
    const Eigen::MatrixXd K = computing(nJobs, verbose, [&](const orbit::Progress&) {
        return orbit::exactKernelMatrix(a, b, kindOf(kind), s, group, dist, k, r, seed);
    });
    return toArray(K);
}

py::dict exactGpFit(const py::array& X, const py::array_t<double, py::array::forcecast>& Y, const std::string& group,
                    const std::string& dist, const std::string& kernel, const std::string& kind, const std::vector<int>& shape,
                    int r, std::uint64_t seed, int maxEvaluations, int nJobs, const py::object& verbose)
{
    const orbit::Shape s = shapeOf(shape);
    const orbit::MatrixXfR x = rowsOf(X, s);
    const Eigen::MatrixXd y = toMatrix(Y);
    const orbit::ExactGpModel m = computing(nJobs, verbose, [&](const orbit::Progress& p) {
        return orbit::fitExactGp(x, y, kindOf(kind), s, group, dist, kernel, r, seed, maxEvaluations, p);
    });
    py::dict d;
    d["kernel"] = m.kernel;
    d["bandwidth"] = m.hyper.sigma;
    d["signal"] = m.hyper.signal;
    d["noise"] = m.hyper.noise;
    d["log_marginal_likelihood"] = m.logLikelihood;
    d["alpha"] = toArray(m.alpha);
    d["evaluations"] = m.evaluations;
    return d;
}

/// The kernel spec with its bandwidth resolved on the rows of X (the median rule's seeded sample).
std::string resolveKernel(const std::string& kernel, const py::array& X, std::uint64_t seed)
{
    const Rows rows(X);
    const orbit::MatrixXfR sample = orbit::usesMedianRule(kernel)
                                        ? rows.select(orbit::medianSampleRows(std::size_t(rows.rows()), 1000, seed))
                                        : orbit::MatrixXfR(0, rows.cols());
    return orbit::makeKernel(kernel, sample, seed).spec();
}

} // namespace

void registerExactKernels(py::module_& m)
{
    m.def("resolve_kernel", &resolveKernel, py::arg("kernel"), py::arg("X"), py::arg("seed"));
    m.def("exact_kernel", &exactKernel, py::arg("A"), py::arg("B"), py::arg("group"), py::arg("dist"), py::arg("kernel"),
          py::arg("kind"), py::arg("shape"), py::arg("r"), py::arg("seed"), py::arg("n_jobs") = 0,
          py::arg("verbose") = py::none());
    m.def("exact_gp_fit", &exactGpFit, py::arg("X"), py::arg("Y"), py::arg("group"), py::arg("dist"), py::arg("kernel"),
          py::arg("kind"), py::arg("shape"), py::arg("r"), py::arg("seed"), py::arg("max_evaluations") = 40,
          py::arg("n_jobs") = 0, py::arg("verbose") = py::none());
}

} // namespace orbitpy
