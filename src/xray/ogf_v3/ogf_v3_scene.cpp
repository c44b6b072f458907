// An OGF v3 model as a scene: the skeleton in its bind pose (the v4 adapter's skeleton_scene on
// skeleton_as_v4, so S_IKDATA_0 arrives relative to each parent), or identity rest poses with a
// warning where the file has none; the meshes of every visual; the motions (refs, or embedded).
// Skinned v3 vertices are stored in the space of their first bone at the bind pose: the export
// moves them into model space through that bone's bind matrix, which is what makes glTF skinning
// (joint world x inverse bind x position) give the engine's joint world x stored position.
// Conventions shared with v4 (mirror Z, winding, weights, materials): docs/xray-gltf.md; what is
// particular to v3: docs/xray-ogf-v3.md.
#include "boneyard/xray/ogf_v3/ogf_v3_scene.h"

#include <cmath>
#include <map>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "ogf_v3_scene_internal.h"
#include "ogf_v3_validate.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray {

namespace ogf3 {

namespace {


// An X-Ray point (mirrored to glTF) through a glTF-space matrix; `w` 0 for directions.
Vec3 transform(const scene::Mat4& m, const Vec3& xray, double w) {
  const double x = xray.x, y = xray.y, z = -double(xray.z);
  return {float(m[0] * x + m[4] * y + m[8] * z + m[12] * w), float(m[1] * x + m[5] * y + m[9] * z + m[13] * w),
          float(m[2] * x + m[6] * y + m[10] * z + m[14] * w)};
}

bool usable(const Vec3& n) {
  const double l2 = double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z;
  return std::isfinite(l2) && l2 > 1e-12;
}

Result<scene::Scene> skeleton(const OgfV3File& f, const OgfFile& v4, const std::string& name, Diagnostics& warnings) {
  scene::Scene s;
  if (f.bones.empty()) {  // a static model: meshes under the root node
    s.generator = "boneyard";
    s.skeleton.name = name;
    json_of(s.extras)["xray"]["motion_sets"] = nlohmann::json::array();
    return s;
  }
  if (f.has_bind_pose()) return skeleton_scene(v4, name);
  Diagnostics tree;
  validate_bone_tree(v4, tree);
  for (const auto& e : tree.findings())
    if (e.severity == Severity::error) return e;
  warnings.add(Severity::warning, f.model.chunks.find(kOgf3BoneNames)->offset, "0x17/0x19/0x1C",
               "no IK data, so no bind pose: exported with identity rest poses (every bone at its parent's origin) "
               "and skinned vertices as stored, in their bone's space; motions still place the bones",
               "one of 0x17, 0x19, 0x1C", "none");
  s.generator = "boneyard";
  s.skeleton.name = name;
  for (const auto& b : f.bones) {
    scene::Joint j;
    j.name = cp1251_to_utf8(b.name);
    j.parent = b.parent;
    put_name(json_of(j.extras)["xray"], "name", b.name);
    s.skeleton.joints.push_back(std::move(j));
  }
  json_of(s.extras)["xray"]["motion_sets"] = nlohmann::json::array();
  return s;
}

// The indices at full detail: a progressive visual's stored buffer is its coarsest mesh, and
// split k points its fix-face slots at vertex min_vertices + k (Hoppe's vertex splits, applied in
// order, as the engine does when it raises the detail).
std::vector<std::uint32_t> full_detail(const Ogf3Visual& v) {
  std::vector<std::uint32_t> idx(v.index_count);
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = v.index_at(i);
  if (!v.lod) return idx;
  const Ogf3LodData& l = *v.lod;
  std::size_t fix = 0;
  for (std::size_t k = 0; k < l.vsplit_count(); ++k)
    for (std::size_t j = 0; j < l.vsplits[k * 4 + 3] && fix < l.fix_face_count; ++j, ++fix)
      idx[load_le<std::uint16_t>(l.fix_faces.data() + 2 * fix)] = static_cast<std::uint32_t>(l.min_vertices + k);
  return idx;
}

struct MeshBuilder {
  scene::Scene& s;
  const OgfV3File& f;
  const XrayExportOptions& o;
  Diagnostics& warnings;
  std::vector<scene::Mat4> bind;  // glTF-space bind world matrices (identity without a bind pose)
  scene::Mesh skinned, statics;
  std::map<int, scene::Mesh> rigid;
  std::map<std::pair<std::string, std::string>, std::uint32_t> material_of;

