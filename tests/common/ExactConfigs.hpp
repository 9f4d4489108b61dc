#pragma once
// The bundled G2 molecules and the exact-GP locality run the core suites learn on them: the
// permutation group, noisy sort, a Laplacian base kernel, sigma learned over three folds.
#include "orbit/data/Loaders.hpp"
#include "orbit/training/LocalityConfig.hpp"

#include "TestPaths.hpp"

#include <string>

namespace orbittest {

/// G2's 144 molecules as Coulomb matrices with atomisation energies (resources/data/g2.extxyz).
inline orbit::Dataset g2() { return orbit::loadDataset(bundledFile("g2.extxyz")); }

/// learn --learner gp --features exact:r=R --group permutation --dist noisysort:sigma=1
/// --kernel laplacian:median=1 --learn sigma --eval kfold:3 --max-evals 5 --seed 3.
inline orbit::LocalityConfig g2SigmaLearning(int r)
{
    orbit::LocalityConfig c;
    c.features = "exact:r=" + std::to_string(r);
    c.group = "permutation";
    c.dist = "noisysort:sigma=1";
    c.kernel = "laplacian:median=1";
    c.learn = {"sigma"};
    c.eval = "kfold:3";
    c.maxEvaluations = 5;
    c.seed = 3;
    return c;
}

} // namespace orbittest
