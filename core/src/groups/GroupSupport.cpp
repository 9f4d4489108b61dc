#include "groups/GroupSupport.hpp"

#include "orbit/util/Error.hpp"

#include <charconv>
#include <cmath>
#include <numbers>

namespace orbit::detail {

double wrapAngle(double t)
{
    double w = std::remainder(t, 2.0 * std::numbers::pi);
    if (w <= -std::numbers::pi) w += 2.0 * std::numbers::pi;
    return w;
}

void requireImages(const Group& group, DataKind kind, const Shape& shape)
{
    if (kind != DataKind::Images)
        throw SpecError("group", std::string(toString(group.kind())) + " acts on images only, not on " +
                                       (kind == DataKind::Coulomb ? "Coulomb matrices" : "vectors"),
                        group.spec());
    if (shape.height < 1 || shape.width < 1 || shape.channels < 1)
        throw SpecError("group", "images need a positive height, width and channel count", group.spec());
}

namespace {

/// cos/sin with values within 1e-12 of -1, 0, 1 snapped, so quarter turns are exact.
double snapUnit(double v)
{
    const double r = std::round(v);
    return std::abs(v - r) < 1e-12 ? r : v;
}

bool nearInteger(double v) { return std::abs(v - std::round(v)) < 1e-9; }

/// out(x, y) = in(x', y') with (x', y') = M (x, y, 1), an integer index map (entries of the 2 x 2 part in
/// {-1, 0, 1}, integer offsets); zero where (x', y') falls outside.
template <class T>
void copyIndexMap(const double m[6], const T* in, T* out, const Shape& shape)
{
    const int w = shape.width, h = shape.height, ch = shape.channels;
    const long a = std::lround(m[0]), b = std::lround(m[1]), e = std::lround(m[2]);
    const long c = std::lround(m[3]), d = std::lround(m[4]), f = std::lround(m[5]);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const long sx = a * x + b * y + e, sy = c * x + d * y + f;
            T* o = out + (static_cast<std::size_t>(y) * w + x) * ch;
            if (sx < 0 || sy < 0 || sx >= w || sy >= h) {
                for (int k = 0; k < ch; ++k) o[k] = T(0);
            } else {
                const T* s = in + (static_cast<std::size_t>(sy) * w + sx) * ch;
                for (int k = 0; k < ch; ++k) o[k] = s[k];
            }
        }
}

/// Bilinear resampling out(x, y) = gain * in(M (x, y, 1)), zero outside. Interior samples take the
/// four taps directly; only samples within one pixel of the border check each tap.
template <int Channels, class T>
void bilinearMapT(const double m[6], double gain, const T* in, T* out, const Shape& shape)
{
    const int w = shape.width, h = shape.height;
    const int ch = Channels > 0 ? Channels : shape.channels;
    const std::size_t row = static_cast<std::size_t>(w) * ch;
    const T g = static_cast<T>(gain);
    for (int y = 0; y < h; ++y) {
        const double bx = m[1] * y + m[2], by = m[4] * y + m[5];
        for (int x = 0; x < w; ++x) {
            const double sx = m[0] * x + bx, sy = m[3] * x + by;
            T* o = out + (static_cast<std::size_t>(y) * w + x) * ch;
            if (!(sx > -1.0 && sy > -1.0 && sx < w && sy < h)) {
                for (int k = 0; k < ch; ++k) o[k] = T(0);
                continue;
            }
            const int x0 = static_cast<int>(std::floor(sx)), y0 = static_cast<int>(std::floor(sy));
            const T fx = static_cast<T>(sx - x0), fy = static_cast<T>(sy - y0);
            const T w00 = (1 - fx) * (1 - fy) * g, w01 = fx * (1 - fy) * g, w10 = (1 - fx) * fy * g, w11 = fx * fy * g;
            if (x0 >= 0 && y0 >= 0 && x0 + 1 < w && y0 + 1 < h) {
                const T* s0 = in + static_cast<std::size_t>(y0) * row + static_cast<std::size_t>(x0) * ch;
                const T* s1 = s0 + row;
                for (int k = 0; k < ch; ++k) o[k] = w00 * s0[k] + w01 * s0[ch + k] + w10 * s1[k] + w11 * s1[ch + k];
                continue;
            }
            const T wts[4] = {w00, w01, w10, w11};
            const int xs[4] = {x0, x0 + 1, x0, x0 + 1}, ys[4] = {y0, y0, y0 + 1, y0 + 1};
            for (int k = 0; k < ch; ++k) {
                T a = T(0);
                for (int q = 0; q < 4; ++q) {
                    const bool inside = xs[q] >= 0 && ys[q] >= 0 && xs[q] < w && ys[q] < h;
                    const T v = inside ? in[static_cast<std::size_t>(ys[q]) * row + static_cast<std::size_t>(xs[q]) * ch + k] : T(0);
                    a += wts[q] * v;
                }
                o[k] = a;
            }
        }
    }
}

template <class T>
void bilinearMap(const double m[6], double gain, const T* in, T* out, const Shape& shape)
{
    switch (shape.channels) {
    case 1: bilinearMapT<1>(m, gain, in, out, shape); break;
    case 3: bilinearMapT<3>(m, gain, in, out, shape); break;
    default: bilinearMapT<0>(m, gain, in, out, shape);
    }
}

template <class T>
void warpSimilarityOf(const GroupElement& g, const T* in, T* out, const Shape& shape)
{
    const double cx = 0.5 * (shape.width - 1), cy = 0.5 * (shape.height - 1);
    const double c = snapUnit(std::cos(g.theta)), s = snapUnit(std::sin(g.theta));
    const double inv = 1.0 / g.scale;
    // Source of destination pixel p: c + (1/s) R(-theta) (p - c) - t/s, R(-theta) = [[cos, -sin], [sin, cos]].
    const double m[6] = {inv * c, -inv * s, cx - inv * (c * cx - s * cy) - g.dx * inv,
                         inv * s, inv * c,  cy - inv * (s * cx + c * cy) - g.dy * inv};
    const bool integral = std::abs(g.scale - 1.0) < 1e-12 && (c == 0.0 || s == 0.0) && nearInteger(m[2]) &&
                          nearInteger(m[5]);
    if (integral)
        copyIndexMap(m, in, out, shape);
    else
        bilinearMap(m, inv, in, out, shape);
}

template <class T>
void warpSimilarityTangentOf(const GroupElement& g, const GroupTangent& dg, const T* in, T* out, const Shape& shape)
{
    // The sampling map of warpSimilarity, m(g) (p, 1) with gain 1/s, and its derivative dm.
    const double cx = 0.5 * (shape.width - 1), cy = 0.5 * (shape.height - 1);
    const double c = std::cos(g.theta), s = std::sin(g.theta), inv = 1.0 / g.scale;
    const double dc = -s * dg.theta, ds = c * dg.theta, dinv = -inv * inv * dg.scale;
    const double m[6] = {inv * c, -inv * s, cx - inv * (c * cx - s * cy) - g.dx * inv,
                         inv * s, inv * c,  cy - inv * (s * cx + c * cy) - g.dy * inv};
    const double dm[6] = {dinv * c + inv * dc,
                          -(dinv * s + inv * ds),
                          -(dinv * (c * cx - s * cy) + inv * (dc * cx - ds * cy)) - dg.dx * inv - g.dx * dinv,
                          dinv * s + inv * ds,
                          dinv * c + inv * dc,
                          -(dinv * (s * cx + c * cy) + inv * (ds * cx + dc * cy)) - dg.dy * inv - g.dy * dinv};
    const int w = shape.width, h = shape.height, ch = shape.channels;
    const std::size_t row = static_cast<std::size_t>(w) * ch;
    auto tap = [&](int x, int y, int k) -> double {
        return (x >= 0 && y >= 0 && x < w && y < h) ? double(in[static_cast<std::size_t>(y) * row + static_cast<std::size_t>(x) * ch + k]) : 0.0;
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double sx = m[0] * x + m[1] * y + m[2], sy = m[3] * x + m[4] * y + m[5];
            T* o = out + (static_cast<std::size_t>(y) * w + x) * ch;
            if (!(sx > -1.0 && sy > -1.0 && sx < w && sy < h)) {
                for (int k = 0; k < ch; ++k) o[k] = T(0);
                continue;
            }
            const double dsx = dm[0] * x + dm[1] * y + dm[2], dsy = dm[3] * x + dm[4] * y + dm[5];
            const int x0 = static_cast<int>(std::floor(sx)), y0 = static_cast<int>(std::floor(sy));
            const double fx = sx - x0, fy = sy - y0;
            for (int k = 0; k < ch; ++k) {
                const double v00 = tap(x0, y0, k), v01 = tap(x0 + 1, y0, k), v10 = tap(x0, y0 + 1, k), v11 = tap(x0 + 1, y0 + 1, k);
                const double value = (1 - fx) * (1 - fy) * v00 + fx * (1 - fy) * v01 + (1 - fx) * fy * v10 + fx * fy * v11;
                const double bx = (1 - fy) * (v01 - v00) + fy * (v11 - v10);
                const double by = (1 - fx) * (v10 - v00) + fx * (v11 - v01);
                o[k] = static_cast<T>(dinv * value + inv * (bx * dsx + by * dsy));
            }
        }
}

} // namespace

