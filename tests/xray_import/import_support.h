// Helpers for the glTF -> .omf tests: file access, export of an OMF through our own exporter
// and writer, read-back through the glTF reader, and hand-made glTF JSON with a data-URI buffer.
#pragma once

#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/xray_scene.h"
#include "cli_harness.h"
#include "test_support.h"

namespace boneyard::test {

namespace fs = std::filesystem;

inline std::shared_ptr<const FileData> load(const fs::path& p) {
  return FileData::open(p).value();
}

// OMF (+ optional OGF skeleton) -> .glb bytes through the exporter, as `convert` writes them
// (minus duplicate resolution, so every motion of the file is present).
inline std::optional<std::vector<std::uint8_t>> export_glb(const xray::MotionSet& set, const xray::OgfFile* ogf,
                                                           std::string* why = nullptr, bool float_rotations = false) {
  scene::Scene s;
  if (ogf) {
    auto sk = xray::skeleton_scene(*ogf, "model");
    if (!sk) {
      if (why) *why = sk.error().message;
      return std::nullopt;
    }
    s = std::move(sk).value();
  } else {
    s = xray::flat_scene(set, "flat");
  }
  Diagnostics w;
  if (auto added = xray::add_motions(s, ogf, set, "sample", w, {float_rotations, {}}); !added) {
    if (why) *why = added.error().message;
    return std::nullopt;
  }
  return gltf::write(s, gltf::Container::glb).main;
}

inline Result<scene::Scene> read_glb(const std::vector<std::uint8_t>& glb, Diagnostics& w) {
  return gltf::read(Bytes(glb.data(), glb.size()), {}, gltf::ReadOptions{}, w);
}

inline std::string base64(const std::vector<std::uint8_t>& in) {
  static constexpr char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < in.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t(in[i]) << 16) | (i + 1 < in.size() ? std::uint32_t(in[i + 1]) << 8 : 0) |
                            (i + 2 < in.size() ? std::uint32_t(in[i + 2]) : 0);
    out += k[(n >> 18) & 63];
    out += k[(n >> 12) & 63];
    out += i + 1 < in.size() ? k[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? k[n & 63] : '=';
  }
  return out;
}

// A one-channel glTF: nodes named `nodes` (node 0 the root of the others), channel on node
// `target` with key `times` and flat `values` (already laid out for `interp`).
struct HandMade {
  std::vector<std::string> nodes = {"bip01", "bip01_spine"};
  std::size_t target = 1;
  std::string path = "translation";
  std::string interp = "LINEAR";
  std::vector<float> times = {0.0f, 1.0f};
  std::vector<float> values = {0, 0, 0, 3, 0, 0};
  std::string animation = "walk";
  int output_count = -1;  // override the output accessor's count (out-of-range tests)
  bool with_animation = true;

  std::string json() const {
    std::vector<std::uint8_t> buf(times.size() * 4 + values.size() * 4);
    std::memcpy(buf.data(), times.data(), times.size() * 4);
    std::memcpy(buf.data() + times.size() * 4, values.data(), values.size() * 4);
    const std::size_t width = path == "rotation" ? 4 : 3;
    const std::size_t out_count = output_count >= 0 ? std::size_t(output_count) : values.size() / width;
    std::string j = "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      j += (i ? ",{\"name\":\"" : "{\"name\":\"") + nodes[i] + "\"";
      if (i == 0 && nodes.size() > 1) {
        j += ",\"children\":[";
        for (std::size_t c = 1; c < nodes.size(); ++c) j += (c > 1 ? "," : "") + std::to_string(c);
        j += "]";
      }
      j += "}";
    }
    j += "],\"buffers\":[{\"byteLength\":" + std::to_string(buf.size()) +
         ",\"uri\":\"data:application/octet-stream;base64," + base64(buf) + "\"}]";
    j += ",\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":" + std::to_string(times.size() * 4) +
         "},{\"buffer\":0,\"byteOffset\":" + std::to_string(times.size() * 4) +
         ",\"byteLength\":" + std::to_string(values.size() * 4) + "}]";
    j += ",\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":" + std::to_string(times.size()) +
         ",\"type\":\"SCALAR\"},{\"bufferView\":1,\"componentType\":5126,\"count\":" + std::to_string(out_count) +
         ",\"type\":\"" + (width == 4 ? "VEC4" : "VEC3") + "\"}]";
    if (with_animation)
      j += ",\"animations\":[{\"name\":\"" + animation +
           "\",\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"" + interp +
           "\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":" + std::to_string(target) + ",\"path\":\"" +
           path + "\"}}]}]";
    return j + "}";
  }

  Result<scene::Scene> read(Diagnostics& w) const {
    const std::string s = json();
    return gltf::read(Bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()), {}, gltf::ReadOptions{}, w);
  }
};

}  // namespace boneyard::test
