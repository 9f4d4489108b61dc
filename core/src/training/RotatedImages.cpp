#include "orbit/training/RotatedImages.hpp"

#include "orbit/distributions/Distribution.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/Random.hpp"
#include "orbit/util/ComputeBudget.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace orbit {

double rotationAngle(std::uint64_t seed, std::size_t i, double maxAngle)
{
    Rng rng = makeRng(seed, static_cast<std::uint64_t>(i));
    const double u = uniform01(rng);
    return maxAngle > 0.0 ? maxAngle * (2.0 * u - 1.0) : 2.0 * M_PI * u;
}

Dataset rotatedImages(const Dataset& images, int pad, std::uint64_t seed, double maxAngle)
{
    if (!(maxAngle >= 0.0 && maxAngle <= M_PI))
        throw SpecError("rotate-max", "must be in [0, 180] degrees", std::to_string(maxAngle * 180.0 / M_PI));
    if (images.kind != DataKind::Images)
        throw SpecError("rotate", "needs an image dataset", toString(images.kind));
    const Shape in = images.shape;
    if (pad < std::max(in.height, in.width) || pad > 4096)
        throw SpecError("pad", "must be at least the image size (" + std::to_string(in.height) + "x" +
                                     std::to_string(in.width) + ") and at most 4096",
                        std::to_string(pad));
    if (in.channels < 1 || in.channels > 4)
        throw SpecError("rotate", "images need 1 to 4 channels", std::to_string(in.channels));
    Dataset out = images.withoutSamples();
    out.shape = Shape{pad, pad, in.channels};
    out.X.resize(images.X.rows(), out.shape.dim());
    releaseRows(out.X, out.held);
    const int type = CV_32FC(in.channels);
    const int top = (pad - in.height) / 2, left = (pad - in.width) / 2;
    const cv::Point2f centre(0.5f * float(pad - 1), 0.5f * float(pad - 1));
    const long long n = static_cast<long long>(images.count());
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
    for (long long i = 0; i < n; ++i) {
        if (!images.holds(std::size_t(i))) continue;
        cv::Mat src(in.height, in.width, type, const_cast<float*>(images.sample(std::size_t(i))));
        cv::Mat padded = cv::Mat::zeros(pad, pad, type);
        src.copyTo(padded(cv::Rect(left, top, in.width, in.height)));
        const double degrees = rotationAngle(seed, std::size_t(i), maxAngle) * 180.0 / M_PI;
        const cv::Mat R = cv::getRotationMatrix2D(centre, degrees, 1.0);
        cv::Mat dst(pad, pad, type, out.X.data() + i * out.X.cols());
        cv::warpAffine(padded, dst, R, dst.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
        cv::max(dst, 0.0, dst);
        cv::min(dst, 1.0, dst);
    }
    return out;
}

Dataset transformedImages(const Dataset& images, int pad, const std::string& groupSpec, const std::string& distSpec,
                          std::uint64_t seed)
{
    if (images.kind != DataKind::Images)
        throw SpecError("transform-group", "needs an image dataset", toString(images.kind));
    const Shape in = images.shape;
    if (pad < std::max(in.height, in.width) || pad > 4096)
        throw SpecError("pad", "must be at least the image size (" + std::to_string(in.height) + "x" +
                                     std::to_string(in.width) + ") and at most 4096",
                        std::to_string(pad));
    const Shape out{pad, pad, in.channels};
    std::shared_ptr<const Group> group;
    std::shared_ptr<const Distribution> dist;
    try {
        group = makeGroup(groupSpec, out);
        group->checkShape(DataKind::Images, out);
    } catch (const SpecError& e) {
        throw SpecError("transform-group", e.detail(), e.value());
    }
    if (!group->isDifferentiable())
        throw SpecError("transform-group", "must be rotation, translation, scale or affine", groupSpec);
    try {
        dist = makeDistribution(distSpec, *group);
    } catch (const SpecError& e) {
        throw SpecError("transform-distribution", e.detail(), e.value());
    }
    if (dist->dependsOnInput()) throw SpecError("transform-distribution", "must not depend on the input", distSpec);
    Dataset result = images.withoutSamples();
    result.shape = out;
    result.X.resize(images.X.rows(), out.dim());
    releaseRows(result.X, result.held);
    const int top = (pad - in.height) / 2, left = (pad - in.width) / 2, ch = in.channels;
    const long long n = static_cast<long long>(images.count());
#pragma omp parallel for schedule(static) num_threads(orbit::teamSize())
    for (long long i = 0; i < n; ++i) {
        if (!images.holds(std::size_t(i))) continue;
        std::vector<float> padded(std::size_t(out.dim()), 0.0f);
        const float* x = images.sample(std::size_t(i));
        for (int y = 0; y < in.height; ++y)
            for (int c = 0; c < in.width * ch; ++c)
                padded[std::size_t((y + top) * pad * ch + left * ch + c)] = x[y * in.width * ch + c];
        Rng rng = makeRng(seed, std::uint64_t(i));
        const GroupElement g = dist->sample(rng, *group, out, nullptr);
        auto row = result.X.row(Eigen::Index(i));
        row.setZero();  // the group's apply may leave pixels it does not reach
        group->apply(g, padded.data(), row.data(), out);
        row = row.cwiseMax(0.0f).cwiseMin(1.0f);
    }
    return result;
}

} // namespace orbit
