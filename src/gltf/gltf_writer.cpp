// glTF 2.0 writer. The JSON is built as text (a DOM for ~10k accessors costs more than the key
// data itself); extras come from nlohmann::json. The binary buffer is laid out as
// [inverse bind matrices][key times][3-float outputs][4-float outputs], one bufferView each, so
// every accessor is 4-byte aligned and tightly packed (no byteStride needed for animation data).
#include "boneyard/gltf.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>

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
  void extras(const nlohmann::json& e) {
    if (e.is_null() || (e.is_object() && e.empty())) return;
    raw(",\"extras\":");
    raw(e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
};

struct AccessorInfo {
  std::uint32_t view = 0;
  std::size_t offset = 0;  // within the view
  std::size_t count = 0;
  const char* type = "SCALAR";
  bool minmax = false;
  float min = 0, max = 0;
};

std::string percent_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

void append_floats(std::uint8_t* buf, std::size_t at, const float* data, std::size_t count) {
  if (count != 0) std::memcpy(buf + at, data, count * sizeof(float));
}

}  // namespace

std::optional<Container> container_for(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".glb") return Container::glb;
  if (ext == ".gltf") return Container::gltf;
  return std::nullopt;
}

Output write(const scene::Scene& sc, Container container, std::string_view bin_uri) {
  const auto& joints = sc.skeleton.joints;
  const std::size_t n = joints.size();

  // ---- sizes of the four regions, and the accessors in them ----
  std::vector<AccessorInfo> acc;
  enum View : std::uint32_t { kIbm, kTimes, kVec3, kVec4, kViewCount };
  std::array<std::size_t, kViewCount> view_size{};
  std::optional<std::size_t> ibm_accessor;
  if (n > 0) {
    ibm_accessor = acc.size();
    acc.push_back({kIbm, 0, n, "MAT4"});
    view_size[kIbm] = n * 64;
  }
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
      auto [it, inserted] = time_accessor.try_emplace(t.times, acc.size());
      if (inserted) {
        AccessorInfo info{kTimes, view_size[kTimes], t.times.size(), "SCALAR", true};
        if (!t.times.empty()) info.min = t.times.front(), info.max = t.times.back();
        acc.push_back(info);
        view_size[kTimes] += t.times.size() * 4;
      }
      timeline_acc[a].push_back(it->second);
    }
    for (const auto& ch : anim.channels) {
      const bool rot = ch.path == scene::Channel::Path::rotation;
      const std::uint32_t view = rot ? kVec4 : kVec3;
      channel_acc[a].push_back(acc.size());
      acc.push_back({view, view_size[view], ch.values.size() / (rot ? 4 : 3), rot ? "VEC4" : "VEC3"});
      view_size[view] += ch.values.size() * 4;
    }
  }
  std::array<std::size_t, kViewCount> view_start{};
  std::array<int, kViewCount> view_index{};
  std::size_t total = 0;
  int views = 0;
  for (std::uint32_t v = 0; v < kViewCount; ++v) {
    view_start[v] = total;
    total += view_size[v];
    view_index[v] = view_size[v] > 0 ? views++ : -1;
  }

  // ---- JSON ----
  Json j;
  j.s.reserve(256 + n * 200 + acc.size() * 110 + sc.animations.size() * 300);
  j.raw("{\"asset\":{\"version\":\"2.0\",\"generator\":");
  j.str(sc.generator.empty() ? "boneyard" : sc.generator);
  j.raw("},\"scene\":0,\"scenes\":[{\"nodes\":[");
  j.num(std::uint64_t{n});
  j.raw("]");
  j.extras(sc.extras);
  j.raw("}],\"nodes\":[");
  std::vector<std::vector<std::size_t>> children(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    const int p = joints[i].parent;
    children[p >= 0 && static_cast<std::size_t>(p) < n ? static_cast<std::size_t>(p) : n].push_back(i);
  }
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
    j.num(jt.translation.x), j.raw(","), j.num(jt.translation.y), j.raw(","), j.num(jt.translation.z);
    j.raw("],\"rotation\":[");
    j.num(jt.rotation.x), j.raw(","), j.num(jt.rotation.y), j.raw(","), j.num(jt.rotation.z), j.raw(",");
    j.num(jt.rotation.w);
    j.raw("]");
    if (jt.scale != Vec3{1, 1, 1}) {
      j.raw(",\"scale\":[");
      j.num(jt.scale.x), j.raw(","), j.num(jt.scale.y), j.raw(","), j.num(jt.scale.z);
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
  j.raw("}]");
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
  if (!acc.empty()) {
    j.raw(",\"accessors\":[");
    for (std::size_t i = 0; i < acc.size(); ++i) {
      const auto& info = acc[i];
      j.raw(i ? ",{\"bufferView\":" : "{\"bufferView\":");
      j.num(std::uint64_t(view_index[info.view]));
      if (info.offset) {
        j.raw(",\"byteOffset\":");
        j.num(std::uint64_t{info.offset});
      }
      j.raw(",\"componentType\":5126,\"count\":");
      j.num(std::uint64_t{info.count});
      j.raw(",\"type\":\"");
      j.raw(info.type);
      j.raw("\"");
      if (info.minmax) {
        j.raw(",\"min\":["), j.num(info.min), j.raw("],\"max\":["), j.num(info.max), j.raw("]");
      }
      j.raw("}");
    }
    j.raw("],\"bufferViews\":[");
    bool first = true;
    for (std::uint32_t v = 0; v < kViewCount; ++v) {
      if (view_index[v] < 0) continue;
      j.raw(first ? "{\"buffer\":0" : ",{\"buffer\":0");
      first = false;
      if (view_start[v]) {
        j.raw(",\"byteOffset\":");
        j.num(std::uint64_t{view_start[v]});
      }
      j.raw(",\"byteLength\":");
      j.num(std::uint64_t{view_size[v]});
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
    if (n > 0) {
      const auto world = scene::world_matrices(sc.skeleton);
      for (std::size_t ji = 0; ji < n; ++ji) {
        const scene::Mat4 inv = scene::inverse_affine(world[ji]);
        float m[16];
        for (int k = 0; k < 16; ++k) m[k] = static_cast<float>(inv[k]);
        m[3] = m[7] = m[11] = 0, m[15] = 1;  // exact affine bottom row (the validator checks it)
        append_floats(bin, view_start[kIbm] + ji * 64, m, 16);
      }
    }
    for (const auto& [times, index] : time_accessor)
      append_floats(bin, view_start[kTimes] + acc[index].offset, times.data(), times.size());
    for (std::size_t a = 0; a < sc.animations.size(); ++a)
      for (std::size_t c = 0; c < sc.animations[a].channels.size(); ++c) {
        const auto& ch = sc.animations[a].channels[c];
        const auto& info = acc[channel_acc[a][c]];
        append_floats(bin, view_start[info.view] + info.offset, ch.values.data(), ch.values.size());
      }
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
  return write_file_atomic(path, out.main);
}

}  // namespace boneyard::gltf
