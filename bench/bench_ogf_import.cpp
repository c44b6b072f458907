// glTF -> .ogf speed against the export it inverts, on zombi_1 (41 bones, 1,546 vertices, 1,806
// full-detail triangles) with its 69 motions in the .glb as a real export has them:
//  * the export, .ogf -> .glb (skeleton, motions, meshes, glTF written in memory);
//  * the .ogf writer alone, scene -> checked .ogf bytes: with the model as template (every child
//    compared with its export), with one vertex moved (that child laid out again with tangent
//    frames), without a template (every child written, bones and boxes made);
//  * the whole import, .glb -> .ogf, with the glTF read as `convert` does it (the 69 motions are
//    checked, never sampled: issue 37), and the same for a .glb with the model alone;
//  * a HUD model with hands (soc/wpn_binoculars_hud: 2 children, 44 bones, no motions): .ogf -> .glb
//    against .glb -> .ogf with the model as template.
// The writer must not be slower than the export (docs/ogf-write.md "Speed").
#include <benchmark/benchmark.h>

#include <filesystem>

#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"

namespace {

namespace fs = std::filesystem;
using namespace boneyard;

const fs::path kSamples = fs::path(BONEYARD_SAMPLES_DIR) / "xray";

// As `convert x.glb -o y.ogf` reads it: the animations are checked but never sampled for a model.
scene::Scene read_glb(const std::vector<std::uint8_t>& glb) {
  Diagnostics w;
  gltf::ReadOptions ro;
  ro.require_animations = false;
  return gltf::read_deferred(FileData::from_view(Bytes(glb.data(), glb.size()), nullptr), {}, ro, w).value();
}

struct Inputs {
  std::optional<xray::OgfFile> ogf;
  std::optional<xray::OmfFile> omf;
  std::vector<std::uint8_t> glb, glb_model;
  scene::Scene read, moved;
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
    auto s = export_scene(true);
    auto model = export_scene(false);
    if (!s || !model) return;
    glb = gltf::write(*s, gltf::Container::glb).main;
    glb_model = gltf::write(*model, gltf::Container::glb).main;
    read = read_glb(glb);
    moved = read;
    moved.meshes[0].primitives[0].positions[1] += 0.01f;
    ok = true;
  }
  std::optional<scene::Scene> export_scene(bool motions) const {
    auto s = xray::skeleton_scene(*ogf, "zombi_1");
    Diagnostics w;
    if (!s || (motions && !xray::add_motions(s.value(), &*ogf, omf->motions, "monsters\\zombi_animation", w)))
      return std::nullopt;
    if (!xray::add_meshes(s.value(), *ogf, {}, w)) return std::nullopt;
    return std::move(s).value();
  }
};

const Inputs& inputs() {
  static const Inputs in;
  return in;
}

void BM_ZombiOgfToGlb(benchmark::State& state) {
  const Inputs& in = inputs();
  if (!in.ok) return state.SkipWithError("zombi samples not found");
  for (auto _ : state) {
    auto s = in.export_scene(true);
    auto glb = gltf::write(*s, gltf::Container::glb);
    benchmark::DoNotOptimize(glb.main.data());
  }
}

enum class Mode { unedited, one_vertex, no_template };

void writer(benchmark::State& state, Mode mode) {
  const Inputs& in = inputs();
  if (!in.ok) return state.SkipWithError("zombi samples not found");
  for (auto _ : state) {
    Diagnostics w;
    xray::OgfImportOptions o;
    if (mode != Mode::no_template) o.template_ogf = &*in.ogf;
    auto bytes = xray::scene_to_ogf_bytes(mode == Mode::one_vertex ? in.moved : in.read, o, w);
    if (!bytes) return state.SkipWithError(bytes.error().message.c_str());
    benchmark::DoNotOptimize(bytes->data());
  }
}

void whole(benchmark::State& state, bool motions) {
  const Inputs& in = inputs();
  if (!in.ok) return state.SkipWithError("zombi samples not found");
  for (auto _ : state) {
    const scene::Scene s = read_glb(motions ? in.glb : in.glb_model);
    Diagnostics w;
    xray::OgfImportOptions o;
    o.template_ogf = &*in.ogf;
    auto bytes = xray::scene_to_ogf_bytes(s, o, w);
    if (!bytes) return state.SkipWithError(bytes.error().message.c_str());
    benchmark::DoNotOptimize(bytes->data());
  }
}

// The HUD model: export and import of the model alone.
struct Hud {
  std::optional<xray::OgfFile> ogf;
  std::vector<std::uint8_t> glb;
  bool ok = false;
  Hud() {
    auto o = FileData::open(kSamples / "soc/wpn_binoculars_hud.ogf");
    if (!o) return;
    auto r = xray::read_ogf(o.value());
    if (!r) return;
    ogf = std::move(r).value();
    auto s = model_scene();
    if (!s) return;
    glb = gltf::write(*s, gltf::Container::glb).main;
    ok = true;
  }
  std::optional<scene::Scene> model_scene() const {
    auto s = xray::skeleton_scene(*ogf, "wpn_binoculars_hud");
    Diagnostics w;
    if (!s || !xray::add_meshes(s.value(), *ogf, {}, w)) return std::nullopt;
    return std::move(s).value();
  }
};

const Hud& hud() {
  static const Hud h;
  return h;
}

void BM_HudOgfToGlb(benchmark::State& state) {
  const Hud& h = hud();
  if (!h.ok) return state.SkipWithError("wpn_binoculars_hud sample not found");
  for (auto _ : state) {
    auto s = h.model_scene();
    auto glb = gltf::write(*s, gltf::Container::glb);
    benchmark::DoNotOptimize(glb.main.data());
  }
}

void BM_HudGlbToOgfTemplate(benchmark::State& state) {
  const Hud& h = hud();
  if (!h.ok) return state.SkipWithError("wpn_binoculars_hud sample not found");
  for (auto _ : state) {
    const scene::Scene s = read_glb(h.glb);
    Diagnostics w;
    xray::OgfImportOptions o;
    o.template_ogf = &*h.ogf;
    auto bytes = xray::scene_to_ogf_bytes(s, o, w);
    if (!bytes) return state.SkipWithError(bytes.error().message.c_str());
    benchmark::DoNotOptimize(bytes->data());
  }
}

void BM_ZombiSceneToOgfTemplate(benchmark::State& s) { writer(s, Mode::unedited); }
void BM_ZombiSceneToOgfTemplateOneVertexMoved(benchmark::State& s) { writer(s, Mode::one_vertex); }
void BM_ZombiSceneToOgfNoTemplate(benchmark::State& s) { writer(s, Mode::no_template); }
void BM_ZombiGlbToOgfTemplate(benchmark::State& s) { whole(s, true); }
void BM_ZombiModelGlbToOgfTemplate(benchmark::State& s) { whole(s, false); }

BENCHMARK(BM_ZombiOgfToGlb)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiSceneToOgfTemplate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiSceneToOgfTemplateOneVertexMoved)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiSceneToOgfNoTemplate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiGlbToOgfTemplate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZombiModelGlbToOgfTemplate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HudOgfToGlb)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HudGlbToOgfTemplate)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
