// The scene side of the glTF -> .ogf import: nodes matched to bones, materials to texture and
// shader names, primitives to triangle soups in X-Ray space, and the two comparisons that decide
// whether a template child is unchanged (exact arrays, then triangles within float noise).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "boneyard/core/text.h"
#include "ogf_import_internal.h"
#include "scene/extras_json.h"
#include "xray/scene/xray_import_bones.h"
#include "xray/scene/xray_import_internal.h"

namespace boneyard::xray::ogf_import {

using import_detail::extras_name;
using import_detail::member;

std::optional<std::string> raw_node_name(const scene::Joint& joint) {
  if (const auto* x = member(json_of(joint.extras), "xray"))
    if (auto n = extras_name(*x, "name")) return n;
  return utf8_to_cp1251(joint.name);
}

int NodeBones::bone_for(int node) const {
  // Bounded walk: the reader rejects parent cycles, but a guard costs nothing.
  for (std::size_t steps = 0; node >= 0 && std::size_t(node) < bone_of_node.size() && steps <= bone_of_node.size();
       ++steps) {
    if (bone_of_node[std::size_t(node)] >= 0) return bone_of_node[std::size_t(node)];
    node = parent[std::size_t(node)];
  }
  return -1;
}

NodeBones map_nodes(const scene::Skeleton& s, const std::vector<std::string>& bone_names) {
  NodeBones nb;
  std::unordered_map<std::string, int> exact, folded;
  for (std::size_t b = 0; b < bone_names.size(); ++b) {
    exact.emplace(bone_names[b], int(b));
    folded.emplace(lower_ascii(bone_names[b]), int(b));
  }
  nb.bone_of_node.assign(s.joints.size(), -1);
  nb.parent.resize(s.joints.size());
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    nb.parent[j] = s.joints[j].parent;
    const auto raw = raw_node_name(s.joints[j]);
    if (!raw) continue;
    if (auto it = exact.find(*raw); it != exact.end()) nb.bone_of_node[j] = it->second;
    else if (auto f = folded.find(lower_ascii(*raw)); f != folded.end()) nb.bone_of_node[j] = f->second;
  }
  std::vector<std::size_t> bone_of(s.joints.size(), import_detail::kNoBone);
  for (std::size_t j = 0; j < bone_of.size(); ++j)
    if (nb.bone_of_node[j] >= 0) bone_of[j] = std::size_t(nb.bone_of_node[j]);
  import_detail::keep_one_node_per_bone(s, bone_of);
  for (std::size_t j = 0; j < bone_of.size(); ++j)
    nb.bone_of_node[j] = bone_of[j] == import_detail::kNoBone ? -1 : int(bone_of[j]);
  nb.world = scene::world_matrices(s);
  return nb;
}

std::string name_problem(const std::string& raw) {
  if (raw.find('\0') != std::string::npos) return "contains a NUL byte (strings end at NUL)";
  if (raw.size() > ogf_build::kMaxNameBytes)
    return "is " + std::to_string(raw.size()) + " bytes, longer than the engine's 255 (string256)";
  return {};
}

namespace {

std::string stem_of_image(const std::string& uri) {
  std::string s = uri;
  if (const auto slash = s.find_last_of("/\\"); slash != std::string::npos) s = s.substr(slash + 1);
  if (const auto dot = s.find_last_of('.'); dot != std::string::npos && dot > 0) s = s.substr(0, dot);
  return s;
}

}  // namespace