  std::uint32_t material(const Ogf3Visual& v) {
    if (!v.texture) return scene::kNoMaterial;
    const auto key = std::make_pair(*v.texture, v.shader.value_or(""));
    auto [it, added] = material_of.try_emplace(key, static_cast<std::uint32_t>(s.materials.size()));
    if (added) {
      scene::Material m;
      m.name = cp1251_to_utf8(key.first);
      m.texture.path = key.first;
      m.texture.origin = v.where(kOgf3Texture) + " texture";
      m.texture.offset = v.chunks.find(kOgf3Texture)->offset;
      m.alpha_use = shader_alpha_use(key.second);
      m.alpha_cutoff = 200.0f / 255.0f;
      m.double_sided = false;
      put_name(json_of(m.extras)["xray"], "texture", key.first);
      put_name(json_of(m.extras)["xray"], "shader", key.second);
      s.materials.push_back(std::move(m));
    }
    return it->second;
  }

  // Skinned vertices in model space (through their first bone), static ones as stored.
  scene::Primitive primitive(const Ogf3Visual& v) {
    const Ogf3Vertices& vs = *v.vertices;
    const bool skinned_vertices = vs.links() > 0;
    const bool normals = skinned_vertices || vs.fvf_normal >= 0;
    scene::Primitive p;
    p.positions.resize(std::size_t{vs.count} * 3);
    if (normals) p.normals.resize(p.positions.size());
    p.uvs.emplace_back(std::size_t{vs.count} * 2);
    if (skinned_vertices) p.joints.resize(std::size_t{vs.count} * 4), p.weights.resize(std::size_t{vs.count} * 4);
    static const scene::Mat4 kIdentity = scene::trs_matrix({}, {}, {1, 1, 1});
    bool bad_normals = false;
    for (std::size_t i = 0; i < vs.count; ++i) {
      const Ogf3Vertex x = decode_vertex(vs, i);
      const scene::Mat4& m = skinned_vertices ? bind[x.bones[0]] : kIdentity;
      const Vec3 pos = transform(m, x.position, 1);
      p.positions[i * 3] = pos.x, p.positions[i * 3 + 1] = pos.y, p.positions[i * 3 + 2] = pos.z;
      if (normals) {
        const Vec3 n = transform(m, x.normal, 0);
        if (usable(n)) {
          const double l = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
          p.normals[i * 3] = float(n.x / l), p.normals[i * 3 + 1] = float(n.y / l), p.normals[i * 3 + 2] = float(n.z / l);
        } else {
          bad_normals = true;
        }
      }
      p.uvs[0][i * 2] = std::isfinite(x.u) ? x.u : 0.0f;  // D3D and glTF share the top-left origin
      p.uvs[0][i * 2 + 1] = std::isfinite(x.v) ? x.v : 0.0f;
      if (skinned_vertices)
        for (int k = 0; k < 2; ++k) {
          p.joints[i * 4 + std::size_t(k)] = x.bones[std::size_t(k)];
          p.weights[i * 4 + std::size_t(k)] = x.links == 1 && k == 1 ? 0.0f : x.weights[std::size_t(k)];
        }
    }
    const auto idx = full_detail(v);
    p.indices.reserve(idx.size() / 3 * 3);
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3)  // mirrored: (i0, i2, i1) keeps the front face
      p.indices.insert(p.indices.end(), {idx[t], idx[t + 2], idx[t + 1]});
    if (bad_normals) {
      scene::Primitive faces;
      faces.positions = p.positions;
      faces.indices = p.indices;
      scene::compute_normals(faces);
      for (std::size_t i = 0; i < vs.count; ++i)
        if (p.normals[i * 3] == 0 && p.normals[i * 3 + 1] == 0 && p.normals[i * 3 + 2] == 0)
          for (int k = 0; k < 3; ++k) p.normals[i * 3 + std::size_t(k)] = faces.normals[i * 3 + std::size_t(k)];
    }
    if (skinned_vertices) scene::clean_weights(p);
    return p;
  }

