#include "features/OrbitPlan.hpp"

#include "orbit/distributions/Haar.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <algorithm>

namespace orbit::detail {

OrbitPlan OrbitPlan::make(const FeatureContext& context, int r, const std::string& mode, std::uint64_t seed,
                          const std::string& field, bool needGroup, bool kernelValues)
{
    OrbitPlan plan;
    if (context.symmetricInputs && context.shape.height == context.shape.width && context.shape.channels == 1 &&
        context.shape.height > 1)
        plan.fold.n = context.shape.height;
    if (mode != "auto" && mode != "templates" && mode != "data")
        throw SpecError(field + ".mode", "must be auto, templates or data", mode);
    if (!context.group || !context.dist) {
        if (needGroup) throw SpecError(field, "needs a group and a distribution");
        return plan;
    }
    if (r < 1) throw SpecError(field + ".r", "must be >= 1", std::to_string(r));
    context.group->checkShape(context.kind, context.shape);
    context.dist->checkGroup(*context.group);
    plan.r = r;
    plan.sampler = std::make_shared<OrbitSampler>(context.group, context.dist, context.shape, r, seed);
    const bool trickValid = wouldUseTemplates(context, "auto", kernelValues);
    if (mode == "templates" && kernelValues && !kernelMovesWithGroup(context))
        throw SpecError(field + ".mode",
                        "the template trick with the laplacian kernel needs a group that permutes coordinates "
                        "(this action does not keep L1 distances; mode=data transforms the inputs instead)",
                        context.group->spec());
    if (mode == "templates" && !trickValid)
        throw SpecError(field + ".mode",
                        "the template trick needs a unitary action and a symmetric distribution independent of x",
                        context.group->spec() + " / " + context.dist->spec());
    plan.templateTrick = mode == "templates" || (mode == "auto" && trickValid);
    return plan;
}

bool OrbitPlan::wouldUseTemplates(const FeatureContext& context, const std::string& mode, bool kernelValues)
{
    if (!context.group || !context.dist || mode == "data") return false;
    if (mode == "templates") return true;
    return context.group->isUnitary() && context.dist->isSymmetric() && !context.dist->dependsOnInput() &&
           (!kernelValues || kernelMovesWithGroup(context));
}

bool OrbitPlan::kernelMovesWithGroup(const FeatureContext& context)
{
    if (!context.kernel || context.kernel->distance() != BaseKernel::Distance::L1) return true;
    return context.group && context.group->permutesCoordinates(context.shape);
}

bool OrbitPlan::useWholeFiniteGroup(std::size_t limit)
{
    if (!sampler || !templateTrick || !sampler->group().isFinite()) return false;
    if (!isHaar(sampler->distribution())) return false;
    try {
        elements = sampler->group().elements(sampler->shape(), limit);
    } catch (const SpecError&) {
        return false;
    }
    r = static_cast<int>(elements.size());
    return true;
}

MatrixXfR OrbitPlan::prepareTemplates(const MatrixXfR& T, const Progress& progress) const
{
    if (!sampler || !templateTrick) return fold.n ? fold.templates(T) : T;
    const auto elements = this->elements.empty() ? sampler->sharedElements() : this->elements;
    const Shape& shape = sampler->shape();
    const Eigen::Index s = T.rows();
    const long long total = static_cast<long long>(r) * s;
    MatrixXfR TG(Eigen::Index(r) * s, T.cols());
    // Each moved template is written once by one iteration, so cutting the loop into chunks (with a
    // progress report between them, on this thread) changes no bit at any thread count.
    const long long chunk = std::max<long long>(1, kTemplateChunkValues / std::max<Eigen::Index>(1, T.cols()));
    const std::string of = "/" + std::to_string(total);
    for (long long c0 = 0; c0 < total; c0 += chunk) {
        reportProgress(progress, double(c0) / double(total), "templates " + std::to_string(c0) + of);
        const long long c1 = std::min(total, c0 + chunk);
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
        for (long long kk = c0; kk < c1; ++kk) {
            const Eigen::Index k = kk / s, j = kk % s;
            const GroupElement inv = sampler->group().inverse(elements[k]);
            sampler->group().apply(inv, T.data() + j * T.cols(), TG.data() + (k * s + j) * T.cols(), shape);
        }
    }
    reportProgress(progress, 1.0, "templates " + std::to_string(total) + of);
    if (fold.n) return fold.templates(TG);
    return TG;  // moved out (a conditional expression here would copy the r s x d floats)
}

MatrixXfR OrbitPlan::prepareInputs(const MatrixXfR& X, std::size_t begin, std::size_t end) const
{
    if (!sampler || templateTrick) {
        if (fold.n) return fold.inputs(X, Eigen::Index(begin), Eigen::Index(end));
        return X.middleRows(Eigen::Index(begin), Eigen::Index(end - begin));
    }
    MatrixXfR O;
    sampler->transformBlock(X, begin, end, O);
    return fold.n ? fold.inputs(O, 0, O.rows()) : O;
}

MatrixXfR OrbitPlan::prepareInputs(const MatrixXfR& X, const std::size_t* idx, std::size_t count) const
{
    const Eigen::Index d = X.cols();
    const int copies = (!sampler || templateTrick) ? 1 : r;
    MatrixXfR raw(Eigen::Index(count) * copies, d);
    MatrixXfR orbit;
    for (std::size_t t = 0; t < count; ++t) {
        const float* x = X.data() + Eigen::Index(idx[t]) * d;
        if (copies == 1) {
            std::copy(x, x + d, raw.data() + Eigen::Index(t) * d);
        } else {
            sampler->orbit(x, sampler->elementsFor(idx[t], x), orbit);
            raw.middleRows(Eigen::Index(t) * copies, copies) = orbit;
        }
    }
    return fold.n ? fold.inputs(raw, 0, raw.rows()) : raw;
}

Eigen::Map<MatrixXfR> OrbitPlan::prepareInputs(const MatrixXfR& X, const std::size_t* idx, std::size_t count,
                                                ScratchBuffer& buffer) const
{
    const Eigen::Index d = X.cols();
    const int copies = (!sampler || templateTrick) ? 1 : r;
    const Eigen::Index width = fold.n ? fold.foldedDim() : d;
    auto out = buffer.matrix(Eigen::Index(count) * copies, width);
    // One input's orbit at a time (kept by the thread, r x d).
    thread_local MatrixXfR orbit;
    for (std::size_t t = 0; t < count; ++t) {
        const float* x = X.data() + Eigen::Index(idx[t]) * d;
        float* row = out.data() + Eigen::Index(t) * copies * width;
        if (copies == 1) {
            if (fold.n)
                fold.input(x, row);
            else
                std::copy(x, x + d, row);
            continue;
        }
        sampler->orbit(x, sampler->elementsFor(idx[t], x), orbit);
        for (int k = 0; k < copies; ++k) {
            const float* o = orbit.data() + Eigen::Index(k) * d;
            if (fold.n)
                fold.input(o, row + k * width);
            else
                std::copy(o, o + d, row + k * width);
        }
    }
    return out;
}

std::vector<std::size_t> OrbitPlan::inputOrder(const MatrixXfR& X, std::size_t begin, std::size_t end) const
{
    std::vector<std::size_t> order(end - begin);
    for (std::size_t i = begin; i < end; ++i) order[i - begin] = i;
    if (!fold.n) return order;
    const int n = fold.n;
    std::vector<int> size(end - begin, 0);
    for (std::size_t i = begin; i < end; ++i) {
        const float* x = X.data() + Eigen::Index(i) * X.cols();
        for (int row = 0; row < n; ++row)
            for (int j = 0; j < n; ++j)
                if (x[row * n + j] != 0.0f) {
                    ++size[i - begin];
                    break;
                }
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return size[a - begin] < size[b - begin]; });
    return order;
}

std::size_t OrbitPlan::blockInputs() const
{
    if (!sampler || templateTrick) return kTemplateBlockRows;
    return inputsPerOrbitBlock(r);
}

std::string OrbitPlan::describe() const
{
    if (!sampler) return {};
    return ", " + sampler->group().spec() + ", " + sampler->distribution().spec() + ", r=" + std::to_string(r) +
           (templateTrick ? " (template trick)" : " (inputs transformed)");
}

} // namespace orbit::detail
