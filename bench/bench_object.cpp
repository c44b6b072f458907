// The SDK's .object (issue 39 "Performance"): the largest real object of the samples to .glb and
// back (with itself as template, and new) against an .ogf of about the same size to .glb; and
// read + validate against one CRC-32 pass. The default pair: sdk/mod/wpn_colt1911_hud.object
// (333,269 bytes, 2,051 points, 3,723 faces, 13 bones) and cop/flush_dead.ogf (326,505 bytes,
// 2,419 vertices, 3,327 triangles at full detail, 3-link). BONEYARD_OBJECT_PAIR=OBJECT:OGF picks
// another, e.g. sdk/mod/handflash_hud.object and cop/handflash_hud.ogf (the same model compiled).
// Textures are left out of both sides.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "boneyard/core/crc32.h"
#include "boneyard/core/file_io.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/object/object_scene.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"
#include "xray/object/object_smoothing.h"

namespace {

using namespace boneyard;

std::shared_ptr<const FileData> load(const std::filesystem::path& path) {
  auto opened = FileData::open(path);
  if (!opened.ok()) {
    std::fprintf(stderr, "not found: %s\n", path.c_str());
    std::exit(2);
  }
  // In memory: the bench measures the code, not the page cache.
  const Bytes b = opened.value()->bytes();
  return FileData::from_vector(std::vector<std::uint8_t>(b.begin(), b.end()));
}

struct Pair {
  std::shared_ptr<const FileData> object, ogf;
};

const Pair& pair() {
  static const Pair p = [] {
    const char* env = std::getenv("BONEYARD_OBJECT_PAIR");
    std::string spec = env ? env : "";
    const auto colon = spec.find(':');
    if (!spec.empty() && colon != std::string::npos) return Pair{load(spec.substr(0, colon)), load(spec.substr(colon + 1))};
    const std::filesystem::path root = std::filesystem::path(BONEYARD_SAMPLES_DIR) / "xray";
    return Pair{load(root / "sdk/mod/wpn_colt1911_hud.object"), load(root / "cop/flush_dead.ogf")};
  }();
  return p;
}

std::vector<std::uint8_t> object_glb(const std::shared_ptr<const FileData>& file) {
  auto object = xray::read_object(file);
  Diagnostics w;
  auto s = xray::object_to_scene(object.value(), "model", {}, w);
  return gltf::write(s.value(), gltf::Container::glb).main;
}

const std::vector<std::uint8_t>& exported_glb() {
  static const auto glb = object_glb(pair().object);
  return glb;
}

void BM_ObjectToGlb(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(object_glb(pair().object));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * pair().object->bytes().size()));
}
BENCHMARK(BM_ObjectToGlb)->Unit(benchmark::kMillisecond);

