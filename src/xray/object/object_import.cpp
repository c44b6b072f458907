// Scene (read from glTF, or made from an .ogf) -> .object. With a template, every mesh the scene
// leaves as the template's export made it keeps its bytes, and edited meshes are rebuilt in the
// template mesh's layout; bones, surfaces and the other chunks keep theirs unless edited. Without
// one, a new object in the SDK's chunk order. docs/xray-object.md "From glTF".
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <unordered_map>

#include "boneyard/core/text.h"
#include "boneyard/xray/object/object_scene.h"
#include "boneyard/xray/xray_scene.h"
#include "core/base64.h"
#include "object_extras.h"
#include "object_import_internal.h"
#include "object_import_body.h"
#include "object_motions.h"
#include "xray/ogf/ogf_bones.h"
#include "xray/ogf/ogf_import_internal.h"
#include "scene/extras_json.h"
#include "xray/scene/xray_import_bones.h"
#include "xray/scene/xray_import_internal.h"

namespace boneyard::xray {

namespace {

using nlohmann::json;
using object_import::MeshLayout;
using object_import::MeshSoup;
using ogf_import::Kind;

Finding object_import_error(std::string path, std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, std::move(path), std::move(message), std::move(expected), std::move(found)};
}

const json* xray_of(const scene::Extras& e) { return import_detail::member(json_of(e), "xray"); }

template <class T>
std::optional<T> uint_of(const json* x, const char* key) {
  if (x == nullptr) return std::nullopt;
  const auto* v = import_detail::member(*x, key);
  if (v == nullptr || !v->is_number_integer() || v->get<std::int64_t>() < 0) return std::nullopt;
  return static_cast<T>(v->get<std::uint64_t>());
}

// Per-element lists of the primitive extras, when they match the primitive's size.
// A column of the primitive extras: u32 LE in base64 (as the export writes it) or a JSON array of
// integers (as a person may edit it); empty when absent, malformed or of another length.
std::vector<std::int64_t> int_list(const json* x, const char* key, std::size_t size) {
  std::vector<std::int64_t> out;
  if (x == nullptr) return out;
  const auto* v = import_detail::member(*x, key);
  if (v == nullptr) return out;
  if (v->is_string()) {
    std::vector<std::uint8_t> bytes;
    if (!from_b64(v->get_ref<const std::string&>(), bytes) || bytes.size() != size * 4) return out;
    out.reserve(size);
    for (std::size_t i = 0; i < size; ++i) out.push_back(load_le<std::uint32_t>(bytes.data() + 4 * i));
    return out;
  }
  if (!v->is_array() || v->size() != size) return out;
  out.reserve(size);
  for (const auto& e : *v) {
    if (!e.is_number_integer()) return {};
    out.push_back(e.get<std::int64_t>());
  }
  return out;
}

bool same_surface(const ObjectSurface& a, const ObjectSurface& b) {
  return a.name == b.name && a.shader == b.shader && a.compiler_shader == b.compiler_shader && a.game_mtl == b.game_mtl &&
         a.texture == b.texture && a.vmap == b.vmap && a.flags == b.flags && a.fvf == b.fvf && a.tc_count == b.tc_count;
}

// Bit for bit: the stored floats (NaNs of a broken file included) are what an unedited bone holds.
bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_vec(const Vec3& a, const Vec3& b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z); }
bool same_opt(const std::optional<float>& a, const std::optional<float>& b) {
  return a.has_value() == b.has_value() && (!a || same_bits(*a, *b));
}