void warpSimilarity(const GroupElement& g, const float* in, float* out, const Shape& shape) { warpSimilarityOf(g, in, out, shape); }
void warpSimilarity(const GroupElement& g, const double* in, double* out, const Shape& shape) { warpSimilarityOf(g, in, out, shape); }

void warpSimilarityTangent(const GroupElement& g, const GroupTangent& dg, const float* in, float* out, const Shape& shape)
{
    warpSimilarityTangentOf(g, dg, in, out, shape);
}

void warpSimilarityTangent(const GroupElement& g, const GroupTangent& dg, const double* in, double* out, const Shape& shape)
{
    warpSimilarityTangentOf(g, dg, in, out, shape);
}

GroupTangent inverseSimilarityTangent(const GroupElement& g, const GroupTangent& dg)
{
    // inverse: theta' = -theta, s' = 1/s, t' = -R t / s with R t = (c dx + s dy, -s dx + c dy).
    const double c = std::cos(g.theta), s = std::sin(g.theta);
    const double dc = -s * dg.theta, ds = c * dg.theta;
    const double inv = 1.0 / g.scale, dinv = -inv * inv * dg.scale;
    const double rx = c * g.dx + s * g.dy, ry = -s * g.dx + c * g.dy;
    const double drx = dc * g.dx + c * dg.dx + ds * g.dy + s * dg.dy;
    const double dry = -ds * g.dx - s * dg.dx + dc * g.dy + c * dg.dy;
    GroupTangent r;
    r.theta = -dg.theta;
    r.scale = dinv;
    r.dx = -(drx * inv + rx * dinv);
    r.dy = -(dry * inv + ry * dinv);
    return r;
}

