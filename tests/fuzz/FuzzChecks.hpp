#pragma once
// The properties the fuzz targets check, shared with the regression suite
// tests/core/data/test_fuzz_regressions.cpp (which replays every saved reproducer through them):
//   loaders: an input either loads into a Dataset whose invariants hold, or throws LoadError /
//            SpecError (memory requests are bounded by LoadOptions::maxBytes);
//   specs:   parseSpec, makeGroup, makeDistribution, makeKernel, makeFeatureContext and
//            makeFeatureMap return an object or throw SpecError;
//   models:  the saved-model reader (decodeNpz + fromArchive) returns a consistent model that
//            survives encodeModel -> decodeModel unchanged, or throws LoadError;
//   messages: every error message they provoke is safe text (orbit::isSafeText: valid UTF-8, no
//            control or bidi character) of at most kMaxMessageBytes, whatever bytes the input held.
// A violated property throws Finding (the fuzz targets abort on it, the tests fail on it).
#include "orbit/data/Loaders.hpp"
#include "orbit/distributions/Distribution.hpp"
#include "orbit/features/FeatureMap.hpp"
#include "orbit/groups/Group.hpp"
#include "orbit/kernels/BaseKernel.hpp"
#include "orbit/models/SavedModel.hpp"
#include "orbit/util/Error.hpp"
#include "orbit/util/SafeText.hpp"
#include "orbit/util/Spec.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace orbitfuzz {

struct Finding : std::logic_error {
    using std::logic_error::logic_error;
};

using Loader = orbit::Dataset (*)(const std::string&, const orbit::LoadOptions&);

/// A message is one line: file path (<= kPathMaxChars), position, detail (<= 600 characters) and a
/// value cut to kQuoteMaxChars; each character at most 6 bytes (an escape such as \u202e).
inline constexpr std::size_t kMaxMessageBytes = 6 * (orbit::kPathMaxChars + 600 + 80 + orbit::kQuoteMaxChars) + 200;

/// Throws Finding unless `message` is safe text of bounded length.
inline void checkMessage(const std::string& message, const char* where)
{
    if (!orbit::isSafeText(message))
        throw Finding(std::string(where) + ": message is not safe text: " + orbit::safeText(message, 400));
    if (message.size() > kMaxMessageBytes)
        throw Finding(std::string(where) + ": message of " + std::to_string(message.size()) +
                      " bytes: " + orbit::safeText(message, 400));
}

/// The loader a fuzz target (and a fuzz-regressions/<target>/ folder) exercises; nullptr if none.
inline Loader loaderFor(const std::string& target)
{
    if (target == "idx") return orbit::loadIdx;
    if (target == "cifar") return orbit::loadCifar;
    if (target == "amat") return orbit::loadAmat;
    if (target == "image") return orbit::loadImage;
    if (target == "digits") return orbit::loadDigitsSheet;
    if (target == "mat") return orbit::loadMat;
    if (target == "extxyz") return orbit::loadExtXyz;
    if (target == "csv") return orbit::loadCsv;
    if (target == "autodetect") return orbit::loadDataset;
    return nullptr;
}

/// True if the file loaded (invariants checked), false if the loader refused it with a LoadError
/// or SpecError (its message then goes to *error); throws Finding for anything else.
inline bool checkLoad(Loader load, const std::string& path, std::string* error = nullptr)
{
    orbit::LoadOptions options;
    options.maxBytes = std::size_t(256) << 20;  // far below the fuzzers' -rss_limit_mb
    try {
        const orbit::Dataset d = load(path, options);
        d.checkInvariants();
        return true;
    } catch (const orbit::LoadError& e) {
        checkMessage(e.what(), "LoadError");
        if (error) *error = e.what();
        return false;
    } catch (const orbit::SpecError& e) {
        checkMessage(e.what(), "SpecError");
        if (error) *error = e.what();
        return false;
    } catch (const std::exception& e) {
        throw Finding(std::string("unexpected exception: ") + orbit::safeText(e.what(), 400));
    }
}

/// Four 8x8 images with distinct pixels (so the median pairwise distance is positive).
inline const orbit::Dataset& tinyImages()
{
    static const orbit::Dataset d = [] {
        orbit::Dataset data;
        data.kind = orbit::DataKind::Images;
        data.shape = {8, 8, 1};
        data.X.resize(4, 64);
        for (Eigen::Index i = 0; i < data.X.rows(); ++i)
            for (Eigen::Index j = 0; j < data.X.cols(); ++j)
                data.X(i, j) = static_cast<float>((i * 7 + j * 3) % 11) / 10.0f;
        data.labels = {0, 1, 0, 1};
        data.numClasses = 2;
        return data;
    }();
    return d;
}

namespace detail {
template <class F>
void specErrorOnly(const char* what, F&& f)
{
    try {
        f();
    } catch (const orbit::SpecError& e) {
        checkMessage(e.what(), what);
    } catch (const std::exception& e) {
        throw Finding(std::string("unexpected exception from ") + what + ": " + orbit::safeText(e.what(), 400));
    }
}
} // namespace detail

/// lines[0] a --group spec (8x8x1 shape), lines[1] a --dist spec for it, lines[2] a --kernel spec,
/// lines[3] a --features spec built in the context of the first three. Maps are built, not fitted.
inline void checkSpecs(const std::vector<std::string>& lines)
{
    const std::string& group = lines.at(0);
    const std::string& dist = lines.at(1);
    const std::string& kernel = lines.at(2);
    const std::string& features = lines.at(3);
    for (const std::string& l : lines)
        detail::specErrorOnly("parseSpec", [&] { (void)orbit::parseSpec(l, "--fuzz"); });
    const orbit::Dataset& images = tinyImages();
    detail::specErrorOnly("makeGroup/makeDistribution", [&] {
        auto g = orbit::makeGroup(group, images.shape, 7);
        (void)orbit::makeDistribution(dist, *g);
    });
    detail::specErrorOnly("makeKernel", [&] { (void)orbit::makeKernel(kernel, images.X, 7); });
    detail::specErrorOnly("makeFeatureContext/makeFeatureMap", [&] {
        const orbit::FeatureContext context = orbit::makeFeatureContext(images, group, dist, kernel, 7);
        auto map = orbit::makeFeatureMap(features, context);
        (void)map->spec();
        (void)map->kernel();
        (void)map->dim();
    });
}

/// True if `bytes` read as a saved model (decodeModel: the NPZ container, then every member the
/// model needs); it is then consistent and encodes to a file that reads back with the same arrays.
/// False if the reader refused it with a LoadError (its message to *error). Finding otherwise.
inline bool checkModel(const std::string& bytes, std::string* error = nullptr)
{
    orbit::SavedModel m;
    try {
        m = orbit::decodeModel(bytes, "fuzz.npz");
    } catch (const orbit::LoadError& e) {
        checkMessage(e.what(), "LoadError");
        if (error) *error = e.what();
        return false;
    } catch (const std::exception& e) {
        throw Finding(std::string("unexpected exception: ") + orbit::safeText(e.what(), 400));
    }
    try {
        m.checkConsistent();
        const orbit::SavedModel back = orbit::decodeModel(orbit::encodeModel(m), "again.npz");
        if (orbit::encodeModel(back) != orbit::encodeModel(m)) throw Finding("a loaded model reads back with other arrays");
    } catch (const Finding&) {
        throw;
    } catch (const std::exception& e) {
        throw Finding(std::string("a loaded model does not survive encode -> decode: ") + orbit::safeText(e.what(), 400));
    }
    return true;
}

} // namespace orbitfuzz
