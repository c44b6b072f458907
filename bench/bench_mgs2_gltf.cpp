// MGS2 <-> glTF on a character-sized model (tests/support/mgs2_character.h: 20 joints, tubes of
// 40 x `along` quads; along 16 = 25,600 triangles, 32 = 51,200), as `convert` does it:
//  * model -> .glb: read, scene, glTF write;
//  * .glb -> model: glTF read, build (mgs2::scene_to_model, which also reads back and validates
//    the result). "Export" inputs are our unedited exports (the exact path: strips, weights and
//    normals from the extras); "Plain" ones the same scene written without extras, as another
//    tool would (strip ordering, palettes, re-stripping and quantisation all run).
// `bench_mgs2_gltf --make DIR [along]` writes those inputs (model.kms, model.evm, kms.glb,
// evm.glb, plain.glb) for CLI runs.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

#include "boneyard/core/file_io.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/core/memory_policy.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "mgs2_character.h"

namespace {

using namespace boneyard;

struct Inputs {
  std::vector<std::uint8_t> kms, evm, kms_glb, evm_glb, plain_glb;
  explicit Inputs(int along) {
    Diagnostics w;
    const scene::Scene s = test::mgs2_character(along);
    plain_glb = gltf::write(s, gltf::Container::glb).main;
    kms = mgs2::scene_to_kms(s, {}, w).value();
    evm = mgs2::scene_to_evm(s, {}, w).value();
    kms_glb = gltf::write(mgs2::kms_to_scene(mgs2::read_kms(FileData::from_view(kms, nullptr)).value(), {}, w).value(),
                          gltf::Container::glb).main;
    evm_glb = gltf::write(mgs2::evm_to_scene(mgs2::read_evm(FileData::from_view(evm, nullptr)).value(), {}, w).value(),
                          gltf::Container::glb).main;
  }
};
const Inputs& inputs(int along) {
  static std::map<int, Inputs> cache;
  auto it = cache.find(along);
  if (it == cache.end()) it = cache.emplace(along, Inputs(along)).first;
  return it->second;
}

void BM_KmsToGlb(benchmark::State& state) {
  const auto& in = inputs(int(state.range(0)));
  for (auto _ : state) {
    Diagnostics w;
    auto m = mgs2::read_kms(FileData::from_view(in.kms, nullptr));
    auto s = mgs2::kms_to_scene(m.value(), {}, w);
    auto out = gltf::write(s.value(), gltf::Container::glb);
    benchmark::DoNotOptimize(out.main.data());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(in.kms.size()));
  state.counters["kms_bytes"] = double(in.kms.size());
  state.counters["glb_bytes"] = double(in.kms_glb.size());
}

void BM_EvmToGlb(benchmark::State& state) {
  const auto& in = inputs(int(state.range(0)));
  for (auto _ : state) {
    Diagnostics w;
    auto m = mgs2::read_evm(FileData::from_view(in.evm, nullptr));
    auto s = mgs2::evm_to_scene(m.value(), {}, w);
    auto out = gltf::write(s.value(), gltf::Container::glb);
    benchmark::DoNotOptimize(out.main.data());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(in.evm.size()));
  state.counters["evm_bytes"] = double(in.evm.size());
  state.counters["glb_bytes"] = double(in.evm_glb.size());
}

// glTF -> model as `convert` does it: read, build, read back and validate.
void glb_to_model(benchmark::State& state, const std::vector<std::uint8_t>& glb, const char* ext) {
  for (auto _ : state) {
    Diagnostics w;
    gltf::ReadOptions o;
    o.require_animations = false;
    auto s = gltf::read(Bytes(glb.data(), glb.size()), {}, o, w);
    auto k = mgs2::scene_to_model(s.value(), ext, {}, "model", w);
    if (!k) state.SkipWithError(k.error().message.c_str());
    else benchmark::DoNotOptimize(k.value().data());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(glb.size()));
  state.counters["glb_bytes"] = double(glb.size());
}
void BM_ExportGlbToKms(benchmark::State& state) { glb_to_model(state, inputs(int(state.range(0))).kms_glb, ".kms"); }
void BM_ExportGlbToEvm(benchmark::State& state) { glb_to_model(state, inputs(int(state.range(0))).evm_glb, ".evm"); }
void BM_PlainGlbToKms(benchmark::State& state) { glb_to_model(state, inputs(int(state.range(0))).plain_glb, ".kms"); }
void BM_PlainGlbToEvm(benchmark::State& state) { glb_to_model(state, inputs(int(state.range(0))).plain_glb, ".evm"); }

}  // namespace

// Arg: quads along each tube (16: 25,600 triangles; 32: 51,200).
BENCHMARK(BM_KmsToGlb)->Arg(16)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvmToGlb)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExportGlbToKms)->Arg(16)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExportGlbToEvm)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainGlbToKms)->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlainGlbToEvm)->Arg(32)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--make") == 0) {
    const std::filesystem::path dir = argv[2];
    const int along = argc >= 4 ? std::atoi(argv[3]) : 32;
    const Inputs in(along);
    const std::pair<const char*, const std::vector<std::uint8_t>*> files[] = {
        {"model.kms", &in.kms}, {"model.evm", &in.evm}, {"kms.glb", &in.kms_glb}, {"evm.glb", &in.evm_glb}, {"plain.glb", &in.plain_glb}};
    for (const auto& [name, bytes] : files)
      if (auto written = write_file_atomic(dir / name, Bytes(bytes->data(), bytes->size())); !written) {
        std::fprintf(stderr, "%s\n", written.error().message.c_str());
        return 2;
      }
    std::printf("%s: model.kms model.evm kms.glb evm.glb plain.glb (along %d)\n", dir.c_str(), along);
    return 0;
  }
  // --app-heap: the allocator policy the CLI applies (memory_policy.h), to measure the library's
  // own work without the page faults an application can avoid.
  if (argc >= 2 && std::strcmp(argv[1], "--app-heap") == 0) {
    use_large_reused_heap();
    argv[1] = argv[0];
    ++argv, --argc;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
