// glTF -> .omf speed: the zombi sample (69 motions, 41 bones) exported by our own exporter to
// .glb in memory, then read, sampled at 30 fps, quantised and written (target < 100 ms on one
// core), with and without --skeleton/--template, and the reader alone.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/xray/xray_scene.h"

namespace {

namespace fs = std::filesystem;
using namespace boneyard;

const fs::path kSamples = fs::path(BONEYARD_SAMPLES_DIR) / "xray";

struct Inputs {
  std::optional<xray::OgfFile> ogf;
  std::optional<xray::OmfFile> omf;
  std::vector<std::uint8_t> glb;
  bool ok = false;
  Inputs() {
    auto o = FileData::open(kSamples / "soc/zombi_1.ogf");
    auto m = FileData::open(kSamples / "soc/zombi_animation.omf");
    if (!o || !m) return;
    auto ro = xray::read_ogf(o.value());
    auto rm = xray::read_omf(m.value());
    if (!ro || !rm) return;
    ogf = std::move(ro).value();
    omf = std::move(rm).value();
    auto s = xray::skeleton_scene(*ogf, "zombi");
    Diagnostics w;
    if (!s || !xray::add_motions(s.value(), &*ogf, omf->motions, "zombi_animation", w)) return;
    glb = gltf::write(s.value(), gltf::Container::glb).main;
    ok = true;
  }
};

const Inputs& inputs() {
  static const Inputs in;
  return in;
}

void run(benchmark::State& state, bool skeleton, bool use_template) {
  const Inputs& in = inputs();
  if (!in.ok) {
    state.SkipWithError("zombi samples not found");
    return;
  }
  for (auto _ : state) {
    Diagnostics w;
    auto sc = gltf::read(Bytes(in.glb.data(), in.glb.size()), {}, {}, w);
    xray::XrayImportOptions o;
    o.skeleton = skeleton ? &*in.ogf : nullptr;
    o.template_omf = use_template ? &*in.omf : nullptr;
    auto out = xray::scene_to_omf(sc.value(), o, w);
    auto bytes = xray::write_omf(out.value());
    benchmark::DoNotOptimize(bytes.data());
  }
}

void BM_ZombiGlbToOmf(benchmark::State& s) { run(s, false, false); }
void BM_ZombiGlbToOmfSkeleton(benchmark::State& s) { run(s, true, false); }
void BM_ZombiGlbToOmfTemplate(benchmark::State& s) { run(s, false, true); }
void BM_ZombiGlbReadOnly(benchmark::State& state) {
  const Inputs& in = inputs();
  if (!in.ok) return state.SkipWithError("zombi samples not found");
  for (auto _ : state) {
    Diagnostics w;
    auto sc = gltf::read(Bytes(in.glb.data(), in.glb.size()), {}, {}, w);
    benchmark::DoNotOptimize(sc.ok());
  }
}

BENCHMARK(BM_ZombiGlbToOmf)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiGlbToOmfSkeleton)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiGlbToOmfTemplate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiGlbReadOnly)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
