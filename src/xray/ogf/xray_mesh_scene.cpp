// OGF children -> scene meshes (glTF conventions). Positions and normals get the skeleton's
// handedness conversion (mirror Z), so every triangle is written (i0, i2, i1) to keep its front
// face; skinning weights are the engine's (SkeletonX) cleaned for glTF; progressive children
// export slide window 0 only. Conventions and why: docs/xray-gltf.md "Meshes".
#include <cmath>
#include <map>

#include "boneyard/core/text.h"
#include "boneyard/xray/xray_scene.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray {

namespace fs = std::filesystem;

namespace {

// Rounding leaves the implied last weight a few ulps below 0 (1 - w0 - w1 with w0 + w1 = 1);
// that is not worth a warning. Real negative weights (down to -0.01) are.
constexpr float kWeightNoise = 1e-5f;

void put_unit(float* out, const Vec3& n) {
  const double len = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
  out[0] = float(n.x / len), out[1] = float(n.y / len), out[2] = float(-n.z / len);
}

bool usable_normal(const Vec3& n) {
  const double len2 = double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z;
  return std::isfinite(len2) && len2 > 1e-12;
}

// The child's vertices and full-detail triangles in glTF space; skinned children also get
// joints and (cleaned) weights. Returns how many vertices had a negative weight clamped (the one
// cleaning step that moves a vertex: merging a bone listed twice, which real 3/4-link data does
// a lot, keeps the engine's pose exactly).
std::size_t build_primitive(const OgfChild& c, scene::Primitive& p) {
  const OgfVertices& vs = *c.vertices;
  const std::size_t n = vs.count;
  const bool skinned = vs.links() > 0;
  const bool has_normals = skinned || vs.fvf_normal >= 0;
  p.positions.resize(n * 3);
  if (has_normals) p.normals.resize(n * 3);
  p.uvs.emplace_back(n * 2);
  if (skinned) p.joints.resize(n * 4), p.weights.resize(n * 4);
  bool bad_normals = false;
  std::size_t negative = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const OgfVertex v = decode_vertex(vs, i);
    float* pos = &p.positions[i * 3];
    pos[0] = v.position.x, pos[1] = v.position.y, pos[2] = -v.position.z;
    if (has_normals) {
      if (usable_normal(v.normal)) put_unit(&p.normals[i * 3], v.normal);
      else bad_normals = true;  // left 0 and filled in from the faces below
    }
    // glTF and D3D share the top-left UV origin: no v flip. NaN (real files) becomes 0.
    p.uvs[0][i * 2] = std::isfinite(v.u) ? v.u : 0.0f;
    p.uvs[0][i * 2 + 1] = std::isfinite(v.v) ? v.v : 0.0f;
    if (skinned) {
      bool clamped = false;
      for (int k = 0; k < 4; ++k) {
        p.joints[i * 4 + k] = v.bones[k];
        p.weights[i * 4 + k] = v.weights[k];
        clamped |= !(v.weights[k] > -kWeightNoise);  // NaN too
      }
      negative += clamped ? 1 : 0;
    }
  }
  const auto [first, count] = c.full_detail();
  p.indices.resize(count / 3 * 3);
  for (std::size_t t = 0; t + 2 < count; t += 3) {
    p.indices[t] = c.index_at(first + t);
    p.indices[t + 1] = c.index_at(first + t + 2);
    p.indices[t + 2] = c.index_at(first + t + 1);
  }
  if (bad_normals) {
    scene::Primitive faces;
    faces.positions = p.positions;
    faces.indices = p.indices;
    scene::compute_normals(faces);
    for (std::size_t i = 0; i < n; ++i)
      if (p.normals[i * 3] == 0 && p.normals[i * 3 + 1] == 0 && p.normals[i * 3 + 2] == 0)
        for (int k = 0; k < 3; ++k) p.normals[i * 3 + k] = faces.normals[i * 3 + k];
  }
  if (skinned) scene::clean_weights(p);
  return negative;
}

// A rigid model's child as one primitive per bone, in that bone's space, when every vertex sits
// fully on one bone and no triangle spans two; else nullopt (the child stays skinned).
std::optional<std::map<int, scene::Primitive>> split_by_bone(const scene::Primitive& p,
                                                             const std::vector<scene::Mat4>& inverse_bind) {
  const std::size_t n = p.vertex_count();
  if (p.joints.size() != n * 4) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i)
    if (p.weights[i * 4] != 1.0f) return std::nullopt;
  for (std::size_t t = 0; t + 2 < p.indices.size(); t += 3) {
    const auto j = p.joints[p.indices[t] * 4];
    if (p.joints[p.indices[t + 1] * 4] != j || p.joints[p.indices[t + 2] * 4] != j) return std::nullopt;
  }
  std::map<int, scene::Primitive> out;
  std::vector<std::uint32_t> remap(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int j = p.joints[i * 4];
    scene::Primitive& q = out[j];
    remap[i] = static_cast<std::uint32_t>(q.vertex_count());
    const scene::Mat4& m = inverse_bind[static_cast<std::size_t>(j)];
    const float* a = &p.positions[i * 3];
    const float* nn = &p.normals[i * 3];
    for (int r = 0; r < 3; ++r) {
      q.positions.push_back(float(m[r] * a[0] + m[4 + r] * a[1] + m[8 + r] * a[2] + m[12 + r]));
      q.normals.push_back(float(m[r] * nn[0] + m[4 + r] * nn[1] + m[8 + r] * nn[2]));  // rotation only
    }
    if (q.uvs.empty()) q.uvs.emplace_back();
    q.uvs[0].push_back(p.uvs[0][i * 2]);
    q.uvs[0].push_back(p.uvs[0][i * 2 + 1]);
  }
  for (std::size_t t = 0; t + 2 < p.indices.size(); t += 3) {
    scene::Primitive& q = out[p.joints[p.indices[t] * 4]];
    for (int k = 0; k < 3; ++k) q.indices.push_back(remap[p.indices[t + static_cast<std::size_t>(k)]]);
  }
  return out;
}

}  // namespace