MaterialNames material_names(const scene::Scene& s, std::uint32_t index) {
  MaterialNames out;
  if (index >= s.materials.size()) {
    out.error = import_error("material", "primitive has no material: the texture and shader are unknown",
                             "a material named after the texture, or with extras xray.texture", "none");
    return out;
  }
  const scene::Material& m = s.materials[index];
  const std::string where = "material " + std::to_string(index) + " (\"" + escape_controls(m.name) + "\")";
  const auto* x = member(json_of(m.extras), "xray");
  std::optional<std::string> texture = x ? extras_name(*x, "texture") : std::nullopt;
  std::optional<std::string> shader = x ? extras_name(*x, "shader") : std::nullopt;
  // Without extras (another tool): boneyard names a material after its texture path; else the
  // image file's name is the best guess.
  const std::string utf8 = !m.name.empty() ? m.name : stem_of_image(m.image_name);
  if (!texture && !utf8.empty()) {
    texture = utf8_to_cp1251(utf8);
    if (!texture) {
      out.error = import_error(where, "material name has no cp1251 form for the texture name",
                               "Latin or Cyrillic characters", utf8);
      return out;
    }
  }
  if (!texture || texture->empty()) {
    out.error = import_error(where, "material names no texture",
                             "extras xray.texture, a material named after the texture, or a base colour image",
                             "none");
    return out;
  }
  if (!shader) {
    shader = std::string("models\\model");
    out.shader_defaulted = true;
  }
  for (const auto* n : {&*texture, &*shader}) {
    const std::string p = name_problem(*n);
    if (p.empty()) continue;
    const char* what = n == &*texture ? "texture" : "shader";
    // The source model's own name (boneyard's extras) may be longer than the stock engine reads.
    const bool from_source = x && (member(*x, what) || member(*x, (std::string(what) + "_hex").c_str())) &&
                             n->find('\0') == std::string::npos;
    if (!from_source) {
      out.error = import_error(where, std::string(what) + " name " + p, "at most 255 bytes, no NUL", printable(*n));
      return out;
    }
    out.beyond_stock = Finding{Severity::warning, 0, where,
                               ogf_build::beyond_stock_warning(std::string("bytes in the ") + what + " name", n->size(),
                                                               "X-Ray", ogf_build::kMaxNameBytes),
                               "<= 255 bytes", std::to_string(n->size()) + " bytes"};
  }
  out.texture = std::move(*texture);
  out.shader = std::move(*shader);
  return out;
}

namespace {

Vec3 transform_point(const scene::Mat4* m, const float* p) {
  if (m == nullptr) return {p[0], p[1], p[2]};
  const auto& a = *m;
  return {float(a[0] * p[0] + a[4] * p[1] + a[8] * p[2] + a[12]), float(a[1] * p[0] + a[5] * p[1] + a[9] * p[2] + a[13]),
          float(a[2] * p[0] + a[6] * p[1] + a[10] * p[2] + a[14])};
}

Vec3 transform_dir(const scene::Mat4* m, const float* n) {
  if (m == nullptr) return {n[0], n[1], n[2]};
  const auto& a = *m;
  return {float(a[0] * n[0] + a[4] * n[1] + a[8] * n[2]), float(a[1] * n[0] + a[5] * n[1] + a[9] * n[2]),
          float(a[2] * n[0] + a[6] * n[1] + a[10] * n[2])};
}

bool unit_in_place(Vec3& v) {
  const double l = std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
  if (!(l > 1e-12) || !std::isfinite(l)) return false;
  v = {float(v.x / l), float(v.y / l), float(v.z / l)};
  return true;
}

}  // namespace

