// glTF 2.0 writer. Everything is laid out first (buffer views, accessors, samplers, their glTF
// numbers), then streamed: the .glb header, the JSON chunk (gltf_writer_json.cpp; extras are the
// adapters' JSON text) and the binary chunk copied straight from the scene's arrays, so a large
// output is never held whole in memory. The binary buffer is [inverse bind matrices][key
// times][held outputs][keyed outputs][one view per mesh attribute or index array]; indices are
// 16-bit when the primitive has at most 65536 vertices, joint numbers 8-bit when under 256.
#include "boneyard/core/text.h"
#include "boneyard/gltf/gltf_write.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "boneyard/core/bytes.h"
#include "boneyard/core/file_io.h"
#include "gltf_encoding_state.h"

namespace boneyard::gltf {

std::optional<Container> container_for(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path.string());
  if (ext == ".glb") return Container::glb;
  if (ext == ".gltf") return Container::gltf;
  return std::nullopt;
}

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

namespace {

// A channel's keys as the bytes written: the stored SHORTs of a rotation that has them, else floats.
struct KeyBytes {
  const std::uint8_t* data;
  std::size_t key_bytes, keys;
};

KeyBytes key_bytes_of(const scene::Channel& ch) {
  const bool rot = ch.path == scene::Channel::Path::rotation;
  const std::size_t width = rot ? 4 : 3;
  if (rot && !ch.shorts.empty()) return {reinterpret_cast<const std::uint8_t*>(ch.shorts.data()), 8, ch.shorts.size() / 4};
  return {reinterpret_cast<const std::uint8_t*>(ch.values.data()), width * 4, ch.values.size() / width};
}

// Roughly what a key-times accessor costs besides its data: its JSON (~100 bytes).
constexpr std::size_t kAccessorJsonBytes = 100;

// `out` = the keys (N bytes each) that are not inner keys of a run of three or more equal keys,
// with their times; false (and `out` untouched) when there is no such run. Each key is compared
// with the one before it once per pass, at a size known to the compiler.
template <std::size_t N>
bool without_inner_run_keys(const std::uint8_t* data, std::size_t keys, const float* times, ShortenedChannel& out) {
  auto same_as_previous = [&](std::size_t i) { return std::memcmp(data + i * N, data + (i - 1) * N, N) == 0; };
  // Calls keep(i) for every key to keep, in order; returns how many were left out.
  auto walk = [&](auto&& keep) {
    std::size_t left_out = 0;
    keep(0);
    bool before = same_as_previous(1);
    for (std::size_t i = 1; i + 1 < keys; ++i) {
      const bool after = same_as_previous(i + 1);
      if (before && after) ++left_out;
      else keep(i);
      before = after;
    }
    keep(keys - 1);
    return left_out;
  };
  const std::size_t left_out = walk([](std::size_t) {});
  if (left_out == 0) return false;
  out.keys = keys - left_out;
  out.times.resize(out.keys);
  out.values.resize(out.keys * N);
  std::size_t n = 0;
  walk([&](std::size_t i) {
    out.times[n] = times[i];
    std::memcpy(out.values.data() + n * N, data + i * N, N);
    ++n;
  });
  return true;
}

}  // namespace