GroupElement composeSimilarity(const GroupElement& a, const GroupElement& b)
{
    // a(b(p)) = c + s_a s_b R_a R_b (p - c) + R_a R_b (s_a t_b + R_b^-1 t_a).
    GroupElement r;
    r.theta = wrapAngle(a.theta + b.theta);
    r.scale = a.scale * b.scale;
    const double cb = std::cos(b.theta), sb = std::sin(b.theta);
    // R(theta) = [[cos, sin], [-sin, cos]] in pixel coordinates; R(-theta_b) t_a:
    r.dx = a.scale * b.dx + (cb * a.dx - sb * a.dy);
    r.dy = a.scale * b.dy + (sb * a.dx + cb * a.dy);
    return r;
}

GroupElement inverseSimilarity(const GroupElement& g)
{
    // g^-1(p) = c + (1/s) R(-theta) (p - c) - t/s = c + (1/s) R(-theta) (p - c) + R(-theta) t', t' = -R(theta) t / s.
    GroupElement r;
    r.theta = wrapAngle(-g.theta);
    r.scale = 1.0 / g.scale;
    const double c = std::cos(g.theta), s = std::sin(g.theta);
    r.dx = -(c * g.dx + s * g.dy) / g.scale;
    r.dy = -(-s * g.dx + c * g.dy) / g.scale;
    return r;
}

} // namespace orbit::detail
