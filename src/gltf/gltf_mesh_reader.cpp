// glTF meshes, skins and materials -> scene (the node/animation side is gltf_reader.cpp).
// Every accessor goes through the checked readers of gltf_reader.cpp; counts are compared before
// any per-vertex loop, so a malformed file is an error, never an out-of-bounds read.
#include <algorithm>
#include <string>

#include "gltf_reader_internal.h"

namespace boneyard::gltf::detail {

namespace {

// Base colour image of material `m`: the image's URI, or its name when it lives in a buffer.
std::string base_color_image(const Json& root, const Json& material) {
  const Json* pbr = member(material, "pbrMetallicRoughness");
  const Json* tex = pbr ? member(*pbr, "baseColorTexture") : nullptr;
  if (tex == nullptr) return {};
  const std::int64_t ti = index_of(*tex, "index", -2);
  const Json& textures = array_of(root, "textures");
  if (ti < 0 || std::size_t(ti) >= textures.size()) return {};
  const std::int64_t ii = index_of(textures[std::size_t(ti)], "source", -2);
  const Json& images = array_of(root, "images");
  if (ii < 0 || std::size_t(ii) >= images.size()) return {};
  const Json& image = images[std::size_t(ii)];
  std::string uri = string_of(image, "uri");
  if (uri.rfind("data:", 0) == 0) uri.clear();  // an embedded image has no file name
  return uri.empty() ? string_of(image, "name") : percent_decode(uri);
}

// The 4 heaviest influences of each vertex over all JOINTS_n/WEIGHTS_n sets into the primitive;
// the weight of the others goes to dropped_weights (the importers report it as moved).
void keep_heaviest_influences(const std::vector<std::vector<std::uint16_t>>& joint_sets,
                              const std::vector<std::vector<float>>& weight_sets, std::size_t n, scene::Primitive& p) {
  p.joints = joint_sets[0];
  p.weights = weight_sets[0];
  if (joint_sets.size() == 1) return;
  p.dropped_weights.assign(n, 0.0f);
  std::vector<std::pair<float, std::uint16_t>> all;
  for (std::size_t v = 0; v < n; ++v) {
    all.clear();
    for (std::size_t set = 0; set < joint_sets.size(); ++set)
      for (std::size_t k = 0; k < 4; ++k) {
        const float w = weight_sets[set][v * 4 + k];
        all.emplace_back(w > 0 ? w : 0.0f, joint_sets[set][v * 4 + k]);  // NaN and negatives weigh nothing
      }
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (k < 4) {
        p.weights[v * 4 + k] = all[k].first;
        p.joints[v * 4 + k] = all[k].second;
      } else if (all[k].first > 0) {
        p.dropped_weights[v] += all[k].first;
      }
    }
  }
}

// Triangle list from the primitive's indices in `mode` (4 list, 5 strip, 6 fan).
std::vector<std::uint32_t> to_triangle_list(std::vector<std::uint32_t> idx, std::int64_t mode) {
  if (mode == 4) {
    idx.resize(idx.size() / 3 * 3);
    return idx;
  }
  std::vector<std::uint32_t> out;
  for (std::size_t i = 2; i < idx.size(); ++i) {
    if (mode == 5) {  // glTF strips: even i -> (i-2, i-1, i), odd i -> (i-1, i-2, i)
      if (i % 2 == 0) out.insert(out.end(), {idx[i - 2], idx[i - 1], idx[i]});
      else out.insert(out.end(), {idx[i - 1], idx[i - 2], idx[i]});
    } else {
      out.insert(out.end(), {idx[i - 1], idx[i], idx[0]});
    }
  }
  return out;
}

std::optional<Finding> read_primitive(const Model& m, const Json& pj, const std::string& where,
                                      const std::vector<std::uint32_t>* skin, std::size_t materials,
                                      Diagnostics& warnings, scene::Primitive& p, bool& skipped) {
  skipped = false;
  const std::int64_t mode = index_of(pj, "mode", 4);
  if (mode < 0 || mode > 6) return error(where, "invalid primitive mode", "0..6", std::to_string(mode));
  if (mode < 4) {
    warnings.add(Severity::warning, 0, where, "points or lines are not triangles; primitive skipped",
                 "mode 4 (triangles)", std::to_string(mode));
    skipped = true;
    return std::nullopt;
  }
  const Json* attrs = member(pj, "attributes");
  if (attrs == nullptr || !attrs->is_object()) return error(where, "primitive has no attributes");
  const std::int64_t pos = index_of(*attrs, "POSITION", -2);
  if (pos < 0) return error(where, "primitive has no POSITION", "a POSITION accessor", "none");
  if (auto e = read_floats(m, pos, 3, where + " POSITION", p.positions)) return e;
  const std::size_t n = p.vertex_count();
  auto same_count = [&](std::size_t got, std::size_t width, const char* what) -> std::optional<Finding> {
    if (got != n * width)
      return error(where + " " + what, "attribute count differs from POSITION", std::to_string(n),
                   std::to_string(got / width));
    return std::nullopt;
  };
  if (const std::int64_t a = index_of(*attrs, "NORMAL", -1); a != -1) {
    if (auto e = read_floats(m, a, 3, where + " NORMAL", p.normals)) return e;
    if (auto e = same_count(p.normals.size(), 3, "NORMAL")) return e;
  }
  for (int k = 0; k < 8; ++k) {
    const std::string name = "TEXCOORD_" + std::to_string(k);
    const std::int64_t a = index_of(*attrs, name.c_str(), -1);
    if (a == -1) break;
    p.uvs.emplace_back();
    if (auto e = read_floats(m, a, 2, where + " " + name, p.uvs.back())) return e;
    if (auto e = same_count(p.uvs.back().size(), 2, name.c_str())) return e;
  }
  const std::int64_t ja = index_of(*attrs, "JOINTS_0", -1), wa = index_of(*attrs, "WEIGHTS_0", -1);
  if (skin != nullptr && ja != -1 && wa != -1) {
    // Every JOINTS_n/WEIGHTS_n set, 4 influences per vertex each, as (skin joint, weight).
    std::vector<std::vector<std::uint16_t>> joint_sets;
    std::vector<std::vector<float>> weight_sets;
    for (int set = 0;; ++set) {
      const std::string jn = "JOINTS_" + std::to_string(set), wn = "WEIGHTS_" + std::to_string(set);
      const std::int64_t js = index_of(*attrs, jn.c_str(), -1), ws = index_of(*attrs, wn.c_str(), -1);
      if (js == -1 || ws == -1) break;
      std::vector<std::uint32_t> joints;
      std::vector<float> weights;
      if (auto e = read_uints(m, js, 4, where + " " + jn, joints)) return e;
      if (auto e = same_count(joints.size(), 4, jn.c_str())) return e;
      if (auto e = read_floats(m, ws, 4, where + " " + wn, weights)) return e;
      if (auto e = same_count(weights.size(), 4, wn.c_str())) return e;
      std::vector<std::uint16_t> mapped(joints.size(), 0);
      for (std::size_t i = 0; i < joints.size(); ++i) {
        if (joints[i] >= skin->size()) {
          if (weights[i] == 0) continue;  // an unused slot may name any joint
          return error(where + " " + jn, "joint index past the skin's joints", "< " + std::to_string(skin->size()),
                       std::to_string(joints[i]));
        }
        mapped[i] = static_cast<std::uint16_t>((*skin)[joints[i]]);
      }
      joint_sets.push_back(std::move(mapped));
      weight_sets.push_back(std::move(weights));
    }
    keep_heaviest_influences(joint_sets, weight_sets, n, p);
  }
  std::vector<std::uint32_t> idx;
  if (const std::int64_t ia = index_of(pj, "indices", -1); ia != -1) {
    if (auto e = read_uints(m, ia, 1, where + " indices", idx)) return e;
  } else {
    idx.resize(n);
    for (std::size_t i = 0; i < n; ++i) idx[i] = static_cast<std::uint32_t>(i);
  }
  for (std::size_t i = 0; i < idx.size(); ++i)
    if (idx[i] >= n)
      return error(where + " indices", "index past the vertices", "< " + std::to_string(n), std::to_string(idx[i]));
  if (mode == 4 && idx.size() % 3 != 0)
    warnings.add(Severity::warning, 0, where, "index count is not a multiple of 3; the rest is ignored",
                 "3 per triangle", std::to_string(idx.size()));
  if (mode != 4)
    warnings.add(Severity::warning, 0, where, "triangle strip or fan converted to a triangle list");
  p.indices = to_triangle_list(std::move(idx), mode);
  const std::int64_t mat = index_of(pj, "material", -1);
  if (mat == -2 || (mat >= 0 && std::size_t(mat) >= materials))
    return error(where, "material index out of range", "< " + std::to_string(materials), std::to_string(mat));
  p.material = mat >= 0 ? static_cast<std::uint32_t>(mat) : scene::kNoMaterial;
  return std::nullopt;
}

}  // namespace

