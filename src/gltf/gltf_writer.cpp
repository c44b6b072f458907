// glTF 2.0 writer. Everything is laid out first (buffer views, accessors, the JSON text, in which
// extras are the adapters' JSON text), then streamed: the .glb header, the JSON chunk and the
// binary chunk copied straight from the scene's arrays, so a large output is never held whole in
// memory. The binary buffer is [inverse bind matrices][key times][3-float outputs][4-float
// outputs][one view per mesh attribute or index array]; indices are 16-bit when the primitive
// has at most 65536 vertices.
#include "boneyard/gltf.h"

#include <map>
#include <optional>

#include "boneyard/bytes.h"
#include "boneyard/file_io.h"
#include "gltf_buffer_layout.h"
#include "gltf_json_text.h"

namespace boneyard::gltf {

std::optional<Container> container_for(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".glb") return Container::glb;
  if (ext == ".gltf") return Container::gltf;
  return std::nullopt;
}

namespace {

struct PrimitiveAccessors {
  std::size_t position = 0;
  std::optional<std::size_t> normal, joints, weights, indices;
  std::vector<std::size_t> uvs;
};

constexpr std::uint32_t kFloat = 5126, kShort = 5122, kUnsignedShort = 5123, kUnsignedInt = 5125;
constexpr std::uint32_t kArrayBuffer = 34962, kElementArrayBuffer = 34963;

}  // namespace

// The laid-out document: buffer layout, node numbering and JSON text, built once by the steps
// below (in the order the constructor runs them).
struct Encoding::State {
  const scene::Scene& sc;
  Container container;
  std::size_t n;  // joints: nodes 0..n-1, the armature node n, then one node per written mesh
  BufferLayout L;
  JsonText j;

  std::vector<float> ibm;  // inverse bind matrices (the buffer copies them from here)
  std::optional<std::size_t> ibm_accessor;
  std::vector<std::vector<std::size_t>> timeline_acc, channel_acc;
  std::vector<std::vector<PrimitiveAccessors>> mesh_acc;
  std::vector<std::vector<std::uint16_t>> short_indices;  // u32 indices narrowed where they fit
  std::vector<bool> mesh_written;
  std::vector<std::size_t> mesh_index, mesh_node;
  std::vector<std::vector<std::size_t>> children;
  std::vector<std::size_t> scene_roots;
  // Images some material uses, in glTF order (image_index maps scene images to them), and the
  // buffer view of each embedded one.
  std::vector<std::uint32_t> images;
  std::vector<std::uint32_t> image_index;
  std::vector<std::optional<std::uint32_t>> image_view;

  State(const scene::Scene& s, Container c) : sc(s), container(c), n(s.skeleton.joints.size()) {}

  void lay_out_inverse_bind_matrices();
  void lay_out_animations();
  void lay_out_meshes();
  void lay_out_images();
  void number_nodes();
  bool skinned_mesh(std::size_t mi) const {
    return sc.meshes[mi].skinned && n > 0 && mesh_acc[mi].front().joints.has_value();
  }

  void json_nodes();
  void json_skin();
  void json_meshes();
  void json_materials();
  void json_animations();
  void json_accessors();
  void json_buffer_views(std::string_view bin_uri);
  void json(std::string_view bin_uri);
};

void Encoding::State::lay_out_inverse_bind_matrices() {
  if (n == 0) return;
  const auto world = scene::world_matrices(sc.skeleton);
  ibm.resize(n * 16);
  for (std::size_t ji = 0; ji < n; ++ji) {
    const scene::Mat4 inv = scene::inverse_affine(world[ji]);
    float* m = &ibm[ji * 16];
    for (int k = 0; k < 16; ++k) m[k] = static_cast<float>(inv[k]);
    m[3] = m[7] = m[11] = 0, m[15] = 1;  // exact affine bottom row (the validator checks it)
  }
  ibm_accessor = L.add_array(ibm.data(), ibm.size() * 4, n, "MAT4", kFloat, 0);
}

