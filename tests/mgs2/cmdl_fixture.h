// .cmdl fixtures laid out byte by byte from the layout in docs/mgs2-cmdl.md (and the peers' readers
// it cites), independently of the library: "MODL", big-endian version and tail offset, a
// little-endian section count, 0x20-byte entries with the tag reversed, each section's data at
// its offset + 0x0C (offsets 16-aligned, 0xFF between), then the big-endian tail. Also the
// .cmdl each standard model fixture must get, worked out by hand from the derivation rules.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mgs2_fixture.h"

namespace boneyard::test::cmdlfx {

using mgs2fx::F3;

struct CSection {
  std::string tag;           // readable order ("POS0")
  std::uint16_t format = 0;  // entry + 4
  std::uint16_t field_06 = 2;
  std::vector<std::uint8_t> data;
};
struct CMesh {
  F3 bmin{}, bmax{};
  std::uint32_t start_vertex = 0, vertex_count = 0, start_index = 0, index_count = 0;
  std::vector<std::uint32_t> bones;
  std::uint32_t mesh = 0, sub_mesh = 0;
  std::int16_t field_18 = -1;
  std::uint8_t field_1a = 0;
  std::uint8_t field_80 = 0x80;
};
struct CFile {
  std::vector<CSection> sections;
  std::vector<std::uint32_t> indices;
  std::vector<CMesh> meshes;
  std::uint8_t filler = 0xFF;
  std::vector<std::uint8_t> trailing;
};

inline void be32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(v >> s));
}
inline void le32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int s = 0; s <= 24; s += 8) b.push_back(static_cast<std::uint8_t>(v >> s));
}
inline void le16(std::vector<std::uint8_t>& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
}
inline std::uint32_t bits(float f) {
  std::uint32_t v;
  std::memcpy(&v, &f, 4);
  return v;
}

inline std::vector<std::uint8_t> cmdl_bytes(const CFile& f) {
  const std::size_t n = f.sections.size();
  std::vector<std::uint8_t> b = {'M', 'O', 'D', 'L'};
  be32(b, 1);
  be32(b, 0);  // tail offset, patched below
  le32(b, static_cast<std::uint32_t>(n));
  std::vector<std::uint32_t> offsets;
  std::uint32_t at = static_cast<std::uint32_t>(0x10 + 0x20 * n);  // the first data offset: right after the table
  for (const auto& s : f.sections) {
    offsets.push_back(at);
    at = (at + static_cast<std::uint32_t>(s.data.size()) + 15) / 16 * 16;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const CSection& s = f.sections[i];
    for (int k = 3; k >= 0; --k) b.push_back(static_cast<std::uint8_t>(s.tag[std::size_t(k)]));
    le16(b, s.format);
    le16(b, s.field_06);
    le32(b, offsets[i]);
    le32(b, 0);
    le32(b, static_cast<std::uint32_t>(s.data.size()));
    for (int k = 0; k < 3; ++k) le32(b, 0);
  }
  b.resize(at + 0x0C, f.filler);
  for (std::size_t i = 0; i < n; ++i) std::copy(f.sections[i].data.begin(), f.sections[i].data.end(), b.begin() + offsets[i] + 0x0C);
  for (int k = 0; k < 4; ++k) b[8 + std::size_t(k)] = static_cast<std::uint8_t>(at >> (24 - 8 * k));
  be32(b, static_cast<std::uint32_t>(f.indices.size()));
  for (auto i : f.indices) be32(b, i);
  be32(b, 0);
  be32(b, static_cast<std::uint32_t>(f.meshes.size()));
  for (const auto& m : f.meshes) {
    for (float v : {m.bmin[0], m.bmin[1], m.bmin[2], m.bmax[0], m.bmax[1], m.bmax[2]}) be32(b, bits(v));
    b.push_back(static_cast<std::uint8_t>(static_cast<std::uint16_t>(m.field_18) >> 8));
    b.push_back(static_cast<std::uint8_t>(m.field_18));
    b.push_back(m.field_1a);
    for (auto v : {m.start_vertex, m.vertex_count, m.start_index, m.index_count, static_cast<std::uint32_t>(m.bones.size())}) be32(b, v);
    for (auto v : m.bones) be32(b, v);
    for (int k = 0; k < 8; ++k) b.push_back(m.field_80);
    for (auto v : {0U, m.mesh, m.sub_mesh}) be32(b, v);
  }
  b.insert(b.end(), f.trailing.begin(), f.trailing.end());
  return b;
}