bool same_bone_data(const BoneData& a, const BoneData& b) {
  auto shape_eq = [](const BoneShape& x, const BoneShape& y) {
    for (std::size_t k = 0; k < 9; ++k)
      if (!same_bits(x.box_rotate[k], y.box_rotate[k])) return false;
    return x.type == y.type && x.flags == y.flags && same_vec(x.box_translate, y.box_translate) &&
           same_vec(x.box_halfsize, y.box_halfsize) && same_vec(x.sphere_center, y.sphere_center) &&
           same_bits(x.sphere_radius, y.sphere_radius) && same_vec(x.cylinder_center, y.cylinder_center) &&
           same_vec(x.cylinder_direction, y.cylinder_direction) && same_bits(x.cylinder_height, y.cylinder_height) &&
           same_bits(x.cylinder_radius, y.cylinder_radius);
  };
  auto joint_eq = [](const BoneJoint& x, const BoneJoint& y) {
    for (std::size_t k = 0; k < 3; ++k)
      if (!same_bits(x.limits[k].lo, y.limits[k].lo) || !same_bits(x.limits[k].hi, y.limits[k].hi) ||
          !same_bits(x.limits[k].spring, y.limits[k].spring) || !same_bits(x.limits[k].damping, y.limits[k].damping))
        return false;
    return x.type == y.type && same_bits(x.spring, y.spring) && same_bits(x.damping, y.damping);
  };
  const bool same_break = a.break_limits.has_value() == b.break_limits.has_value() &&
                          (!a.break_limits || (same_bits((*a.break_limits)[0], (*b.break_limits)[0]) &&
                                               same_bits((*a.break_limits)[1], (*b.break_limits)[1])));
  if (a.game_mtl != b.game_mtl || a.ik_flags != b.ik_flags || !same_break || !same_opt(a.friction, b.friction) ||
      !same_opt(a.mass, b.mass) || a.wmap != b.wmap || !same_bits(a.rest_length, b.rest_length))
    return false;
  if (a.mass && !same_vec(a.center_of_mass, b.center_of_mass)) return false;
  if (a.shape.has_value() != b.shape.has_value() || (a.shape && !shape_eq(*a.shape, *b.shape))) return false;
  if (a.joint.has_value() != b.joint.has_value() || (a.joint && !joint_eq(*a.joint, *b.joint))) return false;
  return true;
}

// One scene primitive and how it attaches to the model.
struct Incoming {
  std::size_t mesh = 0, primitive = 0;
  Kind kind = Kind::skinned;
  int bone = -1;                          // rigid: the bone of its node
  const scene::Mat4* world = nullptr;     // rigid and static: its node's world matrix
  std::uint32_t surface = 0;              // index into the output surfaces
};

class Importer {
 public:
  struct Group {
    std::string key;
    std::optional<std::uint32_t> tag;
    std::size_t scene_mesh = 0;
    std::vector<Incoming> parts;
  };

  Importer(const scene::Scene& s, const ObjectImportOptions& o, Diagnostics& w, ObjectImportStats& st)
      : s_(s), o_(o), warnings_(w), st_(st), tpl_(o.template_object) {}

  Result<std::vector<std::uint8_t>> run() {
    if (s_.meshes.empty()) return object_import_error("meshes", "the scene has no meshes to make an object of", ">= 1 mesh", "0");
    pick_style();
    if (auto e = tpl_ ? template_bones() : new_bones()) return *e;
    if (auto e = make_surfaces()) return *e;
    if (auto e = gather()) return *e;
    if (auto e = make_meshes()) return *e;
    object_import::BodyParts parts;
    parts.meshes = std::move(meshes_);
    parts.surfaces = surfaces_;
    parts.surfaces_changed = surfaces_changed_;
    parts.bones = bones_;
    parts.edited_bones = edited_bones_;
    parts.style = style_;
    auto motions = object_motions::motions_chunk(s_, bones_, tpl_ ? std::nullopt : object_import::new_actor_transform(s_, !bones_.empty()),
                                                 tpl_, warnings_);
    if (!motions) return motions.error();
    parts.motions = std::move(motions).value();
    st_.motions_kept = parts.motions.kept;
    st_.motions_rebuilt = parts.motions.rebuilt;
    return tpl_ ? object_import::template_body(*tpl_, parts, s_, o_, warnings_, st_)
                : object_import::new_body(parts, s_, o_, warnings_);
  }

 private:
  void pick_style() {
    // The style the export wrote the extras' smoothing values in: reused only in that style.
    if (const json* x = xray_of(s_.extras)) {
      const auto* obj = import_detail::member(*x, "object");
      const auto* sm = obj ? import_detail::member(*obj, "smoothing") : nullptr;
      if (sm && sm->is_string()) extras_style_ = sm->get<std::string>() == "soc" ? SmoothingStyle::soc : SmoothingStyle::cscop;
    }
    if (auto st = smoothing_style_of(o_.game)) {
      style_ = *st;
    } else if (tpl_) {
      style_ = detect_smoothing(*tpl_);
    } else if (const json* x = xray_of(s_.extras)) {
      const auto* obj = import_detail::member(*x, "object");
      const auto* sm = obj ? import_detail::member(*obj, "smoothing") : nullptr;
      style_ = sm && sm->is_string() && sm->get<std::string>() == "soc" ? SmoothingStyle::soc : SmoothingStyle::cscop;
    }
  }