Result<Soup> to_soup(const scene::Primitive& p, Kind kind, const scene::Mat4* world,
                     const std::vector<int>& bone_of_joint, int bone, const std::string& where) {
  Soup s;
  const std::size_t n = p.vertex_count();
  s.vertices.resize(n);
  // glTF model space first (positions through the node's world matrix for rigid/static meshes;
  // skinned positions are already in the skeleton's model space).
  scene::Primitive g;
  g.positions.resize(n * 3);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 q = transform_point(kind == Kind::skinned ? nullptr : world, &p.positions[i * 3]);
    g.positions[i * 3] = q.x, g.positions[i * 3 + 1] = q.y, g.positions[i * 3 + 2] = q.z;
  }
  g.indices = p.indices;
  bool need_face_normals = p.normals.size() != n * 3;
  std::vector<Vec3> normals(n);
  for (std::size_t i = 0; i < n && !need_face_normals; ++i) {
    normals[i] = transform_dir(kind == Kind::skinned ? nullptr : world, &p.normals[i * 3]);
    need_face_normals = !unit_in_place(normals[i]);
  }
  if (need_face_normals) {
    // Missing or zero normals: area-weighted face normals (as the export repairs them), for the
    // vertices that need them.
    scene::compute_normals(g);
    for (std::size_t i = 0; i < n; ++i)
      if (p.normals.size() != n * 3 || !unit_in_place(normals[i]))
        normals[i] = {g.normals[i * 3], g.normals[i * 3 + 1], g.normals[i * 3 + 2]};
  }
  const bool has_uv = !p.uvs.empty() && p.uvs[0].size() == n * 2;
  if (!has_uv) s.missing_uvs = n;
  const bool skinned = kind == Kind::skinned && p.joints.size() == n * 4 && p.weights.size() == n * 4;
  for (std::size_t i = 0; i < n; ++i) {
    OgfVertex& v = s.vertices[i];
    // Back to X-Ray space: mirror Z (its own inverse, docs/xray-gltf.md section 2).
    v.position = {g.positions[i * 3], g.positions[i * 3 + 1], -g.positions[i * 3 + 2]};
    v.normal = {normals[i].x, normals[i].y, -normals[i].z};
    if (has_uv) v.u = p.uvs[0][i * 2], v.v = p.uvs[0][i * 2 + 1];
    if (!std::isfinite(v.u) || !std::isfinite(v.v)) v.u = v.v = 0;
    if (kind == Kind::statics) continue;
    if (!skinned) {
      v.links = 1;
      v.bones = {std::uint16_t(std::max(bone, 0)), 0, 0, 0};
      v.weights = {1, 0, 0, 0};
      continue;
    }
    // Influences by bone: a bone named twice is merged, zero and negative weights dropped.
    std::array<std::pair<float, int>, 4> inf{};
    int count = 0;
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      const float w = p.weights[i * 4 + k];
      if (!(w > 0)) continue;
      const std::uint16_t joint = p.joints[i * 4 + k];
      const int b = joint < bone_of_joint.size() ? bone_of_joint[joint] : -1;
      if (b < 0)
        return import_error(where + " JOINTS_0", "vertex " + std::to_string(i) + " is weighted to a joint that is no bone of the model",
                            "joints matched to bones by name", "joint " + std::to_string(joint));
      sum += w;
      bool merged = false;
      for (int m = 0; m < count; ++m)
        if (inf[std::size_t(m)].second == b) inf[std::size_t(m)].first += w, merged = true;
      if (!merged) inf[std::size_t(count++)] = {w, b};
    }
    if (!p.dropped_weights.empty() && p.dropped_weights[i] > 0) {
      s.moved_weight += p.dropped_weights[i];
      ++s.moved_vertices;
    }
    if (count == 0 || !(sum > 0)) {
      ++s.unweighted;
      inf[0] = {1.0f, 0};
      count = 1;
      sum = 1;
    }
    std::stable_sort(inf.begin(), inf.begin() + count, [](const auto& a, const auto& b) { return a.first > b.first; });
    v.links = count;
    for (int k = 0; k < 4; ++k) {
      v.bones[std::size_t(k)] = std::uint16_t(k < count ? inf[std::size_t(k)].second : inf[0].second);
      v.weights[std::size_t(k)] = k < count ? float(inf[std::size_t(k)].first / sum) : 0.0f;
    }
  }
  // glTF front faces are counter-clockwise after the mirror; X-Ray's are clockwise.
  const std::size_t tris = p.indices.size() / 3;
  s.indices.resize(tris * 3);
  for (std::size_t t = 0; t < tris; ++t) {
    s.indices[t * 3] = p.indices[t * 3];
    s.indices[t * 3 + 1] = p.indices[t * 3 + 2];
    s.indices[t * 3 + 2] = p.indices[t * 3 + 1];
  }
  return s;
}

