// glTF 2.0 writer. The JSON is built as text (a DOM for ~10k accessors costs more than the key
// data itself); extras are the adapters' JSON text. The binary buffer is laid out as
// [inverse bind matrices][key times][3-float outputs][4-float outputs][one view per mesh
// attribute or index array], every view 4-byte aligned and tightly packed, so no accessor needs a
// byteStride (vertex attributes cannot share a view without one). Indices are 16-bit when the
// primitive has at most 65536 vertices.
#include "boneyard/gltf.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>

#include "boneyard/bytes.h"
#include "boneyard/file_io.h"

namespace boneyard::gltf {

namespace {

class Json {
 public:
  std::string s;
  void raw(std::string_view v) { s.append(v); }
  void str(std::string_view v) {
    s.push_back('"');
    for (unsigned char c : v) {
      if (c == '"' || c == '\\') {
        s.push_back('\\');
        s.push_back(static_cast<char>(c));
      } else if (c < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", c);
        s.append(b);
      } else {
        s.push_back(static_cast<char>(c));
      }
    }
    s.push_back('"');
  }
  void num(std::uint64_t v) {
    char b[24];
    auto r = std::to_chars(b, b + sizeof b, v);
    s.append(b, r.ptr);
  }
  void num(float v) {
    char b[32];
    auto r = std::to_chars(b, b + sizeof b, v);  // shortest text that reads back to the same float
    s.append(b, r.ptr);
  }
  void extras(const scene::Extras& e) {
    if (e.empty()) return;
    raw(",\"extras\":");
    raw(e.text());
  }
};

struct AccessorInfo {
  std::uint32_t view = 0;  // index into the views list (not yet the glTF index)
  std::size_t offset = 0;  // within the view
  std::size_t count = 0;
  const char* type = "SCALAR";
  std::uint32_t component = 5126;  // FLOAT
  int minmax = 0;                  // number of components that carry min/max
  std::array<float, 3> min{}, max{};
};

// A region of the binary buffer; views with data become glTF bufferViews in this order.
struct View {
  std::size_t start = 0, size = 0;
  std::uint32_t target = 0;  // 34962 ARRAY_BUFFER, 34963 ELEMENT_ARRAY_BUFFER, 0 none
};

// A copy into the binary buffer, recorded while laying it out and run once its place is known.
struct Copy {
  std::uint32_t view = 0;
  std::size_t offset = 0;
  const void* data = nullptr;
  std::size_t bytes = 0;
};

std::string percent_encode(std::string_view s, bool keep_slashes = false) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slashes && c == '/')) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}


}  // namespace

std::optional<Container> container_for(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".glb") return Container::glb;
  if (ext == ".gltf") return Container::gltf;
  return std::nullopt;
}

namespace {

// Lays out the binary buffer: views are appended in order, each 4-byte aligned.
class Layout {
 public:
  std::vector<View> views;
  std::vector<AccessorInfo> accessors;
  std::vector<Copy> copies;

