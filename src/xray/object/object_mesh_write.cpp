// Laying out one .object mesh from triangles (CEditableMesh::SaveMesh's chunks and order).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <unordered_map>

#include "boneyard/core/chunks.h"
#include "object_import_internal.h"
#include "object_smoothing.h"

namespace boneyard::xray::object_import {

namespace {

// Normals agree across an edge within this (per component of unit normals): float noise of a DCC
// round trip is about 1e-4.
constexpr float kNormalTolerance = 2e-3f;

std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

struct PointKey {
  std::uint32_t x, y, z;
  std::int64_t hint;
  bool operator==(const PointKey& o) const { return x == o.x && y == o.y && z == o.z && hint == o.hint; }
};
struct PointHash {
  std::size_t operator()(const PointKey& k) const {
    std::uint64_t h = k.x * 0x9E3779B97F4A7C15ull;
    h = (h ^ k.y) * 0xC2B2AE3D27D4EB4Full;
    h = (h ^ k.z) * 0x165667B19E3779F9ull;
    return static_cast<std::size_t>(h ^ std::uint64_t(k.hint) ^ (h >> 31));
  }
};

struct Vmap {
  std::string name;
  std::uint8_t dim = 2, polymap = 0, type = kVmapUv;
  std::vector<float> values;
  std::vector<std::int32_t> points, faces;
  std::size_t size() const { return points.size(); }
};

// Triangles that are still template faces keep the template's values. SoC: a set of new faces
// joined (by the rebuilt ids) to a kept face takes that face's id, the others ids past the
// template's; CS/CoP: the kept faces' flags as they were.
void keep_template_groups(const MeshSoup& soup, SmoothingStyle style, std::vector<std::uint32_t>& groups) {
  const std::size_t nf = soup.triangles.size();
  if (std::none_of(soup.triangles.begin(), soup.triangles.end(), [](const auto& t) { return t.template_group.has_value(); }))
    return;
  if (style == SmoothingStyle::cscop) {
    for (std::size_t f = 0; f < nf; ++f)
      if (soup.triangles[f].template_group) groups[f] = *soup.triangles[f].template_group;
    return;
  }
  std::uint32_t next = 0;
  for (const auto& t : soup.triangles)
    if (t.template_group && *t.template_group != 0xFFFFFFFFu) next = std::max(next, *t.template_group + 1);
  std::map<std::uint32_t, std::uint32_t> id_of_rebuilt;  // rebuilt id -> written id
  for (std::size_t f = 0; f < nf; ++f)
    if (soup.triangles[f].template_group && groups[f] != 0xFFFFFFFFu)
      id_of_rebuilt.emplace(groups[f], *soup.triangles[f].template_group);
  for (std::size_t f = 0; f < nf; ++f) {
    if (soup.triangles[f].template_group) {
      groups[f] = *soup.triangles[f].template_group;
      continue;
    }
    if (groups[f] == 0xFFFFFFFFu) continue;
    const auto [it, fresh] = id_of_rebuilt.emplace(groups[f], next);
    if (fresh) ++next;
    groups[f] = it->second;
  }
}

}  // namespace

void match_template_faces(MeshSoup& soup, const ObjectMesh& tm, SmoothingStyle style) {
  if (!tm.readable || tm.face_count == 0) return;
  const object_smoothing::Geometry g = object_smoothing::geometry_of(tm);
  const auto normals = object_smoothing::corner_normals(g, style);
  // Template faces by the position of their first corner, on a 1 mm grid (neighbours searched; at
  // most kLooks faces per cell, so that hostile data with every face in one cell stays linear:
  // real meshes start a few faces per cubic millimetre).
  constexpr std::size_t kLooks = 256;
  auto cell = [](const Vec3& p) {
    auto q = [](float v) {
      const double c = std::floor(double(v) * 1000.0);
      return std::isfinite(c) ? static_cast<std::int64_t>(std::clamp(c, -1e15, 1e15)) : std::int64_t{0};
    };
    return std::array<std::int64_t, 3>{q(p.x), q(p.y), q(p.z)};
  };
  std::map<std::array<std::int64_t, 3>, std::vector<std::uint32_t>> grid;
  for (std::uint32_t f = 0; f < tm.face_count; ++f) grid[cell(g.positions[g.corners[3 * f]])].push_back(f);
  auto near = [](const Vec3& a, const Vec3& b, double tol) {
    return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol;
  };
  for (auto& t : soup.triangles) {
    bool done = false;
    for (int r = 0; r < 3 && !done; ++r) {
      // Rotation r: triangle corner k is template corner (k + r) % 3.
      // The grid holds template corner 0, which is this triangle's corner (3 - r) % 3.
      const auto c = cell(soup.positions[t.v[(3 - r) % 3]]);
      for (std::int64_t dx = -1; dx <= 1 && !done; ++dx)
        for (std::int64_t dy = -1; dy <= 1 && !done; ++dy)
          for (std::int64_t dz = -1; dz <= 1 && !done; ++dz) {
            const auto it = grid.find({c[0] + dx, c[1] + dy, c[2] + dz});
            if (it == grid.end()) continue;
            for (std::size_t j = 0; j < it->second.size() && j < kLooks; ++j) {
              const std::uint32_t f = it->second[j];
              bool same = true;
              for (int k = 0; k < 3 && same; ++k) {
                const std::size_t corner = 3 * f + std::size_t((k + r) % 3);
                same = near(soup.positions[t.v[k]], g.positions[g.corners[corner]], 1e-5) &&
                       near(soup.normals[t.v[k]], normals[corner], kDerivedNormalTolerance);
              }
              if (!same) continue;
              std::uint32_t value = tm.smoothing_group(f);
              if (style == SmoothingStyle::cscop && r != 0 && (value & 8u) == 0) {
                // Front face: edge k of the triangle is template edge (k + r) % 3.
                std::uint32_t bits = value & ~7u;
                for (int k = 0; k < 3; ++k)
                  if (value & (1u << ((k + r) % 3))) bits |= 1u << k;
                value = bits;
              } else if (style == SmoothingStyle::cscop && r != 0) {
                continue;  // a back face turned: its remapped edges are not worth the risk
              }
              t.template_group = value;
              done = true;
              break;
            }
          }
    }
  }
}

MeshWriteResult write_mesh(const MeshSoup& soup, const MeshLayout& layout, const std::vector<ObjectSurface>& surfaces,
                           const std::vector<std::string>& weight_maps, SmoothingStyle style) {
  MeshWriteResult out;
  const std::size_t nv = soup.positions.size();
  // Points: vertices at the same position (and from the same exported point) are one point.
  std::vector<std::uint32_t> point_of(nv, 0);
  std::vector<Vec3> points;
  {
    std::unordered_map<PointKey, std::uint32_t, PointHash> index;
    index.reserve(nv);
    // Points in the order the triangles first use them.
    std::vector<bool> done(nv, false);
    for (const auto& t : soup.triangles)
      for (std::uint32_t v : t.v) {
        if (done[v]) continue;
        done[v] = true;
        const Vec3& p = soup.positions[v];
        const PointKey key{float_bits(p.x), float_bits(p.y), float_bits(p.z), soup.point_hint.empty() ? -1 : soup.point_hint[v]};
        const auto [it, fresh] = index.emplace(key, static_cast<std::uint32_t>(points.size()));
        if (fresh) points.push_back(p);
        point_of[v] = it->second;
      }
    // Every vertex knows its exported point: the points in that order (an unedited mesh keeps
    // its point order).
    if (!soup.point_hint.empty() && std::all_of(soup.point_hint.begin(), soup.point_hint.end(), [](auto h) { return h >= 0; })) {
      std::vector<std::int64_t> hint_of(points.size(), -1);
      for (std::size_t v = 0; v < nv; ++v)
        if (done[v]) hint_of[point_of[v]] = soup.point_hint[v];
      std::vector<std::uint32_t> order(points.size());
      for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return hint_of[a] < hint_of[b]; });
      std::vector<std::uint32_t> new_index(points.size());
      std::vector<Vec3> sorted(points.size());
      for (std::uint32_t i = 0; i < order.size(); ++i) new_index[order[i]] = i, sorted[i] = points[order[i]];
      points = std::move(sorted);
      for (std::size_t v = 0; v < nv; ++v) point_of[v] = new_index[point_of[v]];
    } else if (std::none_of(soup.point_hint.begin(), soup.point_hint.end(), [](auto h) { return h >= 0; }) &&
               !layout.template_points.empty()) {
      // No exported points: the template's order where a point sits on a template point within a
      // DCC round trip's float noise (1e-5 m; an edit moves few points and the rest keep their
      // indices). Template points on a 1e-4 m grid, each taken once (removed from its cell); at most
      // kLooks candidates per cell, so that hostile data (thousands of points in one cell) stays
      // linear: real meshes hold a handful of points per 0.1 mm cell.
      auto cell = [](const Vec3& p) {
        auto q = [](float v) {
          const double c = std::floor(double(v) / 1e-4);
          return std::isfinite(c) ? std::int64_t(std::clamp(c, -1e15, 1e15)) : std::int64_t{0};
        };
        return std::array<std::int64_t, 3>{q(p.x), q(p.y), q(p.z)};
      };
      std::map<std::array<std::int64_t, 3>, std::vector<std::uint32_t>> template_at;
      for (std::uint32_t i = 0; i < layout.template_points.size(); ++i)
        template_at[cell(layout.template_points[i])].push_back(i);
      constexpr std::size_t kLooks = 64;
      std::vector<bool> taken(layout.template_points.size(), false);
      std::vector<std::size_t> rank(points.size());
      for (std::size_t i = 0; i < points.size(); ++i) {
        const Vec3& p = points[i];
        const auto c = cell(p);
        const double tolerance = 1e-5 + 1e-6 * std::max({std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
        double best_distance = tolerance;
        std::int64_t best = -1;
        std::vector<std::uint32_t>* best_cell = nullptr;
        std::size_t best_slot = 0;
        for (std::int64_t dx = -1; dx <= 1; ++dx)
          for (std::int64_t dy = -1; dy <= 1; ++dy)
            for (std::int64_t dz = -1; dz <= 1; ++dz) {
              const auto it = template_at.find({c[0] + dx, c[1] + dy, c[2] + dz});
              if (it == template_at.end()) continue;
              auto& in_cell = it->second;
              for (std::size_t j = 0; j < in_cell.size() && j < kLooks; ++j) {
                const Vec3& q = layout.template_points[in_cell[j]];
                const double d = std::max({std::fabs(double(p.x) - q.x), std::fabs(double(p.y) - q.y),
                                           std::fabs(double(p.z) - q.z)});
                if (d <= best_distance && (best < 0 || d < best_distance))
                  best_distance = d, best = in_cell[j], best_cell = &in_cell, best_slot = j;
              }
            }
        if (best < 0) {
          rank[i] = SIZE_MAX;
          continue;
        }
        (*best_cell)[best_slot] = best_cell->back();
        best_cell->pop_back();
        taken[std::size_t(best)] = true;
        rank[i] = std::size_t(best);
      }
      // Moved points take the places no point kept, in order (one point moved keeps its index),
      // added ones come last.
      std::size_t free_place = 0;
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (rank[i] != SIZE_MAX) continue;
        while (free_place < taken.size() && taken[free_place]) ++free_place;
        rank[i] = free_place < taken.size() ? free_place++ : layout.template_points.size() + i;
      }
      std::vector<std::uint32_t> order(points.size());
      for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return rank[a] < rank[b]; });
      std::vector<std::uint32_t> new_index(points.size());
      std::vector<Vec3> sorted(points.size());
      for (std::uint32_t i = 0; i < order.size(); ++i) new_index[order[i]] = i, sorted[i] = points[order[i]];
      points = std::move(sorted);
      for (std::size_t v = 0; v < nv; ++v) point_of[v] = new_index[point_of[v]];
    }
  }
  const std::size_t nf = soup.triangles.size();
  const std::size_t layers = soup.uvs.size();
  // UV maps: per layer a continuous map (one value per point: its first corner's) and a
  // discontinuous one for the corners whose value differs.
  std::vector<Vmap> vmaps;
  // Per vertex, its bones of positive weight (the weights on one bone summed, in the scene's order),
  // by bone: one flat list with offsets.
  std::vector<std::uint32_t> bones_begin(nv + 1, 0);
  std::vector<std::pair<std::uint32_t, float>> vertex_bones;
  for (std::size_t v = 0; v < nv; ++v) {
    const std::size_t begin = vertex_bones.size();
    for (const auto& [bone, weight] : soup.influences[v])
      if (bone < weight_maps.size() && weight > 0) vertex_bones.emplace_back(bone, weight);
    // By bone, each bone's weights in the scene's order, then summed in that order.
    const auto first = vertex_bones.begin() + std::ptrdiff_t(begin);
    std::stable_sort(first, vertex_bones.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    auto kept = first;
    for (auto it = first; it != vertex_bones.end(); ++it) {
      if (it != first && it->first == (kept - 1)->first) (kept - 1)->second += it->second;
      else *kept++ = {it->first, 0.0f + it->second};
    }
    vertex_bones.erase(kept, vertex_bones.end());
    bones_begin[v + 1] = std::uint32_t(vertex_bones.size());
  }
  // Per corner, its vmref entries (vmap, index) in vmap order, in one flat list: UV maps first, then
  // weight maps by bone.
  const std::size_t corners = nf * 3;
  std::vector<std::size_t> ref_begin(corners + 1, 0);
  for (std::size_t c = 0; c < corners; ++c) {
    const std::uint32_t v = soup.triangles[c / 3].v[c % 3];
    ref_begin[c + 1] = ref_begin[c] + layers + (bones_begin[v + 1] - bones_begin[v]);
  }
  std::vector<std::pair<std::int32_t, std::int32_t>> ref_entries(ref_begin[corners]);
  std::vector<std::size_t> ref_cursor(ref_begin.begin(), ref_begin.end() - 1);
  for (std::size_t l = 0; l < layers; ++l) {
    const std::string name = l < layout.uv_names.size() ? layout.uv_names[l] : (l == 0 ? "Texture" : "Texture" + std::to_string(l));
    Vmap cont{name, 2, 0, kVmapUv, {}, {}, {}};
    Vmap disc{name, 2, 1, kVmapUv, {}, {}, {}};
    std::vector<std::int64_t> first(points.size(), -1);  // the vertex whose UV the point holds
    for (const auto& t : soup.triangles)
      for (std::uint32_t v : t.v)
        if (first[point_of[v]] < 0) first[point_of[v]] = v;
    cont.values.reserve(2 * points.size());
    cont.points.reserve(points.size());
    for (std::size_t p = 0; p < points.size(); ++p) {
      const std::size_t v = std::size_t(std::max<std::int64_t>(first[p], 0));
      cont.values.push_back(soup.uvs[l][2 * v]);
      cont.values.push_back(soup.uvs[l][2 * v + 1]);
      cont.points.push_back(std::int32_t(p));
    }
    const auto cont_index = std::int32_t(vmaps.size());
    const auto disc_index = cont_index + 1;
    for (std::size_t c = 0; c < corners; ++c) {
      const std::uint32_t v = soup.triangles[c / 3].v[c % 3];
      const std::uint32_t p = point_of[v];
      const std::size_t holder = std::size_t(first[p]);
      if (float_bits(soup.uvs[l][2 * v]) == float_bits(soup.uvs[l][2 * holder]) &&
          float_bits(soup.uvs[l][2 * v + 1]) == float_bits(soup.uvs[l][2 * holder + 1])) {
        ref_entries[ref_cursor[c]++] = {cont_index, std::int32_t(p)};
        continue;
      }
      ref_entries[ref_cursor[c]++] = {disc_index, std::int32_t(disc.points.size())};
      disc.values.push_back(soup.uvs[l][2 * v]);
      disc.values.push_back(soup.uvs[l][2 * v + 1]);
      disc.points.push_back(std::int32_t(p));
      disc.faces.push_back(std::int32_t(c / 3));
    }
    vmaps.push_back(std::move(cont));
    if (!disc.points.empty()) vmaps.push_back(std::move(disc));
  }
  // Weight maps: per bone a continuous map (the weight of each point's first corner on it) and,
  // when some corner of a point weighs otherwise, a discontinuous one. The corners on each bone, in
  // corner order, with their weight.
  std::vector<std::size_t> bone_begin(weight_maps.size() + 1, 0);
  for (std::size_t c = 0; c < corners; ++c) {
    const std::uint32_t v = soup.triangles[c / 3].v[c % 3];
    for (std::uint32_t i = bones_begin[v]; i < bones_begin[v + 1]; ++i) ++bone_begin[vertex_bones[i].first + 1];
  }
  for (std::size_t b = 0; b < weight_maps.size(); ++b) bone_begin[b + 1] += bone_begin[b];
  std::vector<std::pair<std::uint32_t, float>> bone_corners(bone_begin[weight_maps.size()]);
  {
    std::vector<std::size_t> cursor(bone_begin.begin(), bone_begin.end() - 1);
    for (std::size_t c = 0; c < corners; ++c) {
      const std::uint32_t v = soup.triangles[c / 3].v[c % 3];
      for (std::uint32_t i = bones_begin[v]; i < bones_begin[v + 1]; ++i)
        bone_corners[cursor[vertex_bones[i].first]++] = {std::uint32_t(c), vertex_bones[i].second};
    }
  }
  std::vector<std::int32_t> entry(points.size(), -1);
  std::vector<float> value(points.size(), 0.0f);
  for (std::size_t b = 0; b < weight_maps.size(); ++b) {
    if (bone_begin[b] == bone_begin[b + 1]) continue;
    Vmap cont{weight_maps[b], 1, 0, kVmapWeight, {}, {}, {}};
    Vmap disc{weight_maps[b], 1, 1, kVmapWeight, {}, {}, {}};
    const auto cont_index = std::int32_t(vmaps.size());
    for (std::size_t i = bone_begin[b]; i < bone_begin[b + 1]; ++i) {
      const auto [c, w] = bone_corners[i];
      const std::uint32_t p = point_of[soup.triangles[c / 3].v[c % 3]];
      if (entry[p] < 0) {
        entry[p] = std::int32_t(cont.points.size());
        value[p] = w;
        cont.values.push_back(w);
        cont.points.push_back(std::int32_t(p));
      }
      if (float_bits(value[p]) == float_bits(w)) {
        ref_entries[ref_cursor[c]++] = {cont_index, entry[p]};
      } else {
        ref_entries[ref_cursor[c]++] = {cont_index + 1, std::int32_t(disc.points.size())};
        disc.values.push_back(w);
        disc.points.push_back(std::int32_t(p));
        disc.faces.push_back(std::int32_t(c / 3));
      }
    }
    // Only this bone's points are reset: thousands of bones cost their corners, not their points.
    for (const std::int32_t p : cont.points) entry[std::size_t(p)] = -1;
    vmaps.push_back(std::move(cont));
    if (!disc.points.empty()) vmaps.push_back(std::move(disc));
  }
  // Vmrefs, shared by the corners that hold the same entries, in the order corners first use them.
  auto entries_of = [&](std::size_t c) {
    return std::span<const std::pair<std::int32_t, std::int32_t>>(ref_entries.data() + ref_begin[c], ref_begin[c + 1] - ref_begin[c]);
  };
  std::vector<std::uint32_t> corner_ref(corners);
  std::vector<std::uint32_t> ref_list;  // per vmref, the first corner that holds it
  {
    struct Hash {
      const decltype(entries_of)& of;
      std::size_t operator()(std::uint32_t c) const {
        std::uint64_t h = 0x9E3779B97F4A7C15ull;
        for (const auto& [map, index] : of(c))
          h = (h ^ (std::uint64_t(std::uint32_t(map)) << 32 | std::uint32_t(index))) * 0xC2B2AE3D27D4EB4Full, h ^= h >> 29;
        return std::size_t(h);
      }
    };
    struct Equal {
      const decltype(entries_of)& of;
      bool operator()(std::uint32_t a, std::uint32_t b) const {
        const auto x = of(a), y = of(b);
        return std::equal(x.begin(), x.end(), y.begin(), y.end());
      }
    };
    std::unordered_map<std::uint32_t, std::uint32_t, Hash, Equal> ref_index(corners, Hash{entries_of}, Equal{entries_of});
    for (std::size_t c = 0; c < corners; ++c) {
      const auto [it, fresh] = ref_index.emplace(std::uint32_t(c), static_cast<std::uint32_t>(ref_list.size()));
      if (fresh) ref_list.push_back(std::uint32_t(c));
      corner_ref[c] = it->second;
    }
  }
  // Smoothing groups.
  std::vector<std::uint32_t> groups(nf, 0);
  const bool extras_groups =
      nf > 0 && std::all_of(soup.triangles.begin(), soup.triangles.end(), [](const auto& t) { return t.group.has_value(); });
  object_smoothing::Geometry g;
  g.positions = points;
  g.corners.reserve(nf * 3);
  for (const auto& t : soup.triangles)
    for (std::uint32_t v : t.v) g.corners.push_back(point_of[v]);
  std::vector<Vec3> corner_normals;
  corner_normals.reserve(nf * 3);
  for (const auto& t : soup.triangles)
    for (std::uint32_t v : t.v) corner_normals.push_back(soup.normals[v]);
  if (extras_groups) {
    for (std::size_t f = 0; f < nf; ++f) groups[f] = *soup.triangles[f].group;
    out.groups_from_extras = true;
  } else {
    groups = object_smoothing::groups_from_normals(g, corner_normals, style, kNormalTolerance, &out.smoothing_conflicts);
    keep_template_groups(soup, style, groups);
    if (out.smoothing_conflicts != 0) {
      // Count again with the kept values: they may say what the normals alone could not.
      object_smoothing::Geometry with = g;
      with.groups = groups;
      const auto again = object_smoothing::corner_normals(with, style);
      std::size_t bad = 0;
      for (std::size_t f = 0; f < nf; ++f)
        for (int k = 0; k < 3; ++k) {
          const Vec3& a = again[3 * f + std::size_t(k)];
          const Vec3& b = corner_normals[3 * f + std::size_t(k)];
          if (std::fabs(a.x - b.x) > kDerivedNormalTolerance || std::fabs(a.y - b.y) > kDerivedNormalTolerance ||
              std::fabs(a.z - b.z) > kDerivedNormalTolerance) {
            ++bad;
            break;
          }
        }
      out.smoothing_conflicts = bad;
    }
  }
  // Surfaces' faces, in the template's SFACE order, then in the order triangles first use them.
  std::vector<std::uint32_t> surface_order;
  for (const auto& name : layout.surface_order)
    for (std::size_t s = 0; s < surfaces.size(); ++s)
      if (surfaces[s].name == name &&
          std::any_of(soup.triangles.begin(), soup.triangles.end(), [&](const auto& t) { return t.surface == s; }) &&
          std::find(surface_order.begin(), surface_order.end(), s) == surface_order.end())
        surface_order.push_back(std::uint32_t(s));
  for (const auto& t : soup.triangles)
    if (std::find(surface_order.begin(), surface_order.end(), t.surface) == surface_order.end()) surface_order.push_back(t.surface);
  // Bounding box.
  std::array<float, 6> box{};
  for (std::size_t p = 0; p < points.size(); ++p) {
    const Vec3& v = points[p];
    if (p == 0) box = {v.x, v.y, v.z, v.x, v.y, v.z};
    box[0] = std::min(box[0], v.x), box[1] = std::min(box[1], v.y), box[2] = std::min(box[2], v.z);
    box[3] = std::max(box[3], v.x), box[4] = std::max(box[4], v.y), box[5] = std::max(box[5], v.z);
  }
  // Chunks, in the template's order where it had them, else the SDK's.
  std::vector<std::uint32_t> order = {kMeshVersion, kMeshName,     kMeshBbox,   kMeshFlags,        kMeshOptions, kMeshPoints,
                                      kMeshFaces,   kMeshSmoothing, kMeshVmrefs, kMeshSurfaceFaces, kMeshVmaps2};
  if (!layout.chunk_order.empty()) {
    std::vector<std::uint32_t> ordered;
    for (std::uint32_t id : layout.chunk_order) {
      const std::uint32_t mapped = (id == kMeshVmaps0 || id == kMeshVmaps1) ? kMeshVmaps2 : id;
      if (std::find(order.begin(), order.end(), mapped) != order.end() &&
          std::find(ordered.begin(), ordered.end(), mapped) == ordered.end())
        ordered.push_back(mapped);
    }
    for (std::uint32_t id : order)
      if (std::find(ordered.begin(), ordered.end(), id) == ordered.end()) ordered.push_back(id);
    order = ordered;
  }
  ByteWriter w(out.payload);
  for (std::uint32_t id : order) {
    switch (id) {
      case kMeshVersion: write_chunk_with(w, id, [&] { w.u16(kMeshVersionCurrent); }); break;
      case kMeshName: write_chunk_with(w, id, [&] { w.stringz(layout.name); }); break;
      case kMeshBbox: write_chunk_with(w, id, [&] { for (float f : box) w.f32(f); }); break;
      case kMeshFlags: write_chunk_with(w, id, [&] { w.u8(std::uint8_t(layout.flags & ~kMeshFlagSgMask)); }); break;
      case kMeshOptions: write_chunk_with(w, id, [&] { w.u32(layout.options[0]); w.u32(layout.options[1]); }); break;
      case kMeshPoints:
        write_chunk_with(w, id, [&] {
          w.u32(std::uint32_t(points.size()));
          for (const Vec3& p : points) w.f32(p.x), w.f32(p.y), w.f32(p.z);
        });
        break;
      case kMeshFaces:
        write_chunk_with(w, id, [&] {
          w.u32(std::uint32_t(nf));
          for (std::size_t f = 0; f < nf; ++f)
            for (int k = 0; k < 3; ++k) {
              w.u32(point_of[soup.triangles[f].v[k]]);
              w.u32(corner_ref[3 * f + std::size_t(k)]);
            }
        });
        break;
      case kMeshSmoothing: write_chunk_with(w, id, [&] { for (auto x : groups) w.u32(x); }); break;
      case kMeshVmrefs:
        write_chunk_with(w, id, [&] {
          w.u32(std::uint32_t(ref_list.size()));
          for (const std::uint32_t c : ref_list) {
            const auto r = entries_of(c);
            w.u8(std::uint8_t(r.size()));
            for (const auto& [map, index] : r) w.s32(map), w.s32(index);
          }
        });
        break;
      case kMeshSurfaceFaces:
        write_chunk_with(w, id, [&] {
          w.u16(std::uint16_t(surface_order.size()));
          for (std::uint32_t s : surface_order) {
            w.stringz(surfaces[s].name);
            std::vector<std::uint32_t> faces;
            for (std::size_t f = 0; f < nf; ++f)
              if (soup.triangles[f].surface == s) faces.push_back(std::uint32_t(f));
            w.u32(std::uint32_t(faces.size()));
            for (auto f : faces) w.u32(f);
          }
        });
        break;
      case kMeshVmaps2:
        write_chunk_with(w, id, [&] {
          w.u32(std::uint32_t(vmaps.size()));
          for (const auto& vm : vmaps) {
            w.stringz(vm.name);
            w.u8(vm.dim);
            w.u8(vm.polymap);
            w.u8(vm.type);
            w.u32(std::uint32_t(vm.size()));
            for (float f : vm.values) w.f32(f);
            for (auto p : vm.points) w.s32(p);
            if (vm.polymap)
              for (auto f : vm.faces) w.s32(f);
          }
        });
        break;
      default: break;
    }
  }
  return out;
}

}  // namespace boneyard::xray::object_import