  // ---- Bones

  std::vector<std::string> bone_names() const {
    std::vector<std::string> names;
    for (const auto& b : bones_) names.push_back(b.name);
    return names;
  }

  std::optional<Finding> template_bones() {
    bones_ = tpl_->bones;
    nodes_ = ogf_import::map_nodes(s_.skeleton, bone_names());
    edited_bones_.assign(bones_.size(), false);
    // The template's own export: what an unedited scene holds.
    Diagnostics scratch;
    ObjectExportOptions eo;
    eo.keep_going = true;
    eo.rebuild_extras = false;  // compared by its arrays, tags and bind pose only
    eo.bone_extras = false;
    eo.motions = false;  // compared as motions (object_motions.h), not as animations
    auto exported = object_to_scene(*tpl_, "template", eo, scratch);
    if (!exported) return exported.error();
    template_scene_ = std::move(exported).value();
    if (bones_.empty()) return std::nullopt;
    for (std::uint32_t j : s_.skeleton.skin)
      if (j < nodes_.bone_of_node.size() && nodes_.bone_of_node[j] < 0)
        return object_import_error("node " + std::to_string(j) + " (\"" + escape_controls(s_.skeleton.joints[j].name) + "\")",
                            "skin joint is not a bone of the template", "one of the template's bones", "no bone of that name");
    // A joint moved from the template's bind pose would move every motion's pose.
    const auto bind = scene::world_matrices(template_scene_.skeleton);
    for (std::size_t n = 0; n < s_.skeleton.joints.size(); ++n) {
      const int b = nodes_.bone_of_node[n];
      if (b < 0) continue;
      const auto& w = nodes_.world[n];
      const auto& t = bind[std::size_t(b)];
      const double d = std::hypot(w[12] - t[12], w[13] - t[13], w[14] - t[14]);
      if (d > import_detail::kJointPositionTolerance)
        return object_import_error("node " + std::to_string(n) + " (\"" + escape_controls(s_.skeleton.joints[n].name) + "\")",
                            "joint moved from the template's bind pose", "within 1e-4 m", std::to_string(d) + " m away");
      if (const json* x = xray_of(s_.skeleton.joints[n].extras)) {
        BoneData edited = bones_[std::size_t(b)];
        object_extras::bone_from_json(*x, edited);
        if (!same_bone_data(edited, bones_[std::size_t(b)])) {
          bones_[std::size_t(b)] = edited;
          edited_bones_[std::size_t(b)] = true;
        }
      }
    }
    return std::nullopt;
  }