  std::uint32_t add_view(std::uint32_t target = 0) {
    views.push_back({0, 0, target});
    return static_cast<std::uint32_t>(views.size() - 1);
  }
  // Reserves `bytes` at the end of `view`; returns the offset within it.
  std::size_t reserve(std::uint32_t view, std::size_t bytes) {
    const std::size_t at = views[view].size;
    views[view].size += bytes;
    return at;
  }
  std::size_t add_accessor(const AccessorInfo& info) {
    accessors.push_back(info);
    return accessors.size() - 1;
  }
  // A view holding exactly one accessor over `data` (vertex attributes cannot share a view
  // without a byteStride).
  std::size_t add_array(const void* data, std::size_t bytes, std::size_t count, const char* type,
                        std::uint32_t component, std::uint32_t target) {
    const std::uint32_t v = add_view(target);
    copies.push_back({v, reserve(v, bytes), data, bytes});
    return add_accessor({v, 0, count, type, component});
  }
  // Assigns each view its place; returns the buffer's total size.
  std::size_t finish() {
    std::size_t total = 0;
    for (auto& v : views) {
      if (v.size == 0) continue;
      v.start = total;
      total = (total + v.size + 3) & ~std::size_t{3};
    }
    return total;
  }
};

struct PrimitiveAccessors {
  std::size_t position = 0;
  std::optional<std::size_t> normal, joints, weights, indices;
  std::vector<std::size_t> uvs;
};

void put_floats(Json& j, const float* v, int n) {
  for (int k = 0; k < n; ++k) {
    if (k) j.raw(",");
    j.num(v[k]);
  }
}

// "meshes", "materials", "textures" and "images" (images deduplicated by URI).
void write_meshes_json(Json& j, const scene::Scene& sc, const std::vector<bool>& written,
                       const std::vector<std::vector<PrimitiveAccessors>>& acc) {
  bool first_mesh = true;
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!written[mi]) continue;
    const auto& mesh = sc.meshes[mi];
    j.raw(first_mesh ? ",\"meshes\":[{\"name\":" : ",{\"name\":");
    first_mesh = false;
    j.str(mesh.name);
    j.raw(",\"primitives\":[");
    std::size_t k = 0;
    for (const auto& p : mesh.primitives) {
      if (p.vertex_count() == 0) continue;
      const auto& pa = acc[mi][k];
      j.raw(k++ ? ",{\"attributes\":{\"POSITION\":" : "{\"attributes\":{\"POSITION\":");
      j.num(std::uint64_t{pa.position});
      if (pa.normal) j.raw(",\"NORMAL\":"), j.num(std::uint64_t{*pa.normal});
      for (std::size_t u = 0; u < pa.uvs.size(); ++u) {
        j.raw(",\"TEXCOORD_"), j.num(std::uint64_t{u}), j.raw("\":");
        j.num(std::uint64_t{pa.uvs[u]});
      }
      if (pa.joints) {
        j.raw(",\"JOINTS_0\":"), j.num(std::uint64_t{*pa.joints});
        j.raw(",\"WEIGHTS_0\":"), j.num(std::uint64_t{*pa.weights});
      }
      j.raw("}");
      if (pa.indices) j.raw(",\"indices\":"), j.num(std::uint64_t{*pa.indices});
      if (p.material < sc.materials.size()) j.raw(",\"material\":"), j.num(std::uint64_t{p.material});
      j.extras(p.extras);
      j.raw("}");
    }
    j.raw("]");
    j.extras(mesh.extras);
    j.raw("}");
  }
  if (!first_mesh) j.raw("]");
  if (sc.materials.empty()) return;
  std::map<std::string, std::size_t> image_of;
  std::vector<const std::string*> images;
  for (const auto& m : sc.materials)
    if (!m.image_uri.empty() && image_of.try_emplace(m.image_uri, images.size()).second) images.push_back(&m.image_uri);
  j.raw(",\"materials\":[");
  for (std::size_t i = 0; i < sc.materials.size(); ++i) {
    const auto& m = sc.materials[i];
    j.raw(i ? ",{\"name\":" : "{\"name\":");
    j.str(m.name);
    j.raw(",\"pbrMetallicRoughness\":{");
    if (!m.image_uri.empty()) {
      j.raw("\"baseColorTexture\":{\"index\":");
      j.num(std::uint64_t{image_of[m.image_uri]});  // texture i samples image i
      j.raw("},");
    }
    j.raw("\"metallicFactor\":0,\"roughnessFactor\":1}");
    if (m.double_sided) j.raw(",\"doubleSided\":true");
    j.extras(m.extras);
    j.raw("}");
  }
  j.raw("]");
  if (images.empty()) return;
  j.raw(",\"textures\":[");
  for (std::size_t i = 0; i < images.size(); ++i) {
    j.raw(i ? ",{\"source\":" : "{\"source\":");
    j.num(std::uint64_t{i});
    j.raw("}");
  }
  j.raw("],\"images\":[");
  for (std::size_t i = 0; i < images.size(); ++i) {
    j.raw(i ? ",{\"uri\":" : "{\"uri\":");
    j.str(percent_encode(*images[i], true));
    j.raw("}");
  }
  j.raw("]");
}

}  // namespace