// Key times, then outputs by kind: 3-float, 4-float and normalised 4-short (rotations that carry
// their stored integers). Equal arrays share one accessor (SharedAccessors). Arrays of at most two
// keys (held values, referenced by many samplers) come first, in views of their own, so that
// their accessor indices and byte offsets are short in the JSON; key times (a few accessors that
// every sampler reads) before them.
void Encoding::State::lay_out_animations() {
  struct Views {
    std::uint32_t vec3, vec4, short4;
  };
  const std::uint32_t times_view = L.add_view();
  const Views held_views{L.add_view(), L.add_view(), L.add_view()};
  const Views keyed_views{L.add_view(), L.add_view(), L.add_view()};
  SharedAccessors shared(L);
  timeline_acc.resize(sc.animations.size());
  channel_acc.resize(sc.animations.size());
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    timeline_acc[a].assign(sc.animations[a].timelines.size(), 0);
    channel_acc[a].assign(sc.animations[a].channels.size(), 0);
  }
  for (const bool held_pass : {true, false}) {
    const Views& v = held_pass ? held_views : keyed_views;
    for (std::size_t a = 0; a < sc.animations.size(); ++a) {
      const auto& anim = sc.animations[a];
      // Only timelines some sampler reads: an accessor nothing reads is flagged by the validator.
      std::vector<bool> used(anim.timelines.size(), false);
      for (const auto& ch : anim.channels)
        if (ch.timeline < used.size()) used[ch.timeline] = true;
      for (std::size_t ti = 0; ti < anim.timelines.size(); ++ti) {
        const auto& t = anim.timelines[ti];
        if (!used[ti] || !held_pass) continue;  // every timeline in the first pass: few, read by every sampler
        AccessorInfo info{times_view, 0, t.times.size(), "SCALAR"};
        info.minmax = 1;
        if (!t.times.empty()) info.min[0] = t.times.front(), info.max[0] = t.times.back();
        timeline_acc[a][ti] = shared.get(times_view, info, t.times.data(), t.times.size() * 4);
      }
      for (std::size_t c = 0; c < anim.channels.size(); ++c) {
        const auto& ch = anim.channels[c];
        const bool rot = ch.path == scene::Channel::Path::rotation;
        const std::size_t width = rot ? 4 : 3;
        const std::size_t keys = ch.values.size() / width;
        if ((keys <= 2) != held_pass) continue;
        if (rot && !ch.shorts.empty()) {
          AccessorInfo info{v.short4, 0, ch.shorts.size() / 4, "VEC4", kShort};
          info.normalized = true;
          channel_acc[a][c] = shared.get(v.short4, info, ch.shorts.data(), ch.shorts.size() * 2);
          continue;
        }
        const AccessorInfo info{rot ? v.vec4 : v.vec3, 0, keys, rot ? "VEC4" : "VEC3"};
        channel_acc[a][c] = shared.get(info.view, info, ch.values.data(), ch.values.size() * 4);
      }
    }
  }
}

// One view per attribute accessor.
void Encoding::State::lay_out_meshes() {
  mesh_acc.resize(sc.meshes.size());
  mesh_written.assign(sc.meshes.size(), false);
  std::size_t primitives = 0;
  for (const auto& m : sc.meshes) primitives += m.primitives.size();
  short_indices.reserve(primitives);  // the copies point into it: it must never reallocate
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    for (const auto& p : sc.meshes[mi].primitives) {
      const std::size_t vc = p.vertex_count();
      if (vc == 0) continue;  // glTF has no empty primitives; the mesh keeps the others
      PrimitiveAccessors pa;
      pa.position = L.add_array(p.positions.data(), vc * 12, vc, "VEC3", kFloat, kArrayBuffer);
      auto& pos = L.accessors[pa.position];
      pos.minmax = 3;
      pos.min = {p.positions[0], p.positions[1], p.positions[2]};
      pos.max = pos.min;
      for (std::size_t v = 1; v < vc; ++v)
        for (int k = 0; k < 3; ++k) {
          pos.min[k] = std::min(pos.min[k], p.positions[v * 3 + k]);
          pos.max[k] = std::max(pos.max[k], p.positions[v * 3 + k]);
        }
      if (p.normals.size() == vc * 3) pa.normal = L.add_array(p.normals.data(), vc * 12, vc, "VEC3", kFloat, kArrayBuffer);
      for (const auto& uv : p.uvs)
        if (uv.size() == vc * 2) pa.uvs.push_back(L.add_array(uv.data(), vc * 8, vc, "VEC2", kFloat, kArrayBuffer));
      const bool skinned = sc.meshes[mi].skinned && n > 0 && p.joints.size() == vc * 4 && p.weights.size() == vc * 4;
      if (skinned) {
        pa.joints = L.add_array(p.joints.data(), vc * 8, vc, "VEC4", kUnsignedShort, kArrayBuffer);
        pa.weights = L.add_array(p.weights.data(), vc * 16, vc, "VEC4", kFloat, kArrayBuffer);
      }
      if (!p.indices.empty()) {
        if (vc <= 0x10000) {
          auto& s16 = short_indices.emplace_back(p.indices.begin(), p.indices.end());
          pa.indices = L.add_array(s16.data(), s16.size() * 2, s16.size(), "SCALAR", kUnsignedShort, kElementArrayBuffer);
        } else {
          pa.indices = L.add_array(p.indices.data(), p.indices.size() * 4, p.indices.size(), "SCALAR", kUnsignedInt,
                                   kElementArrayBuffer);
        }
      }
      mesh_acc[mi].push_back(std::move(pa));
      mesh_written[mi] = true;
    }
  }
}

