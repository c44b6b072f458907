// .object -> scene (glTF conventions): bones as joints on their bind pose, each mesh a scene mesh
// with one primitive per surface, corners split into vertices where their point, values or normal
// differ, every UV map and weight of the vmrefs, normals by the SDK's smoothing rules. What glTF
// has no place for goes to extras (docs/xray-object.md "Extras").
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "boneyard/core/text.h"
#include "boneyard/xray/object/object_scene.h"
#include "boneyard/xray/xray_scene.h"
#include "scene/extras_text.h"
#include "object_extras.h"
#include "object_motions.h"
#include "object_smoothing.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray {

std::optional<SmoothingStyle> smoothing_style_of(Game game) {
  switch (game) {
    case Game::soc: return SmoothingStyle::soc;
    case Game::cs:
    case Game::cop: return SmoothingStyle::cscop;
    default: return std::nullopt;
  }
}

namespace {

using nlohmann::json;
using object_extras::float_json;
using object_extras::vec3_json;

// Which joint each bone's parent is; errors for trees a scene cannot hold.
Result<std::vector<int>> bone_parents(const ObjectFile& f) {
  std::unordered_map<std::string, int> index;
  for (std::size_t i = 0; i < f.bones.size(); ++i)
    if (!index.emplace(bone_key(f.bones[i].name), int(i)).second)
      return Finding{Severity::error, f.bones[i].offset, f.bones[i].path, "duplicate bone name (the SDK lower-cases names)",
                     "unique names", printable(f.bones[i].name)};
  std::vector<int> parent(f.bones.size(), -1);
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    const BoneData& b = f.bones[i];
    if (b.parent.empty()) continue;
    const auto it = index.find(bone_key(b.parent));
    if (it == index.end())
      return Finding{Severity::error, b.offset, b.path, "parent bone not found", "a bone name", printable(b.parent)};
    parent[i] = it->second;
  }
  for (std::size_t i = 0; i < parent.size(); ++i) {
    std::size_t steps = 0;
    for (int p = parent[i]; p >= 0; p = parent[std::size_t(p)])
      if (++steps > parent.size())
        return Finding{Severity::error, f.bones[i].offset, f.bones[i].path, "bone is part of a parent cycle", "a tree", "a cycle"};
  }
  return parent;
}

std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

class MeshBuilder {
 public:
  MeshBuilder(const ObjectFile& f, const ObjectMesh& m, const ObjectExportOptions& o, SmoothingStyle style,
              const std::vector<std::uint32_t>& material_of_surface)
      : f_(f), m_(m), o_(o), style_(style), material_of_surface_(material_of_surface) {}

