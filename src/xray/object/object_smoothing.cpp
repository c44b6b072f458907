// Smoothing groups to normals (the SDKs' rules) and back. docs/xray-object.md "Smoothing groups".
#include "object_smoothing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace boneyard::xray::object_smoothing {

namespace {

constexpr float kEpsS = 1e-7f;  // EPS_S

Vec3 add(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }

// The SDK's end of GenerateVNormals: N / |N| when |N| > EPS_S, else the point's first face normal.
Vec3 finish(Vec3 n, const Vec3& fallback) {
  const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  if (len > kEpsS) return {n.x / len, n.y / len, n.z / len};
  return fallback;
}

std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t{a} << 32) | b;
}

struct UnionFind {
  std::vector<std::uint32_t> parent;
  UnionFind() = default;
  explicit UnionFind(std::size_t n) { reset(n); }
  void reset(std::size_t n) {
    parent.resize(n);
    std::iota(parent.begin(), parent.end(), 0u);
  }
  std::uint32_t find(std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// Which edge of face f (corner e to e + 1) joins points a and b; -1 when none.
int edge_of(const Geometry& g, std::size_t f, std::uint32_t a, std::uint32_t b) {
  for (int e = 0; e < 3; ++e) {
    const std::uint32_t p = g.corners[3 * f + std::size_t(e)], q = g.corners[3 * f + std::size_t((e + 1) % 3)];
    if ((p == a && q == b) || (p == b && q == a)) return e;
  }
  return -1;
}

}  // namespace

bool cop_soft_edge(std::uint32_t flags, int edge) {
  const int e = (flags & 8u) ? (4 - edge) % 3 : edge;
  return (flags & (1u << e)) == 0;
}

bool cop_connected(std::uint32_t a, std::uint32_t b, int ea, int eb) {
  if (((a & 8u) != 0) != ((b & 8u) != 0)) return false;
  return cop_soft_edge(a, ea) && cop_soft_edge(b, eb);
}

PointFaces point_faces(const std::vector<std::uint32_t>& corners, std::size_t points) {
  PointFaces pf;
  pf.start.assign(points + 1, 0);
  for (auto p : corners) ++pf.start[p + 1];
  for (std::size_t i = 0; i < points; ++i) pf.start[i + 1] += pf.start[i];
  pf.corners.resize(corners.size());
  std::vector<std::uint32_t> at(pf.start.begin(), pf.start.end() - 1);
  for (std::size_t c = 0; c < corners.size(); ++c) pf.corners[at[corners[c]]++] = static_cast<std::uint32_t>(c);
  return pf;
}

Geometry geometry_of(const ObjectMesh& m) {
  Geometry g;
  // The points and the stored smoothing values are the file's little-endian arrays (the host's
  // layout, core/bytes.h): copied whole.
  static_assert(sizeof(Vec3) == 12);
  g.positions.resize(std::min<std::size_t>(m.point_count, m.points.size() / 12));
  if (!g.positions.empty()) std::memcpy(g.positions.data(), m.points.data(), 12 * g.positions.size());
  g.corners.resize(std::size_t{m.face_count} * 3);
  for (std::size_t f = 0; f < m.face_count; ++f)
    for (int k = 0; k < 3; ++k) g.corners[3 * f + std::size_t(k)] = m.corner_point(f, k);
  g.groups.resize(m.face_count);
  if (m.has_smoothing && m.smoothing.size() >= 4 * g.groups.size()) {
    if (!g.groups.empty()) std::memcpy(g.groups.data(), m.smoothing.data(), 4 * g.groups.size());
  } else {
    for (std::size_t f = 0; f < g.groups.size(); ++f) g.groups[f] = m.smoothing_group(f);
  }
  g.sg_mask = m.sg_mask();
  return g;
}

namespace {

std::vector<Vec3> face_normals(const Geometry& g) {
  const std::size_t faces = g.corners.size() / 3;
  std::vector<Vec3> fn(faces);
  for (std::size_t f = 0; f < faces; ++f)
    fn[f] = face_normal(g.positions[g.corners[3 * f]], g.positions[g.corners[3 * f + 1]], g.positions[g.corners[3 * f + 2]]);
  return fn;
}

// SoC ids without the SG mask, in one pass over the corners: each (point, id) sums the normals of
// its corners' faces in corner order, which is the order of the point's adjacency list, so the
// sums are those of the rules' walk bit for bit. False (and `out` unspecified) when a point has
// more than kMaxIds ids: the walk over the point's list bounds that case.
bool soc_id_normals(const Geometry& g, const std::vector<Vec3>& fn, std::vector<Vec3>& out) {
  constexpr std::uint32_t kNone = 0xFFFFFFFFu, kFlat = 0xFFFFFFFFu, kMaxIds = 16;
  struct Sum {
    Vec3 sum;
    std::uint32_t group, point, next;
  };
  const std::size_t corners = g.corners.size();
  std::vector<std::uint32_t> first_sum(g.positions.size(), kNone), first_face(g.positions.size(), kNone), sum_of(corners);
  std::vector<Sum> sums;
  sums.reserve(g.positions.size() + g.positions.size() / 2);  // about one per point (grows past it)
  for (std::size_t c = 0; c < corners; ++c) {
    const std::uint32_t p = g.corners[c], f = static_cast<std::uint32_t>(c / 3), group = g.groups[f];
    if (first_face[p] == kNone) first_face[p] = f;
    if (group == kFlat) {  // flat faces keep their face normal
      sum_of[c] = kNone;
      continue;
    }
    std::uint32_t s = first_sum[p], seen = 0;
    while (s != kNone && sums[s].group != group) s = sums[s].next, ++seen;
    if (s == kNone) {
      if (seen == kMaxIds) return false;
      s = static_cast<std::uint32_t>(sums.size());
      sums.push_back({Vec3{}, group, p, first_sum[p]});
      first_sum[p] = s;
    }
    sums[s].sum = add(sums[s].sum, fn[f]);
    sum_of[c] = s;
  }
  for (Sum& s : sums) s.sum = finish(s.sum, fn[first_face[s.point]]);  // once per (point, id)
  out.resize(corners);
  for (std::size_t c = 0; c < corners; ++c) out[c] = sum_of[c] == kNone ? fn[c / 3] : sums[sum_of[c]].sum;
  return true;
}

}  // namespace

std::vector<Vec3> corner_normals(const Geometry& g, SmoothingStyle style) {
  if (style == SmoothingStyle::soc && !g.sg_mask) {
    std::vector<Vec3> out;
    if (soc_id_normals(g, face_normals(g), out)) return out;
  }
  return corner_normals_by_point_lists(g, style);
}

std::vector<Vec3> corner_normals_by_point_lists(const Geometry& g, SmoothingStyle style) {
  const std::vector<Vec3> fn = face_normals(g);
  const PointFaces pf = point_faces(g.corners, g.positions.size());
  std::vector<Vec3> out(g.corners.size());
  // Scratch reused point by point (sorted vectors, not hash maps: clearing a map that once held a
  // point of 100k faces would cost its buckets again at every point).
  std::vector<std::uint64_t> by_group;  // group << 32 | entry
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_edge;   // edge, entry
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_face;   // face, entry
  std::vector<Vec3> sums;
  UnionFind uf;
  for (std::size_t p = 0; p < g.positions.size(); ++p) {
    // The corners on this point in the SDK's adjacency order (a face once per corner on it).
    const std::uint32_t* list = pf.corners.data() + pf.start[p];
    const std::size_t n = pf.start[p + 1] - pf.start[p];
    if (n == 0) continue;
    auto face = [&](std::size_t i) { return list[i] / 3; };
    const Vec3 fallback = fn[face(0)];
    if (style == SmoothingStyle::soc) {
      // One sum per distinct value, each in list order: ids sum the faces with the same id; masks
      // the faces sharing a bit (a point with thousands of distinct masks, hostile data, is bounded
      // by kMaxMaskWork: beyond it only equal masks join).
      const std::uint32_t flat = g.sg_mask ? 0u : 0xFFFFFFFFu;
      // Most points have one value on all their faces: one sum in list order, no sorting.
      const std::uint32_t first = g.groups[face(0)];
      bool uniform = true;
      for (std::size_t i = 1; i < n && uniform; ++i) uniform = g.groups[face(i)] == first;
      if (uniform) {
        if (first == flat) {
          for (std::size_t i = 0; i < n; ++i) out[list[i]] = fn[face(i)];
          continue;
        }
        Vec3 sum{};
        for (std::size_t i = 0; i < n; ++i) sum = add(sum, fn[face(i)]);
        const Vec3 normal = finish(sum, fallback);
        for (std::size_t i = 0; i < n; ++i) out[list[i]] = normal;
        continue;
      }
      if (n <= 16) {
        // A few values: each corner's first corner of its value, the sums in list order per value
        // (the order the sorted path below sums in; 16 x 16 mask tests stay under its bound).
        std::uint8_t first_of[16];
        for (std::size_t i = 0; i < n; ++i) {
          std::size_t r = 0;
          while (g.groups[face(r)] != g.groups[face(i)]) ++r;
          first_of[i] = static_cast<std::uint8_t>(r);
        }
        for (std::size_t i = 0; i < n; ++i) {
          if (first_of[i] != i) continue;
          const std::uint32_t group = g.groups[face(i)];
          if (group == flat) {  // flat faces keep their face normal
            for (std::size_t j = i; j < n; ++j)
              if (first_of[j] == i) out[list[j]] = fn[face(j)];
            continue;
          }
          Vec3 sum{};
          if (g.sg_mask && group != 0) {  // a mask: every face sharing a bit with it
            for (std::size_t j = 0; j < n; ++j)
              if (group & g.groups[face(j)]) sum = add(sum, fn[face(j)]);
          } else {
            for (std::size_t j = i; j < n; ++j)
              if (first_of[j] == i) sum = add(sum, fn[face(j)]);
          }
          const Vec3 normal = finish(sum, fallback);
          for (std::size_t j = i; j < n; ++j)
            if (first_of[j] == i) out[list[j]] = normal;
        }
        continue;
      }
      by_group.clear();
      for (std::size_t i = 0; i < n; ++i) by_group.push_back(std::uint64_t{g.groups[face(i)]} << 32 | i);
      // By value, list order kept within one: (value, entry) keys are distinct, so sorting them
      // gives that stable order (an insertion sort: a point has a few faces).
      if (n <= 32) {
        for (std::size_t a = 1; a < n; ++a)
          for (std::size_t b = a; b > 0 && by_group[b] < by_group[b - 1]; --b) std::swap(by_group[b], by_group[b - 1]);
      } else {
        std::sort(by_group.begin(), by_group.end());
      }
      auto entry = [&](std::size_t j) { return static_cast<std::uint32_t>(by_group[j]); };
      constexpr std::size_t kMaxMaskWork = std::size_t{1} << 22;
      std::size_t work = 0;
      for (std::size_t k = 0; k < n;) {
        std::size_t e = k;
        const std::uint32_t group = static_cast<std::uint32_t>(by_group[k] >> 32);
        while (e < n && static_cast<std::uint32_t>(by_group[e] >> 32) == group) ++e;
        if (group == flat) {  // flat faces keep their face normal
          for (std::size_t j = k; j < e; ++j) out[list[entry(j)]] = fn[face(entry(j))];
          k = e;
          continue;
        }
        Vec3 sum{};
        if (g.sg_mask && group != 0 && (work += n) <= kMaxMaskWork) {
          for (std::size_t j = 0; j < n; ++j)
            if (group & g.groups[face(j)]) sum = add(sum, fn[face(j)]);
        } else {
          for (std::size_t j = k; j < e; ++j) sum = add(sum, fn[face(entry(j))]);
        }
        const Vec3 normal = finish(sum, fallback);  // once per value, shared by its corners
        for (std::size_t j = k; j < e; ++j) out[list[entry(j)]] = normal;
        k = e;
      }
    } else {
      // Edge flags: the faces reachable across soft edges that meet at this point (the SDK's
      // recursion over the point's faces; each face's entries count, as its list holds them).
      uf.reset(n);
      by_face.clear();
      for (std::size_t i = 0; i < n; ++i) by_face.emplace_back(face(i), static_cast<std::uint32_t>(i));
      std::sort(by_face.begin(), by_face.end());
      by_edge.clear();
      for (std::size_t k = 0; k < n; ++k) {
        if (k > 0 && by_face[k].first == by_face[k - 1].first) {
          uf.join(by_face[k - 1].second, by_face[k].second);  // a face on the point twice
          continue;
        }
        const std::uint32_t f = by_face[k].first;
        for (int e = 0; e < 3; ++e)
          by_edge.emplace_back(edge_key(g.corners[3 * f + std::size_t(e)], g.corners[3 * f + std::size_t((e + 1) % 3)]),
                               by_face[k].second);
      }
      std::sort(by_edge.begin(), by_edge.end());
      for (std::size_t k = 0; k < by_edge.size();) {
        std::size_t e = k;
        while (e < by_edge.size() && by_edge[e].first == by_edge[k].first) ++e;
        const std::uint32_t a = std::uint32_t(by_edge[k].first >> 32), b = std::uint32_t(by_edge[k].first);
        // Entries whose edge is soft join: front faces with front faces, back with back.
        int first[2] = {-1, -1};
        for (std::size_t j = k; j < e; ++j) {
          const std::uint32_t i = by_edge[j].second;
          const std::uint32_t f = face(i);
          const int edge = edge_of(g, f, a, b);
          if (edge < 0 || !cop_soft_edge(g.groups[f], edge)) continue;
          const int side = (g.groups[f] & 8u) ? 1 : 0;
          if (first[side] < 0)
            first[side] = int(i);
          else
            uf.join(std::uint32_t(first[side]), i);
        }
        k = e;
      }
      sums.assign(n, Vec3{});
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t root = uf.find(static_cast<std::uint32_t>(i));
        sums[root] = add(sums[root], fn[face(i)]);
      }
      for (std::size_t i = 0; i < n; ++i)  // once per set, shared by its corners
        if (uf.find(static_cast<std::uint32_t>(i)) == i) sums[i] = finish(sums[i], fallback);
      for (std::size_t i = 0; i < n; ++i) out[list[i]] = sums[uf.find(static_cast<std::uint32_t>(i))];
    }
  }
  return out;
}