// Images go last in the buffer, one view each (no target: they are not vertex data).
void Encoding::State::lay_out_images() {
  image_index.assign(sc.images.size(), scene::kNoImage);
  for (const auto& m : sc.materials)
    if (m.image < sc.images.size() && image_index[m.image] == scene::kNoImage &&
        (!sc.images[m.image].uri.empty() || !sc.images[m.image].data.empty())) {
      image_index[m.image] = static_cast<std::uint32_t>(images.size());
      images.push_back(m.image);
    }
  for (const std::uint32_t i : images) {
    const auto& im = sc.images[i];
    if (!im.uri.empty()) {
      image_view.emplace_back();
      continue;
    }
    const std::uint32_t v = L.add_view();
    L.copies.push_back({v, L.reserve(v, im.data.size()), im.data.data(), im.data.size()});
    image_view.emplace_back(v);
  }
}

void Encoding::State::number_nodes() {
  mesh_index.assign(sc.meshes.size(), 0);
  mesh_node.assign(sc.meshes.size(), 0);
  children.assign(n + 1, {});
  scene_roots = {n};
  std::size_t meshes = 0;
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!mesh_written[mi]) continue;
    mesh_index[mi] = meshes;
    mesh_node[mi] = n + 1 + meshes++;
  }
  auto parent_node = [&](int p) { return p >= 0 && static_cast<std::size_t>(p) < n ? static_cast<std::size_t>(p) : n; };
  for (std::size_t i = 0; i < n; ++i) children[parent_node(sc.skeleton.joints[i].parent)].push_back(i);
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!mesh_written[mi]) continue;
    // Skinned mesh nodes are scene roots: glTF ignores their transform and parents' transforms.
    if (skinned_mesh(mi))
      scene_roots.push_back(mesh_node[mi]);
    else
      children[parent_node(sc.meshes[mi].joint)].push_back(mesh_node[mi]);
  }
}

