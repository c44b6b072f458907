// The SDK's tangent basis (docs/ogf-write.md "Tangents and binormals"), written from the method's
// description: facts from OpenXRay's SSplit::CalculateTB (ExportSkeletonCalculateTB.cpp), which
// calls NVIDIA's MeshMender 2003 (src/Common/NvMender2003/NVMeshMender.cpp) with
// DONT_CALCULATE_NORMALS, RESPECT_SPLITS and a crease cosine of 0.5 for tangents and binormals,
// then t_remove_isolated_verts and OptimizeTextureCoordinates.
#include "ogf_tangents.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

namespace boneyard::xray {

namespace {

struct V3 {
  double x = 0, y = 0, z = 0;
};
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 operator*(double s, V3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double length(V3 a) { return std::sqrt(dot(a, a)); }
// Unit length, or zero for a zero (or non-finite) vector: the mender divides by the length and
// would spread NaN from a degenerate triangle; a zero vector takes the fallbacks below instead.
V3 unit(V3 a) {
  const double l = length(a);
  return l > 0 && std::isfinite(l) ? (1 / l) * a : V3{};
}
V3 v3(const Vec3& v) { return {v.x, v.y, v.z}; }
Vec3 f3(V3 v) { return {float(v.x), float(v.y), float(v.z)}; }

// dP/ds and dP/dt of one triangle (Lengyel's method, as GetGradients): with P = p1 - p0,
// Q = p2 - p0 and the UV differences (s1, t1), (s2, t2), solve P = s1 T + t1 B, Q = s2 T + t2 B.
// A (near) singular UV mapping (|det| <= 1e-4) takes 1/det as +-1 by its sign, as the mender does.
void gradients(const OgfVertex& a, const OgfVertex& b, const OgfVertex& c, V3& t, V3& bn) {
  const V3 p = v3(b.position) - v3(a.position), q = v3(c.position) - v3(a.position);
  const double s1 = double(b.u) - a.u, t1 = double(b.v) - a.v, s2 = double(c.u) - a.u, t2 = double(c.v) - a.v;
  const double det = s1 * t2 - s2 * t1;
  const double k = std::fabs(det) <= 1e-4 ? (det > 0 ? 1.0 : -1.0) : 1 / det;
  t = k * (t2 * p - t1 * q);
  bn = k * (s1 * q - s2 * p);
}

struct Key {
  float x, y, z;
  bool operator<(const Key& o) const {
    if (x != o.x) return x < o.x;
    if (y != o.y) return y < o.y;
    return z < o.z;
  }
  bool operator==(const Key& o) const { return x == o.x && y == o.y && z == o.z; }
};
// A NaN (a broken model) would equal nothing, not even itself, and break the grouping's order:
// it stands in as +infinity.
float ordered(float v) { return std::isnan(v) ? std::numeric_limits<float>::infinity() : v; }
Key key(const Vec3& p) { return {ordered(p.x), ordered(p.y), ordered(p.z)}; }

bool shares_edge(const std::uint32_t* a, const std::uint32_t* b) {
  int common = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (a[i] == b[j]) {
        ++common;
        break;
      }
  return common >= 2;
}

int find(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) i = parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
  return i;
}

// One smoothing pass (tangents or binormals) over the triangles around one position: groups of
// edge-connected triangles whose directions may be smoothed, one summed direction per group, and
// a new vertex wherever a vertex at this position is shared by two groups.
void smooth_at(const Key& at, const std::vector<std::size_t>& tris, const std::vector<V3>& face_dir, double crease_cos,
               bool tangent, std::vector<OgfVertex>& vs, std::vector<std::uint32_t>& idx, std::size_t& split) {
  const std::size_t k = tris.size();
  std::vector<int> parent(k);
  std::iota(parent.begin(), parent.end(), 0);
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = i + 1; j < k; ++j) {
      if (!shares_edge(&idx[3 * tris[i]], &idx[3 * tris[j]])) continue;
      const V3 a = unit(face_dir[tris[i]]), b = unit(face_dir[tris[j]]);
      const bool both_zero = length(a) == 0 && length(b) == 0;
      if (both_zero || dot(a, b) >= crease_cos) parent[static_cast<std::size_t>(find(parent, int(i)))] = find(parent, int(j));
    }
  // Groups in the order of their first triangle.
  std::vector<int> group_of(k), order;
  std::vector<V3> sum;
  std::vector<int> slot(k, -1);
  for (std::size_t i = 0; i < k; ++i) {
    const int r = find(parent, int(i));
    if (slot[static_cast<std::size_t>(r)] < 0) {
      slot[static_cast<std::size_t>(r)] = int(sum.size());
      sum.emplace_back();
    }
    group_of[i] = slot[static_cast<std::size_t>(r)];
    sum[static_cast<std::size_t>(group_of[i])] = sum[static_cast<std::size_t>(group_of[i])] + face_dir[tris[i]];
  }
  std::set<std::uint32_t> used_by_earlier;
  for (std::size_t g = 0; g < sum.size(); ++g) {
    const Vec3 dir = f3(unit(sum[g]));
    std::set<std::uint32_t> used_here;
    for (std::size_t i = 0; i < k; ++i) {
      if (group_of[i] != int(g)) continue;
      for (int c = 0; c < 3; ++c) {
        std::uint32_t v = idx[3 * tris[i] + static_cast<std::size_t>(c)];
        if (!(key(vs[v].position) == at)) continue;
        if (used_by_earlier.count(v) != 0) {
          // Another group already gave this vertex its direction: this group gets a copy, and
          // every triangle of the group that used the vertex uses the copy.
          OgfVertex copy = vs[v];
          const auto fresh = static_cast<std::uint32_t>(vs.size());
          vs.push_back(copy);
          ++split;
          for (std::size_t m = 0; m < k; ++m)
            if (group_of[m] == int(g))
              for (int e = 0; e < 3; ++e)
                if (idx[3 * tris[m] + static_cast<std::size_t>(e)] == v) idx[3 * tris[m] + static_cast<std::size_t>(e)] = fresh;
          v = fresh;
        }
        (tangent ? vs[v].tangent : vs[v].binormal) = dir;
        used_here.insert(v);
      }
    }
    used_by_earlier.insert(used_here.begin(), used_here.end());
  }
}

// Gram-Schmidt against the final normal, as OrthogonalizeTangentsAndBinormals: T' = T - (N.T)N,
// B' = B - (N.B)N - (T'.B)T' (T' before its normalisation), both normalised; an ill-defined
// basis is rebuilt from the normal.
void orthogonalise(OgfVertex& v) {
  const V3 n = v3(v.normal), t = v3(v.tangent), b = v3(v.binormal);
  const V3 t1 = t - dot(n, t) * n;
  const V3 b1 = b - dot(n, b) * n - dot(t1, b) * t1;
  V3 tu = unit(t1), bu = unit(b1);
  const double lt = length(tu), lb = length(bu);
  if (lt <= 0.001 || lb <= 0.001) {
    if (lt > 0.5) {
      bu = unit(cross(n, tu));
    } else if (lb > 0.5) {
      tu = unit(cross(bu, n));
    } else {
      // Neither is usable: start from the axis (X or Y) further from the normal.
      const V3 axis = dot({1, 0, 0}, n) < dot({0, 1, 0}, n) ? V3{1, 0, 0} : V3{0, 1, 0};
      tu = unit(cross(n, axis));
      bu = unit(cross(n, tu));
    }
  } else if (dot(bu, tu) > 0.999) {
    bu = unit(cross(n, tu));  // too close to tell apart
  }
  v.tangent = f3(tu);
  v.binormal = f3(bu);
}

// The SDK's OptimizeTextureCoordinates: shift by floor(centre) per axis. Its maximum starts at
// FLT_MIN (the smallest positive float, not -FLT_MAX), so an all-negative range is measured up to
// 0; reproduced, since it decides the shift.
void shift_uvs(std::vector<OgfVertex>& vs, TangentReport& r) {
  float umin = FLT_MAX, vmin = FLT_MAX, umax = FLT_MIN, vmax = FLT_MIN;
  for (const auto& v : vs) {
    umin = std::min(umin, v.u), vmin = std::min(vmin, v.v);
    umax = std::max(umax, v.u), vmax = std::max(vmax, v.v);
  }
  if (vs.empty()) return;
  r.shift_u = std::floor((umax - umin) / 2 + umin);
  r.shift_v = std::floor((vmax - vmin) / 2 + vmin);
  r.uv_tiled = umax - umin > 32 || vmax - vmin > 32;
  for (auto& v : vs) v.u -= r.shift_u, v.v -= r.shift_v;
}

}  // namespace

