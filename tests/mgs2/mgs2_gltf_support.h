// Helpers for the MGS2 <-> glTF tests: hand-made scenes (as another tool would write them, no
// extras) and comparisons of triangle sets and skinning.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/scene/scene.h"

namespace boneyard::test {

// One triangle as 3 x (position xyz, normal xyz, uv0), rounded to a grid, rotated so that the
// smallest vertex comes first (winding kept): comparable across strip orders and packets.
using TriKey = std::array<long long, 24>;

inline std::vector<TriKey> triangle_set(const scene::Scene& s, double pos_grid = 1e-5) {
  std::vector<TriKey> out;
  for (const auto& m : s.meshes)
    for (const auto& p : m.primitives)
      for (std::size_t t = 0; t + 2 < p.indices.size(); t += 3) {
        std::array<std::array<long long, 8>, 3> v{};
        for (int k = 0; k < 3; ++k) {
          const std::size_t i = p.indices[t + std::size_t(k)];
          for (int c = 0; c < 3; ++c) v[k][c] = std::llround(p.positions[i * 3 + c] / pos_grid);
          for (int c = 0; c < 3; ++c) v[k][3 + c] = p.normals.empty() ? 0 : std::llround(p.normals[i * 3 + c] * 1000);
          for (int c = 0; c < 2; ++c) v[k][6 + c] = p.uvs.empty() ? 0 : std::llround(p.uvs[0][i * 2 + c] * 4096);
        }
        const int first = static_cast<int>(std::min_element(v.begin(), v.end()) - v.begin());
        TriKey key{};
        for (int k = 0; k < 3; ++k)
          for (int c = 0; c < 8; ++c) key[std::size_t(k * 8 + c)] = v[std::size_t((first + k) % 3)][std::size_t(c)];
        out.push_back(key);
      }
  std::sort(out.begin(), out.end());
  return out;
}

// The weight a skinned vertex gives joint j.
inline float weight_of(const scene::Primitive& p, std::size_t v, std::uint16_t j) {
  float w = 0;
  for (int k = 0; k < 4; ++k)
    if (p.joints[v * 4 + k] == j) w += p.weights[v * 4 + k];
  return w;
}

// Writes a scene as .glb and reads it back (meshes, no animations required).
inline scene::Scene via_glb(const scene::Scene& s, Diagnostics& w) {
  const auto out = gltf::write(s, gltf::Container::glb);
  gltf::ReadOptions o;
  o.require_animations = false;
  auto r = gltf::read(Bytes(out.main.data(), out.main.size()), {}, o, w);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "glb"));
  return r.ok() ? std::move(r).value() : scene::Scene{};
}

struct Vtx {
  std::array<float, 3> pos, normal;
  std::array<float, 2> uv;
  std::array<std::uint16_t, 4> joints{};
  std::array<float, 4> weights{1, 0, 0, 0};
};

inline scene::Primitive make_primitive(const std::vector<Vtx>& vs, const std::vector<std::uint32_t>& idx) {
  scene::Primitive p;
  p.uvs.resize(1);
  for (const auto& v : vs) {
    p.positions.insert(p.positions.end(), v.pos.begin(), v.pos.end());
    p.normals.insert(p.normals.end(), v.normal.begin(), v.normal.end());
    p.uvs[0].insert(p.uvs[0].end(), v.uv.begin(), v.uv.end());
    p.joints.insert(p.joints.end(), v.joints.begin(), v.joints.end());
    p.weights.insert(p.weights.end(), v.weights.begin(), v.weights.end());
  }
  p.indices = idx;
  return p;
}

// An axis-aligned box from lo to hi (metres), 4 vertices per face with outward normals.
inline void add_box(std::vector<Vtx>& vs, std::vector<std::uint32_t>& idx, std::array<float, 3> lo, std::array<float, 3> hi) {
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side) {
      const int a = (axis + 1) % 3, b = (axis + 2) % 3;
      const auto base = static_cast<std::uint32_t>(vs.size());
      for (int q = 0; q < 4; ++q) {
        Vtx v{};
        v.pos[std::size_t(axis)] = side ? hi[std::size_t(axis)] : lo[std::size_t(axis)];
        v.pos[std::size_t(a)] = (q == 1 || q == 2) ? hi[std::size_t(a)] : lo[std::size_t(a)];
        v.pos[std::size_t(b)] = (q >= 2) ? hi[std::size_t(b)] : lo[std::size_t(b)];
        v.normal[std::size_t(axis)] = side ? 1.0f : -1.0f;
        v.uv = {(q == 1 || q == 2) ? 1.0f : 0.0f, q >= 2 ? 1.0f : 0.0f};
        vs.push_back(v);
      }
      // Counter-clockwise seen from outside.
      if (side) idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
      else idx.insert(idx.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
    }
}

inline scene::Joint joint(const char* name, int parent, Vec3 t) {
  scene::Joint j;
  j.name = name;
  j.parent = parent;
  j.translation = t;
  return j;
}

}  // namespace boneyard::test