  // A rigid model's 1-link visual as one primitive per bone, in that bone's space (the vertices
  // as stored), when no triangle spans two bones; else false (it stays skinned).
  bool add_rigid(const Ogf3Visual& v, const scene::Primitive& model_space) {
    const Ogf3Vertices& vs = *v.vertices;
    if (vs.links() != 1) return false;
    const auto idx = full_detail(v);
    auto bone = [&](std::uint32_t i) { return decode_vertex(vs, i).bones[0]; };
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3)
      if (bone(idx[t + 1]) != bone(idx[t]) || bone(idx[t + 2]) != bone(idx[t])) return false;
    std::map<int, scene::Primitive> parts;
    std::vector<std::uint32_t> remap(vs.count, 0);
    for (std::uint32_t i = 0; i < vs.count; ++i) {
      const Ogf3Vertex x = decode_vertex(vs, i);
      scene::Primitive& q = parts[x.bones[0]];
      remap[i] = static_cast<std::uint32_t>(q.vertex_count());
      q.positions.insert(q.positions.end(), {x.position.x, x.position.y, -x.position.z});
      const float* n = &model_space.normals[std::size_t{i} * 3];
      const Vec3 local = transform(scene::inverse_affine(bind[x.bones[0]]), {n[0], n[1], -n[2]}, 0);
      q.normals.insert(q.normals.end(), {local.x, local.y, local.z});
      if (q.uvs.empty()) q.uvs.emplace_back();
      q.uvs[0].insert(q.uvs[0].end(), {model_space.uvs[0][i * 2], model_space.uvs[0][i * 2 + 1]});
    }
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
      scene::Primitive& q = parts[bone(idx[t])];
      q.indices.insert(q.indices.end(), {remap[idx[t]], remap[idx[t + 2]], remap[idx[t + 1]]});
    }
    const std::string model = s.skeleton.name.empty() ? std::string("model") : s.skeleton.name;
    for (auto& [joint, q] : parts) {
      q.material = model_space.material;
      json_of(q.extras) = json_of(model_space.extras);
      scene::Mesh& m = rigid[joint];
      if (m.primitives.empty()) m = {model + "_" + s.skeleton.joints[std::size_t(joint)].name, false, joint, {}, {}};
      m.primitives.push_back(std::move(q));
    }
    return true;
  }

  Status add(const Ogf3Visual& v) {
    Diagnostics d;
    validate_visual(f, v, d);
    const Finding* error = nullptr;
    for (const auto& x : d.findings())
      if (x.severity == Severity::error) error = error ? error : &x;
    if (error != nullptr) {
      if (!o.keep_going) return *error;
      Finding left = *error;
      left.severity = Severity::warning;
      left.message = "visual left out of the export (--keep-going): " + left.message;
      warnings.add(std::move(left));
      return {};
    }
    for (const auto& x : d.findings())
      if (x.severity == Severity::warning) warnings.add(x);
    if (v.chunks.find(kOgf3VContainer) || !v.child_refs.empty())
      warnings.add(Severity::warning, v.offset, v.path.empty() ? "0xA/0x5" : v.path,
                   "geometry in a level's buffers or in other files: not in this file, left out");
    if (!v.lods.empty())
      warnings.add(Severity::warning, v.chunks.find(kOgf3Lods)->offset, v.where(kOgf3Lods),
                   "LOD visuals are not exported (kept in the .ogf)", "-", std::to_string(v.lods.size()));
    if (!v.has_geometry()) return {};
    scene::Primitive p = primitive(v);
    p.material = material(v);
    json_of(p.extras)["xray"] = {{"visual", v.path}, {"vertex_format", v.vertices->format},
                                 {"progressive", v.lod.has_value()}};
    if (v.vertices->links() == 0) {
      statics.primitives.push_back(std::move(p));
    } else if (!(f.model.header.type == std::uint8_t(Ogf3Type::skeleton_rigid) && add_rigid(v, p))) {
      skinned.primitives.push_back(std::move(p));
    }
    return {};
  }

  Status run() {
    bind = s.skeleton.joints.empty() ? std::vector<scene::Mat4>{} : scene::world_matrices(s.skeleton);
    const std::string model = s.skeleton.name.empty() ? std::string("model") : s.skeleton.name;
    skinned = {model, true, -1, {}, {}};
    statics = {model + "_static", false, -1, {}, {}};
    Status result;
    std::function<void(const Ogf3Visual&)> walk = [&](const Ogf3Visual& v) {
      if (!result) return;
      result = add(v);
      if (v.readable)
        for (const auto& c : v.children) walk(c);
    };
    walk(f.model);
    if (!result) return result;
    if (!skinned.primitives.empty()) s.meshes.push_back(std::move(skinned));
    for (auto& [joint, m] : rigid) s.meshes.push_back(std::move(m));
    if (!statics.primitives.empty()) s.meshes.push_back(std::move(statics));
    return {};
  }
};

}  // namespace

}  // namespace ogf3

