// MGS2 <-> glTF: a character-sized .kms (20 units of 40x16-quad tubes, ~25k triangles, built by
// the library from a scene) to .glb and back.
#include <benchmark/benchmark.h>

#include <cmath>

#include "boneyard/gltf.h"
#include "boneyard/gltf_read.h"
#include "boneyard/kms.h"
#include "boneyard/mgs2_scene.h"

namespace {

using namespace boneyard;

// A chain of 20 joints 0.1 m apart; around each, a tube of 40 x 16 quads blending the joint with
// its parent near the joint.
scene::Scene character() {
  scene::Scene s;
  constexpr int kJoints = 20, kAround = 40, kAlong = 16;
  for (int j = 0; j < kJoints; ++j) {
    scene::Joint jt;
    jt.name = "j" + std::to_string(j);
    jt.parent = j - 1;
    jt.translation = {0, j ? 0.1f : 0.9f, 0};
    s.skeleton.joints.push_back(jt);
  }
  scene::Mesh mesh;
  mesh.skinned = true;
  for (int j = 0; j < kJoints; ++j) {
    scene::Primitive p;
    p.uvs.resize(1);
    for (int a = 0; a <= kAlong; ++a)
      for (int r = 0; r <= kAround; ++r) {
        const float ang = float(r) * 6.2831853f / kAround, y = 0.9f + 0.1f * float(j) + 0.1f * float(a) / kAlong;
        p.positions.insert(p.positions.end(), {0.08f * std::cos(ang), y, 0.08f * std::sin(ang)});
        p.normals.insert(p.normals.end(), {std::cos(ang), 0, std::sin(ang)});
        p.uvs[0].insert(p.uvs[0].end(), {float(r) / kAround, float(a) / kAlong});
        const float f = j == 0 ? 1.0f : std::min(1.0f, 0.5f + float(a) / kAlong);
        p.joints.insert(p.joints.end(), {std::uint16_t(j), std::uint16_t(j ? j - 1 : 0), 0, 0});
        p.weights.insert(p.weights.end(), {f, 1 - f, 0, 0});
      }
    for (std::uint32_t a = 0; a < kAlong; ++a)
      for (std::uint32_t r = 0; r < kAround; ++r) {
        const std::uint32_t i = a * (kAround + 1) + r, k = i + kAround + 1;
        p.indices.insert(p.indices.end(), {i, k, i + 1, i + 1, k, k + 1});
      }
    scene::clean_weights(p);
    mesh.primitives.push_back(std::move(p));
  }
  s.meshes.push_back(std::move(mesh));
  return s;
}

struct Inputs {
  std::vector<std::uint8_t> kms, glb;
  Inputs() {
    Diagnostics w;
    kms = mgs2::scene_to_kms(character(), {}, w).value();
    auto m = mgs2::read_kms(Bytes(kms.data(), kms.size())).value();
    glb = gltf::write(mgs2::kms_to_scene(m, {}, w).value(), gltf::Container::glb).main;
  }
};
const Inputs& inputs() {
  static const Inputs in;
  return in;
}

void BM_KmsToGlb(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) {
    Diagnostics w;
    auto m = mgs2::read_kms(Bytes(in.kms.data(), in.kms.size()));
    auto s = mgs2::kms_to_scene(m.value(), {}, w);
    auto out = gltf::write(s.value(), gltf::Container::glb);
    benchmark::DoNotOptimize(out.main.data());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(in.kms.size()));
  state.counters["kms_bytes"] = double(in.kms.size());
  state.counters["glb_bytes"] = double(in.glb.size());
}

void BM_GlbToKms(benchmark::State& state) {
  const auto& in = inputs();
  for (auto _ : state) {
    Diagnostics w;
    gltf::ReadOptions o;
    o.require_animations = false;
    auto s = gltf::read(Bytes(in.glb.data(), in.glb.size()), {}, o, w);
    auto k = mgs2::scene_to_kms(s.value(), {}, w);
    benchmark::DoNotOptimize(k.value().data());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(in.glb.size()));
}

}  // namespace

BENCHMARK(BM_KmsToGlb)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GlbToKms)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
