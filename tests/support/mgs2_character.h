// A character-sized skinned scene for MGS2 import measurements and byte pins: a chain of 20 joints
// 0.1 m apart, around each a tube of 40 x `along` quads blending the joint with its parent near the
// joint. along = 16 gives 25,600 triangles, 32 gives 51,200. Shared by bench/bench_mgs2_gltf.cpp
// and tests/mgs2/import_bytes_test.cpp, so the benchmark measures the model the test pins.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "boneyard/scene.h"

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

}  // namespace boneyard::test