void Encoding::State::json_nodes() {
  j.raw("\"nodes\":[");
  auto put_children = [&](std::size_t node) {
    if (!children[node].empty()) j.index_list("children", children[node]);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const auto& jt = sc.skeleton.joints[i];
    j.raw(i ? ",{\"name\":" : "{\"name\":");
    j.str(jt.name);
    j.raw(",\"translation\":[");
    const float t[3] = {jt.translation.x, jt.translation.y, jt.translation.z};
    j.floats(t, 3);
    j.raw("],\"rotation\":[");
    const float r[4] = {jt.rotation.x, jt.rotation.y, jt.rotation.z, jt.rotation.w};
    j.floats(r, 4);
    j.raw("]");
    if (jt.scale != Vec3{1, 1, 1}) {
      j.raw(",\"scale\":[");
      const float s3[3] = {jt.scale.x, jt.scale.y, jt.scale.z};
      j.floats(s3, 3);
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
}

void Encoding::State::json_skin() {
  if (n == 0) return;
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

void Encoding::State::json_meshes() {
  bool first_mesh = true;
  for (std::size_t mi = 0; mi < sc.meshes.size(); ++mi) {
    if (!mesh_written[mi]) continue;
    const auto& mesh = sc.meshes[mi];
    j.raw(first_mesh ? ",\"meshes\":[{\"name\":" : ",{\"name\":");
    first_mesh = false;
    j.str(mesh.name);
    j.raw(",\"primitives\":[");
    std::size_t k = 0;
    for (const auto& p : mesh.primitives) {
      if (p.vertex_count() == 0) continue;
      const auto& pa = mesh_acc[mi][k];
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
}

// "materials", "textures", "samplers" and "images": texture i samples image i, every texture
// with the one sampler (linear, mipmapped, repeating as D3D's default WRAP addressing does).
void Encoding::State::json_materials() {
  if (sc.materials.empty()) return;
  j.raw(",\"materials\":[");
  for (std::size_t i = 0; i < sc.materials.size(); ++i) {
    const auto& m = sc.materials[i];
    const bool textured = m.image < sc.images.size() && image_index[m.image] != scene::kNoImage;
    j.raw(i ? ",{\"name\":" : "{\"name\":");
    j.str(m.name);
    j.raw(",\"pbrMetallicRoughness\":{");
    if (textured) {
      j.raw("\"baseColorTexture\":{\"index\":");
      j.num(std::uint64_t{image_index[m.image]});
      j.raw("},");
    }
    j.raw("\"metallicFactor\":0,\"roughnessFactor\":1}");
    if (textured && m.alpha_mode == scene::AlphaMode::mask) {
      j.raw(",\"alphaMode\":\"MASK\",\"alphaCutoff\":");
      j.floats(&m.alpha_cutoff, 1);
    } else if (textured && m.alpha_mode == scene::AlphaMode::blend) {
      j.raw(",\"alphaMode\":\"BLEND\"");
    }
    if (m.double_sided) j.raw(",\"doubleSided\":true");
    j.extras(m.extras);
    j.raw("}");
  }
  j.raw("]");
  if (images.empty()) return;
  j.raw(",\"textures\":[");
  for (std::size_t i = 0; i < images.size(); ++i) {
    j.raw(i ? ",{\"sampler\":0,\"source\":" : "{\"sampler\":0,\"source\":");
    j.num(std::uint64_t{i});
    j.raw("}");
  }
  j.raw("],\"samplers\":[{\"magFilter\":9729,\"minFilter\":9987}],\"images\":[");
  for (std::size_t i = 0; i < images.size(); ++i) {
    const auto& im = sc.images[images[i]];
    j.raw(i ? ",{" : "{");
    if (!im.name.empty()) {
      j.raw("\"name\":");
      j.str(im.name);
      j.raw(",");
    }
    if (image_view[i]) {
      j.raw("\"bufferView\":");
      j.num(std::uint64_t(L.view_index[*image_view[i]]));
      j.raw(",\"mimeType\":\"image/png\"}");
    } else {
      j.raw("\"uri\":");
      j.str(percent_encode(im.uri, true));
      j.raw("}");
    }
  }
  j.raw("]");
}

// Animations (channels without keys cannot be written; adapters never make them).
void Encoding::State::json_animations() {
  bool first_anim = true;
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    const auto& anim = sc.animations[a];
    if (anim.channels.empty()) continue;
    j.raw(first_anim ? ",\"animations\":[{\"name\":" : ",{\"name\":");
    first_anim = false;
    j.str(anim.name);
    // Channels whose key times and values are the same accessors share one sampler.
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> sampler_of;
    std::vector<std::size_t> sampler(anim.channels.size());
    j.raw(",\"samplers\":[");
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const std::pair<std::size_t, std::size_t> io{timeline_acc[a][anim.channels[c].timeline], channel_acc[a][c]};
      auto [it, added] = sampler_of.try_emplace(io, sampler_of.size());
      sampler[c] = it->second;
      if (!added) continue;
      j.raw(it->second ? ",{\"input\":" : "{\"input\":");
      j.num(std::uint64_t{io.first});
      j.raw(",\"output\":");
      j.num(std::uint64_t{io.second});
      j.raw("}");  // interpolation LINEAR is the default
    }
    j.raw("],\"channels\":[");
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const auto& ch = anim.channels[c];
      j.raw(c ? ",{\"sampler\":" : "{\"sampler\":");
      j.num(std::uint64_t{sampler[c]});
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
}

void Encoding::State::json_accessors() {
  j.raw(",\"accessors\":[");
  for (std::size_t i = 0; i < L.accessors.size(); ++i) {
    const auto& info = L.accessors[i];
    j.raw(i ? ",{\"bufferView\":" : "{\"bufferView\":");
    j.num(std::uint64_t(L.view_index[info.view]));
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
    if (info.normalized) j.raw(",\"normalized\":true");
    if (info.minmax) {
      j.raw(",\"min\":["), j.floats(info.min.data(), info.minmax);
      j.raw("],\"max\":["), j.floats(info.max.data(), info.minmax), j.raw("]");
    }
    j.raw("}");
  }
  j.raw("]");
}

void Encoding::State::json_buffer_views(std::string_view bin_uri) {
  j.raw(",\"bufferViews\":[");
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
  j.num(std::uint64_t{L.total()});
  if (container == Container::gltf) {
    j.raw(",\"uri\":");
    j.str(percent_encode(bin_uri));
  }
  j.raw("}]");
}

void Encoding::State::json(std::string_view bin_uri) {
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
  j.raw("}],");
  json_nodes();
  json_skin();
  json_meshes();
  json_materials();
  json_animations();
  if (!L.accessors.empty()) json_accessors();
  if (L.total() > 0) json_buffer_views(bin_uri);
  j.raw("}");
  if (container == Container::gltf)
    j.raw("\n");
  else
    while (j.s.size() % 4 != 0) j.s.push_back(' ');  // the GLB JSON chunk is padded with spaces
}

Encoding::Encoding(const scene::Scene& scene, Container container, std::string_view bin_uri)
    : state_(std::make_unique<State>(scene, container)) {
  state_->lay_out_inverse_bind_matrices();
  state_->lay_out_animations();
  state_->lay_out_meshes();
  state_->lay_out_images();
  state_->L.finish();
  state_->number_nodes();
  state_->json(bin_uri);
}

Encoding::~Encoding() = default;

std::size_t Encoding::bin_size() const { return state_->L.total(); }

std::size_t Encoding::size() const {
  const std::size_t json = state_->j.s.size(), total = state_->L.total();
  if (state_->container == Container::gltf) return json;
  return 12 + 8 + json + (total == 0 ? 0 : 8 + ((total + 3) & ~std::size_t{3}));
}

Status Encoding::write(ByteSink& out) const {
  const std::string& json = state_->j.s;
  const Bytes json_bytes{reinterpret_cast<const std::uint8_t*>(json.data()), json.size()};
  if (state_->container == Container::gltf) return out.write(json_bytes);
  // GLB: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros.
  const std::size_t total = state_->L.total();
  const std::size_t bin_padded = (total + 3) & ~std::size_t{3};
  std::vector<std::uint8_t> header;
  ByteWriter w(header);
  w.u32(0x46546C67);  // "glTF"
  w.u32(2);
  w.u32(static_cast<std::uint32_t>(size()));
  w.u32(static_cast<std::uint32_t>(json.size()));
  w.u32(0x4E4F534A);  // "JSON"
  if (auto s = out.write(header); !s) return s;
  if (auto s = out.write(json_bytes); !s) return s;
  if (total == 0) return {};
  header.clear();
  w.u32(static_cast<std::uint32_t>(bin_padded));
  w.u32(0x004E4942);  // "BIN\0"
  if (auto s = out.write(header); !s) return s;
  if (auto s = state_->L.stream(out); !s) return s;
  return out.zeros(bin_padded - total);
}

Status Encoding::write_bin(ByteSink& out) const { return state_->L.stream(out); }

Output write(const scene::Scene& sc, Container container, std::string_view bin_uri) {
  const Encoding encoding(sc, container, bin_uri);
  Output out;
  out.main.reserve(encoding.size());
  VectorSink main(out.main);
  (void)encoding.write(main);  // writing to memory cannot fail
  if (container == Container::gltf && encoding.bin_size() > 0) {
    out.bin.reserve(encoding.bin_size());
    VectorSink bin(out.bin);
    (void)encoding.write_bin(bin);
  }
  return out;
}

Status write_files(const scene::Scene& scene, const std::filesystem::path& path) {
  const auto container = container_for(path);
  if (!container) return io_error_finding({}, path.string() + ": not a .glb or .gltf file name");
  std::filesystem::path bin_path = path;
  bin_path.replace_extension(".bin");
  const Encoding encoding(scene, *container, bin_path.filename().string());
  std::unique_ptr<AtomicFile> bin;
  if (*container == Container::gltf && encoding.bin_size() > 0) {
    auto created = AtomicFile::create(bin_path);
    if (!created) return created.error();
    bin = std::move(created).value();
    if (auto s = encoding.write_bin(*bin); !s) return s;
  }
  auto main = AtomicFile::create(path);
  if (!main) return main.error();
  if (auto s = encoding.write(*main.value()); !s) return s;
  // The .bin first, so that the .gltf never refers to a missing or partial buffer.
  if (bin)
    if (auto s = bin->commit(); !s) return s;
  auto s = main.value()->commit();
  if (!s && bin) {
    // A .bin without its .gltf is half an output: take it back.
    std::error_code ec;
    std::filesystem::remove(bin_path, ec);
  }
  return s;
}

}  // namespace boneyard::gltf
