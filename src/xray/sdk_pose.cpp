// The engine's pose formulas (xrCore's _matrix.h, _quaternion.h) and the SDK's key quantisation
// (ExportSkeleton.cpp), written from their documented behaviour (docs/xray-sdk.md "Conversions").
#include "boneyard/xray/sdk_pose.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace boneyard::xray {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr double kKeyQuant = 32767.0;

// `a` moved by whole turns to within pi of `near`.
double unwrap(double a, double near) { return a + kTwoPi * std::nearbyint((near - a) / kTwoPi); }

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::fabs(a[0] - b[0]) + std::fabs(a[1] - b[1]) + std::fabs(a[2] - b[2]);
}

}  // namespace

template <class T>
Rot3<T> set_hpb(T h, T p, T b) {
  const T sh = std::sin(h), ch = std::cos(h), sp = std::sin(p), cp = std::cos(p), sb = std::sin(b), cb = std::cos(b);
  const T cc = ch * cb, cs = ch * sb, sc = sh * cb, ss = sh * sb;
  return {{{cc - sp * ss, -cp * sb, sp * cs + sc}, {sp * sc + cs, cp * cb, ss - sp * cc}, {-cp * sh, sp, cp * ch}}};
}

template <class T>
std::array<T, 3> get_hpb(const Rot3<T>& m) {
  const T cy = std::sqrt(m[1][1] * m[1][1] + m[0][1] * m[0][1]);
  if (cy > T(16) * std::numeric_limits<T>::epsilon())
    return {-std::atan2(m[2][0], m[2][2]), -std::atan2(-m[2][1], cy), -std::atan2(m[0][1], m[1][1])};
  return {-std::atan2(-m[0][2], m[0][0]), -std::atan2(-m[2][1], cy), T(0)};
}

template <class T>
std::array<T, 4> quaternion_of(const Rot3<T>& m) {
  // Fquaternion::set, branch for branch (its choice of the largest diagonal entry compares _33
  // with _11 on both sides, as the engine does).
  T x = 0, y = 0, z = 0, w = 1;
  const T trace = m[0][0] + m[1][1] + m[2][2];
  constexpr T kTolerance = T(0.1);
  if (trace > T(0)) {
    T s = std::sqrt(trace + T(1));
    w = s * T(0.5);
    s = T(0.5) / s;
    x = (m[2][1] - m[1][2]) * s;
    y = (m[0][2] - m[2][0]) * s;
    z = (m[1][0] - m[0][1]) * s;
    return {x, y, z, w};
  }
  enum Axis { kA, kE, kI };
  const Axis biggest = m[0][0] > m[1][1] ? (m[2][2] > m[0][0] ? kI : kA) : (m[2][2] > m[0][0] ? kI : kE);
  auto try_a = [&]() {
    T s = std::sqrt(m[0][0] - (m[1][1] + m[2][2]) + T(1));
    if (!(s > kTolerance)) return false;
    x = s * T(0.5);
    s = T(0.5) / s;
    w = (m[2][1] - m[1][2]) * s;
    y = (m[0][1] + m[1][0]) * s;
    z = (m[0][2] + m[2][0]) * s;
    return true;
  };
  auto try_e = [&]() {
    T s = std::sqrt(m[1][1] - (m[2][2] + m[0][0]) + T(1));
    if (!(s > kTolerance)) return false;
    y = s * T(0.5);
    s = T(0.5) / s;
    w = (m[0][2] - m[2][0]) * s;
    z = (m[1][2] + m[2][1]) * s;
    x = (m[1][0] + m[0][1]) * s;
    return true;
  };
  auto try_i = [&]() {
    T s = std::sqrt(m[2][2] - (m[0][0] + m[1][1]) + T(1));
    if (!(s > kTolerance)) return false;
    z = s * T(0.5);
    s = T(0.5) / s;
    w = (m[1][0] - m[0][1]) * s;
    x = (m[2][0] + m[0][2]) * s;
    y = (m[2][1] + m[1][2]) * s;
    return true;
  };
  switch (biggest) {
    case kA: try_a() || try_i() || try_e(); break;
    case kE: try_e() || try_i() || try_a(); break;
    case kI: try_i() || try_a() || try_e(); break;
  }
  return {x, y, z, w};
}