TangentReport compute_tangents(std::vector<OgfVertex>& vs, std::vector<std::uint32_t>& idx, const TangentOptions& o) {
  TangentReport r;
  const std::size_t tri_count = idx.size() / 3;
  idx.resize(tri_count * 3);
  std::vector<V3> face_t(tri_count), face_b(tri_count);
  for (std::size_t t = 0; t < tri_count; ++t)
    gradients(vs[idx[3 * t]], vs[idx[3 * t + 1]], vs[idx[3 * t + 2]], face_t[t], face_b[t]);
  // Triangles around each distinct position (exact float equality, as the mender's map), in
  // the position order it walks (x, then y, then z).
  std::vector<std::pair<Key, std::size_t>> corners;
  corners.reserve(idx.size());
  for (std::size_t t = 0; t < tri_count; ++t)
    for (int c = 0; c < 3; ++c) corners.emplace_back(key(vs[idx[3 * t + static_cast<std::size_t>(c)]].position), t);
  std::sort(corners.begin(), corners.end(), [](const auto& a, const auto& b) {
    if (a.first < b.first) return true;
    if (b.first < a.first) return false;
    return a.second < b.second;
  });
  std::vector<std::size_t> tris;
  for (std::size_t i = 0; i < corners.size();) {
    std::size_t j = i;
    tris.clear();
    for (; j < corners.size() && corners[j].first == corners[i].first; ++j)
      if (tris.empty() || tris.back() != corners[j].second) tris.push_back(corners[j].second);
    smooth_at(corners[i].first, tris, face_t, o.crease_cos, true, vs, idx, r.split);
    smooth_at(corners[i].first, tris, face_b, o.crease_cos, false, vs, idx, r.split);
    i = j;
  }
  for (auto& v : vs) orthogonalise(v);
  // Vertices no triangle uses go (t_remove_isolated_verts); the rest keep their order.
  std::vector<std::uint32_t> remap(vs.size(), UINT32_MAX);
  for (auto i : idx) remap[i] = 0;
  std::vector<OgfVertex> kept;
  kept.reserve(vs.size());
  for (std::size_t i = 0; i < vs.size(); ++i)
    if (remap[i] == 0) {
      remap[i] = static_cast<std::uint32_t>(kept.size());
      kept.push_back(vs[i]);
    }
  r.removed = vs.size() - kept.size();
  vs = std::move(kept);
  for (auto& i : idx) i = remap[i];
  if (o.uv_shift) shift_uvs(vs, r);
  return r;
}

}  // namespace boneyard::xray