std::vector<std::uint32_t> groups_from_normals(const Geometry& g, const std::vector<Vec3>& normals, SmoothingStyle style,
                                               float tolerance, std::size_t* conflicts) {
  const std::size_t faces = g.corners.size() / 3;
  auto close = [&](const Vec3& a, const Vec3& b) {
    return std::fabs(a.x - b.x) <= tolerance && std::fabs(a.y - b.y) <= tolerance && std::fabs(a.z - b.z) <= tolerance;
  };
  auto normal_at = [&](std::size_t f, std::uint32_t point) {
    for (int c = 0; c < 3; ++c)
      if (g.corners[3 * f + std::size_t(c)] == point) return normals[3 * f + std::size_t(c)];
    return Vec3{};
  };
  // Faces around each edge.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_edge;
  by_edge.reserve(faces * 2);
  for (std::size_t f = 0; f < faces; ++f)
    for (int e = 0; e < 3; ++e)
      by_edge[edge_key(g.corners[3 * f + std::size_t(e)], g.corners[3 * f + std::size_t((e + 1) % 3)])].push_back(
          static_cast<std::uint32_t>(f));
  std::vector<std::uint32_t> hard(faces, 0);  // bit e: edge e hard
  UnionFind uf(faces);
  std::vector<bool> joined(faces, false);
  for (std::size_t f = 0; f < faces; ++f)
    for (int e = 0; e < 3; ++e) {
      const std::uint32_t a = g.corners[3 * f + std::size_t(e)], b = g.corners[3 * f + std::size_t((e + 1) % 3)];
      const auto& around = by_edge[edge_key(a, b)];
      bool soft = around.size() < 2;  // an open edge joins nothing: soft
      for (std::uint32_t o : around) {
        if (o == f) continue;
        if (close(normal_at(f, a), normal_at(o, a)) && close(normal_at(f, b), normal_at(o, b))) {
          soft = true;
          uf.join(static_cast<std::uint32_t>(f), o);
          joined[f] = joined[o] = true;
        }
      }
      if (!soft) hard[f] |= 1u << e;
    }
  std::vector<std::uint32_t> out(faces);
  if (style == SmoothingStyle::cscop) {
    out = hard;
  } else {
    // One id per set of faces joined by soft edges, numbered in face order; a face joined to
    // nothing whose normals are its face normal is flat (-1).
    std::unordered_map<std::uint32_t, std::uint32_t> id_of;
    for (std::size_t f = 0; f < faces; ++f) {
      const Vec3 fn = face_normal(g.positions[g.corners[3 * f]], g.positions[g.corners[3 * f + 1]], g.positions[g.corners[3 * f + 2]]);
      if (!joined[f] && close(normals[3 * f], fn) && close(normals[3 * f + 1], fn) && close(normals[3 * f + 2], fn)) {
        out[f] = 0xFFFFFFFFu;
        continue;
      }
      const auto [it, fresh] = id_of.emplace(uf.find(static_cast<std::uint32_t>(f)), static_cast<std::uint32_t>(id_of.size()));
      out[f] = it->second;
    }
  }
  if (conflicts) {
    Geometry with = g;
    with.groups = out;
    with.sg_mask = false;
    const auto again = corner_normals(with, style);
    std::size_t bad = 0;
    for (std::size_t f = 0; f < faces; ++f)
      if (!close(again[3 * f], normals[3 * f]) || !close(again[3 * f + 1], normals[3 * f + 1]) || !close(again[3 * f + 2], normals[3 * f + 2]))
        ++bad;
    *conflicts = bad;
  }
  return out;
}

}  // namespace boneyard::xray::object_smoothing

