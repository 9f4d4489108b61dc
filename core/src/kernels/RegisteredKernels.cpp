// The built-in base kernels: one registration each, with its words, its parameters and its factory
// (the registry's table starts with these; registerKernel adds others).
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/util/Spec.hpp"

#include "registry/Builders.hpp"

namespace orbit::registry {

std::vector<KernelDescriptor> builtinKernels()
{
    using D = KernelDescriptor;
    std::vector<KernelDescriptor> all;
    KernelDescriptor gaussian;
    gaussian.name = "gaussian";
    gaussian.displayName = "Gaussian";
    gaussian.doc = "k(x, y) = exp(-||x - y||² / (2 σ²)).";
    ParamDescriptor sigma = real("sigma", 0.0, true, kUnbounded, false, false, 1.0, 0.01, 1e4, true, "The bandwidth σ.");
    sigma.label = "σ (bandwidth)";
    ParamDescriptor median = real("median", 0.0, true, kUnbounded, false, false, 1.0, 0.05, 20.0, true,
                                  "σ as a multiple F of the median pairwise distance of a seeded sample of the data "
                                  "(at most 1000 rows).");
    median.placeholder = "F";
    median.label = "bandwidth × median distance";
    gaussian.parameters = {sigma, median};
    gaussian.alternatives = {{{"sigma", "median"}, true}};
    gaussian.make = [](const Spec&, const D&, double sigma) { return BaseKernel::gaussian(sigma); };
    all.push_back(gaussian);
    // The field's kernels on molecules: the same two bandwidth keys, each median on its own distance.
    KernelDescriptor laplacian;
    laplacian.name = "laplacian";
    laplacian.displayName = "Laplacian (L1)";
    laplacian.doc = "k(x, y) = exp(-||x - y||₁ / σ): the L1 kernel of Rupp et al. 2012 and Hansen et al. 2013.";
    ParamDescriptor l1Median = median;
    l1Median.doc = "σ as a multiple F of the median pairwise L1 distance of a seeded sample of the data "
                   "(at most 1000 rows: the Gaussian's rows).";
    laplacian.parameters = {sigma, l1Median};
    laplacian.alternatives = {{{"sigma", "median"}, true}};
    laplacian.make = [](const Spec&, const D&, double sigma) { return BaseKernel::laplacian(sigma); };
    all.push_back(laplacian);
    KernelDescriptor matern;
    matern.name = "matern";
    matern.displayName = "Matérn";
    matern.doc = "Matérn on d = ||x - y||, r = √(2ν) d / σ (scikit-learn's convention): ν = 0.5 exp(-r), "
                 "1.5 (1 + r) exp(-r), 2.5 (1 + r + r²/3) exp(-r).";
    ParamDescriptor nu = choice("nu", {"1.5", "0.5", "2.5"}, "The smoothness ν: 0.5, 1.5 or 2.5.");
    nu.label = "ν (smoothness)";
    matern.parameters = {nu, sigma, median};
    matern.alternatives = {{{"sigma", "median"}, true}};
    matern.make = [](const Spec& s, const D& d, double sigma) {
        return BaseKernel::matern(*parseDouble(readText(s, *d.parameter("nu"))), sigma);  // a word of choices
    };
    all.push_back(matern);
    KernelDescriptor polynomial;
    polynomial.name = "polynomial";
    polynomial.displayName = "polynomial";
    polynomial.doc = "k(x, y) = (<x, y> + c)^degree.";
    polynomial.parameters = {integer("degree", 1, 20, false, 2, "The degree."),
                             real("c", 0.0, false, kUnbounded, false, false, 1.0, 0.0, 10.0, false, "The offset c.")};
    polynomial.make = [](const Spec& s, const D& d, double) {
        return BaseKernel::polynomial(static_cast<int>(readInteger(s, *d.parameter("degree"))),
                                      readReal(s, *d.parameter("c")));
    };
    all.push_back(polynomial);
    return all;
}

} // namespace orbit::registry
