// Writes the seed corpus of fuzz_model: a small valid saved model of each learner kind (ridge, blr,
// svm, krr on features, krr and gp on the exact kernel), with integer and text labels, a regression
// coding, a map that keeps its fit rows, and the exact models' seeds and sub-streams. Written by the
// core's own writer, so the seeds follow the format this build reads.
// Usage: orbit_fuzz_make_model_seeds OUTDIR
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"

#include <cstdio>
#include <exception>
#include <string>

namespace {

using orbit::SavedModel;

SavedModel base(const std::string& learner, const std::string& features, orbit::DataKind kind, orbit::Shape shape)
{
    SavedModel m;
    m.map.features = features;
    m.map.kind = kind;
    m.map.shape = shape;
    m.map.contextSeed = 11;
    m.map.fitSeed = 12;
    m.dim = shape.dim();
    m.learner = learner;
    m.chosen = "lambda=0.01";
    m.trainedOn = "seed";
    m.trainRows = 4;
    return m;
}

void classes(SavedModel& m, int c, orbit::TargetCoding::Kind kind = orbit::TargetCoding::Kind::PlusMinusOne)
{
    m.coding = orbit::TargetCoding::classes(c, kind);
    for (int k = 0; k < c; ++k) m.integerLabels.push_back(k);
}

void linear(SavedModel& m)
{
    m.weights = Eigen::MatrixXd::Constant(m.dim, m.outputs(), 0.25);
    m.bias = Eigen::VectorXd::Constant(m.outputs(), -0.5);
}

void support(SavedModel& m, Eigen::Index n)
{
    m.support = orbit::MatrixXfR(n, m.dim);
    for (Eigen::Index i = 0; i < m.support.size(); ++i) m.support.data()[i] = float(i % 5) * 0.5f;
    m.dual = Eigen::MatrixXd::Constant(n, m.outputs(), 0.125);
}

void write(const std::string& path, const SavedModel& m)
{
    orbit::saveModel(path, m);
    (void)orbit::loadModel(path);  // a seed that does not load would seed nothing useful
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const orbit::Shape vec3{1, 3, 1}, coulomb3{3, 3, 1};
    try {
        SavedModel ridge = base("ridge", "raw", orbit::DataKind::Vectors, vec3);
        classes(ridge, 2);
        linear(ridge);
        write(dir + "/ridge.npz", ridge);

        SavedModel blr = base("blr", "nystrom:m=2", orbit::DataKind::Vectors, vec3);
        blr.map.kernel = "gaussian:sigma=1.5";
        blr.map.fitRows = orbit::MatrixXfR::Constant(3, 3, 0.5f);
        blr.dim = 2;
        blr.coding = orbit::TargetCoding::regression({1.0, 2.0, 4.0});
        blr.targetUnit = "kcal/mol";
        linear(blr);
        blr.alpha = 0.5, blr.beta = 2.0, blr.logEvidence = -3.25;
        write(dir + "/blr.npz", blr);
        // Format 4: the posterior's Cholesky factor (map_dim x map_dim) beside it.
        blr.posteriorFactor = orbit::MatrixXfR::Identity(2, 2);
        blr.posteriorFactor(1, 0) = 0.25f;
        write(dir + "/blr-posterior.npz", blr);

        SavedModel svm = base("svm", "raw", orbit::DataKind::Images, {2, 2, 1});
        svm.coding = orbit::TargetCoding::classes(3);
        svm.textLabels = {"cat", "dog", "owl"};
        svm.classNames = {"cat", "dog", "owl"};
        linear(svm);
        write(dir + "/svm.npz", svm);

        SavedModel krr = base("krr", "raw", orbit::DataKind::Vectors, vec3);
        classes(krr, 2);
        krr.kernel = "gaussian:sigma=1.25";
        support(krr, 4);
        write(dir + "/krr.npz", krr);

        SavedModel exactKrr = base("krr", "exact:r=2", orbit::DataKind::Coulomb, coulomb3);
        exactKrr.map.group = "permutation";
        exactKrr.map.dist = "noisysort:sigma=1";
        exactKrr.coding = orbit::TargetCoding::regression({-10.0, -20.0, -15.0});
        exactKrr.kernel = "laplacian:sigma=2.5";
        support(exactKrr, 3);
        exactKrr.orbitSeed = 77;
        exactKrr.supportStreams = {0, 2, 5};
        exactKrr.firstStream = 6;
        write(dir + "/exact-krr.npz", exactKrr);

        SavedModel exactGp = base("gp", "exact:r=3", orbit::DataKind::Images, {2, 2, 1});
        exactGp.map.group = "rotation";
        exactGp.map.dist = "vonmises:kappa=2";
        classes(exactGp, 2, orbit::TargetCoding::Kind::OneHot);
        exactGp.kernel = "matern:nu=1.5,sigma=0.75";
        support(exactGp, 2);
        exactGp.supportStreams = {1, 3};
        exactGp.gpSignal = 1.5, exactGp.gpNoise = 0.01, exactGp.logEvidence = -7.5;
        write(dir + "/exact-gp.npz", exactGp);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_model_seeds: %s\n", e.what());
        return 1;
    }
    return 0;
}