template <class T>
Rot3<T> rotation_of(const std::array<T, 4>& q) {
  const T x = q[0], y = q[1], z = q[2], w = q[3];
  const T xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  return {{{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
           {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
           {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}}};
}

template Rot3<float> set_hpb<float>(float, float, float);
template Rot3<double> set_hpb<double>(double, double, double);
template std::array<float, 3> get_hpb<float>(const Rot3<float>&);
template std::array<double, 3> get_hpb<double>(const Rot3<double>&);
template std::array<float, 4> quaternion_of<float>(const Rot3<float>&);
template std::array<double, 4> quaternion_of<double>(const Rot3<double>&);
template Rot3<float> rotation_of<float>(const std::array<float, 4>&);
template Rot3<double> rotation_of<double>(const std::array<double, 4>&);

Pose compose(const Pose& first, const Pose& then) {
  // Row vectors: v * first.r + first.c, then * then.r + then.c.
  Pose out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out.r[i][j] = first.r[i][0] * then.r[0][j] + first.r[i][1] * then.r[1][j] + first.r[i][2] * then.r[2][j];
  for (int j = 0; j < 3; ++j)
    out.c[j] = first.c[0] * then.r[0][j] + first.c[1] * then.r[1][j] + first.c[2] * then.r[2][j] + then.c[j];
  return out;
}

Pose inverse(const Pose& p) {
  Pose out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.r[i][j] = p.r[j][i];
  for (int j = 0; j < 3; ++j) out.c[j] = -(p.c[0] * out.r[0][j] + p.c[1] * out.r[1][j] + p.c[2] * out.r[2][j]);
  return out;
}

Rot3<double> envelope_rotation(double h, double p, double b) { return set_hpb(-h, -p, -b); }
Rot3<float> envelope_rotation(float h, float p, float b) { return set_hpb(-h, -p, -b); }

std::array<double, 3> envelope_angles(const Rot3<double>& m, const std::array<double, 3>* previous) {
  std::array<double, 3> hpb = get_hpb(m);
  const double cy = std::sqrt(m[1][1] * m[1][1] + m[0][1] * m[0][1]);
  if (previous && !(cy > 16 * std::numeric_limits<double>::epsilon())) {
    // At the gimbal only h + b (pitch up) or h - b (down) is defined: keep the previous bank.
    const double b = -(*previous)[2];
    hpb[0] = m[2][1] > 0 ? hpb[0] - b : hpb[0] + b;
    hpb[2] = b;
  }
  std::array<double, 3> a{-hpb[0], -hpb[1], -hpb[2]};
  if (!previous) return a;
  const auto& prev = *previous;
  // setHPB(h + pi, pi - p, b + pi) is the same rotation as setHPB(h, p, b).
  std::array<double, 3> alt{a[0] - kPi, -(kPi - hpb[1]), a[2] - kPi};
  for (int i = 0; i < 3; ++i) {
    a[i] = unwrap(a[i], prev[i]);
    alt[i] = unwrap(alt[i], prev[i]);
  }
  return distance(alt, prev) < distance(a, prev) ? alt : a;
}

std::array<double, 4> unit_key(const std::array<std::int16_t, 4>& key) {
  const double x = key[0], y = key[1], z = key[2], w = key[3];
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  if (n == 0) return {0, 0, 0, 1};
  return {x / n, y / n, z / n, w / n};
}

double angle_precision(float h, float p, float b) {
  auto half_ulp = [](float v) {
    const float a = std::fabs(v);
    return 0.5 * (double(std::nextafter(a, std::numeric_limits<float>::infinity())) - double(a));
  };
  return half_ulp(h) + half_ulp(p) + half_ulp(b);
}

std::array<std::int16_t, 4> sdk_rotation_key(const std::array<float, 4>& q, const std::array<double, 4>& exact,
                                             double tolerance, bool* found_key) {
  // Keys along the direction of `exact`: the component of largest size fixes the length; the others
  // must then lie within `tolerance` of that direction.
  std::size_t big = 0;
  for (std::size_t i = 1; i < 4; ++i)
    if (std::fabs(exact[i]) > std::fabs(exact[big])) big = i;
  const double ab = std::fabs(exact[big]);
  std::array<std::int16_t, 4> best{};
  double best_norm = 0;
  int found = 0;
  bool best_within = false;
  if (ab > 0.4) {
    const long lo = static_cast<long>(std::ceil(ab * (kKeyQuant - 2.5)));
    const long hi = std::min(static_cast<long>(std::floor(ab * (kKeyQuant + 2.0))), 32767L);
    for (long a = lo; a <= hi; ++a) {
      const double lambda = double(a) / ab;
      std::array<double, 4> n{};
      bool fits = true;
      for (std::size_t i = 0; i < 4; ++i) {
        n[i] = i == big ? std::copysign(double(a), exact[big]) : std::nearbyint(lambda * exact[i]);
        if (std::fabs(n[i]) > 32767) fits = false;
      }
      if (!fits) continue;
      double norm2 = 0, proj = 0;
      for (std::size_t i = 0; i < 4; ++i) norm2 += n[i] * n[i], proj += n[i] * exact[i];
      double perp2 = 0;
      for (std::size_t i = 0; i < 4; ++i) perp2 += (n[i] - proj * exact[i]) * (n[i] - proj * exact[i]);
      const double norm = std::sqrt(norm2);
      if (!(std::sqrt(perp2) <= tolerance * norm)) continue;
      // Truncation keeps every key at most unit length: of several on the direction, the longest
      // within it; past it only when none is within.
      const bool within = norm <= kKeyQuant + 0.01;  // a float quaternion is unit to ~1e-7
      const bool better = found == 0 || (within && (!best_within || norm > best_norm)) ||
                          (!within && !best_within && norm < best_norm);
      if (better) {
        for (std::size_t i = 0; i < 4; ++i) best[i] = static_cast<std::int16_t>(n[i]);
        best_norm = norm;
        best_within = within;
      }
      ++found;
    }
  }
  if (found_key) *found_key = found > 0;
  if (found > 0) return best;
  std::array<std::int16_t, 4> out{};
  for (std::size_t i = 0; i < 4; ++i) {
    const float scaled = q[i] * 32767.0f;
    int v = std::isfinite(scaled) ? static_cast<int>(std::clamp(scaled, -32768.0f, 32768.0f)) : 0;
    out[i] = static_cast<std::int16_t>(std::clamp(v, -32767, 32767));
  }
  return out;
}

AxisEncoding recover_axis_encoding(std::span<const float> values, bool sixteen_bit) {
  AxisEncoding none;
  if (values.empty()) return none;
  float lo = values[0], hi = values[0];
  for (float v : values) {
    if (!std::isfinite(v)) return none;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (lo == hi) return {0.0f, lo, true};
  const int top = sixteen_bit ? 32767 : 127;
  const int bottom = sixteen_bit ? -32768 : -128;
  const int maxima[] = {top, top - 1};
  const int minima[] = {-top, -top + 1, bottom};
  auto step = [](float v, int n) {
    const float toward = n < 0 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    for (int k = 0; k < std::abs(n); ++k) v = std::nextafter(v, toward);
    return v;
  };
  // Every value is some key's decoding under (size, init), each key within the range.
  auto fits = [&](float size, float init) {
    for (float v : values) {
      const double guess = std::nearbyint((double(v) - double(init)) / double(size));
      bool ok = false;
      for (int d : {0, -1, 1}) {
        const double q = guess + d;
        if (q < bottom || q > top) continue;
        if (decode_translation(static_cast<std::int32_t>(q), size, init) == v) {
          ok = true;
          break;
        }
      }
      if (!ok) return false;
    }
    return true;
  };
  // The SDK's own derivation first: size = ((max - min) * 0.5) / K and init = (max + min) * 0.5 in
  // float from the track's extreme values, which decode to the extreme keys (K or K - 1 after its
  // truncation) within a few ulps.
  const float k = sixteen_bit ? 32767.0f : 127.0f;
  for (int qmax : maxima)
    for (int qmin : minima) {
      const double size_d = (double(hi) - double(lo)) / double(qmax - qmin);
      const auto top_est = static_cast<float>(double(hi) + double(top - qmax) * size_d);
      const auto bottom_est = static_cast<float>(double(lo) - double(qmin + top) * size_d);
      for (int da = -4; da <= 4; ++da)
        for (int db = -4; db <= 4; ++db) {
          const float at = step(bottom_est, da), bt = step(top_est, db);
          const float size = ((bt - at) * 0.5f) / k, init = (bt + at) * 0.5f;
          if (!(size > 0)) continue;
          if (decode_translation(qmax, size, init) != hi || decode_translation(qmin, size, init) != lo) continue;
          if (fits(size, init)) return {size, init, true};
        }
    }
  // Other writers' encodings (blender-xray divides the range by 255): near the estimate.
  for (int qmax : maxima)
    for (int qmin : minima) {
      const double size_d = (double(hi) - double(lo)) / double(qmax - qmin);
      const double init_d = double(hi) - double(qmax) * size_d;
      const float size0 = static_cast<float>(size_d), init0 = static_cast<float>(init_d);
      for (int ds = -2; ds <= 2; ++ds)
        for (int di = -3; di <= 3; ++di) {
          const float size = step(size0, ds), init = step(init0, di);
          if (!(size > 0)) continue;
          if (decode_translation(qmax, size, init) != hi || decode_translation(qmin, size, init) != lo) continue;
          if (fits(size, init)) return {size, init, true};
        }
    }
  return none;
}

}  // namespace boneyard::xray