// Shaders alpha-test, blend or ignore alpha by name: xray_scene.h.
scene::AlphaUse shader_alpha_use(std::string_view shader) {
  const std::string name = lower_ascii(shader);
  if (name.find("aref") != std::string::npos) return scene::AlphaUse::test;
  for (const char* word : {"lightplanes", "glass", "lens", "window", "transparent", "blend"})
    if (name.find(word) != std::string::npos) return scene::AlphaUse::blend;
  return scene::AlphaUse::none;
}

Status add_meshes(scene::Scene& s, const OgfFile& ogf, const XrayExportOptions& o, Diagnostics& warnings) {
  if (ogf.children.empty()) return {};
  const std::string model = s.skeleton.name.empty() ? std::string("model") : s.skeleton.name;
  scene::Mesh skinned{model, true, -1, {}, {}};
  scene::Mesh statics{model + "_static", false, -1, {}, {}};
  std::map<int, scene::Mesh> rigid;  // type 10: per bone
  std::map<std::pair<std::string, std::string>, std::uint32_t> material_of;
  std::vector<scene::Mat4> inverse_bind;
  if (ogf.header.type == 10) {
    inverse_bind = scene::world_matrices(s.skeleton);
    for (auto& m : inverse_bind) m = scene::inverse_affine(m);
  }
  for (const OgfChild& c : ogf.children) {
    Diagnostics d;
    validate_ogf_child(ogf, c, d);
    const Finding* error = nullptr;
    for (const auto& f : d.findings())
      if (f.severity == Severity::error) error = error ? error : &f;
      else warnings.add(f);
    if (error != nullptr) {
      if (!o.keep_going) return *error;
      Finding left_out = *error;
      left_out.severity = Severity::warning;
      left_out.message = "child left out of the export (--keep-going): " + left_out.message;
      warnings.add(std::move(left_out));
      continue;
    }
    scene::Primitive p;
    const std::size_t repaired = build_primitive(c, p);
    if (repaired != 0)
      warnings.add(Severity::warning, c.vertices->offset, c.path() + " 0x3 weights",
                   "negative skin weights clamped to 0 for glTF (the engine extrapolates with them): these "
                   "vertices can sit slightly off the engine's pose",
                   "weights >= 0", std::to_string(repaired) + " vertices");
    const auto key = std::make_pair(c.texture, c.shader);
    auto [it, added] = material_of.try_emplace(key, static_cast<std::uint32_t>(s.materials.size()));
    if (added) {
      scene::Material m;
      m.name = cp1251_to_utf8(c.texture);
      m.texture.path = c.texture;
      m.texture.origin = c.path() + " 0x2 texture";
      m.texture.offset = c.offset;
      m.alpha_use = shader_alpha_use(c.shader);
      m.alpha_cutoff = 200.0f / 255.0f;
      // The engine culls back faces; the SDK exports a two-sided surface as a second, flipped
      // copy of its faces (docs/textures.md "Sidedness").
      m.double_sided = false;
      put_name(json_of(m.extras)["xray"], "texture", c.texture);
      put_name(json_of(m.extras)["xray"], "shader", c.shader);
      s.materials.push_back(std::move(m));
    }
    p.material = it->second;
    json_of(p.extras)["xray"] = {{"child", c.index},
                        {"vertex_format", c.vertices->format},
                        {"progressive", !c.windows.empty()}};
    if (c.vertices->links() == 0) {
      statics.primitives.push_back(std::move(p));
      continue;
    }
    if (ogf.header.type == 10)
      if (auto parts = split_by_bone(p, inverse_bind)) {
        for (auto& [joint, q] : *parts) {
          q.material = p.material;
          json_of(q.extras) = json_of(p.extras);
          scene::Mesh& m = rigid[joint];
          if (m.primitives.empty())
            m = {model + "_" + s.skeleton.joints[static_cast<std::size_t>(joint)].name, false, joint, {}, {}};
          m.primitives.push_back(std::move(q));
        }
        continue;
      }
    skinned.primitives.push_back(std::move(p));
  }
  if (!skinned.primitives.empty()) s.meshes.push_back(std::move(skinned));
  for (auto& [joint, m] : rigid) s.meshes.push_back(std::move(m));
  if (!statics.primitives.empty()) s.meshes.push_back(std::move(statics));
  return {};
}

}  // namespace boneyard::xray
