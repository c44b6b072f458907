// .object -> scene (glTF conventions): bones as joints on their bind pose, each mesh a scene mesh
// with one primitive per surface, corners split into vertices where their point, values or normal
// differ, every UV map and weight of the vmrefs, normals by the SDK's smoothing rules. What glTF
// has no place for goes to extras (docs/xray-object.md "Extras").
#include <algorithm>
#include <array>
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
    stride_ = layer_names_.size() + 3;
    row_of_ref_.assign(m_.vmref_count, kNone);
    // The vmrefs in their order, before the corners ask for them (the SDK's files use every one),
    // unless the mesh holds more vmrefs than corners: then only those the corners name, as they
    // come (the rows stay bounded by the faces the file holds).
    std::size_t corners = 0;
    for (const SurfaceFaces& sf : m_.surfaces) corners += 3 * std::size_t{sf.count};
    const bool upfront = m_.vmref_count <= corners;
    ref_rows_.clear();
    ref_rows_.reserve(upfront ? m_.vmref_count : 0);
    ref_words_.assign(upfront ? m_.vmref_count * stride_ : 0, 0);
    if (upfront)
      for (std::uint32_t r = 0; r < m_.vmref_count; ++r) resolve(r);
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
  // The weld looks at most kChain vertices of a point (hostile data: thousands of corners on one
  // point, each with other values); the vertices past them are found by their corner's key
  // (point, vmref, normal bits) in a hash map, so the work stays linear.
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
  static std::uint64_t pair_bits(float a, float b) { return std::uint64_t{float_bits(a)} | std::uint64_t{float_bits(b)} << 32; }

  // The vmref's influences into weights_, heaviest first, ties in stored order; its UV pairs into
  // `uv` (one word per layer, the first entry of a layer winning) when given. Returns how many
  // layers had a value.
  std::size_t collect(std::uint32_t ref, std::uint64_t* uv) {
    if (++stamp_ == 0) std::fill(layer_seen_.begin(), layer_seen_.end(), 0), stamp_ = 1;
    std::size_t layers_found = 0;
    weights_.clear();
    for (std::size_t e = 0; e < m_.vmref_size(ref); ++e) {
      const VmrefEntry entry = m_.vmref_entry(ref, e);
      const VmapUse& use = vmap_use_[std::size_t(entry.vmap)];
      if (use.kind == VmapUse::kUv) {
        const auto layer = std::size_t(use.target);
        if (layer_seen_[layer] == stamp_) continue;
        layer_seen_[layer] = stamp_;
        ++layers_found;
        if (uv == nullptr) continue;
        const float u = load_le<float>(use.values + 8 * std::size_t(entry.index));
        const float w = load_le<float>(use.values + 8 * std::size_t(entry.index) + 4);
        uv[layer] = pair_bits(std::isfinite(u) ? u : 0.0f, std::isfinite(w) ? w : 0.0f);
      } else if (use.kind == VmapUse::kWeight && use.target >= 0) {
        const float value = load_le<float>(use.values + 4 * std::size_t(entry.index));
        weights_.emplace_back(use.target, std::isfinite(value) ? value : 0.0f);
      }
    }
    // An insertion sort: a vertex has a few weights, and stable_sort would allocate its buffer.
    const auto heavier = [](const auto& x, const auto& y) { return x.second > y.second; };
    if (weights_.size() <= 16) {
      for (std::size_t i = 1; i < weights_.size(); ++i)
        for (std::size_t j = i; j > 0 && heavier(weights_[j], weights_[j - 1]); --j) std::swap(weights_[j], weights_[j - 1]);
    } else {
      std::stable_sort(weights_.begin(), weights_.end(), heavier);
    }
    return layers_found;
  }

  // The row of the vmref's values, resolved on its first corner: every corner of a vmref has the
  // same values (a vmref serves two corners or more in the SDK's files).
  std::uint32_t row_of(std::uint32_t ref) {
    const std::uint32_t row = row_of_ref_[ref];
    return row != kNone ? row : resolve(ref);
  }
  // A new row for the vmref (out of line: row_of runs for every corner, this once per vmref).
  [[gnu::noinline]] std::uint32_t resolve(std::uint32_t ref) {
    const auto row = static_cast<std::uint32_t>(ref_rows_.size());
    ref_rows_.push_back({});
    // Zero words are (0, 0) where a map has no value.
    if (const std::size_t end = (std::size_t{row} + 1) * stride_; end > ref_words_.size())
      ref_words_.resize(std::max(end, 2 * ref_words_.size()), 0);
    std::uint64_t* words = ref_words_.data() + std::size_t{row} * stride_;
    RefRow& r = ref_rows_.back();
    r.layers_found = static_cast<std::uint32_t>(collect(ref, words));
    r.influences = static_cast<std::uint32_t>(weights_.size());
    std::uint64_t joints = 0;
    float weights[4] = {};
    for (std::size_t slot = 0; slot < 4 && slot < weights_.size(); ++slot) {
      joints |= std::uint64_t{static_cast<std::uint16_t>(weights_[slot].first)} << (16 * slot);
      weights[slot] = weights_[slot].second;
    }
    std::uint64_t* slots = words + layer_names_.size();  // after the UV pairs
    slots[0] = joints;
    slots[1] = pair_bits(weights[0], weights[1]);
    slots[2] = pair_bits(weights[2], weights[3]);
    row_of_ref_[ref] = row;
    return row;
  }
  bool same_values(std::uint32_t a, std::uint32_t b) const {
    if (a == b) return true;
    const std::uint64_t *x = ref_words_.data() + std::size_t{a} * stride_, *y = ref_words_.data() + std::size_t{b} * stride_;
    for (std::size_t i = 0; i < stride_; ++i)
      if (x[i] != y[i]) return false;
    return true;
  }

  scene::Primitive primitive(const SurfaceFaces& sf, int surface, std::size_t sface_index, bool skinned, Diagnostics& warnings) {
    scene::Primitive p;
    p.material = surface >= 0 ? material_of_surface_[std::size_t(surface)] : scene::kNoMaterial;
    const bool doubled = o_.two_sided_copies && surface >= 0 && f_.surfaces[std::size_t(surface)].two_sided();
    // One pass over the corners: a corner takes the vertex on its point with the same normal bits
    // and values (other vmrefs with the same values, as the SDK's own export welds them), or
    // makes a new one. At most a vertex per corner: reserved once (bounded by the faces the file
    // holds).
    const std::size_t corners = std::size_t{sf.count} * (doubled ? 6 : 3);
    vertices_.clear();
    vertices_.reserve(corners);
    unlinked_.clear();
    std::vector<std::uint32_t> groups, face_ids, points;
    groups.reserve(sf.count);
    face_ids.reserve(sf.count);
    points.reserve(corners);
    p.indices.resize(corners);
    json full_influences = json::array();  // vertices with more than four: every influence as stored
    std::size_t missing_uv = 0, unweighted = 0, at = 0;
    const int sides = doubled ? 2 : 1;
    for (std::size_t i = 0; i < sf.count; ++i) {
      const std::size_t face = sf.face(i);
      if (face >= m_.face_count) continue;
      for (int side = 0; side < sides; ++side) {
        // Mirroring Z turns the SDK's clockwise front faces counter-clockwise only with the order
        // reversed; the flipped copy keeps the stored order.
        static constexpr int kSlot[2][3] = {{0, 2, 1}, {0, 1, 2}};
        for (int k = 0; k < 3; ++k) {
          const std::uint32_t point = m_.corner_point(face, k), ref = m_.corner_vmref(face, k);
          Vec3 n = normals_[3 * face + std::size_t(k)];
          if (side == 1) n = {-n.x, -n.y, -n.z};
          std::uint32_t& index = p.indices[at + std::size_t(kSlot[side][k])];
          const std::uint32_t row = row_of(ref);
          const Vertex made{unit_normal(n), row, kNone};
          // A vertex of more than four influences keeps them in the extras by its index: never
          // welded by value, only shared by the corners of its key.
          const bool all_in_slots = ref_rows_[row].influences <= 4;
          if (all_in_slots)
            if (const std::uint32_t same = find_equal(point, made); same != kNone) {
              index = same;
              continue;
            }
          // Vertices past a point's chain, and those of more than four influences, by their key.
          const VertexKey key{point, ref, {float_bits(n.x), float_bits(n.y), float_bits(n.z)}};
          if (!unlinked_.empty())
            if (const auto it = unlinked_.find(key); it != unlinked_.end()) {
              index = it->second;
              continue;
            }
          const auto v = static_cast<std::uint32_t>(vertices_.size());
          index = v;
          vertices_.push_back(made);
          points.push_back(point);
          if (all_in_slots && on_point_[point] < kChain) {
            vertices_.back().next = first_of_point_[point];
            first_of_point_[point] = v;
            ++on_point_[point];
          } else {
            unlinked_.emplace(key, v);
          }
          if (ref_rows_[row].layers_found != layer_names_.size()) ++missing_uv;
          if (!skinned) continue;
          if (ref_rows_[row].influences == 0) ++unweighted;
          if (!all_in_slots) {
            collect(ref, nullptr);
            json list = json::array();
            for (const auto& [joint, weight] : weights_) list.push_back({joint, float_json(weight)});
            full_influences.push_back({v, std::move(list)});
          }
        }
        at += 3;
      }
      groups.push_back(m_.smoothing_group(face));
      face_ids.push_back(static_cast<std::uint32_t>(face));
    }
    p.indices.resize(at);  // faces past the mesh are left out
    attributes(p, points, skinned);
    // The next primitive starts with no vertex on any point; only this one's points are reset.
    for (const std::uint32_t point : points) first_of_point_[point] = kNone, on_point_[point] = 0;
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

  // A vertex of the primitive being built: its normal in glTF space, its vmref's row, the next
  // vertex chained on its point.
  struct Vertex {
    std::array<float, 3> normal;
    std::uint32_t row, next;
  };
  // The rules' sums and face normals come out unit length within float rounding: written as they
  // are. Others (a degenerate face's) are normalised, a zero or non-finite one is +Y. Z mirrored.
  static std::array<float, 3> unit_normal(const Vec3& n) {
    if (const float m = n.x * n.x + n.y * n.y + n.z * n.z; std::fabs(m - 1.0f) <= kUnitTolerance) return {n.x, n.y, -n.z};
    if (const double len = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z); len > 0 && std::isfinite(len))
      return {float(n.x / len), float(n.y / len), float(-n.z / len)};
    return {0.0f, 1.0f, 0.0f};
  }
  // The weld: a vertex chained on `point` whose normal and values have the same bits, or kNone.
  std::uint32_t find_equal(std::uint32_t point, const Vertex& made) const {
    for (std::uint32_t u = first_of_point_[point]; u != kNone; u = vertices_[u].next) {
      const Vertex& x = vertices_[u];
      if (float_bits(x.normal[0]) == float_bits(made.normal[0]) && float_bits(x.normal[1]) == float_bits(made.normal[1]) &&
          float_bits(x.normal[2]) == float_bits(made.normal[2]) && same_values(x.row, made.row))
        return u;
    }
    return kNone;
  }
  // The glTF attributes of the primitive's vertices: positions from their points (Z mirrored),
  // the rest from their rows.
  void attributes(scene::Primitive& p, const std::vector<std::uint32_t>& points, bool skinned) const {
    const std::size_t n = vertices_.size(), layers = layer_names_.size();
    p.positions.resize(3 * n);
    p.normals.resize(3 * n);
    for (std::size_t v = 0; v < n; ++v) {
      const Vec3 pos = m_.point(points[v]);
      p.positions[3 * v] = pos.x, p.positions[3 * v + 1] = pos.y, p.positions[3 * v + 2] = -pos.z;
      std::memcpy(p.normals.data() + 3 * v, vertices_[v].normal.data(), 12);
    }
    p.uvs.resize(std::max<std::size_t>(layers, 1));  // glTF materials sample TEXCOORD_0: (0, 0) without a map
    for (std::size_t l = 0; l < p.uvs.size(); ++l) {
      p.uvs[l].resize(2 * n);
      if (l < layers)
        for (std::size_t v = 0; v < n; ++v)
          std::memcpy(p.uvs[l].data() + 2 * v, ref_words_.data() + std::size_t{vertices_[v].row} * stride_ + l, 8);
    }
    if (!skinned) return;
    p.joints.resize(4 * n);
    p.weights.resize(4 * n);
    for (std::size_t v = 0; v < n; ++v) {
      const std::uint64_t* words = ref_words_.data() + std::size_t{vertices_[v].row} * stride_ + layers;
      std::memcpy(p.joints.data() + 4 * v, words, 8);
      std::memcpy(p.weights.data() + 4 * v, words + 1, 16);
    }
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
  // The mesh's vmrefs resolved (each on its first corner, for every primitive of the mesh): per
  // row, `stride_` words (a UV pair per layer, the four joints, the four weights two at a time),
  // compared and copied as such; how many layers had a value and how many influences it has.
  struct RefRow {
    std::uint32_t layers_found = 0, influences = 0;
  };
  std::size_t stride_ = 3;
  std::vector<std::uint32_t> row_of_ref_;
  std::vector<RefRow> ref_rows_;
  std::vector<std::uint64_t> ref_words_;
  // Scratch reused across a mesh's primitives (no allocation per corner): the vertices, each
  // point's first chained vertex and how many are chained, the vertices past the chains by key.
  std::vector<Vertex> vertices_;
  std::vector<std::uint32_t> first_of_point_, on_point_;
  std::unordered_map<VertexKey, std::uint32_t, VertexKeyHash> unlinked_;
  std::vector<std::uint32_t> layer_seen_;
  std::uint32_t stamp_ = 0;
  std::vector<std::pair<int, float>> weights_;
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
