// X-Ray to glTF speed: zombi_1.ogf + zombi_animation.omf (69 motions, 41 bones) to .glb bytes on
// one core (target < 50 ms), its stages, the skinned stalker_lesnik_1.ogf (61 bones, 6,798
// vertices; target < 100 ms with its OMF), and batch throughput on 1..N threads. The sample files
// are linked into a temporary meshes tree (never copied into the repository).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>
#include <thread>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/batch.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/xray/xray_scene.h"

namespace {

namespace fs = std::filesystem;
using namespace boneyard;

const fs::path kSamples = fs::path(BONEYARD_SAMPLES_DIR) / "xray";

// A temporary meshes tree: `copies` zombie models, each in its own folder, all referring to one
// zombi_animation.omf as in the game.
struct Tree {
  fs::path root;
  explicit Tree(int copies) {
    std::random_device rd;
    root = fs::temp_directory_path() / ("boneyard_bench_gltf_" + std::to_string(rd()));
    const fs::path meshes = root / "in" / "meshes" / "monsters";
    fs::create_directories(meshes);
    fs::create_symlink(kSamples / "soc/zombi_animation.omf", meshes / "zombi_animation.omf");
    for (int i = 0; i < copies; ++i) {
      fs::create_directories(meshes / ("zombi" + std::to_string(i)));
      fs::create_symlink(kSamples / "soc/zombi_1.ogf", meshes / ("zombi" + std::to_string(i)) / "zombi_1.ogf");
    }
  }
  ~Tree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  fs::path model(int i) const { return root / "in/meshes/monsters" / ("zombi" + std::to_string(i)) / "zombi_1.ogf"; }
};

bool have_samples(benchmark::State& state) {
  if (fs::exists(kSamples / "soc/zombi_1.ogf")) return true;
  state.SkipWithError("samples not found (../shared/samples/xray)");
  return false;
}

std::shared_ptr<const FileData> open(const fs::path& p) { return FileData::open(p).value(); }

// Whole conversion from files: read the OGF, find and read the OMF, build the scene, write .glb bytes.
void BM_ZombiToGlb(benchmark::State& state) {
  if (!have_samples(state)) return;
  Tree tree(1);
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto ogf = xray::read_ogf(open(tree.model(0)));
    Diagnostics warnings;
    auto sc = ogf_scene_with_motions(ogf.value(), tree.model(0), {}, warnings);
    auto out = gltf::write(sc.value(), gltf::Container::glb);
    bytes = out.main.size();
    benchmark::DoNotOptimize(out.main.data());
  }
  state.counters["glb_MB"] = double(bytes) / 1e6;
}
BENCHMARK(BM_ZombiToGlb)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// The writer alone (scene already built).
void BM_GlbWriterOnly(benchmark::State& state) {
  if (!have_samples(state)) return;
  Tree tree(1);
  auto ogf = xray::read_ogf(open(tree.model(0)));
  Diagnostics warnings;
  auto sc = ogf_scene_with_motions(ogf.value(), tree.model(0), {}, warnings);
  for (auto _ : state) {
    auto out = gltf::write(sc.value(), gltf::Container::glb);
    benchmark::DoNotOptimize(out.main.data());
  }
}
BENCHMARK(BM_GlbWriterOnly)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// stalker_lesnik_1.ogf with its mesh to .glb bytes. Its motions (actors\lesnik_animation, 1.6 MB
// in the game) are not among the samples; when cs/lesnik_animation.omf is there it is linked where
// the ref points, otherwise the ref is missing (a warning) and the skeleton and mesh are measured.
void BM_LesnikToGlb(benchmark::State& state) {
  const fs::path ogf_path = kSamples / "cs/stalker_lesnik_1.ogf";
  if (!fs::exists(ogf_path)) {
    state.SkipWithError("samples not found (../shared/samples/xray)");
    return;
  }
  std::random_device rd;
  const fs::path root = fs::temp_directory_path() / ("boneyard_bench_lesnik_" + std::to_string(rd()));
  fs::create_directories(root / "meshes/actors/stalker_lesnik");
  const fs::path model = root / "meshes/actors/stalker_lesnik/stalker_lesnik_1.ogf";
  fs::create_symlink(ogf_path, model);
  const bool with_omf = fs::exists(kSamples / "cs/lesnik_animation.omf");
  if (with_omf) fs::create_symlink(kSamples / "cs/lesnik_animation.omf", root / "meshes/actors/lesnik_animation.omf");
  std::size_t bytes = 0, vertices = 0;
  for (auto _ : state) {
    auto ogf = xray::read_ogf(open(model));
    Diagnostics warnings;
    auto sc = ogf_scene_with_motions(ogf.value(), model, {}, warnings);
    auto out = gltf::write(sc.value(), gltf::Container::glb);
    bytes = out.main.size();
    vertices = sc->meshes.empty() ? 0 : sc->meshes[0].primitives[0].vertex_count();
    benchmark::DoNotOptimize(out.main.data());
  }
  state.counters["glb_MB"] = double(bytes) / 1e6;
  state.counters["vertices"] = double(vertices);
  state.counters["with_omf"] = with_omf ? 1 : 0;
  std::error_code ec;
  fs::remove_all(root, ec);
}
BENCHMARK(BM_LesnikToGlb)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

// Batch: 8 models + their shared OMF, written to disk, on 1, 2, ... threads.
void BM_Batch8Models(benchmark::State& state) {
  if (!have_samples(state)) return;
  Tree tree(8);
  BatchOptions o;
  o.input_dir = tree.root / "in";
  o.output_dir = tree.root / "out";
  o.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    auto r = convert_tree(o);
    if (r.failed != 0) state.SkipWithError("batch item failed");
  }
  state.counters["models_per_s"] = benchmark::Counter(8.0, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Batch8Models)
    ->DenseRange(1, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
