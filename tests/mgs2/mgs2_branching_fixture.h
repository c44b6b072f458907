// Branching MGS2 fixtures for the Blender round trip (tests/blender/mgs2_roundtrip_test.py) and
// the unit tests of the identity rules: six units/joints with parents [-1, 0, 0, 2, 1, 1], so
// that a depth-first skin order (0, 1, 4, 5, 2, 3: what Blender writes) differs from the stored
// one; several texture sets (one, and three slots "A+B+C"), single-sided packets (CULLON, kick
// low bits 0), envelope packets, and (EVM) a packet that uses six matrices (n_mats 6 in the
// spec's reading, more than SeaLouse's 4 influences). Laid out byte by byte by mgs2_fixture.h.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "mgs2_fixture.h"

namespace boneyard::test::mgs2fx {

// Texture file names (StrCode24 of the name with ".bmp" is the id) and their ids.
inline const char* const kBranchingTextureNames[4] = {"body.bmp", "body_spec.bmp", "env_metal.bmp", "face.bmp"};
inline constexpr std::array<int, 6> kBranchingParents{-1, 0, 0, 2, 1, 1};

inline constexpr std::int16_t kStripStart = static_cast<std::int16_t>(0x8FFF);  // no-draw, double-sided bits

// A strip of n vertices zig-zagging along +x from `at` (model units, unit-local for KMS), `step`
// apart, with `fourth` as each record's 4th s16: its n - 2 triangles alternate winding.
inline std::vector<S4> strip_positions(int n, F3 at, std::int16_t fourth, std::int16_t step) {
  std::vector<S4> out;
  for (int i = 0; i < n; ++i)
    out.push_back({static_cast<std::int16_t>(at[0] + float((i / 2) * step)), static_cast<std::int16_t>(at[1] + float((i % 2) * step)),
                   static_cast<std::int16_t>(at[2] + float((i % 3) * 2)), fourth});
  return out;
}

inline KPacket branching_kms_packet(std::uint32_t flag, std::array<std::uint32_t, 3> tex, int n, F3 at, bool single_sided,
                                    bool envelope) {
  KPacket p;
  p.flag = flag | (single_sided ? 0x4U : 0U) | (envelope ? 0x1U : 0U);
  p.tex = tex;
  p.verts = strip_positions(n, at, 4096, 10);
  for (int i = 0; i < n; ++i) {
    if (envelope) p.verts[std::size_t(i)][3] = static_cast<std::int16_t>(4096 - (i % 3) * 1024);  // 1, 0.75, 0.5
    const std::int16_t kick = i < 2 ? (single_sided ? static_cast<std::int16_t>(0x8000) : kStripStart)
                                    : static_cast<std::int16_t>(single_sided ? 0 : 0x0FFF);
    p.norms.push_back({0, 0, 4096, kick});
    p.uvs[0].push_back({static_cast<std::int16_t>((i / 2) * 1024), static_cast<std::int16_t>((i % 2) * 4096)});
    if (flag & 0x80) p.uvs[1].push_back({static_cast<std::int16_t>(i * 256), 2048});
  }
  return p;
}

inline void fit_kms_boxes(KFile& f) {
  std::vector<F3> world(f.units.size());
  F3 lo{1e9f, 1e9f, 1e9f}, hi{-1e9f, -1e9f, -1e9f};
  for (std::size_t i = 0; i < f.units.size(); ++i) {
    KUnit& u = f.units[i];
    const F3 base = u.parent >= 0 ? world[std::size_t(u.parent)] : F3{0, 0, 0};  // model space: without the header's base
    world[i] = {base[0] + u.pos[0], base[1] + u.pos[1], base[2] + u.pos[2]};
    u.bmin = {1e9f, 1e9f, 1e9f}, u.bmax = {-1e9f, -1e9f, -1e9f};
    for (const auto& p : u.packets)
      for (const auto& v : p.verts)
        for (int c = 0; c < 3; ++c) {
          u.bmin[c] = std::min(u.bmin[c], float(v[c])), u.bmax[c] = std::max(u.bmax[c], float(v[c]));
          lo[c] = std::min(lo[c], world[i][c] + v[c]), hi[c] = std::max(hi[c], world[i][c] + v[c]);
        }
  }
  f.bmin = lo, f.bmax = hi;
}

// `texs` = the 4 ids (body, spec, env, face): the fixture writer passes strcode() of the names.
inline KFile branching_kms(bool mc, const std::array<std::uint32_t, 4>& texs) {
  const auto [A, B, C, D] = texs;
  KFile f;
  f.mc = mc;
  f.data_format = 0x00B253A3;  // MULTITEX: up to 3 textures per packet, 32 vertices
  f.n_models = 6;
  f.pos = {0, 100, 0};
  constexpr std::uint32_t kTex0Uv0 = 0x48, kThreeTextures = 0x2F8;  // TEX0|UV0; TEX0-2|UV0|UV1|EMAP
  const F3 offsets[6] = {{0, 0, 0}, {50, 0, 0}, {-50, 0, 0}, {0, -80, 0}, {0, 60, 0}, {0, -60, 10}};
  f.units.resize(6);
  for (std::size_t i = 0; i < 6; ++i) f.units[i].parent = kBranchingParents[i], f.units[i].pos = offsets[i];
  f.units[0].packets = {branching_kms_packet(kTex0Uv0, {A, 0, 0}, 6, {0, 0, 0}, false, false)};
  f.units[1].packets = {branching_kms_packet(kThreeTextures, {A, B, C}, 6, {0, 0, 1}, false, true)};
  f.units[2].packets = {branching_kms_packet(kTex0Uv0, {D, 0, 0}, 5, {-20, 0, 0}, true, false)};
  f.units[3].packets = {branching_kms_packet(kTex0Uv0, {A, 0, 0}, 6, {0, -20, 0}, false, true)};
  f.units[4].packets = {branching_kms_packet(kTex0Uv0, {D, 0, 0}, 4, {0, 0, 2}, false, true),
                        branching_kms_packet(kThreeTextures, {A, B, C}, 5, {0, 20, 3}, true, false)};
  f.units[5].packets = {branching_kms_packet(kTex0Uv0, {A, 0, 0}, 4, {5, -5, 0}, false, true)};
  fit_kms_boxes(f);
  return f;
}

// ---- EVM ---------------------------------------------------------------------------------------

struct Influence {
  int joint;
  std::uint8_t weight;  // /128
};

// One packet of a strip along +x at `at` (model units), each vertex weighed by `inf(i)`.
template <class Influences>
EPacket branching_evm_packet(std::uint32_t flag, std::array<std::uint32_t, 3> tex, int n, F3 at, bool single_sided,
                             Influences inf) {
  EPacket p;
  p.flag = flag | (single_sided ? 0x4U : 0U);
  p.tex = tex;
  p.mat.fill(0xFF);
  p.n_mats = 0;
  for (const auto& v : strip_positions(n, at, 0, 8)) p.verts.push_back({static_cast<std::int16_t>(v[0] * 16), static_cast<std::int16_t>(v[1] * 16),
                                                                      static_cast<std::int16_t>(v[2] * 16), 0});
  for (int i = 0; i < n; ++i) {
    p.verts[std::size_t(i)][3] = i < 2 ? (single_sided ? static_cast<std::int16_t>(0x8000) : kStripStart)
                                       : static_cast<std::int16_t>(single_sided ? 0 : 0x0FFF);
    p.norms.push_back({0, 0, 4096, 0});
    p.uvs[0].push_back({static_cast<std::int16_t>((i / 2) * 1024), static_cast<std::int16_t>((i % 2) * 4096), 4096, 0});
    if (flag & 0x80) p.uvs[1].push_back({static_cast<std::int16_t>(i * 256), 2048, 4096, 0});
    std::array<std::uint8_t, 8> w{};
    const std::vector<Influence> list = inf(i);
    for (std::size_t k = 0; k < list.size(); ++k) {
      std::size_t slot = std::size_t(std::find(p.mat.begin(), p.mat.begin() + p.n_mats, list[k].joint) - p.mat.begin());
      if (slot == p.n_mats) p.mat[p.n_mats++] = static_cast<std::uint8_t>(list[k].joint);
      w[k] = list[k].weight;
      w[4 + k] = static_cast<std::uint8_t>(slot * 4);
    }
    p.weights.push_back(w);
  }
  return p;
}

inline void fit_evm_boxes(EFile& f) {
  F3 lo{1e9f, 1e9f, 1e9f}, hi{-1e9f, -1e9f, -1e9f};
  for (auto& b : f.bones) b.bmin = {1e9f, 1e9f, 1e9f, 0}, b.bmax = {-1e9f, -1e9f, -1e9f, 0};
  for (const auto& p : f.packets)
    for (std::size_t v = 0; v < p.verts.size(); ++v)
      for (int c = 0; c < 3; ++c) {
        const float x = p.verts[v][std::size_t(c)] / 16.0f;
        lo[c] = std::min(lo[c], x), hi[c] = std::max(hi[c], x);
        for (int k = 0; k < 4; ++k)
          if (p.weights[v][std::size_t(k)] != 0) {
            EBone& b = f.bones[p.mat[p.weights[v][std::size_t(4 + k)] / 4]];
            b.bmin[c] = std::min(b.bmin[c], x), b.bmax[c] = std::max(b.bmax[c], x);
          }
      }
  for (auto& b : f.bones)
    if (b.bmin[0] > b.bmax[0]) b.bmin = {0, 0, 0, 0}, b.bmax = {0, 0, 0, 0};
  f.bmin = lo, f.bmax = hi;
}

// Six joints [-1, 0, 0, 2, 1, 1]; packet 0 one texture over joints 0-2, packet 1 "A+B+C" over
// all six joints (n_mats 6), packet 2 single-sided over joints 3 and 4. V2 weights, 1.11.4.
inline EFile branching_evm(bool mc, const std::array<std::uint32_t, 4>& texs) {
  const auto [A, B, C, D] = texs;
  EFile f;
  f.mc = mc;
  f.n_models = 6;
  f.type = 0x01000000;
  const F3 roots[6] = {{0, 0, 0}, {40, 10, 0}, {-40, 10, 0}, {-40, -30, 0}, {40, 50, 0}, {40, -30, 5}};
  for (std::size_t i = 0; i < 6; ++i) {
    EBone b;
    b.parent = kBranchingParents[i];
    b.rt = roots[i];
    const F3 base = b.parent >= 0 ? roots[std::size_t(b.parent)] : F3{0, 0, 0};
    b.t = {roots[i][0] - base[0], roots[i][1] - base[1], roots[i][2] - base[2]};
    f.bones.push_back(b);
  }
  f.packets.push_back(branching_evm_packet(0x48, {A, 0, 0}, 8, {-20, 0, 0}, false, [](int i) {
    if (i % 3 == 0) return std::vector<Influence>{{0, 128}};
    if (i % 3 == 1) return std::vector<Influence>{{1, 96}, {0, 32}};
    return std::vector<Influence>{{2, 64}, {0, 32}, {1, 32}};
  }));
  f.packets.push_back(branching_evm_packet(0x2F8, {A, B, C}, 10, {-10, 30, 1}, false, [](int i) {
    const int a = i % 6, b = (i + 1) % 6, c = (i + 3) % 6, d = (i + 4) % 6;
    if (i % 2 == 0) return std::vector<Influence>{{a, 64}, {b, 32}, {c, 16}, {d, 16}};
    return std::vector<Influence>{{a, 80}, {b, 48}};
  }));
  f.packets.push_back(branching_evm_packet(0x48, {D, 0, 0}, 5, {-40, -40, 2}, true, [](int i) {
    return i % 2 ? std::vector<Influence>{{3, 128}} : std::vector<Influence>{{4, 96}, {3, 32}};
  }));
  fit_evm_boxes(f);
  return f;
}

}  // namespace boneyard::test::mgs2fx