namespace boneyard::xray {

SmoothingStyle detect_smoothing(const ObjectFile& file, bool* decided) {
  bool cop_values = false;  // some value in 1..15: only CS/CoP flags or SoC ids can tell
  for (const auto& m : file.meshes) {
    if (!m.readable || !m.has_smoothing) continue;
    if (m.sg_mask()) {
      if (decided) *decided = true;
      return SmoothingStyle::soc;
    }
    for (std::size_t f = 0; f < m.face_count; ++f) {
      const std::uint32_t v = m.smoothing_group(f);
      if (v >= 16 && v != 0xFFFFFFFFu) {
        if (decided) *decided = true;
        return SmoothingStyle::soc;
      }
      if (v != 0 && v != 0xFFFFFFFFu) cop_values = true;
    }
  }
  if (!cop_values) {
    if (decided) *decided = false;
    return SmoothingStyle::cscop;
  }
  // CS/CoP flags agree across every edge two faces share (an exporter marks both sides); SoC ids
  // read as flags rarely do.
  for (const auto& m : file.meshes) {
    if (!m.readable || !m.has_smoothing) continue;
    std::unordered_map<std::uint64_t, std::pair<std::uint32_t, int>> first;  // edge -> face, edge index
    first.reserve(std::size_t{m.face_count} * 2);
    for (std::size_t f = 0; f < m.face_count; ++f) {
      for (int e = 0; e < 3; ++e) {
        const std::uint32_t a = m.corner_point(f, e), b = m.corner_point(f, (e + 1) % 3);
        const std::uint64_t key = a < b ? (std::uint64_t{a} << 32 | b) : (std::uint64_t{b} << 32 | a);
        auto [it, fresh] = first.emplace(key, std::pair{static_cast<std::uint32_t>(f), e});
        if (fresh) continue;
        const std::uint32_t g = m.smoothing_group(it->second.first), h = m.smoothing_group(f);
        if (g == 0xFFFFFFFFu || h == 0xFFFFFFFFu) continue;
        if (object_smoothing::cop_soft_edge(g, it->second.second) != object_smoothing::cop_soft_edge(h, e)) {
          if (decided) *decided = true;
          return SmoothingStyle::soc;
        }
      }
    }
  }
  if (decided) *decided = true;
  return SmoothingStyle::cscop;
}

}  // namespace boneyard::xray