// Half floats of the values these fixtures use (all exact in 16 bits: checked).
inline std::uint16_t half(float v) {
  if (v == 0) return 0;
  const std::uint16_t sign = v < 0 ? 0x8000 : 0;
  int e = 0;
  const float m = std::frexp(std::fabs(v), &e);  // v = m * 2^e, m in [0.5, 1)
  const auto mant = static_cast<std::uint32_t>(std::lround((m * 2 - 1) * 1024));
  if (std::ldexp(1.0f + float(mant) / 1024, e - 1) != std::fabs(v)) throw std::runtime_error("not exact in a half float");
  return static_cast<std::uint16_t>(sign | ((e - 1 + 15) << 10) | mant);
}

// Column builders, one element per call.
inline void pos(CSection& s, float x, float y, float z, float w = 1.0f) {
  for (float v : {x, y, z, w}) le32(s.data, bits(v));
}
// A normal from components already scaled (x, y by 1023, z by 511), as 11/11/10 two's complement.
inline void nrm(CSection& s, int x, int y, int z) {
  le32(s.data, (std::uint32_t(x) & 0x7FF) | ((std::uint32_t(y) & 0x7FF) << 11) | ((std::uint32_t(z) & 0x3FF) << 22));
}
inline void uv(CSection& s, float u, float v) {
  le16(s.data, half(u));
  le16(s.data, half(v));
}
inline void boni(CSection& s, std::array<std::uint8_t, 4> i) { s.data.insert(s.data.end(), i.begin(), i.end()); }
inline void bonw(CSection& s, std::array<float, 4> w) {
  for (float v : w) le16(s.data, half(v));
}
inline void oidx(CSection& s, std::uint32_t v) { le32(s.data, v); }

inline CSection section(const char* tag, std::uint16_t format) { return CSection{tag, format, 2, {}}; }

// ---- The .cmdl of the standard fixtures (mgs2_fixture.h), worked out by hand -------------------

// standard_kms(mc, multitex): unit 0 strip 0F 1F 2 3 (triangles (0,2,1), (1,2,3) decoded; the
// .cmdl's (0,1,2), (1,3,2)); unit 1 (extended) strip 0F 1F 2 -> (0,1,2) in the .cmdl. No vertex
// repeats, so 4 + 3 vertices; TEX0 (and TEX1 with multitex) from unit 0, zeros for unit 1.
inline CFile standard_kms_cmdl(bool multitex) {
  CSection p = section("POS0", 2), n = section("NRM0", 9), t0 = section("TEX0", 5), t1 = section("TEX1", 5), o = section("OIDX", 10);
  pos(p, 0, 0, 0), pos(p, 10, 0, 0), pos(p, 0, 10, 0), pos(p, 10, 10, 0);
  pos(p, 0, 0, 0), pos(p, 1, 0, 0), pos(p, 0, 1, 0);
  nrm(n, 0, 0, 511), nrm(n, 0, 0, 511), nrm(n, 0, 0, 511), nrm(n, 0, 0, -511);
  nrm(n, 1023, 0, 0), nrm(n, 0, 1023, 0), nrm(n, 0, 0, 511);
  uv(t0, 0, 0), uv(t0, 1, 0), uv(t0, 0, 1), uv(t0, 1, 1), uv(t0, 0, 0), uv(t0, 0, 0), uv(t0, 0, 0);
  uv(t1, 0.5f, 0.5f), uv(t1, 0.5f, 0.5f), uv(t1, 0.25f, -0.25f), uv(t1, 0, 0), uv(t1, 0, 0), uv(t1, 0, 0), uv(t1, 0, 0);
  for (std::uint32_t i = 0; i < 7; ++i) oidx(o, i);
  CFile f;
  f.sections = {p, n, t0};
  if (multitex) f.sections.push_back(t1);
  f.sections.push_back(o);
  f.indices = {0, 1, 2, 1, 3, 2, 4, 5, 6};
  CMesh m0{{0, 0, 0}, {10, 10, 0}, 0, 4, 0, 6, {}, 0, 0};
  CMesh m1{{0, 0, 0}, {1, 1, 0}, 4, 3, 6, 3, {}, 1, 0};
  f.meshes = {m0, m1};
  return f;
}