  scene::Mesh build(Diagnostics& warnings) {
    const object_smoothing::Geometry g = object_smoothing::geometry_of(m_);
    normals_ = object_smoothing::corner_normals(g, style_);
    // UV layers: one per distinct UV map name (a name's continuous and discontinuous maps are one
    // layer), in vmap order.
    vmap_use_.assign(m_.vmaps.size(), VmapUse{});
    for (std::size_t v = 0; v < m_.vmaps.size(); ++v) {
      const ObjectVmap& vm = m_.vmaps[v];
      if (vm.is_uv()) {
        auto it = std::find(layer_names_.begin(), layer_names_.end(), vm.name);
        if (it == layer_names_.end()) it = layer_names_.insert(layer_names_.end(), vm.name);
        vmap_use_[v] = {vm.values.data(), VmapUse::kUv, int(it - layer_names_.begin())};
      } else if (vm.is_weight()) {
        vmap_use_[v] = {vm.values.data(), VmapUse::kWeight, f_.bone_of_weight_map(vm.name)};
      }
    }
    layer_seen_.assign(layer_names_.size(), 0);
    first_of_point_.assign(m_.point_count, kNone);
    on_point_.assign(m_.point_count, 0);
    scene::Mesh mesh;
    mesh.name = cp1251_to_utf8(m_.name);
    mesh.skinned = !f_.bones.empty();
    for (std::size_t s = 0; s < m_.surfaces.size(); ++s) {
      const SurfaceFaces& sf = m_.surfaces[s];
      const int surface = f_.find_surface(sf.surface);
      scene::Primitive p = primitive(sf, surface, s, mesh.skinned, warnings);
      if (p.indices.empty()) continue;
      mesh.primitives.push_back(std::move(p));
    }
    json x;
    x["index"] = m_.index;
    put_name(x, "name", m_.name);
    if (m_.flags) x["flags"] = *m_.flags;
    json layers = json::array();
    for (const auto& n : layer_names_) layers.push_back(cp1251_to_utf8(n));
    x["uv_maps"] = std::move(layers);
    json_of(mesh.extras)["xray"] = std::move(x);
    return mesh;
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  // A normal whose squared length is this close to 1 is unit already (float rounding of the
  // rules' division leaves it within a few 1e-7).
  static constexpr float kUnitTolerance = 1e-5f;
  // A point's first vertices are found by walking its chain; beyond kChain of them (hostile data:
  // thousands of corners on one point, each with another vmref) a hash map takes the rest, so the
  // walk stays bounded.
  static constexpr std::uint32_t kChain = 16;
  struct VertexKey {
    std::uint32_t point, vmref, n[3];
    bool operator==(const VertexKey& o) const {
      return point == o.point && vmref == o.vmref && n[0] == o.n[0] && n[1] == o.n[1] && n[2] == o.n[2];
    }
  };
  struct VertexKeyHash {
    std::size_t operator()(const VertexKey& k) const {
      std::uint64_t h = (std::uint64_t{k.point} << 32) ^ k.vmref;
      for (auto x : k.n) h = (h ^ x) * 0x9E3779B97F4A7C15ull;
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };

  // The vertex of (point, vmref, normal bits) in the primitive being built, or kNone.
  std::uint32_t find_vertex(const VertexKey& key) const {
    for (std::uint32_t v = first_of_point_[key.point]; v != kNone; v = next_on_point_[v])
      if (keys_[v] == key) return v;
    if (on_point_[key.point] < kChain) return kNone;
    const auto it = overflow_.find(key);
    return it == overflow_.end() ? kNone : it->second;
  }
  void add_vertex(const VertexKey& key, std::uint32_t v) {
    keys_.push_back(key);
    if (on_point_[key.point] < kChain) {
      next_on_point_.push_back(first_of_point_[key.point]);
      first_of_point_[key.point] = v;
    } else {
      next_on_point_.push_back(kNone);
      overflow_.emplace(key, v);
    }
    ++on_point_[key.point];
  }

  // Pass 2's weld: the kept vertices of a point are chained (at most kChain of them are looked at,
  // so that hostile data stays linear); equal means the same bits in every attribute.
  std::uint32_t find_equal(std::uint32_t point, std::size_t v, bool skinned) const {
    for (std::uint32_t u = first_of_point_[point]; u != kNone; u = next_on_point_[u]) {
      bool equal = std::memcmp(rows_.normals.get() + 3 * u, rows_.normals.get() + 3 * v, 12) == 0;
      for (std::size_t l = 0; equal && l < rows_.layers; ++l) equal = std::memcmp(rows_.uv(l) + 2 * u, rows_.uv(l) + 2 * v, 8) == 0;
      if (equal && skinned)
        equal = std::memcmp(rows_.joints.get() + 4 * u, rows_.joints.get() + 4 * v, 8) == 0 &&
                std::memcmp(rows_.weights.get() + 4 * u, rows_.weights.get() + 4 * v, 16) == 0;
      if (equal) return u;
    }
    return kNone;
  }
  void link_final(std::uint32_t point, std::uint32_t v) {
    if (on_point_[point] >= kChain) return;
    next_on_point_[v] = first_of_point_[point];
    first_of_point_[point] = v;
    ++on_point_[point];
  }

  scene::Primitive primitive(const SurfaceFaces& sf, int surface, std::size_t sface_index, bool skinned, Diagnostics& warnings) {
    scene::Primitive p;
    p.material = surface >= 0 ? material_of_surface_[std::size_t(surface)] : scene::kNoMaterial;
    const std::size_t layers = layer_names_.size();
    p.uvs.resize(layers);
    const bool doubled = o_.two_sided_copies && surface >= 0 && f_.surfaces[std::size_t(surface)].two_sided();
    // Pass 1: each corner's vertex, a vertex per distinct (point, vmref, normal). At most a vertex
    // per corner: reserved once (bounded by the faces the file holds).
    const std::size_t corners = std::size_t{sf.count} * (doubled ? 6 : 3);
    keys_.clear();
    next_on_point_.clear();
    overflow_.clear();
    keys_.reserve(corners);
    next_on_point_.reserve(corners);
    std::vector<std::uint32_t> groups, face_ids;
    groups.reserve(sf.count);
    face_ids.reserve(sf.count);
    p.indices.resize(corners);
    std::size_t at = 0;
    auto corner = [&](std::size_t face, int k, bool flip) -> std::uint32_t {
      const std::uint32_t point = m_.corner_point(face, k), ref = m_.corner_vmref(face, k);
      Vec3 n = normals_[3 * face + std::size_t(k)];
      if (flip) n = {-n.x, -n.y, -n.z};
      const VertexKey key{point, ref, {float_bits(n.x), float_bits(n.y), float_bits(n.z)}};
      if (const std::uint32_t found = find_vertex(key); found != kNone) return found;
      const auto v = static_cast<std::uint32_t>(keys_.size());
      add_vertex(key, v);
      return v;
    };
    const int sides = doubled ? 2 : 1;
    for (std::size_t i = 0; i < sf.count; ++i) {
      const std::size_t face = sf.face(i);
      if (face >= m_.face_count) continue;
      for (int side = 0; side < sides; ++side) {
        std::uint32_t v[3];
        for (int k = 0; k < 3; ++k) v[k] = corner(face, k, side == 1);  // one call: inlined
        // Mirroring Z turns the SDK's clockwise front faces counter-clockwise only with the order
        // reversed; the flipped copy keeps the stored order.
        p.indices[at] = v[0], p.indices[at + 1] = v[side == 1 ? 1 : 2], p.indices[at + 2] = v[side == 1 ? 2 : 1];
        at += 3;
      }
      groups.push_back(m_.smoothing_group(face));
      face_ids.push_back(static_cast<std::uint32_t>(face));
    }
    p.indices.resize(at);  // faces past the mesh are left out
    // Pass 2: each vertex's attributes; a vertex whose attributes equal those of an earlier one on
    // its point (other vmrefs with the same values, as the SDK's own export welds them) becomes
    // that one. The rows have room for every vertex of pass 1; the kept ones are copied out.
    const std::size_t candidates = keys_.size();
    for (const VertexKey& key : keys_) first_of_point_[key.point] = kNone, on_point_[key.point] = 0;
    std::vector<std::uint32_t> points(candidates), final_of(candidates);
    rows_.fit(candidates, layers);
    std::vector<float*> uv_out;  // each layer's rows
    for (std::size_t l = 0; l < layers; ++l) uv_out.push_back(rows_.uv(l));
    json full_influences = json::array();  // vertices with more than four: every influence as stored
    std::size_t missing_uv = 0, unweighted = 0, kept = 0;
    for (std::size_t c = 0; c < candidates; ++c) {
      const VertexKey& key = keys_[c];
      const std::size_t v = kept;  // written in the next free place, kept there unless welded
      points[v] = key.point;
      const Vec3 pos = m_.point(key.point);
      float* position = rows_.positions.get() + 3 * v;
      position[0] = pos.x, position[1] = pos.y, position[2] = -pos.z;
      Vec3 n;
      std::memcpy(&n.x, &key.n[0], 4), std::memcpy(&n.y, &key.n[1], 4), std::memcpy(&n.z, &key.n[2], 4);
      float* normal = rows_.normals.get() + 3 * v;
      // The rules' sums and face normals come out unit length within float rounding: written as
      // they are. Others (a degenerate face's) are normalised, a zero or non-finite one is +Y.
      if (const float m = n.x * n.x + n.y * n.y + n.z * n.z; std::fabs(m - 1.0f) <= kUnitTolerance) {
        normal[0] = n.x, normal[1] = n.y, normal[2] = -n.z;
      } else if (const double len = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
                 len > 0 && std::isfinite(len)) {
        normal[0] = float(n.x / len), normal[1] = float(n.y / len), normal[2] = float(-n.z / len);
      } else {
        normal[0] = 0.0f, normal[1] = 1.0f, normal[2] = 0.0f;
      }
      if (++stamp_ == 0) std::fill(layer_seen_.begin(), layer_seen_.end(), 0), stamp_ = 1;
      for (float* uv : uv_out) uv[2 * v] = uv[2 * v + 1] = 0.0f;  // (0, 0) where a map has no value
      std::size_t layers_found = 0;
      weights_.clear();
      const std::uint32_t ref = key.vmref;
      for (std::size_t e = 0; e < m_.vmref_size(ref); ++e) {
        const VmrefEntry entry = m_.vmref_entry(ref, e);
        const VmapUse& use = vmap_use_[std::size_t(entry.vmap)];
        if (use.kind == VmapUse::kUv) {
          const auto layer = std::size_t(use.target);
          if (layer_seen_[layer] == stamp_) continue;  // the first entry of a layer wins
          layer_seen_[layer] = stamp_;
          ++layers_found;
          const float u = load_le<float>(use.values + 8 * std::size_t(entry.index));
          const float w = load_le<float>(use.values + 8 * std::size_t(entry.index) + 4);
          float* out = uv_out[layer] + 2 * v;
          out[0] = std::isfinite(u) ? u : 0.0f;
          out[1] = std::isfinite(w) ? w : 0.0f;
        } else if (use.kind == VmapUse::kWeight && use.target >= 0) {
          const float value = load_le<float>(use.values + 4 * std::size_t(entry.index));
          weights_.emplace_back(use.target, std::isfinite(value) ? value : 0.0f);
        }
      }
      if (skinned) {
        // Heaviest first, ties in stored order (an insertion sort: a vertex has a few weights, and
        // stable_sort would allocate its buffer for each).
        const auto heavier = [](const auto& x, const auto& y) { return x.second > y.second; };
        if (weights_.size() <= 16) {
          for (std::size_t i = 1; i < weights_.size(); ++i)
            for (std::size_t j = i; j > 0 && heavier(weights_[j], weights_[j - 1]); --j) std::swap(weights_[j], weights_[j - 1]);
        } else {
          std::stable_sort(weights_.begin(), weights_.end(), heavier);
        }
        std::uint16_t joints[4] = {};
        float weights[4] = {};
        for (std::size_t slot = 0; slot < 4 && slot < weights_.size(); ++slot)
          joints[slot] = static_cast<std::uint16_t>(weights_[slot].first), weights[slot] = weights_[slot].second;
        std::memcpy(rows_.joints.get() + 4 * v, joints, sizeof joints);
        std::memcpy(rows_.weights.get() + 4 * v, weights, sizeof weights);
      }
      // A vertex of more than four influences keeps them in the extras by its index: never welded.
      const bool all_in_slots = weights_.size() <= 4;
      if (all_in_slots)
        if (const std::uint32_t same = find_equal(key.point, v, skinned); same != kNone) {
          final_of[c] = same;
          continue;
        }
      final_of[c] = static_cast<std::uint32_t>(v);
      ++kept;
      if (all_in_slots) link_final(key.point, static_cast<std::uint32_t>(v));
      if (layers_found != layers) ++missing_uv;
      if (!skinned) continue;
      if (weights_.empty()) ++unweighted;
      if (!all_in_slots) {
        json list = json::array();
        for (const auto& [joint, weight] : weights_) list.push_back({joint, float_json(weight)});
        full_influences.push_back({v, std::move(list)});
      }
    }
    for (auto& i : p.indices) i = final_of[i];
    points.resize(kept);
    p.positions.assign(rows_.positions.get(), rows_.positions.get() + 3 * kept);
    p.normals.assign(rows_.normals.get(), rows_.normals.get() + 3 * kept);
    for (std::size_t l = 0; l < layers; ++l) p.uvs[l].assign(rows_.uv(l), rows_.uv(l) + 2 * kept);
    if (skinned) {
      p.joints.assign(rows_.joints.get(), rows_.joints.get() + 4 * kept);
      p.weights.assign(rows_.weights.get(), rows_.weights.get() + 4 * kept);
    }
    // The next primitive starts with no vertex on any point; only this one's points are reset.
    for (const std::uint32_t point : points) first_of_point_[point] = kNone, on_point_[point] = 0;
    if (p.uvs.empty()) p.uvs.emplace_back(points.size() * 2, 0.0f);  // glTF materials sample TEXCOORD_0
    if (skinned) scene::clean_weights(p);
    const std::string where = m_.path() + " 0x1009 surface " + std::to_string(sface_index);
    if (missing_uv)
      warnings.add(Severity::warning, sf.offset, where, "corners without a value in every UV map: written as (0, 0)",
                   "a UV per map", std::to_string(missing_uv) + " vertices");
    if (unweighted)
      warnings.add(Severity::warning, sf.offset, where, "corners without weights: bound to the first bone", "a weight",
                   std::to_string(unweighted) + " vertices");
    // As text (scene/extras_text.h): the columns are most of the extras, and their base64 needs no
    // escaping, so printing them through a JSON document would only copy them twice more.
    scene::ObjectText x;
    scene::append_uint(x.value("mesh"), m_.index);
    scene::append_uint(x.value("surface"), sface_index);
    if (o_.rebuild_extras) {
      const auto column = [&](std::string_view key, const std::vector<std::uint32_t>& values) {
        scene::append_b64(x.value(key), reinterpret_cast<const std::uint8_t*>(values.data()), values.size() * 4);
      };
      column("points", points);
      column("groups", groups);
      column("faces", face_ids);
      if (!full_influences.empty()) x.value("influences").append(full_influences.dump());
    }
    scene::set_json_text(p.extras, x.inside("xray"));
    return p;
  }

  const ObjectFile& f_;
  const ObjectMesh& m_;
  const ObjectExportOptions& o_;
  SmoothingStyle style_;
  const std::vector<std::uint32_t>& material_of_surface_;
  std::vector<Vec3> normals_;
  std::vector<std::string> layer_names_;
  // Per vertex map what a vmref entry into it gives (read from here rather than from the
  // vertex map records, which are large): a UV of layer `target`, or a weight of joint `target`.
  struct VmapUse {
    enum Kind : std::uint8_t { kUnused, kUv, kWeight };
    const std::uint8_t* values = nullptr;
    Kind kind = kUnused;
    int target = -1;
  };
  std::vector<VmapUse> vmap_use_;
  // Scratch reused across a mesh's primitives and vertices (no allocation per vertex).
  std::vector<std::uint32_t> first_of_point_, on_point_, next_on_point_;
  std::vector<VertexKey> keys_;
  std::unordered_map<VertexKey, std::uint32_t, VertexKeyHash> overflow_;
  std::vector<std::uint32_t> layer_seen_;
  std::uint32_t stamp_ = 0;
  std::vector<std::pair<int, float>> weights_;
  // Pass 2's vertex rows, left uninitialised (every row is written before it is read) and reused by
  // a mesh's primitives: sizing a primitive's own arrays for every candidate zero-filled them.
  struct Rows {
    std::unique_ptr<float[]> positions, normals, weights, uvs;  // uvs: layer after layer
    std::unique_ptr<std::uint16_t[]> joints;
    std::size_t capacity = 0, layers = 0;
    void fit(std::size_t n, std::size_t layer_count) {
      if (n <= capacity && layer_count == layers) return;
      capacity = std::max(n, capacity), layers = layer_count;
      positions = std::make_unique_for_overwrite<float[]>(3 * capacity);
      normals = std::make_unique_for_overwrite<float[]>(3 * capacity);
      weights = std::make_unique_for_overwrite<float[]>(4 * capacity);
      joints = std::make_unique_for_overwrite<std::uint16_t[]>(4 * capacity);
      uvs = std::make_unique_for_overwrite<float[]>(2 * layers * capacity);
    }
    float* uv(std::size_t layer) const { return uvs.get() + 2 * layer * capacity; }
  };
  Rows rows_;
};

}  // namespace

Result<scene::Scene> object_to_scene(const ObjectFile& f, std::string_view name, const ObjectExportOptions& o,
                                     Diagnostics& warnings) {
  scene::Scene s;
  s.generator = "boneyard";
  s.skeleton.name = std::string(name);
  auto parents = bone_parents(f);
  if (!parents) return parents.error();
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    const BoneData& b = f.bones[i];
    scene::Joint j;
    j.name = cp1251_to_utf8(b.name);
    j.parent = parents.value()[i];
    j.translation = to_gltf(b.rest_offset);
    j.rotation = to_gltf(bind_quaternion(b.bind_rotation()));
    if (o.bone_extras) scene::set_json_text(j.extras, object_extras::bone_extras_text(b));
    s.skeleton.joints.push_back(std::move(j));
  }
  // Materials: one per surface the meshes use, in surface order.
  std::vector<bool> used(f.surfaces.size(), false);
  for (const auto& m : f.meshes)
    if (m.readable)
      for (const auto& sf : m.surfaces)
        if (const int i = f.find_surface(sf.surface); i >= 0) used[std::size_t(i)] = true;
  std::vector<std::uint32_t> material_of(f.surfaces.size(), scene::kNoMaterial);
  for (std::size_t i = 0; i < f.surfaces.size(); ++i) {
    if (!used[i]) continue;
    const ObjectSurface& sf = f.surfaces[i];
    scene::Material mat;
    mat.name = cp1251_to_utf8(sf.name);
    mat.texture.path = sf.texture;
    mat.texture.origin = hex(f.surfaces_chunk) + " surface " + std::to_string(i) + " texture";
    mat.texture.offset = sf.offset;
    mat.alpha_use = shader_alpha_use(sf.shader);
    mat.alpha_cutoff = 200.0f / 255.0f;
    mat.double_sided = sf.two_sided() && !o.two_sided_copies;
    json_of(mat.extras)["xray"] = object_extras::surface_json(sf);
    material_of[i] = static_cast<std::uint32_t>(s.materials.size());
    s.materials.push_back(std::move(mat));
  }
  const SmoothingStyle style = o.style ? *o.style : detect_smoothing(f);
  for (const auto& m : f.meshes) {
    Diagnostics d;
    validate_object_mesh(f, m, d, /*errors_only=*/true);
    const Finding* error = nullptr;
    for (const auto& x : d.findings())
      if (x.severity == Severity::error && error == nullptr) error = &x;
    if (error != nullptr) {
      if (!o.keep_going) return *error;
      Finding left_out = *error;
      left_out.severity = Severity::warning;
      left_out.message = "mesh left out of the export (--keep-going): " + left_out.message;
      warnings.add(std::move(left_out));
      continue;
    }
    scene::Mesh mesh = MeshBuilder(f, m, o, style, material_of).build(warnings);
    if (!mesh.primitives.empty()) s.meshes.push_back(std::move(mesh));
  }
  json& x = json_of(s.extras)["xray"];
  x["motion_sets"] = json::array();
  x["object"] = object_extras::object_json(f, style);
  if (!f.motion_refs.empty()) {
    json refs = json::array();
    for (const auto& r : f.motion_refs) refs.push_back(cp1251_to_utf8(r));
    x["motion_refs"] = std::move(refs);
  }
  if (f.user_data && !f.user_data->empty()) put_name(x, "user_data", *f.user_data);
  if (o.motions) object_motions::add_motions(f, o.motion_globs, s, warnings);
  return s;
}

}  // namespace boneyard::xray
