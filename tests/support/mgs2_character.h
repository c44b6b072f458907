// A character-sized skinned scene for MGS2 import measurements and byte pins: a chain of 20 joints
// 0.1 m apart, around each a tube of 40 x `along` quads blending the joint with its parent near the
// joint. along = 16 gives 25,600 triangles, 32 gives 51,200. Shared by bench/bench_mgs2_gltf.cpp
// and tests/mgs2/import_bytes_test.cpp, so the benchmark measures the model the test pins.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "boneyard/scene/scene.h"

namespace boneyard::test {

inline scene::Scene mgs2_character(int along) {
  scene::Scene s;
  constexpr int kJoints = 20, kAround = 40;
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
    for (int a = 0; a <= along; ++a)
      for (int r = 0; r <= kAround; ++r) {
        const float ang = float(r) * 6.2831853f / kAround, y = 0.9f + 0.1f * float(j) + 0.1f * float(a) / float(along);
        p.positions.insert(p.positions.end(), {0.08f * std::cos(ang), y, 0.08f * std::sin(ang)});
        p.normals.insert(p.normals.end(), {std::cos(ang), 0, std::sin(ang)});
        p.uvs[0].insert(p.uvs[0].end(), {float(r) / kAround, float(a) / float(along)});
        const float f = j == 0 ? 1.0f : std::min(1.0f, 0.5f + float(a) / float(along));
        p.joints.insert(p.joints.end(), {std::uint16_t(j), std::uint16_t(j ? j - 1 : 0), 0, 0});
        p.weights.insert(p.weights.end(), {f, 1 - f, 0, 0});
      }
    for (std::uint32_t a = 0; a < std::uint32_t(along); ++a)
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

// The awkward cases of the import's choices on the same 20-joint chain: one primitive of a 24 x 24
// vertex sheet whose vertices blend up to 4 pseudo-random joints out of a window of 4 that moves
// along the chain row by row (a strip's palette overflows 8 joints and splits; a triangle's unit is
// a close call), triangulated, then triangles again over random vertex triples of two adjacent rows
// (directed edges held by several triangles, non-manifold fans) and a few degenerate ones. The
// strip orderer, palette grouping and unit choice all pick among ties here.
inline scene::Scene mgs2_tangle() {
  scene::Scene s = mgs2_character(1);
  s.meshes[0].primitives.clear();
  std::uint32_t x = 0x2545F491u;
  const auto next = [&x] {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return x;
  };
  constexpr std::uint32_t kSide = 24;
  scene::Primitive p;
  p.uvs.resize(1);
  for (std::uint32_t r = 0; r < kSide; ++r)
    for (std::uint32_t c = 0; c < kSide; ++c) {
      const float u = float(c) / (kSide - 1), v = float(r) / (kSide - 1);
      p.positions.insert(p.positions.end(), {0.5f * u - 0.25f, 0.9f + 1.9f * v, 0.02f * float(next() % 100) / 100.0f});
      const float nx = float(int(next() % 200) - 100) / 400.0f, ny = float(int(next() % 200) - 100) / 400.0f;
      const float len = std::sqrt(nx * nx + ny * ny + 1.0f);
      p.normals.insert(p.normals.end(), {nx / len, ny / len, 1.0f / len});
      p.uvs[0].insert(p.uvs[0].end(), {u, v});
      const std::uint32_t window = std::min<std::uint32_t>(r * 17 / (kSide - 1), 16);
      float w[4], sum = 0;
      for (int k = 0; k < 4; ++k) {
        w[k] = k == 0 || next() % 3 ? float(1 + next() % 100) : 0.0f;
        sum += w[k];
        p.joints.push_back(std::uint16_t(window + next() % 4));
      }
      for (float wk : w) p.weights.push_back(wk / sum);
    }
  for (std::uint32_t r = 0; r + 1 < kSide; ++r)
    for (std::uint32_t c = 0; c + 1 < kSide; ++c) {
      const std::uint32_t i = r * kSide + c, k = i + kSide;
      p.indices.insert(p.indices.end(), {i, k, i + 1, i + 1, k, k + 1});
    }
  for (int t = 0; t < 400; ++t) {
    const std::uint32_t r = next() % (kSide - 1), c = next() % (kSide - 1), a = r * kSide + c;
    const std::uint32_t b = next() % 4 ? a + 1 : r * kSide + next() % kSide;
    const std::uint32_t third = t % 40 == 0 ? a : a + kSide;
    p.indices.insert(p.indices.end(), {a, b, third});
  }
  scene::clean_weights(p);
  s.meshes[0].primitives.push_back(std::move(p));
  return s;
}

}  // namespace boneyard::test