// One regular unit without UVs whose strip repeats vertices: 0F 1F 2 3F 4F 5, where 3 and 4 repeat
// 1 and 2 exactly and 5 is new: triangles (0,2,1) and (3,5,4) decoded, 4 vertices after merging.
inline mgs2fx::KFile plain_kms(bool mc) {
  mgs2fx::KFile f;
  f.mc = mc;
  f.n_models = 1;
  f.bmin = {0, 0, 0};
  f.bmax = {20, 20, 0};
  mgs2fx::KUnit u;
  u.bmin = {0, 0, 0};
  u.bmax = {20, 20, 0};
  mgs2fx::KPacket p;
  p.flag = 0x0;
  p.tex = {0, 0, 0};
  const std::int16_t start = static_cast<std::int16_t>(0x8FFF);
  p.verts = {{0, 0, 0, 4096}, {20, 0, 0, 4096}, {0, 20, 0, 4096}, {20, 0, 0, 4096}, {0, 20, 0, 4096}, {20, 20, 0, 4096}};
  p.norms = {{0, 0, 4096, start}, {0, 0, 4096, start}, {0, 0, 4096, 0x0FFF}, {0, 0, 4096, start}, {0, 0, 4096, start}, {0, 0, 4096, 0x0FFF}};
  u.packets = {p};
  f.units = {u};
  return f;
}
inline CFile plain_kms_cmdl() {
  CSection p = section("POS0", 2), n = section("NRM0", 9), o = section("OIDX", 10);
  pos(p, 0, 0, 0), pos(p, 20, 0, 0), pos(p, 0, 20, 0), pos(p, 20, 20, 0);
  for (int i = 0; i < 4; ++i) nrm(n, 0, 0, 511);
  for (std::uint32_t i : {0U, 1U, 2U, 5U}) oidx(o, i);
  CFile f;
  f.sections = {p, n, o};
  f.indices = {0, 1, 2, 1, 2, 3};  // strip (0,2,1) and (3,5,4) as the .cmdl winds them: (0,1,2), (3,4,5) = (1,2,3) merged
  f.meshes = {CMesh{{0, 0, 0}, {20, 20, 0}, 0, 4, 0, 6, {}, 0, 0}};
  return f;
}

// standard_evm(mc, large, false): strip 0F 1F 2 3F 4 -> triangles (0,2,1), (2,4,3) decoded, the
// .cmdl's (0,1,2), (2,3,4); 5 vertices (0 and 4 share a place, not a normal); positions / 16
// unless LARGE; V2 influences heaviest first, ties in slot order; bones = mat_id [0, 1].
inline CFile standard_evm_cmdl(bool large) {
  const float s = large ? 1.0f : 1.0f / 16;
  CSection p = section("POS0", 2), n = section("NRM0", 9), t0 = section("TEX0", 5), bi = section("BONI", 4), bw = section("BONW", 6),
           o = section("OIDX", 10);
  pos(p, 0, 0, 0), pos(p, 160 * s, 0, 0), pos(p, 0, 160 * s, 16 * s), pos(p, 160 * s, 160 * s, 0), pos(p, 0, 0, 0);
  for (int i = 0; i < 4; ++i) nrm(n, 0, 0, 511);
  nrm(n, 0, 1023, 0);
  uv(t0, 0, 0), uv(t0, 1, 0), uv(t0, 0, 1), uv(t0, 1, 1), uv(t0, 0.5f, 0.5f);
  boni(bi, {0, 0, 0, 0}), boni(bi, {0, 1, 0, 0}), boni(bi, {1, 0, 0, 0}), boni(bi, {1, 0, 0, 0}), boni(bi, {0, 0, 0, 0});
  bonw(bw, {1, 0, 0, 0}), bonw(bw, {0.5f, 0.5f, 0, 0}), bonw(bw, {1, 0, 0, 0}), bonw(bw, {0.75f, 0.25f, 0, 0}), bonw(bw, {1, 0, 0, 0});
  for (std::uint32_t i = 0; i < 5; ++i) oidx(o, i);
  CFile f;
  f.sections = {p, n, t0, bi, bw, o};
  f.indices = {0, 1, 2, 2, 3, 4};
  f.meshes = {CMesh{{0, 0, 0}, {160 * s, 160 * s, 16 * s}, 0, 5, 0, 6, {0, 1}, 0, 0}};
  return f;
}

}  // namespace boneyard::test::cmdlfx