void append(Soup& into, const Soup& from) {
  const auto base = static_cast<std::uint32_t>(into.vertices.size());
  into.vertices.insert(into.vertices.end(), from.vertices.begin(), from.vertices.end());
  for (auto i : from.indices) into.indices.push_back(base + i);
  into.moved_weight += from.moved_weight;
  into.moved_vertices += from.moved_vertices;
  into.unweighted += from.unweighted;
  into.missing_uvs += from.missing_uvs;
}

namespace {

// Bit for bit: our unedited export holds the very floats, NaNs of a broken model included.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace

bool same_arrays(const scene::Primitive& e, const scene::Primitive& in, const std::vector<int>& bone_of_joint) {
  if (!same_bits(e.positions, in.positions) || !same_bits(e.normals, in.normals) || e.indices != in.indices) return false;
  if (e.uvs.empty() != in.uvs.empty() || (!e.uvs.empty() && !same_bits(e.uvs[0], in.uvs[0]))) return false;
  if (!same_bits(e.weights, in.weights) || e.joints.size() != in.joints.size()) return false;
  if (!in.dropped_weights.empty()) return false;
  for (std::size_t k = 0; k < e.joints.size(); ++k) {
    if (e.weights[k] == 0) continue;  // an empty slot may name any joint
    const std::uint16_t j = in.joints[k];
    if (j >= bone_of_joint.size() || bone_of_joint[j] != int(e.joints[k])) return false;
  }
  return true;
}

namespace {

// Float noise of a DCC round trip: Blender's transforms move positions by about 1e-6 m, its
// custom normals are stored at about 1e-4 rad, UVs go through 1 - v and back.
constexpr double kPositionTolerance = 1e-5;  // metres, plus 1e-6 of the magnitude
constexpr double kNormalTolerance = 2e-3;    // per component of unit normals
constexpr double kUvTolerance = 1e-4;        // plus 1e-6 of the magnitude
constexpr double kWeightTolerance = 2e-3;
constexpr double kCell = 1e-3;  // the centroid grid: far above the tolerance, so neighbours suffice

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol + 1e-6 * std::fabs(a); }

double weight_of(const OgfVertex& v, int bone) {
  double w = 0;
  for (int k = 0; k < v.links; ++k)
    if (v.bones[std::size_t(k)] == bone) w += v.weights[std::size_t(k)];
  return w;
}

bool same_vertex(const OgfVertex& a, const OgfVertex& b, double normal_tolerance) {
  if (!near(a.position.x, b.position.x, kPositionTolerance) || !near(a.position.y, b.position.y, kPositionTolerance) ||
      !near(a.position.z, b.position.z, kPositionTolerance))
    return false;
  if (std::fabs(a.normal.x - b.normal.x) > normal_tolerance || std::fabs(a.normal.y - b.normal.y) > normal_tolerance ||
      std::fabs(a.normal.z - b.normal.z) > normal_tolerance)
    return false;
  if (!near(a.u, b.u, kUvTolerance) || !near(a.v, b.v, kUvTolerance)) return false;
  if ((a.links == 0) != (b.links == 0)) return false;
  for (int k = 0; k < a.links; ++k)
    if (std::fabs(weight_of(a, a.bones[std::size_t(k)]) - weight_of(b, a.bones[std::size_t(k)])) > kWeightTolerance) return false;
  for (int k = 0; k < b.links; ++k)
    if (std::fabs(weight_of(a, b.bones[std::size_t(k)]) - weight_of(b, b.bones[std::size_t(k)])) > kWeightTolerance) return false;
  return true;
}

struct CellKey {
  std::int64_t x, y, z;
  bool operator==(const CellKey& o) const { return x == o.x && y == o.y && z == o.z; }
};
struct CellHash {
  std::size_t operator()(const CellKey& k) const {
    // Unsigned: the cells of far-away positions would overflow a signed product.
    return std::size_t(std::uint64_t(k.x) * 73856093u) ^ std::size_t(std::uint64_t(k.y) * 19349663u) ^
           std::size_t(std::uint64_t(k.z) * 83492791u);
  }
};

CellKey cell_of(const Soup& s, std::size_t t) {
  double c[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    const Vec3& p = s.vertices[s.indices[t * 3 + std::size_t(k)]].position;
    c[0] += p.x, c[1] += p.y, c[2] += p.z;
  }
  auto q = [](double v) {
    const double cell = std::floor(v / 3 / kCell);
    // A NaN position (a broken file) matches nothing anyway; any cell will do.
    return std::isnan(cell) ? std::int64_t{0} : std::int64_t(std::clamp(cell, -1e15, 1e15));
  };
  return {q(c[0]), q(c[1]), q(c[2])};
}

}  // namespace

