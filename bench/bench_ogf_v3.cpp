// OGF v3 speed: a hand-laid model at the scale of zombi_1 (41 bones, 1,546 1-link vertices, 1,806
// triangles, 69 motions of 100 frames), in both motion layouts (0x1A: 8-bit translations, which go
// through the .omf adapter; 0xE: float translations), read + validated, and read + exported to a
// .glb in memory; next to zombi_1.ogf + zombi_animation.omf (v4, the same scale) exported the same
// way when the samples are there, so the two are measured under the same load
// (docs/performance.md "OGF v3").
#include <benchmark/benchmark.h>

#include <filesystem>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/ogf_v3/ogf_v3_scene.h"
#include "boneyard/xray/xray_scene.h"
#include "ogf_v3_fixture.h"

namespace {

namespace fs = std::filesystem;
using namespace boneyard;
namespace v3 = boneyard::test::v3;

constexpr int kBones = 41, kVertices = 1546, kTriangles = 1806, kMotions = 69, kFrames = 100;

std::vector<std::uint8_t> zombi_scale_model(bool floats) {
  std::vector<v3::Bone> bones;
  for (int b = 0; b < kBones; ++b)
    bones.push_back({"bone" + std::to_string(b), b == 0 ? "" : "bone" + std::to_string((b - 1) / 2),
                     {0.01f * float(b), -0.02f * float(b), 0}, {0, 0.1f, 0.05f}});
  std::vector<v3::Vertex> vs(kVertices);
  for (int i = 0; i < kVertices; ++i) {
    vs[std::size_t(i)].p = {0.001f * float(i % 37), 0.002f * float(i % 53), 0.003f * float(i % 11)};
    vs[std::size_t(i)].uv = {0.001f * float(i), 0.5f};
    vs[std::size_t(i)].b0 = std::uint16_t(i % kBones);
  }
  std::vector<std::uint16_t> is;
  for (int t = 0; t < kTriangles; ++t)
    for (int k = 0; k < 3; ++k) is.push_back(std::uint16_t((t + k * 7) % kVertices));
  v3::Part all{"default", {}};
  for (int b = 0; b < kBones; ++b) all.bones.push_back({"bone" + std::to_string(b), std::uint32_t(b)});
  std::vector<v3::Params> params;
  std::vector<v3::Keys> keys;
  for (int m = 0; m < kMotions; ++m) {
    params.push_back({"motion" + std::to_string(m), 0, false, false, 0xFFFF, std::uint16_t(m)});
    v3::Keys k{"motion" + std::to_string(m), kFrames, {}};
    for (int b = 0; b < kBones; ++b) {
      v3::Track t;
      for (int f = 0; f < kFrames; ++f) {
        t.rot.push_back(v3::turn(0.01 * f + 0.1 * b, (b + m) % 3));
        if (floats) t.trans_floats.push_back({0.001f * float(f), 0.1f, 0.05f});
        else t.trans.push_back({f % 100, 0, -(f % 50)});
      }
      t.size = {0.001f, 0.001f, 0.001f};
      k.bones.push_back(std::move(t));
    }
    keys.push_back(std::move(k));
  }
  test::Buf extra;
  extra.chunk(floats ? 0x12 : 0x14, v3::params(floats ? 0 : 3, {all}, params));
  extra.chunk(floats ? 0xE : 0x1A, v3::key_sets(floats, keys));
  return v3::skinned_model(4, v3::k1L, vs, is, bones, 0x19, extra);
}

const std::vector<std::uint8_t>& model(bool floats) {
  static const std::vector<std::uint8_t> a = zombi_scale_model(false), b = zombi_scale_model(true);
  return floats ? b : a;
}

void BM_OgfV3ReadValidate(benchmark::State& state) {
  const auto& bytes = model(state.range(0) != 0);
  const auto file = FileData::from_vector(bytes);
  for (auto _ : state) {
    auto f = xray::read_ogf_v3(file);
    benchmark::DoNotOptimize(xray::validate_ogf_v3(f.value()).findings().size());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes.size()));
}
BENCHMARK(BM_OgfV3ReadValidate)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void BM_OgfV3ToGlb(benchmark::State& state) {
  const auto file = FileData::from_vector(model(state.range(0) != 0));
  for (auto _ : state) {
    auto f = xray::read_ogf_v3(file);
    Diagnostics w;
    xray::XrayExportOptions o;
    o.input = "model.ogf";
    auto s = xray::ogf_v3_to_scene(f.value(), o, w);
    benchmark::DoNotOptimize(gltf::write(s.value(), gltf::Container::glb).main.size());
  }
}
BENCHMARK(BM_OgfV3ToGlb)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// The v4 reference: zombi_1 with its 69 motions and mesh, the same steps.
void BM_ZombiV4ToGlb(benchmark::State& state) {
  const fs::path dir = fs::path(BONEYARD_SAMPLES_DIR) / "xray/soc";
  auto o = FileData::open(dir / "zombi_1.ogf");
  auto m = FileData::open(dir / "zombi_animation.omf");
  if (!o || !m) {
    state.SkipWithError("samples not found");
    return;
  }
  for (auto _ : state) {
    auto ogf = xray::read_ogf(o.value());
    auto omf = xray::read_omf(m.value());
    Diagnostics w;
    xray::XrayExportOptions opt;
    opt.input = "zombi_1.ogf";
    auto s = xray::skeleton_scene(ogf.value(), "zombi_1");
    (void)xray::add_motions(s.value(), &ogf.value(), omf->motions, "zombi_animation", w);
    (void)xray::add_meshes(s.value(), ogf.value(), opt, w);
    benchmark::DoNotOptimize(gltf::write(s.value(), gltf::Container::glb).main.size());
  }
}
BENCHMARK(BM_ZombiV4ToGlb)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
