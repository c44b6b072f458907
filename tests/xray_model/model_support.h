// Shared by the xray_model tests: sample models, our export to an in-memory .glb and the glTF
// read back with meshes, as `convert` does it.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/ogf_v3/ogf_v3_scene.h"
#include "boneyard/xray/xray_scene.h"
#include "test_support.h"

namespace boneyard::test {

// Every .ogf under the samples folder (sorted), relative names for messages.
inline std::vector<std::filesystem::path> sample_ogfs() {
  std::vector<std::filesystem::path> out;
  const auto root = samples_dir() / "xray";
  if (!std::filesystem::is_directory(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".ogf") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline xray::OgfFile load_ogf(const std::filesystem::path& p) {
  auto f = FileData::open(p);
  EXPECT_TRUE(f) << p;
  auto r = xray::read_ogf(std::move(f).value());
  EXPECT_TRUE(r) << p << ": " << (r ? "" : r.error().message);
  return std::move(r).value();
}

// OGF v3 samples (a format of its own: xray/ogf_v3) are recognised by their 4-byte header.
inline bool is_ogf_v3(const std::filesystem::path& p) {
  const auto bytes = read_file(p);
  return xray::looks_like_ogf_v3(Bytes(bytes.data(), bytes.size()));
}

inline xray::OgfV3File load_ogf_v3(const std::filesystem::path& p) {
  auto f = FileData::open(p);
  EXPECT_TRUE(f) << p;
  auto r = xray::read_ogf_v3(std::move(f).value());
  EXPECT_TRUE(r) << p << ": " << (r ? "" : r.error().message);
  return std::move(r).value();
}

inline xray::OgfFile ogf_from(const std::vector<std::uint8_t>& bytes) {
  auto r = xray::read_ogf(FileData::from_vector(bytes));
  EXPECT_TRUE(r) << (r ? "" : r.error().path + ": " + r.error().message);
  return std::move(r).value();
}

// The model as our exporter makes it (skeleton, embedded motions, meshes; refs are not followed),
// written as .glb. Empty when the model does not export.
inline std::vector<std::uint8_t> export_glb(const xray::OgfFile& ogf) {
  scene::Scene s;
  if (ogf.bones.empty()) {
    s.skeleton.name = "model";
  } else {
    auto sc = xray::skeleton_scene(ogf, "model");
    if (!sc) return {};
    s = std::move(sc).value();
    Diagnostics w;
    if (ogf.motions && !xray::add_motions(s, &ogf, *ogf.motions, "embedded", w)) return {};
  }
  Diagnostics w;
  xray::XrayExportOptions o;
  o.input = "model.ogf";
  if (!xray::add_meshes(s, ogf, o, w)) return {};
  return gltf::write(s, gltf::Container::glb).main;
}

// The same for an OGF v3 model (its embedded motions included).
inline std::vector<std::uint8_t> export_glb(const xray::OgfV3File& ogf) {
  Diagnostics w;
  xray::XrayExportOptions o;
  o.input = "model.ogf";
  auto s = xray::ogf_v3_to_scene(ogf, o, w);
  if (!s) return {};
  return gltf::write(s.value(), gltf::Container::glb).main;
}

inline scene::Scene read_glb(const std::vector<std::uint8_t>& glb) {
  gltf::ReadOptions o;
  o.require_animations = false;
  Diagnostics w;
  auto r = gltf::read(Bytes(glb.data(), glb.size()), {}, o, w);
  EXPECT_TRUE(r) << (r ? "" : r.error().path + ": " + r.error().message);
  return std::move(r).value();
}

// The payload of child `i` of a model (its 0x9 sub-chunk), for "kept its bytes" checks.
inline std::vector<std::uint8_t> child_bytes(const xray::OgfFile& f, std::uint32_t i) {
  const Chunk* k = f.chunks.find(xray::kOgfChildren);
  if (k == nullptr) return {};
  const ChunkList list = split_chunks(k->payload, 0);
  const Chunk* c = list.find(i);
  return c ? std::vector<std::uint8_t>(c->payload.begin(), c->payload.end()) : std::vector<std::uint8_t>{};
}

}  // namespace boneyard::test
