#include "boneyard/scene.h"

#include <cmath>

namespace boneyard::scene {

Quat normalized(Quat q) {
  const double n = std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
  if (!(n > 0) || !std::isfinite(n)) return Quat{};  // a zero or broken quaternion becomes identity
  return {float(q.x / n), float(q.y / n), float(q.z / n), float(q.w / n)};
}

float dot(const Quat& a, const Quat& b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

void make_sign_continuous(std::vector<float>& q) {
  for (std::size_t i = 4; i + 3 < q.size(); i += 4) {
    const float d = q[i] * q[i - 4] + q[i + 1] * q[i - 3] + q[i + 2] * q[i - 2] + q[i + 3] * q[i - 1];
    if (d < 0)
      for (std::size_t k = 0; k < 4; ++k) q[i + k] = -q[i + k];
  }
}

Mat4 trs_matrix(const Vec3& t, const Quat& r, const Vec3& s) {
  const double x = r.x, y = r.y, z = r.z, w = r.w;
  Mat4 m{};
  // Column-major: m[col * 4 + row].
  m[0] = (1 - 2 * (y * y + z * z)) * s.x;
  m[1] = (2 * (x * y + z * w)) * s.x;
  m[2] = (2 * (x * z - y * w)) * s.x;
  m[4] = (2 * (x * y - z * w)) * s.y;
  m[5] = (1 - 2 * (x * x + z * z)) * s.y;
  m[6] = (2 * (y * z + x * w)) * s.y;
  m[8] = (2 * (x * z + y * w)) * s.z;
  m[9] = (2 * (y * z - x * w)) * s.z;
  m[10] = (1 - 2 * (x * x + y * y)) * s.z;
  m[12] = t.x;
  m[13] = t.y;
  m[14] = t.z;
  m[15] = 1;
  return m;
}

Mat4 multiply(const Mat4& a, const Mat4& b) {
  Mat4 c{};
  for (int col = 0; col < 4; ++col)
    for (int row = 0; row < 4; ++row) {
      double v = 0;
      for (int k = 0; k < 4; ++k) v += a[k * 4 + row] * b[col * 4 + k];
      c[col * 4 + row] = v;
    }
  return c;
}

Mat4 inverse_affine(const Mat4& m) {
  // Inverse of the 3x3 part by cofactors (works with scale), then -R^-1 * t.
  const double a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
  const double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const double det = a * A + b * B + c * C;
  const double inv = det != 0 ? 1.0 / det : 0.0;
  Mat4 r{};
  r[0] = A * inv;
  r[1] = B * inv;
  r[2] = C * inv;
  r[4] = -(b * i - c * h) * inv;
  r[5] = (a * i - c * g) * inv;
  r[6] = -(a * h - b * g) * inv;
  r[8] = (b * f - c * e) * inv;
  r[9] = -(a * f - c * d) * inv;
  r[10] = (a * e - b * d) * inv;
  for (int row = 0; row < 3; ++row)
    r[12 + row] = -(r[row] * m[12] + r[4 + row] * m[13] + r[8 + row] * m[14]);
  r[15] = 1;
  return r;
}

std::vector<Mat4> world_matrices(const Skeleton& skeleton) {
  const std::size_t n = skeleton.joints.size();
  std::vector<Mat4> world(n);
  std::vector<std::uint8_t> done(n, 0);
  // Iterative: resolve each chain top-down; the adapters guarantee there is no cycle, and the
  // step bound keeps a broken scene from looping.
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::size_t> chain;
    std::size_t cur = i;
    while (!done[cur] && chain.size() <= n) {
      chain.push_back(cur);
      const int p = skeleton.joints[cur].parent;
      if (p < 0 || static_cast<std::size_t>(p) >= n) break;
      cur = static_cast<std::size_t>(p);
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Joint& j = skeleton.joints[*it];
      const Mat4 local = trs_matrix(j.translation, j.rotation, j.scale);
      const int p = j.parent;
      world[*it] = (p >= 0 && static_cast<std::size_t>(p) < n && done[p]) ? multiply(world[p], local) : local;
      done[*it] = 1;
    }
  }
  return world;
}

}  // namespace boneyard::scene
