#pragma once
// The pooling step of GICDF features (gicdf:): projections <g t_j, x> to empirical CDF values.
#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <vector>

namespace orbit::detail {

/// Pooling of projections into CDF features. A projection v falls at threshold index
/// idx(v) = clamp(ceil(v n / s), -n, n + 1) + n: the first tau_k = s k / n with v <= tau_k (values
/// below tau_-n count from k = -n, values above tau_n at none, index 2n + 1). Then
/// F_k = #{i : idx(v_i) <= k}, the empirical CDF at tau_k, a sum of r step functions
/// [k >= idx_i]. The steps are rows of a small table (L1-resident) added side by side:
///  - bytes: width <= 64 and r <= 255 (counts fit a byte) on a CPU with AVX-512 BW (chosen at run
///    time, simdLevel()): a whole row is one 64-byte register, so the r steps are r adds, then one
///    widening to float;
///  - floats: narrow rows with few samples per row (r ceil(width / 16) <= 4 width), 16 lanes at a time;
///  - otherwise a histogram over the indices and its prefix sum.
/// Counts are small integers, exact in float, so all three give the same bits.
/// One pool per thread: it keeps scratch space.
class CdfPool {
public:
    /// n = bins thresholds on each side of 0 up to the span s; every output is multiplied by scale.
    CdfPool(int bins, int r, float s, float scale);

    /// idx[0..n) := idx(p[0..n)) (a tile of the product, elementwise), 16 lanes at a time on
    /// AVX-512 CPUs (the same float operations in the same order, so the same indices). With byte
    /// steps, 64 idx: the offset of the index's row in the byte table (what operator() reads).
    void indices(const float* p, Eigen::Index n, std::vector<int>& idx) const;

    /// out[j width .. (j + 1) width) = scale F of template j, from the indices idx[j jStride + i iStride],
    /// i < r, for each j < nj.
    void operator()(const int* idx, Eigen::Index nj, Eigen::Index jStride, Eigen::Index iStride, float* out);

private:
    /// out[0..width) = scale F, from the indices idx[i * stride], i < r (float steps or histogram).
    void pool(const int* idx, Eigen::Index stride, float* out);

    /// The float step rows of the r indices summed with all Chunks lanes of a row side by side
    /// (registers, independent adds: no latency chain).
    template <int Chunks>
    void addSteps(const int* idx, Eigen::Index stride, float* out) const;

    enum class Mode { ByteSteps, FloatSteps, Histogram };
    static constexpr int kLanes = 16;
    static constexpr int kMaxStepWidth = 128;  ///< (width + 1) x 128 floats: the table stays in L1/L2
    int bins_, width_, padded_, r_;
    float toBin_, scale_;
    std::vector<float> counts_;
    std::vector<float> steps_;             ///< row j: [k >= j] for k < width, zero padding to `padded_`
    std::vector<std::uint8_t> byteSteps_;  ///< the same rows as bytes, 64 per row
    std::array<float, kLanes> countValue_{};  ///< byte steps: float(c) scale for counts c < 16
    int indexBits_ = 0;                       ///< indices are shifted left by this (6: byte offsets)
    Mode mode_ = Mode::Histogram;
    bool avx512_ = false;  ///< simdLevel() when the pool was made: one choice per transform block
};

} // namespace orbit::detail