Result<scene::Scene> ogf_v3_to_scene(const OgfV3File& f, const XrayExportOptions& o, Diagnostics& warnings) {
  const OgfFile v4 = skeleton_as_v4(f);
  auto made = ogf3::skeleton(f, v4, path_to_utf8(o.input.stem()), warnings);
  if (!made) return made.error();
  scene::Scene s = std::move(made).value();
  auto& x = json_of(s.extras)["xray"];
  x["model"] = path_to_utf8(o.input.filename());
  x["ogf_version"] = 3;
  if (!f.motion_refs.empty()) {
    auto& refs = x["motion_refs"] = nlohmann::json::array();
    for (const auto& r : f.motion_refs) refs.push_back(cp1251_to_utf8(r));
  }
  if (f.user_data) put_name(x, "user_data", *f.user_data);
  ogf3::MeshBuilder meshes{s, f, o, warnings, {}, {}, {}, {}, {}};
  if (auto added = meshes.run(); !added) return added.error();
  if (!f.motion_refs.empty()) {
    for (std::size_t r = 0; r < f.motion_refs.size(); ++r) {
      const RefMotions* found = r < o.ref_motions.size() ? &o.ref_motions[r] : nullptr;
      if (found == nullptr || found->files.empty()) {
        warnings.add(Severity::warning, 0, "0x1D motion ref", "motion file not found (use --meshes DIR to set the meshes root)",
                     found != nullptr ? found->looked : cp1251_to_utf8(f.motion_refs[r]), "nothing");
        continue;
      }
      for (const auto& file : found->files) {
        if (!file.omf) return file.omf.error();
        std::string source = cp1251_to_utf8(f.motion_refs[r]);
        if (found->files.size() > 1 || f.motion_refs[r].find('*') != std::string::npos)
          source += " -> " + path_to_utf8(path_from_utf8(file.path).filename());
        if (auto added = add_motions(s, &v4, file.omf->motions, source, warnings, o.motions); !added) {
          Finding e = added.error();
          e.path = file.path + " " + e.path;
          return e;
        }
        json_of(s.extras)["xray"]["motion_sets"].back()["file"] = file.from_model;
      }
    }
  } else if (f.params && f.motions) {
    if (auto added = ogf3::add_embedded_motions(s, f, v4, o.motions, warnings); !added) return added.error();
  }
  resolve_duplicate_motions(s, warnings);
  return s;
}

std::vector<Finding> ogf_v3_conversion_blockers(const OgfV3File& f, bool keep_going) {
  std::vector<Finding> out;
  for (const auto& e : validate_ogf_v3(f).errors()) {
    const bool nested = e.path.rfind("0x11/", 0) == 0 || e.path.rfind("0x10/", 0) == 0;
    if (keep_going && nested) continue;
    out.push_back(e);
  }
  return out;
}

}  // namespace boneyard::xray