bool find_triangles(const Soup& want, const Soup& pool, std::vector<bool>& taken, double normal_tolerance) {
  if (normal_tolerance <= 0) normal_tolerance = kNormalTolerance;
  const std::size_t pool_tris = pool.indices.size() / 3;
  taken.resize(pool_tris, false);
  std::unordered_map<CellKey, std::vector<std::uint32_t>, CellHash> grid;
  grid.reserve(pool_tris);
  for (std::size_t t = 0; t < pool_tris; ++t)
    if (!taken[t]) grid[cell_of(pool, t)].push_back(std::uint32_t(t));
  std::vector<std::uint32_t> newly;
  const std::size_t want_tris = want.indices.size() / 3;
  for (std::size_t t = 0; t < want_tris; ++t) {
    const CellKey c = cell_of(want, t);
    const OgfVertex* a[3];
    for (int k = 0; k < 3; ++k) a[k] = &want.vertices[want.indices[t * 3 + std::size_t(k)]];
    bool found = false;
    for (std::int64_t dx = -1; dx <= 1 && !found; ++dx)
      for (std::int64_t dy = -1; dy <= 1 && !found; ++dy)
        for (std::int64_t dz = -1; dz <= 1 && !found; ++dz) {
          const auto it = grid.find({c.x + dx, c.y + dy, c.z + dz});
          if (it == grid.end()) continue;
          for (std::uint32_t cand : it->second) {
            if (taken[cand]) continue;
            const OgfVertex* b[3];
            for (int k = 0; k < 3; ++k) b[k] = &pool.vertices[pool.indices[cand * 3 + std::size_t(k)]];
            for (int r = 0; r < 3 && !found; ++r)
              found = same_vertex(*a[0], *b[r], normal_tolerance) && same_vertex(*a[1], *b[(r + 1) % 3], normal_tolerance) &&
                      same_vertex(*a[2], *b[(r + 2) % 3], normal_tolerance);
            if (found) {
              taken[cand] = true;
              newly.push_back(cand);
              break;
            }
          }
        }
    if (!found) {
      for (auto u : newly) taken[u] = false;  // not this child: the pool stays as it was
      return false;
    }
  }
  return true;
}

Soup remaining(const Soup& pool, const std::vector<bool>& taken) {
  Soup out;
  std::vector<std::uint32_t> remap(pool.vertices.size(), UINT32_MAX);
  for (std::size_t t = 0; t < pool.indices.size() / 3; ++t) {
    if (t < taken.size() && taken[t]) continue;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = pool.indices[t * 3 + std::size_t(k)];
      if (remap[v] == UINT32_MAX) {
        remap[v] = std::uint32_t(out.vertices.size());
        out.vertices.push_back(pool.vertices[v]);
      }
      out.indices.push_back(remap[v]);
    }
  }
  return out;
}

}  // namespace boneyard::xray::ogf_import