  std::optional<Finding> new_bones() {
    std::vector<std::uint32_t> joints = s_.skeleton.skin;
    std::sort(joints.begin(), joints.end());
    joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
    std::vector<int> bone_of_node(s_.skeleton.joints.size(), -1);
    for (std::size_t b = 0; b < joints.size(); ++b) bone_of_node[joints[b]] = int(b);
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t b = 0; b < joints.size(); ++b) {
      const scene::Joint& j = s_.skeleton.joints[joints[b]];
      const std::string where = "node " + std::to_string(joints[b]) + " (\"" + escape_controls(j.name) + "\")";
      const auto raw = ogf_import::raw_node_name(j);
      if (!raw) return object_import_error(where, "bone name has no cp1251 form", "Latin or Cyrillic characters", j.name);
      if (raw->empty() || raw->find('\0') != std::string::npos)
        return object_import_error(where, "bone name is empty or holds a NUL byte", "a name", printable(*raw));
      if (auto [it, fresh] = seen.emplace(bone_key(*raw), b); !fresh)
        return object_import_error(where, "duplicate bone name (the SDK compares lower-cased names)", "unique",
                            "same as bone " + std::to_string(it->second));
      BoneData d = default_bone_data();
      d.version = kBoneCurrentVersion;
      d.name = *raw;
      if (const json* x = xray_of(j.extras)) object_extras::bone_from_json(*x, d);
      if (o_.bone_data)
        for (const auto& given : *o_.bone_data)
          if (bone_key(given.name) == bone_key(d.name)) {
            d.game_mtl = given.game_mtl, d.shape = given.shape, d.joint = given.joint, d.ik_flags = given.ik_flags;
            d.break_limits = given.break_limits, d.friction = given.friction, d.mass = given.mass;
            d.center_of_mass = given.center_of_mass;
            break;
          }
      if (d.wmap.empty()) d.wmap = d.name;
      d.def_has_links = true;
      d.has_bind_pose = true;
      bones_.push_back(std::move(d));
    }
    nodes_ = ogf_import::map_nodes(s_.skeleton, bone_names());
    nodes_.bone_of_node = bone_of_node;
    // Parents: the nearest bone above; the bind pose from the extras where the parent is the
    // node's own, else the rest pose relative to the parent bone.
    const auto world = scene::world_matrices(s_.skeleton);
    for (std::size_t b = 0; b < joints.size(); ++b) {
      int parent = -1;
      for (int n = s_.skeleton.joints[joints[b]].parent, steps = 0; n >= 0 && steps <= int(joints.size() + 1);
           n = s_.skeleton.joints[std::size_t(n)].parent, ++steps)
        if (bone_of_node[std::size_t(n)] >= 0) {
          parent = bone_of_node[std::size_t(n)];
          break;
        }
      BoneData& d = bones_[b];
      d.parent = parent >= 0 ? bones_[std::size_t(parent)].name : std::string();
      const scene::Joint& j = s_.skeleton.joints[joints[b]];
      const json* x = xray_of(j.extras);
      const auto r = x ? import_detail::vec3(*x, "bind_rotation") : std::nullopt;
      const auto p = x ? import_detail::vec3(*x, "bind_position") : std::nullopt;
      const int direct = j.parent;
      const bool same_parent = parent >= 0 ? direct == int(joints[std::size_t(parent)])
                                           : direct < 0 || bone_of_node[std::size_t(direct)] < 0;
      if (r && p && same_parent) {
        d.rest_rotate = *r, d.rest_offset = *p;
        continue;
      }
      const scene::Mat4 local = parent >= 0 ? scene::multiply(scene::inverse_affine(world[joints[std::size_t(parent)]]), world[joints[b]])
                                            : world[joints[b]];
      const Quat g = ogf_import::rotation_of(local);
      d.rest_offset = {float(local[12]), float(local[13]), float(-local[14])};
      d.rest_rotate = ogf_import::xyz_rotation(Quat{g.x, g.y, -g.z, g.w});
    }
    return std::nullopt;
  }

  // ---- Surfaces

  std::optional<Finding> make_surfaces() {
    if (tpl_) surfaces_ = tpl_->surfaces;
    surface_of_material_.assign(s_.materials.size(), -1);
    std::vector<bool> used(s_.materials.size(), false);
    for (const auto& m : s_.meshes)
      for (const auto& p : m.primitives)
        if (p.material < used.size()) used[p.material] = true;
    for (std::size_t i = 0; i < s_.materials.size(); ++i) {
      if (!used[i]) continue;
      const scene::Material& mat = s_.materials[i];
      const std::string where = "material " + std::to_string(i) + " (\"" + escape_controls(mat.name) + "\")";
      const json* x = xray_of(mat.extras);
      std::optional<std::string> name = x ? object_extras::raw_string(*x, "surface") : std::nullopt;
      if (!name) name = mat.name.empty() ? std::optional<std::string>("surface_" + std::to_string(i)) : utf8_to_cp1251(mat.name);
      if (!name) return object_import_error(where, "material name has no cp1251 form", "Latin or Cyrillic characters", mat.name);
      if (name->find('\0') != std::string::npos) return object_import_error(where, "material name holds a NUL byte");
      ObjectSurface surface = object_extras::surface_from_json(x ? *x : json(), *name);
      if (!x || !object_extras::raw_string(*x, "texture")) {
        // Another tool's material: the texture the .ogf import would take from it.
        const auto names = ogf_import::material_names(s_, std::uint32_t(i));
        if (!names.error) surface.texture = names.texture;
      }
      const auto existing = std::find_if(surfaces_.begin(), surfaces_.end(), [&](const auto& s) { return s.name == *name; });
      if (existing != surfaces_.end()) {
        if (x && !same_surface(surface, *existing)) {
          surface.offset = existing->offset;
          *existing = surface;
          surfaces_changed_ = true;
        }
        surface_of_material_[i] = int(existing - surfaces_.begin());
        continue;
      }
      surface_of_material_[i] = int(surfaces_.size());
      surfaces_.push_back(std::move(surface));
      surfaces_changed_ = true;
    }
    return std::nullopt;
  }

  // ---- Meshes

  std::optional<Finding> gather() {
    const bool skeletal = !bones_.empty();
    for (std::size_t m = 0; m < s_.meshes.size(); ++m) {
      const scene::Mesh& mesh = s_.meshes[m];
      for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
        const scene::Primitive& prim = mesh.primitives[p];
        const std::string where = "mesh " + std::to_string(m) + " (\"" + escape_controls(mesh.name) + "\") primitive " + std::to_string(p);
        if (prim.indices.empty()) continue;
        Incoming in{m, p};
        if (!skeletal) {
          in.kind = Kind::statics;
        } else if (!mesh.skinned) {
          in.kind = Kind::rigid;
          in.bone = mesh.joint >= 0 ? nodes_.bone_for(mesh.joint) : -1;
          if (in.bone < 0)
            return object_import_error(where, "mesh has no skin and hangs on no bone of the skeleton", "a skinned mesh, or a mesh on a bone's node", "none");
        }
        if (in.kind != Kind::skinned && mesh.joint >= 0 && std::size_t(mesh.joint) < nodes_.world.size())
          in.world = &nodes_.world[std::size_t(mesh.joint)];
        if (prim.material >= surface_of_material_.size() || surface_of_material_[prim.material] < 0)
          return object_import_error(where, "primitive has no material: its surface is unknown", "a material", "none");
        in.surface = std::uint32_t(surface_of_material_[prim.material]);
        // The object mesh: the export's tag, else one per scene mesh.
        const auto tag = uint_of<std::uint32_t>(xray_of(prim.extras), "mesh");
        const std::string key = tag ? "tag " + std::to_string(*tag) : "scene mesh " + std::to_string(m);
        auto it = std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) { return g.key == key; });
        if (it == groups_.end()) {
          groups_.push_back({key, tag, m, {}});
          it = groups_.end() - 1;
        }
        it->parts.push_back(in);
      }
    }
    if (groups_.empty()) return object_import_error("meshes", "the scene has no triangles to make an object of", ">= 1 triangle", "0");
    return std::nullopt;
  }

  std::vector<int> bone_of_joint() const { return nodes_.bone_of_node; }

  Result<MeshSoup> soup_of(const std::vector<Incoming>& parts) const {
    MeshSoup out;
    std::size_t layers = 1;
    for (const auto& in : parts) layers = std::max(layers, s_.meshes[in.mesh].primitives[in.primitive].uvs.size());
    out.uvs.resize(layers);
    const std::vector<int> joint_bone = bone_of_joint();
    bool all_hints = true;
    for (const auto& in : parts) {
      const scene::Primitive& p = s_.meshes[in.mesh].primitives[in.primitive];
      const std::string where = "mesh " + std::to_string(in.mesh) + " primitive " + std::to_string(in.primitive);
      auto soup = ogf_import::to_soup(p, in.kind, in.world, joint_bone, in.bone, where);
      if (!soup) return soup.error();
      const std::size_t base = out.positions.size(), n = soup->vertices.size();
      const json* x = xray_of(p.extras);
      const auto points = int_list(x, "points", n);
      all_hints = all_hints && !points.empty();
      // Vertices with more than four influences: their full list, when the glTF still holds its
      // four heaviest.
      std::map<std::size_t, std::vector<std::pair<std::uint16_t, float>>> full;
      if (const auto* extra = x ? import_detail::member(*x, "influences") : nullptr; extra && extra->is_array())
        for (const auto& e : *extra) {
          if (!e.is_array() || e.size() != 2 || !e[0].is_number_unsigned() || !e[1].is_array()) continue;
          const std::size_t v = e[0].get<std::size_t>();
          std::vector<std::pair<std::uint16_t, float>> list;
          for (const auto& jw : e[1]) {
            if (!jw.is_array() || jw.size() != 2 || !jw[0].is_number_unsigned() || !jw[1].is_number()) continue;
            const std::size_t joint = jw[0].get<std::size_t>();
            if (joint >= joint_bone.size() || joint_bone[joint] < 0) continue;
            list.emplace_back(std::uint16_t(joint_bone[joint]), jw[1].get<float>());
          }
          if (v < n) full[v] = std::move(list);
        }
      for (std::size_t i = 0; i < n; ++i) {
        const OgfVertex& v = soup->vertices[i];
        out.positions.push_back(v.position);
        out.normals.push_back(v.normal);
        out.uvs[0].push_back(v.u);
        out.uvs[0].push_back(v.v);
        for (std::size_t l = 1; l < layers; ++l) {
          const bool has = l < p.uvs.size() && p.uvs[l].size() == n * 2;
          const float u = has ? p.uvs[l][2 * i] : 0.0f, w = has ? p.uvs[l][2 * i + 1] : 0.0f;
          out.uvs[l].push_back(std::isfinite(u) ? u : 0.0f);
          out.uvs[l].push_back(std::isfinite(w) ? w : 0.0f);
        }
        std::vector<std::pair<std::uint16_t, float>> inf;
        for (int k = 0; k < v.links; ++k) inf.emplace_back(v.bones[std::size_t(k)], v.weights[std::size_t(k)]);
        if (auto it = full.find(i); it != full.end() && it->second.size() > 4 && still_heaviest(inf, it->second)) inf = it->second;
        out.influences.push_back(std::move(inf));
        out.point_hint.push_back(points.empty() ? -1 : points[i]);
      }
      const std::size_t tris = soup->indices.size() / 3;
      const auto groups = extras_style_ == style_ ? int_list(x, "groups", tris) : std::vector<std::int64_t>{};
      const auto faces = int_list(x, "faces", tris);
      for (std::size_t t = 0; t < tris; ++t) {
        MeshSoup::Triangle tri{};
        for (int k = 0; k < 3; ++k) tri.v[k] = std::uint32_t(base + soup->indices[3 * t + std::size_t(k)]);
        tri.surface = in.surface;
        if (!groups.empty() && groups[t] >= 0 && groups[t] <= 0xFFFFFFFFll) tri.group = std::uint32_t(groups[t]);
        if (!faces.empty() && faces[t] >= 0 && faces[t] <= 0xFFFFFFFFll) tri.face = std::uint32_t(faces[t]);
        out.triangles.push_back(tri);
      }
    }
    if (!all_hints) std::fill(out.point_hint.begin(), out.point_hint.end(), -1);
    // The exported face order, when every triangle knows its face and no face is named twice.
    if (std::all_of(out.triangles.begin(), out.triangles.end(), [](const auto& t) { return t.face.has_value(); })) {
      std::vector<std::uint32_t> ids;
      for (const auto& t : out.triangles) ids.push_back(*t.face);
      std::sort(ids.begin(), ids.end());
      if (std::adjacent_find(ids.begin(), ids.end()) == ids.end())
        std::stable_sort(out.triangles.begin(), out.triangles.end(), [](const auto& a, const auto& b) { return *a.face < *b.face; });
    }
    return out;
  }

  // The four heaviest of `full` (normalised) are what the glTF holds, within its float noise.
  static bool still_heaviest(const std::vector<std::pair<std::uint16_t, float>>& four,
                             std::vector<std::pair<std::uint16_t, float>> full) {
    std::stable_sort(full.begin(), full.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    double sum = 0;
    for (std::size_t k = 0; k < 4; ++k) sum += full[k].second;
    if (!(sum > 0)) return false;
    for (std::size_t k = 0; k < 4; ++k) {
      double w = 0;
      for (const auto& [b, x] : four)
        if (b == full[k].first) w += x;
      if (std::fabs(w - full[k].second / sum) > 2e-3) return false;
    }
    return true;
  }

  MeshLayout layout_of(const ObjectMesh* m, const Group& g) const {
    MeshLayout l;
    if (m != nullptr) {
      l.name = m->name;
      l.flags = m->flags.value_or(1);
      if (m->options) l.options = *m->options;
      for (const auto& v : m->vmaps)
        if (v.is_uv() && std::find(l.uv_names.begin(), l.uv_names.end(), v.name) == l.uv_names.end()) l.uv_names.push_back(v.name);
      for (const auto& c : m->chunks.chunks) l.chunk_order.push_back(c.id());
      for (const auto& s : m->surfaces) l.surface_order.push_back(s.surface);
      l.template_points.reserve(m->point_count);
      for (std::size_t i = 0; i < m->point_count; ++i) l.template_points.push_back(m->point(i));
      return l;
    }
    const scene::Mesh& mesh = s_.meshes[g.scene_mesh];
    const json* x = xray_of(mesh.extras);
    l.name = x ? object_extras::raw_string(*x, "name").value_or("") : "";
    if (l.name.empty()) l.name = utf8_to_cp1251(mesh.name).value_or("mesh");
    if (l.name.empty()) l.name = "mesh";
    if (auto f = uint_of<std::uint8_t>(x, "flags")) l.flags = *f;
    if (const auto* uv = x ? import_detail::member(*x, "uv_maps") : nullptr; uv && uv->is_array())
      for (const auto& n : *uv)
        if (n.is_string()) l.uv_names.push_back(utf8_to_cp1251(n.get<std::string>()).value_or("Texture"));
    return l;
  }

  // Is the template mesh unchanged: the tagged primitives hold exactly what its export made, or
  // the same triangles within float noise on the same surfaces.
  bool unchanged(const ObjectMesh& m, const Group& g) const {
    std::vector<const scene::Primitive*> exported;
    std::vector<std::uint32_t> exported_surface;
    for (const auto& mesh : template_scene_.meshes) {
      const json* mx = xray_of(mesh.extras);
      if (uint_of<std::uint32_t>(mx, "index") != m.index) continue;
      for (const auto& p : mesh.primitives) {
        const auto sface = uint_of<std::uint32_t>(xray_of(p.extras), "surface");
        if (!sface || *sface >= m.surfaces.size()) return false;
        const int s = tpl_->find_surface(m.surfaces[*sface].surface);
        if (s < 0) return false;
        exported.push_back(&p);
        exported_surface.push_back(std::uint32_t(s));
      }
    }
    if (exported.empty()) return false;
    const std::vector<int> joint_bone = bone_of_joint();
    // Exact: as many primitives, each the very arrays, on the same surfaces.
    if (exported.size() == g.parts.size()) {
      bool same = true;
      for (std::size_t i = 0; i < exported.size() && same; ++i) {
        const Incoming& in = g.parts[i];
        const scene::Primitive& p = s_.meshes[in.mesh].primitives[in.primitive];
        same = in.kind == (bones_.empty() ? Kind::statics : Kind::skinned) && in.surface == exported_surface[i] &&
               ogf_import::same_arrays(*exported[i], p, joint_bone) && p.uvs.size() == exported[i]->uvs.size();
        for (std::size_t l = 1; same && l < p.uvs.size(); ++l) same = p.uvs[l] == exported[i]->uvs[l];
      }
      if (same) return true;
    }
    // Within float noise, per surface.
    std::map<std::uint32_t, std::pair<ogf_import::Soup, ogf_import::Soup>> by_surface;  // template, incoming
    std::vector<int> identity(bones_.size());
    for (std::size_t b = 0; b < identity.size(); ++b) identity[b] = int(b);
    const Kind tkind = bones_.empty() ? Kind::statics : Kind::skinned;
    for (std::size_t i = 0; i < exported.size(); ++i) {
      auto soup = ogf_import::to_soup(*exported[i], tkind, nullptr, identity, -1, "template");
      if (!soup) return false;
      ogf_import::append(by_surface[exported_surface[i]].first, soup.value());
    }
    for (const Incoming& in : g.parts) {
      auto soup = ogf_import::to_soup(s_.meshes[in.mesh].primitives[in.primitive], in.kind, in.world, joint_bone, in.bone, "incoming");
      if (!soup) return false;
      ogf_import::append(by_surface[in.surface].second, soup.value());
    }
    for (auto& [surface, pair] : by_surface) {
      if (pair.first.indices.size() != pair.second.indices.size()) return false;
      std::vector<bool> taken;
      if (!ogf_import::find_triangles(pair.first, pair.second, taken, object_import::kDerivedNormalTolerance)) return false;
    }
    return true;
  }

  std::optional<Finding> make_meshes() {
    std::vector<std::string> weight_maps;
    for (const auto& b : bones_) weight_maps.push_back(b.wmap.empty() ? b.name : b.wmap);
    std::vector<bool> template_used(tpl_ ? tpl_->meshes.size() : 0, false);
    std::vector<const ObjectMesh*> target(groups_.size(), nullptr);
    if (tpl_) {
      // Tagged groups go to their mesh; untagged ones to the template mesh of their scene mesh's name.
      for (std::size_t g = 0; g < groups_.size(); ++g)
        if (groups_[g].tag)
          for (std::size_t t = 0; t < tpl_->meshes.size(); ++t)
            if (!template_used[t] && tpl_->meshes[t].readable && tpl_->meshes[t].index == *groups_[g].tag) {
              target[g] = &tpl_->meshes[t];
              template_used[t] = true;
            }
      for (std::size_t g = 0; g < groups_.size(); ++g) {
        if (target[g] || groups_[g].tag) continue;
        const auto name = utf8_to_cp1251(s_.meshes[groups_[g].scene_mesh].name);
        for (std::size_t t = 0; t < tpl_->meshes.size() && name; ++t)
          if (!template_used[t] && tpl_->meshes[t].readable && tpl_->meshes[t].name == *name) {
            target[g] = &tpl_->meshes[t];
            template_used[t] = true;
            break;
          }
      }
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      object_import::OutputMesh out;
      out.template_mesh = target[g];
      if (target[g] && unchanged(*target[g], groups_[g])) {
        out.kept = true;
        ++st_.kept;
        meshes_.push_back(std::move(out));
        continue;
      }
      auto soup = soup_of(groups_[g].parts);
      if (!soup) return soup.error();
      // Faces the edit left alone keep their smoothing values (when the style is the template's).
      if (target[g] && style_ == detect_smoothing(*tpl_) && !target[g]->sg_mask())
        object_import::match_template_faces(soup.value(), *target[g], style_);
      auto written = object_import::write_mesh(soup.value(), layout_of(target[g], groups_[g]), surfaces_, weight_maps, style_);
      st_.smoothing_conflicts += written.smoothing_conflicts;
      if (written.smoothing_conflicts)
        warnings_.add(Severity::warning, 0, "mesh \"" + escape_controls(s_.meshes[groups_[g].scene_mesh].name) + "\"",
                      "smoothing groups cannot give back every normal of the mesh (the " +
                          std::string(style_ == SmoothingStyle::soc ? "SoC ids" : "CS/CoP edge flags") + " cannot express them)",
                      "0 faces", std::to_string(written.smoothing_conflicts) + " faces");
      out.payload = std::move(written.payload);
      ++st_.rebuilt;
      meshes_.push_back(std::move(out));
    }
    if (tpl_)
      for (std::size_t t = 0; t < tpl_->meshes.size(); ++t) {
        if (template_used[t]) continue;
        if (!tpl_->meshes[t].readable) {
          // A broken template mesh is nothing the scene could hold: it stays as stored.
          object_import::OutputMesh out;
          out.template_mesh = &tpl_->meshes[t];
          out.kept = true;
          meshes_.insert(meshes_.begin() + std::ptrdiff_t(std::min(meshes_.size(), t)), std::move(out));
          continue;
        }
        ++st_.removed;
      }
    st_.meshes = meshes_.size();
    return std::nullopt;
  }

  const scene::Scene& s_;
  const ObjectImportOptions& o_;
  Diagnostics& warnings_;
  ObjectImportStats& st_;
  const ObjectFile* tpl_;
  SmoothingStyle style_ = SmoothingStyle::cscop;
  std::optional<SmoothingStyle> extras_style_;
  std::vector<BoneData> bones_;
  std::vector<bool> edited_bones_;
  ogf_import::NodeBones nodes_;
  scene::Scene template_scene_;
  std::vector<ObjectSurface> surfaces_;
  bool surfaces_changed_ = false;
  std::vector<int> surface_of_material_;
  std::vector<Group> groups_;
  std::vector<object_import::OutputMesh> meshes_;
};

}  // namespace

Result<std::vector<std::uint8_t>> scene_to_object_bytes(const scene::Scene& scene, const ObjectImportOptions& o,
                                                        Diagnostics& warnings, ObjectImportStats* stats) {
  ObjectImportStats local;
  ObjectImportStats& st = stats ? *stats : local;
  st = {};
  auto bytes = Importer(scene, o, warnings, st).run();
  if (!bytes) return bytes.error();
  // The template's own bytes (nothing edited): reading them back finds exactly the template's
  // findings, all of them inherited, so the check has nothing to add.
  if (const ObjectFile* t = o.template_object; t && t->source) {
    const Bytes original = t->source->bytes();
    if (std::equal(bytes->begin(), bytes->end(), original.begin(), original.end())) return bytes;
  }
  Diagnostics inherited;
  if (o.template_object) inherited = validate_object(*o.template_object);
  return checked_object_bytes(std::move(bytes).value(), &inherited);
}

}  // namespace boneyard::xray
