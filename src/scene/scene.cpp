#include "boneyard/scene/scene.h"

#include <cmath>
#include <utility>

namespace boneyard::scene {

Result<const Animation*> sampled_animation(const Scene& scene, std::size_t index, Animation& storage) {
  const Animation& a = scene.animations[index];
  if (!a.timelines.empty() || !scene.sampler) return &a;
  storage = a;
  if (auto sampled = scene.sampler->sample(index, storage); !sampled) return sampled.error();
  return &storage;
}

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

namespace boneyard::scene {

std::size_t clean_weights(Primitive& p, std::uint16_t fallback_joint) {
  const std::size_t vertices = p.vertex_count();
  if (p.joints.size() != vertices * 4 || p.weights.size() != vertices * 4) return 0;
  std::size_t repaired = 0;
  for (std::size_t v = 0; v < vertices; ++v) {
    std::uint16_t* j = &p.joints[v * 4];
    float* w = &p.weights[v * 4];
    if (w[1] == 0 && w[2] == 0 && w[3] == 0 && w[0] > 0 && std::isfinite(w[0])) {
      // One influence (a rigid vertex): what the steps below give it, without the divisions.
      w[0] = 1, j[1] = j[2] = j[3] = 0;
      continue;
    }
    bool changed = false;
    for (int k = 0; k < 4; ++k)
      if (!(w[k] >= 0)) w[k] = 0, changed = true;  // negative or NaN
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (w[b] > 0 && w[a] > 0 && j[a] == j[b]) w[a] += w[b], w[b] = 0, changed = true;
    double sum = double(w[0]) + w[1] + w[2] + w[3];
    if (!(sum > 0) || !std::isfinite(sum)) {
      j[0] = fallback_joint, w[0] = 1, w[1] = w[2] = w[3] = 0, sum = 1, changed = true;
    }
    // Sort by decreasing weight (4 elements: insertion sort), then normalise.
    for (int a = 1; a < 4; ++a)
      for (int b = a; b > 0 && w[b] > w[b - 1]; --b) std::swap(w[b], w[b - 1]), std::swap(j[b], j[b - 1]);
    float total = 0;
    const bool unit = sum == 1.0;  // a rigid vertex's one weight of 1: dividing changes nothing
    for (int k = 0; k < 4; ++k) {
      if (!unit) w[k] = static_cast<float>(w[k] / sum);
      if (w[k] == 0) j[k] = 0;
      total += w[k];
    }
    // Keep the float sum within one ulp of 1 by giving the rounding remainder to the largest slot.
    w[0] += 1.0f - total;
    if (changed) ++repaired;
  }
  return repaired;
}

void compute_normals(Primitive& p) {
  const std::size_t vertices = p.vertex_count();
  std::vector<double> acc(vertices * 3, 0.0);
  const float* pos = p.positions.data();
  for (std::size_t t = 0; t + 2 < p.indices.size(); t += 3) {
    const std::uint32_t i0 = p.indices[t], i1 = p.indices[t + 1], i2 = p.indices[t + 2];
    if (i0 >= vertices || i1 >= vertices || i2 >= vertices) continue;
    double e1[3], e2[3];
    for (int k = 0; k < 3; ++k) {
      e1[k] = double(pos[i1 * 3 + k]) - pos[i0 * 3 + k];
      e2[k] = double(pos[i2 * 3 + k]) - pos[i0 * 3 + k];
    }
    const double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    for (std::uint32_t i : {i0, i1, i2})
      for (int k = 0; k < 3; ++k) acc[i * 3 + k] += n[k];
  }
  p.normals.assign(vertices * 3, 0.0f);
  for (std::size_t v = 0; v < vertices; ++v) {
    const double x = acc[v * 3], y = acc[v * 3 + 1], z = acc[v * 3 + 2];
    const double len = std::sqrt(x * x + y * y + z * z);
    if (len > 0 && std::isfinite(len)) {
      p.normals[v * 3] = float(x / len), p.normals[v * 3 + 1] = float(y / len), p.normals[v * 3 + 2] = float(z / len);
    } else {
      p.normals[v * 3 + 1] = 1;
    }
  }
}

}  // namespace boneyard::scene