std::optional<Finding> read_meshes(Model& m, scene::Scene& s, Diagnostics& warnings) {
  const Json& root = m.json;
  const Json& nodes = array_of(root, "nodes");
  for (const auto& mj : array_of(root, "materials")) {
    scene::Material mat;
    mat.name = string_of(mj, "name");
    const Json* ds = member(mj, "doubleSided");
    mat.double_sided = ds && ds->is_boolean() && ds->get<bool>();  // glTF default: single-sided
    mat.image_name = base_color_image(root, mj);
    set_extras(mat.extras, mj);
    s.materials.push_back(std::move(mat));
  }
  // Skins: joint lists as node indices.
  const Json& skins_json = array_of(root, "skins");
  std::vector<std::vector<std::uint32_t>> skins(skins_json.size());
  for (std::size_t k = 0; k < skins_json.size(); ++k) {
    for (const auto& jj : array_of(skins_json[k], "joints")) {
      const std::int64_t j = jj.is_number_unsigned() ? std::int64_t(std::min<std::uint64_t>(jj.get<std::uint64_t>(), 1ull << 40)) : -1;
      if (j < 0 || std::size_t(j) >= nodes.size() || j > 0xFFFF)
        return error("skin " + std::to_string(k), "joint is not a node", "< " + std::to_string(nodes.size()), jj.dump());
      skins[k].push_back(static_cast<std::uint32_t>(j));
    }
  }
  if (!skins.empty()) s.skeleton.skin = skins[0];
  const Json& meshes = array_of(root, "meshes");
  // A mesh that only one node instantiates gives its extras away instead of copying them (an
  // MGS2 export's per-packet extras are most of its JSON).
  std::vector<std::uint32_t> instances(meshes.size(), 0);
  for (const auto& nj : nodes)
    if (const std::int64_t mi = index_of(nj, "mesh", -1); mi >= 0 && std::size_t(mi) < meshes.size()) ++instances[std::size_t(mi)];
  for (std::size_t ni = 0; ni < nodes.size(); ++ni) {
    const std::int64_t mi = index_of(nodes[ni], "mesh", -1);
    if (mi == -1) continue;
    const std::string nw = "node " + std::to_string(ni);
    if (mi < 0 || std::size_t(mi) >= meshes.size())
      return error(nw, "mesh index out of range", "< " + std::to_string(meshes.size()), std::to_string(mi));
    const std::int64_t si = index_of(nodes[ni], "skin", -1);
    if (si == -2 || (si >= 0 && std::size_t(si) >= skins.size()))
      return error(nw, "skin index out of range", "< " + std::to_string(skins.size()), std::to_string(si));
    // The document's own mesh (`meshes` is a view of m.json's "meshes" array), whose extras it may give away.
    Json& mj = m.json["meshes"][std::size_t(mi)];
    const bool once = instances[std::size_t(mi)] == 1;
    scene::Mesh mesh;
    mesh.name = string_of(mj, "name");
    if (mesh.name.empty()) mesh.name = string_of(nodes[ni], "name");
    mesh.skinned = si >= 0;
    mesh.joint = static_cast<int>(ni);
    move_or_copy_extras(mesh.extras, mj, once);
    const std::vector<std::uint32_t>* skin = si >= 0 ? &skins[std::size_t(si)] : nullptr;
    Json* prims = member(mj, "primitives");
    const std::size_t count = prims != nullptr && prims->is_array() ? prims->size() : 0;
    for (std::size_t pi = 0; pi < count; ++pi) {
      const std::string where = "mesh " + std::to_string(mi) + " (" + in_quotes(mesh.name) + ") primitive " + std::to_string(pi);
      scene::Primitive p;
      bool skipped = false;
      if (auto e = read_primitive(m, (*prims)[pi], where, skin, s.materials.size(), warnings, p, skipped)) return e;
      if (skipped) continue;
      move_or_copy_extras(p.extras, (*prims)[pi], once);
      mesh.primitives.push_back(std::move(p));
    }
    s.meshes.push_back(std::move(mesh));
  }
  return std::nullopt;
}

}  // namespace boneyard::gltf::detail