// Between two equal keys, linear interpolation and slerp give that key, so the inner keys of a run
// of three or more equal keys (compared as the bytes written) add nothing a reader sees: real
// motions hold poses for stretches (a third of the keyed keys of the hands proxy repeat the one
// before). Leaving them out needs an accessor for the key times kept; channels whose kept times
// are equal share it, so such a pattern is used only where the bytes it saves over all its
// channels outweigh that accessor. The importer samples the glTF at 30 fps and gets every key back.
void Encoding::State::plan_key_runs() {
  shortened_of.resize(sc.animations.size());
  std::vector<std::pair<std::size_t, std::size_t>> where;  // animation, channel of each candidate
  std::unordered_map<std::string_view, std::size_t> saved_by_times;
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    const auto& anim = sc.animations[a];
    shortened_of[a].assign(anim.channels.size(), SIZE_MAX);
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const auto& ch = anim.channels[c];
      const KeyBytes k = key_bytes_of(ch);
      if (k.keys <= 2 || ch.timeline >= anim.timelines.size() || anim.timelines[ch.timeline].times.size() != k.keys)
        continue;
      const float* times = anim.timelines[ch.timeline].times.data();
      ShortenedChannel sh;
      const bool shorter = k.key_bytes == 8    ? without_inner_run_keys<8>(k.data, k.keys, times, sh)
                           : k.key_bytes == 12 ? without_inner_run_keys<12>(k.data, k.keys, times, sh)
                                               : without_inner_run_keys<16>(k.data, k.keys, times, sh);
      if (!shorter) continue;
      shortened.push_back(std::move(sh));
      where.emplace_back(a, c);
      const auto& kept = shortened.back().times;
      saved_by_times[{reinterpret_cast<const char*>(kept.data()), kept.size() * 4}] += (k.keys - kept.size()) * k.key_bytes;
    }
  }
  // Keep the worthwhile ones (their data stays where it is: the buffer copies point into it).
  std::size_t kept_count = 0;
  for (std::size_t i = 0; i < shortened.size(); ++i) {
    const auto& times = shortened[i].times;
    const std::string_view key{reinterpret_cast<const char*>(times.data()), times.size() * 4};
    if (saved_by_times.at(key) <= times.size() * 4 + kAccessorJsonBytes) continue;
    shortened_of[where[i].first][where[i].second] = kept_count;
    if (kept_count != i) std::swap(shortened[kept_count], shortened[i]);
    ++kept_count;
  }
  shortened.resize(kept_count);
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
  auto times_accessor = [&](const std::vector<float>& times) {
    AccessorInfo info{times_view, 0, times.size(), "SCALAR"};
    info.minmax = 1;
    if (!times.empty()) info.min[0] = times.front(), info.max[0] = times.back();
    return shared.get(times_view, info, times.data(), times.size() * 4);
  };
  timeline_acc.resize(sc.animations.size());
  channel_acc.resize(sc.animations.size());
  channel_input.resize(sc.animations.size());
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    timeline_acc[a].assign(sc.animations[a].timelines.size(), 0);
    channel_acc[a].assign(sc.animations[a].channels.size(), 0);
    channel_input[a].assign(sc.animations[a].channels.size(), 0);
  }
  for (const bool held_pass : {true, false}) {
    const Views& v = held_pass ? held_views : keyed_views;
    for (std::size_t a = 0; a < sc.animations.size(); ++a) {
      const auto& anim = sc.animations[a];
      // Only timelines some sampler reads: an accessor nothing reads is flagged by the validator.
      std::vector<bool> used(anim.timelines.size(), false);
      for (std::size_t c = 0; c < anim.channels.size(); ++c)
        if (anim.channels[c].timeline < used.size() && shortened_of[a][c] == SIZE_MAX)
          used[anim.channels[c].timeline] = true;
      for (std::size_t ti = 0; ti < anim.timelines.size(); ++ti) {
        if (!used[ti] || !held_pass) continue;  // every timeline in the first pass: few, read by every sampler
        timeline_acc[a][ti] = times_accessor(anim.timelines[ti].times);
      }
      for (std::size_t c = 0; c < anim.channels.size(); ++c) {
        const auto& ch = anim.channels[c];
        const bool rot = ch.path == scene::Channel::Path::rotation;
        const bool shorts = rot && !ch.shorts.empty();
        KeyBytes k = key_bytes_of(ch);
        const ShortenedChannel* sh = shortened_of[a][c] == SIZE_MAX ? nullptr : &shortened[shortened_of[a][c]];
        if (sh != nullptr) k = {sh->values.data(), k.key_bytes, sh->keys};
        if ((k.keys <= 2) != held_pass) continue;
        channel_input[a][c] = sh != nullptr ? times_accessor(sh->times) : timeline_acc[a][ch.timeline];
        AccessorInfo info{shorts ? v.short4 : rot ? v.vec4 : v.vec3, 0, k.keys, rot ? "VEC4" : "VEC3",
                          shorts ? kShort : kFloat};
        info.normalized = shorts;
        channel_acc[a][c] = shared.get(info.view, info, k.data, k.keys * k.key_bytes);
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
  short_indices.reserve(primitives);  // the copies point into them: they must never reallocate
  byte_joints.reserve(primitives);
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
        // Bytes when every joint number fits (glTF allows both; the game models have < 256 bones).
        if (std::all_of(p.joints.begin(), p.joints.end(), [](std::uint16_t j) { return j < 256; })) {
          auto& b = byte_joints.emplace_back(p.joints.begin(), p.joints.end());
          pa.joints = L.add_array(b.data(), vc * 4, vc, "VEC4", kUnsignedByte, kArrayBuffer);
        } else {
          pa.joints = L.add_array(p.joints.data(), vc * 8, vc, "VEC4", kUnsignedShort, kArrayBuffer);
        }
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

// Channels whose key times and values are the same accessors share one sampler.
void Encoding::State::lay_out_samplers() {
  samplers.assign(sc.animations.size(), {});
  channel_sampler.assign(sc.animations.size(), {});
  for (std::size_t a = 0; a < sc.animations.size(); ++a) {
    const auto& anim = sc.animations[a];
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> sampler_of;
    channel_sampler[a].resize(anim.channels.size());
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const SamplerAccessors io{channel_input[a][c], channel_acc[a][c]};
      auto [it, added] = sampler_of.try_emplace({io.input, io.output}, samplers[a].size());
      if (added) samplers[a].push_back(io);
      channel_sampler[a][c] = it->second;
    }
  }
}

// glTF indices by how often the JSON names an accessor, most named first (ties in layout order):
// a hands model's held values are each named by up to hundreds of samplers, and a short index
// is written every time (about 0.5 MB of a 53 MB .glb). The order of the accessors list is free;
// the buffer keeps its layout.
void Encoding::State::number_accessors() {
  std::vector<std::size_t> named(L.accessors.size(), 0);
  for (const auto& list : samplers)
    for (const auto& s : list) ++named[s.input], ++named[s.output];
  accessor_at.resize(L.accessors.size());
  for (std::size_t i = 0; i < accessor_at.size(); ++i) accessor_at[i] = i;
  std::stable_sort(accessor_at.begin(), accessor_at.end(),
                   [&](std::size_t x, std::size_t y) { return named[x] > named[y]; });
  accessor_number.resize(L.accessors.size());
  for (std::size_t i = 0; i < accessor_at.size(); ++i) accessor_number[accessor_at[i]] = i;
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

namespace {

// Counts the JSON text of a document too large to keep (it is made again by write()).
class CountingSink final : public ByteSink {
 public:
  Status write(Bytes data) override {
    count += data.size();
    return {};
  }
  std::size_t count = 0;
};

// JSON text up to this size is kept from the measuring pass; a larger one is made twice.
constexpr std::size_t kHeldJsonLimit = 4 << 20;

}  // namespace

// Roughly the bytes of JSON a scene needs (the first reserve): nodes, accessors, channels and
// samplers, names and extras.
static std::size_t json_estimate(const scene::Scene& sc, std::size_t accessors) {
  std::size_t bytes = 256 + sc.skeleton.joints.size() * 200 + accessors * 110 + sc.materials.size() * 200;
  for (const auto& a : sc.animations) bytes += 300 + a.channels.size() * 80;
  return bytes;
}

Encoding::Encoding(const scene::Scene& scene, Container container, std::string_view bin_uri)
    : state_(std::make_unique<State>(scene, container, bin_uri)) {
  State& st = *state_;
  st.lay_out_inverse_bind_matrices();
  st.plan_key_runs();
  st.lay_out_animations();
  st.lay_out_meshes();
  st.lay_out_images();
  st.L.finish();
  st.lay_out_samplers();
  st.number_accessors();
  st.number_nodes();
  // The JSON chunk's length goes in the .glb header before it: a small text is kept from this
  // pass, a large one (a hands model: 30 MB) only measured here and made again by write().
  CountingSink counter;
  JsonText j(&counter, kHeldJsonLimit);
  j.s.reserve(std::min(kHeldJsonLimit + JsonText::kBlock, json_estimate(scene, st.L.accessors.size())));
  st.json(j);
  (void)j.finish();  // counting cannot fail
  st.json_held = !j.passed_on();
  st.json_size = j.size();
  if (st.json_held) st.held_json = std::move(j.s);
}

Encoding::~Encoding() = default;

std::size_t Encoding::bin_size() const { return state_->L.total(); }

std::size_t Encoding::size() const {
  const std::size_t json = state_->json_size, total = state_->L.total();
  if (state_->container == Container::gltf) return json;
  return 12 + 8 + json + (total == 0 ? 0 : 8 + ((total + 3) & ~std::size_t{3}));
}

Status Encoding::State::write_json(ByteSink& out) const {
  if (json_held) return out.write({reinterpret_cast<const std::uint8_t*>(held_json.data()), held_json.size()});
  JsonText j(&out);
  json(j);
  return j.finish();
}

Status Encoding::write(ByteSink& out) const {
  if (state_->container == Container::gltf) return state_->write_json(out);
  // GLB: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros.
  const std::size_t total = state_->L.total();
  const std::size_t bin_padded = (total + 3) & ~std::size_t{3};
  std::vector<std::uint8_t> header;
  ByteWriter w(header);
  w.u32(0x46546C67);  // "glTF"
  w.u32(2);
  w.u32(static_cast<std::uint32_t>(size()));
  w.u32(static_cast<std::uint32_t>(state_->json_size));
  w.u32(0x4E4F534A);  // "JSON"
  if (auto s = out.write(header); !s) return s;
  if (auto s = state_->write_json(out); !s) return s;
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

}  // namespace boneyard::gltf