// The import as `convert x.glb -o x.object --template orig.object` does it: the glTF read, the
// template read, its meshes compared (all kept) and the file checked.
void BM_GlbToObjectWithTemplate(benchmark::State& state) {
  const auto& glb = exported_glb();
  for (auto _ : state) {
    gltf::ReadOptions ro;
    ro.require_animations = false;
    Diagnostics w;
    auto s = gltf::read(Bytes(glb.data(), glb.size()), {}, ro, w);
    auto tpl = xray::read_object(pair().object);
    xray::ObjectImportOptions o;
    o.template_object = &tpl.value();
    auto bytes = xray::scene_to_object_bytes(s.value(), o, w);
    if (!bytes) state.SkipWithError(bytes.error().message.c_str());
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_GlbToObjectWithTemplate)->Unit(benchmark::kMillisecond);

void BM_GlbToObjectNew(benchmark::State& state) {
  const auto& glb = exported_glb();
  for (auto _ : state) {
    gltf::ReadOptions ro;
    ro.require_animations = false;
    Diagnostics w;
    auto s = gltf::read(Bytes(glb.data(), glb.size()), {}, ro, w);
    auto bytes = xray::scene_to_object_bytes(s.value(), {}, w);
    if (!bytes) state.SkipWithError(bytes.error().message.c_str());
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_GlbToObjectNew)->Unit(benchmark::kMillisecond);

// The same model compiled: .ogf (skeleton and meshes, no motions) to .glb.
void BM_OgfToGlb(benchmark::State& state) {
  for (auto _ : state) {
    auto ogf = xray::read_ogf(pair().ogf);
    auto s = xray::skeleton_scene(ogf.value(), "model");
    Diagnostics w;
    xray::XrayExportOptions o;
    o.input = "model.ogf";
    (void)xray::add_meshes(s.value(), ogf.value(), o, w);
    benchmark::DoNotOptimize(gltf::write(s.value(), gltf::Container::glb).main);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * pair().ogf->bytes().size()));
}
BENCHMARK(BM_OgfToGlb)->Unit(benchmark::kMillisecond);

// The .ogf's way back, for the same comparison in that direction: its .glb (skeleton and meshes)
// to .ogf with itself as template, and new.
std::vector<std::uint8_t> ogf_glb(const std::shared_ptr<const FileData>& file) {
  auto ogf = xray::read_ogf(file);
  auto s = xray::skeleton_scene(ogf.value(), "model");
  Diagnostics w;
  xray::XrayExportOptions o;
  o.input = "model.ogf";
  (void)xray::add_meshes(s.value(), ogf.value(), o, w);
  return gltf::write(s.value(), gltf::Container::glb).main;
}

void glb_to_ogf(benchmark::State& state, bool with_template) {
  static const auto glb = ogf_glb(pair().ogf);
  for (auto _ : state) {
    gltf::ReadOptions ro;
    ro.require_animations = false;
    Diagnostics w;
    auto s = gltf::read(Bytes(glb.data(), glb.size()), {}, ro, w);
    xray::OgfImportOptions o;
    std::optional<xray::OgfFile> tpl;
    if (with_template) {
      tpl.emplace(std::move(xray::read_ogf(pair().ogf)).value());
      o.template_ogf = &*tpl;
    }
    auto bytes = xray::scene_to_ogf_bytes(s.value(), o, w);
    if (!bytes) state.SkipWithError(bytes.error().message.c_str());
    benchmark::DoNotOptimize(bytes);
  }
}
void BM_GlbToOgfWithTemplate(benchmark::State& state) { glb_to_ogf(state, true); }
BENCHMARK(BM_GlbToOgfWithTemplate)->Unit(benchmark::kMillisecond);
void BM_GlbToOgfNew(benchmark::State& state) { glb_to_ogf(state, false); }
BENCHMARK(BM_GlbToOgfNew)->Unit(benchmark::kMillisecond);

// Phases of the two directions, to see where the time goes.
void BM_PhaseObjectToScene(benchmark::State& state) {
  const auto object = xray::read_object(pair().object);
  for (auto _ : state) {
    Diagnostics w;
    benchmark::DoNotOptimize(xray::object_to_scene(object.value(), "model", {}, w));
  }
}
BENCHMARK(BM_PhaseObjectToScene)->Unit(benchmark::kMillisecond);

void BM_PhaseObjectMeshValidation(benchmark::State& state) {
  const auto object = xray::read_object(pair().object);
  for (auto _ : state)
    for (const auto& m : object.value().meshes) {
      Diagnostics d;
      xray::validate_object_mesh(object.value(), m, d);
      benchmark::DoNotOptimize(d);
    }
}
BENCHMARK(BM_PhaseObjectMeshValidation)->Unit(benchmark::kMillisecond);

// The export's own check of each mesh (errors only, before any index is followed).
void BM_PhaseObjectMeshErrorCheck(benchmark::State& state) {
  const auto object = xray::read_object(pair().object);
  for (auto _ : state)
    for (const auto& m : object.value().meshes) {
      Diagnostics d;
      xray::validate_object_mesh(object.value(), m, d, /*errors_only=*/true);
      benchmark::DoNotOptimize(d);
    }
}
BENCHMARK(BM_PhaseObjectMeshErrorCheck)->Unit(benchmark::kMillisecond);

void BM_PhaseObjectNormals(benchmark::State& state) {
  const auto object = xray::read_object(pair().object);
  const auto style = xray::detect_smoothing(object.value());
  for (auto _ : state)
    for (const auto& m : object.value().meshes)
      benchmark::DoNotOptimize(xray::object_smoothing::corner_normals(xray::object_smoothing::geometry_of(m), style));
}
BENCHMARK(BM_PhaseObjectNormals)->Unit(benchmark::kMillisecond);

void BM_PhaseObjectSceneToGlb(benchmark::State& state) {
  const auto object = xray::read_object(pair().object);
  Diagnostics w;
  const auto s = xray::object_to_scene(object.value(), "model", {}, w);
  for (auto _ : state) benchmark::DoNotOptimize(gltf::write(s.value(), gltf::Container::glb).main);
}
BENCHMARK(BM_PhaseObjectSceneToGlb)->Unit(benchmark::kMillisecond);

void BM_PhaseGlbRead(benchmark::State& state) {
  const auto& glb = exported_glb();
  for (auto _ : state) {
    gltf::ReadOptions ro;
    ro.require_animations = false;
    Diagnostics w;
    benchmark::DoNotOptimize(gltf::read(Bytes(glb.data(), glb.size()), {}, ro, w));
  }
}
BENCHMARK(BM_PhaseGlbRead)->Unit(benchmark::kMillisecond);

void BM_ObjectReadValidate(benchmark::State& state) {
  const auto& file = pair().object;
  for (auto _ : state) {
    auto f = xray::read_object(file);
    auto d = xray::validate_object(f.value());
    if (d.has_errors()) state.SkipWithError("unexpected errors");
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file->bytes().size()));
}
BENCHMARK(BM_ObjectReadValidate)->Unit(benchmark::kMicrosecond);

void BM_ObjectZlibCrc32(benchmark::State& state) {
  const Bytes b = pair().object->bytes();
  for (auto _ : state) benchmark::DoNotOptimize(::crc32(::crc32(0L, Z_NULL, 0), b.data(), static_cast<uInt>(b.size())));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
BENCHMARK(BM_ObjectZlibCrc32)->Unit(benchmark::kMicrosecond);

void BM_ObjectCrc32(benchmark::State& state) {
  const Bytes b = pair().object->bytes();
  for (auto _ : state) benchmark::DoNotOptimize(crc32(b));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
BENCHMARK(BM_ObjectCrc32)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