Output write(const scene::Scene& sc, Container container, std::string_view bin_uri) {
  const auto& joints = sc.skeleton.joints;
  const std::size_t n = joints.size();
  Layout L;

  // ---- inverse bind matrices, key times, key values ----
  std::vector<float> ibm;
  std::optional<std::size_t> ibm_accessor;
  if (n > 0) {
    const auto world = scene::world_matrices(sc.skeleton);
    ibm.resize(n * 16);
    for (std::size_t ji = 0; ji < n; ++ji) {
      const scene::Mat4 inv = scene::inverse_affine(world[ji]);
      float* m = &ibm[ji * 16];
      for (int k = 0; k < 16; ++k) m[k] = static_cast<float>(inv[k]);
      m[3] = m[7] = m[11] = 0, m[15] = 1;  // exact affine bottom row (the validator checks it)
    }
    ibm_accessor = L.add_array(ibm.data(), ibm.size() * 4, n, "MAT4", 5126, 0);
  }
  const std::uint32_t times_view = L.add_view(), vec3_view = L.add_view(), vec4_view = L.add_view();
  // Key times are shared across animations when equal (every 30 fps timeline of k keys is).
  std::map<std::vector<float>, std::size_t> time_accessor;
  std::vector<std::vector<std::size_t>> timeline_acc(sc.animations.size());
  std::vector<std::vector<std::size_t>> channel_acc(sc.animations.size());
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    const auto& anim = sc.animations[a];
    std::vector<bool> used(anim.timelines.size(), false);
    for (const auto& ch : anim.channels)
      if (ch.timeline < used.size()) used[ch.timeline] = true;
    for (std::size_t ti = 0; ti < anim.timelines.size(); ++ti) {
      const auto& t = anim.timelines[ti];
      // An accessor no sampler reads would be flagged as unused by the validator.
      if (!used[ti]) {
        timeline_acc[a].push_back(0);
        continue;
      }
      auto [it, inserted] = time_accessor.try_emplace(t.times, L.accessors.size());
      if (inserted) {
        AccessorInfo info{times_view, L.reserve(times_view, t.times.size() * 4), t.times.size(), "SCALAR"};
        info.minmax = 1;
        if (!t.times.empty()) info.min[0] = t.times.front(), info.max[0] = t.times.back();
        L.add_accessor(info);
        L.copies.push_back({times_view, info.offset, it->first.data(), t.times.size() * 4});
      }
      timeline_acc[a].push_back(it->second);
    }
    for (const auto& ch : anim.channels) {
      const bool rot = ch.path == scene::Channel::Path::rotation;
      const std::uint32_t view = rot ? vec4_view : vec3_view;
      const std::size_t at = L.reserve(view, ch.values.size() * 4);
      channel_acc[a].push_back(L.add_accessor({view, at, ch.values.size() / (rot ? 4 : 3), rot ? "VEC4" : "VEC3"}));
      L.copies.push_back({view, at, ch.values.data(), ch.values.size() * 4});
    }
  }

  // ---- meshes: one view per attribute accessor ----
  std::vector<std::vector<PrimitiveAccessors>> mesh_acc(sc.meshes.size());
  std::vector<std::vector<std::uint16_t>> short_indices;  // u32 indices narrowed where they fit
  short_indices.reserve([&] {
    std::size_t c = 0;
    for (const auto& m : sc.meshes) c += m.primitives.size();
    return c;
  }());
  std::vector<bool> mesh_written(sc.meshes.size(), false);
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    for (const auto& p : sc.meshes[mi].primitives) {
      const std::size_t vc = p.vertex_count();
      if (vc == 0) continue;  // glTF has no empty primitives; the mesh keeps the others
      PrimitiveAccessors pa;
      pa.position = L.add_array(p.positions.data(), vc * 12, vc, "VEC3", 5126, 34962);
      auto& pos = L.accessors[pa.position];
      pos.minmax = 3;
      pos.min = {p.positions[0], p.positions[1], p.positions[2]};
      pos.max = pos.min;
      for (std::size_t v = 1; v < vc; ++v)
        for (int k = 0; k < 3; ++k) {
          pos.min[k] = std::min(pos.min[k], p.positions[v * 3 + k]);
          pos.max[k] = std::max(pos.max[k], p.positions[v * 3 + k]);
        }
      if (p.normals.size() == vc * 3) pa.normal = L.add_array(p.normals.data(), vc * 12, vc, "VEC3", 5126, 34962);
      for (const auto& uv : p.uvs)
        if (uv.size() == vc * 2) pa.uvs.push_back(L.add_array(uv.data(), vc * 8, vc, "VEC2", 5126, 34962));
      const bool skinned = sc.meshes[mi].skinned && n > 0 && p.joints.size() == vc * 4 && p.weights.size() == vc * 4;
      if (skinned) {
        pa.joints = L.add_array(p.joints.data(), vc * 8, vc, "VEC4", 5123, 34962);
        pa.weights = L.add_array(p.weights.data(), vc * 16, vc, "VEC4", 5126, 34962);
      }
      if (!p.indices.empty()) {
        const bool narrow = vc <= 0x10000;
        if (narrow) {
          auto& s16 = short_indices.emplace_back(p.indices.begin(), p.indices.end());
          pa.indices = L.add_array(s16.data(), s16.size() * 2, s16.size(), "SCALAR", 5123, 34963);
        } else {
          pa.indices = L.add_array(p.indices.data(), p.indices.size() * 4, p.indices.size(), "SCALAR", 5125, 34963);
        }
      }
      mesh_acc[mi].push_back(std::move(pa));
      mesh_written[mi] = true;
    }
  }
  const std::size_t total = L.finish();
  std::vector<int> view_index(L.views.size(), -1);
  int views = 0;
  for (std::size_t v = 0; v < L.views.size(); ++v)
    if (L.views[v].size > 0) view_index[v] = views++;

  // ---- nodes: joints 0..n-1, the armature n, then one node per written mesh ----
  std::vector<std::size_t> mesh_index(sc.meshes.size(), 0), mesh_node(sc.meshes.size(), 0);
  std::vector<std::vector<std::size_t>> children(n + 1);
  std::vector<std::size_t> scene_roots{n};
  {
    std::size_t meshes = 0;
    for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
      if (!mesh_written[mi]) continue;
      mesh_index[mi] = meshes;
      mesh_node[mi] = n + 1 + meshes++;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const int p = joints[i].parent;
    children[p >= 0 && static_cast<std::size_t>(p) < n ? static_cast<std::size_t>(p) : n].push_back(i);
  }
  auto skinned_mesh = [&](std::size_t mi) {
    return sc.meshes[mi].skinned && n > 0 && mesh_acc[mi].front().joints.has_value();
  };
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!mesh_written[mi]) continue;
    // Skinned mesh nodes are scene roots: glTF ignores their transform and parents' transforms.
    if (skinned_mesh(mi)) {
      scene_roots.push_back(mesh_node[mi]);
    } else {
      const int jt = sc.meshes[mi].joint;
      children[jt >= 0 && static_cast<std::size_t>(jt) < n ? static_cast<std::size_t>(jt) : n].push_back(mesh_node[mi]);
    }
  }

  // ---- JSON ----
  Json j;
  j.s.reserve(256 + n * 200 + L.accessors.size() * 110 + sc.animations.size() * 300 + sc.materials.size() * 200);
  j.raw("{\"asset\":{\"version\":\"2.0\",\"generator\":");
  j.str(sc.generator.empty() ? "boneyard" : sc.generator);
  j.raw("},\"scene\":0,\"scenes\":[{\"nodes\":[");
  for (std::size_t r = 0; r < scene_roots.size(); ++r) {
    if (r) j.raw(",");
    j.num(std::uint64_t{scene_roots[r]});
  }
  j.raw("]");
  j.extras(sc.extras);
  j.raw("}],\"nodes\":[");
  auto put_children = [&](std::size_t node) {
    if (children[node].empty()) return;
    j.raw(",\"children\":[");
    for (std::size_t k = 0; k < children[node].size(); ++k) {
      if (k) j.raw(",");
      j.num(std::uint64_t{children[node][k]});
    }
    j.raw("]");
  };
  for (std::size_t i = 0; i < n; ++i) {
    const auto& jt = joints[i];
    j.raw(i ? ",{\"name\":" : "{\"name\":");
    j.str(jt.name);
    j.raw(",\"translation\":[");
    const float t[3] = {jt.translation.x, jt.translation.y, jt.translation.z};
    put_floats(j, t, 3);
    j.raw("],\"rotation\":[");
    const float r[4] = {jt.rotation.x, jt.rotation.y, jt.rotation.z, jt.rotation.w};
    put_floats(j, r, 4);
    j.raw("]");
    if (jt.scale != Vec3{1, 1, 1}) {
      j.raw(",\"scale\":[");
      const float sc3[3] = {jt.scale.x, jt.scale.y, jt.scale.z};
      put_floats(j, sc3, 3);
      j.raw("]");
    }
    put_children(i);
    j.extras(jt.extras);
    j.raw("}");
  }
  j.raw(n ? ",{\"name\":" : "{\"name\":");
  j.str(sc.skeleton.name.empty() ? "Armature" : sc.skeleton.name);
  put_children(n);
  j.extras(sc.skeleton.extras);
  j.raw("}");
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!mesh_written[mi]) continue;
    j.raw(",{\"name\":");
    j.str(sc.meshes[mi].name);
    j.raw(",\"mesh\":");
    j.num(std::uint64_t{mesh_index[mi]});
    if (skinned_mesh(mi)) j.raw(",\"skin\":0");
    j.raw("}");
  }
  j.raw("]");
  if (n > 0) {
    j.raw(",\"skins\":[{\"inverseBindMatrices\":");
    j.num(std::uint64_t{*ibm_accessor});
    j.raw(",\"skeleton\":");
    j.num(std::uint64_t{n});
    j.raw(",\"joints\":[");
    for (std::size_t i = 0; i < n; ++i) {
      if (i) j.raw(",");
      j.num(std::uint64_t{i});
    }
    j.raw("]}]");
  }
  write_meshes_json(j, sc, mesh_written, mesh_acc);
  // Animations (channels without keys cannot be written; adapters never make them).
  bool first_anim = true;
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    const auto& anim = sc.animations[a];
    if (anim.channels.empty()) continue;
    j.raw(first_anim ? ",\"animations\":[{\"name\":" : ",{\"name\":");
    first_anim = false;
    j.str(anim.name);
    j.raw(",\"samplers\":[");
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      j.raw(c ? ",{\"input\":" : "{\"input\":");
      j.num(std::uint64_t{timeline_acc[a][anim.channels[c].timeline]});
      j.raw(",\"output\":");
      j.num(std::uint64_t{channel_acc[a][c]});
      j.raw(",\"interpolation\":\"LINEAR\"}");
    }
    j.raw("],\"channels\":[");
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const auto& ch = anim.channels[c];
      j.raw(c ? ",{\"sampler\":" : "{\"sampler\":");
      j.num(std::uint64_t{c});
      j.raw(",\"target\":{\"node\":");
      j.num(std::uint64_t{ch.joint});
      j.raw(ch.path == scene::Channel::Path::rotation      ? ",\"path\":\"rotation\"}}"
            : ch.path == scene::Channel::Path::translation ? ",\"path\":\"translation\"}}"
                                                           : ",\"path\":\"scale\"}}");
    }
    j.raw("]");
    j.extras(anim.extras);
    j.raw("}");
  }
  if (!first_anim) j.raw("]");
  if (!L.accessors.empty()) {
    j.raw(",\"accessors\":[");
    for (std::size_t i = 0; i < L.accessors.size(); ++i) {
      const auto& info = L.accessors[i];
      j.raw(i ? ",{\"bufferView\":" : "{\"bufferView\":");
      j.num(std::uint64_t(view_index[info.view]));
      if (info.offset) {
        j.raw(",\"byteOffset\":");
        j.num(std::uint64_t{info.offset});
      }
      j.raw(",\"componentType\":");
      j.num(std::uint64_t{info.component});
      j.raw(",\"count\":");
      j.num(std::uint64_t{info.count});
      j.raw(",\"type\":\"");
      j.raw(info.type);
      j.raw("\"");
      if (info.minmax) {
        j.raw(",\"min\":["), put_floats(j, info.min.data(), info.minmax);
        j.raw("],\"max\":["), put_floats(j, info.max.data(), info.minmax), j.raw("]");
      }
      j.raw("}");
    }
    j.raw("],\"bufferViews\":[");
    bool first = true;
    for (const auto& v : L.views) {
      if (v.size == 0) continue;
      j.raw(first ? "{\"buffer\":0" : ",{\"buffer\":0");
      first = false;
      if (v.start) {
        j.raw(",\"byteOffset\":");
        j.num(std::uint64_t{v.start});
      }
      j.raw(",\"byteLength\":");
      j.num(std::uint64_t{v.size});
      if (v.target) {
        j.raw(",\"target\":");
        j.num(std::uint64_t{v.target});
      }
      j.raw("}");
    }
    j.raw("],\"buffers\":[{\"byteLength\":");
    j.num(std::uint64_t{total});
    if (container == Container::gltf) {
      j.raw(",\"uri\":");
      j.str(percent_encode(bin_uri));
    }
    j.raw("}]");
  }
  j.raw("}");

  // ---- binary buffer, written straight into its final place (the .bin, or the GLB's BIN chunk) ----
  auto fill_bin = [&](std::uint8_t* bin) {
    for (const auto& c : L.copies)
      if (c.bytes) std::memcpy(bin + L.views[c.view].start + c.offset, c.data, c.bytes);
  };

  Output out;
  if (container == Container::gltf) {
    out.main.assign(j.s.begin(), j.s.end());
    out.main.push_back('\n');
    if (total > 0) {
      out.bin.resize(total);
      fill_bin(out.bin.data());
    }
    return out;
  }
  // GLB: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros.
  while (j.s.size() % 4 != 0) j.s.push_back(' ');
  const std::size_t bin_padded = (total + 3) & ~std::size_t{3};
  const std::size_t length = 12 + 8 + j.s.size() + (total == 0 ? 0 : 8 + bin_padded);
  out.main.reserve(length);
  ByteWriter w(out.main);
  w.u32(0x46546C67);  // "glTF"
  w.u32(2);
  w.u32(static_cast<std::uint32_t>(length));
  w.u32(static_cast<std::uint32_t>(j.s.size()));
  w.u32(0x4E4F534A);  // "JSON"
  w.bytes(std::string_view(j.s));
  if (total > 0) {
    w.u32(static_cast<std::uint32_t>(bin_padded));
    w.u32(0x004E4942);  // "BIN\0"
    const std::size_t at = out.main.size();
    w.zeros(bin_padded);
    fill_bin(out.main.data() + at);
  }
  return out;
}

std::string write_files(const scene::Scene& scene, const std::filesystem::path& path) {
  const auto container = container_for(path);
  if (!container) return path.string() + ": not a .glb or .gltf file name";
  if (*container == Container::glb) return write_file_atomic(path, write(scene, Container::glb).main);
  std::filesystem::path bin_path = path;
  bin_path.replace_extension(".bin");
  Output out = write(scene, Container::gltf, bin_path.filename().string());
  if (!out.bin.empty())
    if (auto err = write_file_atomic(bin_path, out.bin); !err.empty()) return err;
  auto err = write_file_atomic(path, out.main);
  if (!err.empty() && !out.bin.empty()) {
    // A .bin without its .gltf is half an output: take it back.
    std::error_code ec;
    std::filesystem::remove(bin_path, ec);
  }
  return err;
}

}  // namespace boneyard::gltf
