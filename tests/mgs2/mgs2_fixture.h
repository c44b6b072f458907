// MGS2 test fixtures laid out byte by byte from the spec and the notes (struct sizes and field
// offsets written out here), independently of the library's writer and builder.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace boneyard::test::mgs2fx {

using S4 = std::array<std::int16_t, 4>;
using S2 = std::array<std::int16_t, 2>;
using F3 = std::array<float, 3>;
using F4 = std::array<float, 4>;

// A byte image written at explicit offsets.
struct Img {
  std::vector<std::uint8_t> b;
  template <class T>
  void put(std::size_t at, T v) {
    if (b.size() < at + sizeof v) b.resize(at + sizeof v, 0);
    std::memcpy(b.data() + at, &v, sizeof v);
  }
  void u8(std::size_t at, unsigned v) { put(at, static_cast<std::uint8_t>(v)); }
  void u32(std::size_t at, std::uint32_t v) { put(at, v); }
  void u64(std::size_t at, std::uint64_t v) { put(at, v); }
  void f3(std::size_t at, F3 v) {
    for (int i = 0; i < 3; ++i) put(at + 4 * i, v[i]);
  }
  void f4(std::size_t at, F4 v) {
    for (int i = 0; i < 4; ++i) put(at + 4 * i, v[i]);
  }
  void s16s(std::size_t at, const std::int16_t* v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) put(at + 2 * i, v[i]);
  }
  // A pointer field: 4 bytes on PS2, 8 on MC.
  void ptr(std::size_t at, bool mc, std::uint64_t v) {
    if (mc) {
      u64(at, v);
    } else {
      u32(at, static_cast<std::uint32_t>(v));
    }
  }
};

inline std::size_t up16(std::size_t v) { return (v + 15) / 16 * 16; }

// Places arrays in a region, each 16-byte aligned, filling the alignment holes with `fill`.
struct Arena {
  Img& img;
  std::size_t pos;
  std::uint8_t fill;
  std::size_t place(const void* data, std::size_t size) {
    while (pos % 16 != 0) img.u8(pos++, fill);
    const std::size_t at = pos;
    if (img.b.size() < at + size) img.b.resize(at + size, 0);
    if (size != 0) std::memcpy(img.b.data() + at, data, size);
    pos += size;
    return at;
  }
};

// ---- KMS --------------------------------------------------------------------------------------

struct KPacket {
  std::uint32_t flag = 0x48;  // TEX0 | UV0
  std::array<std::uint32_t, 3> tex{0xB7E31E, 0, 0};
  std::vector<S4> verts;  // x, y, z, weight
  std::vector<S4> norms;  // x, y, z, kick
  std::array<std::vector<S2>, 3> uvs;  // empty = absent
  std::uint32_t n_verts_high = 0;  // stored in the high half of n_verts
};
struct KUnit {
  std::uint32_t type = 0;
  std::int32_t parent = -1;
  F3 bmin{}, bmax{}, pos{};
  std::vector<KPacket> packets;
};
struct KFile {
  bool mc = false;
  std::uint32_t data_format = 0x00C81371;
  std::uint32_t n_models = 1;
  std::uint32_t texture = 0x88D878;
  std::uint32_t pad0 = 0;  // PS2 0x10 (may hold a float in real files); MC 0x14
  F3 bmin{}, bmax{}, pos{};
  std::vector<KUnit> units;
  std::uint8_t fill = 0;  // alignment padding byte
  std::vector<std::uint8_t> trailing;
  // SeaLouse-like order: all vertices, all normals, then UVs unit by unit (uv0, uv1, uv2 per
  // packet), instead of the spec's attribute-grouped order.
  bool sealouse_order = false;
};

inline std::vector<std::uint8_t> kms_bytes(const KFile& f) {
  const std::size_t unit_size = f.mc ? 0x50 : 0x40;
  const std::size_t pack_size = f.mc ? 0x60 : 0x30;
  const std::size_t pw = f.mc ? 8 : 4;
  Img img;
  img.u32(0x00, f.data_format);
  img.u32(0x04, f.n_models);
  img.u32(0x08, static_cast<std::uint32_t>(f.units.size()));
  if (f.mc) {
    img.u32(0x0C, 0);
    img.u32(0x10, f.texture);
    img.u32(0x14, f.pad0);
  } else {
    img.u32(0x0C, f.texture);
    img.u32(0x10, f.pad0);
  }
  img.f3(0x1C, f.bmin);
  img.f3(0x28, f.bmax);
  img.f3(0x34, f.pos);
  std::size_t table = 0x40 + f.units.size() * unit_size;
  std::vector<std::size_t> pack_at;
  for (std::size_t i = 0; i < f.units.size(); ++i) {
    const KUnit& u = f.units[i];
    const std::size_t at = 0x40 + i * unit_size;
    img.u32(at + 0x00, u.type);
    img.u32(at + 0x04, static_cast<std::uint32_t>(u.packets.size()));
    img.f3(at + 0x08, u.bmin);
    img.f3(at + 0x14, u.bmax);
    img.f3(at + 0x20, u.pos);
    img.put(at + 0x2C, u.parent);
    img.ptr(at + 0x30, f.mc, u.packets.empty() ? 0 : table);
    for (std::size_t j = 0; j < u.packets.size(); ++j) pack_at.push_back(table + j * pack_size);
    table += u.packets.size() * pack_size;
  }
  img.b.resize(table, 0);
  std::vector<const KPacket*> ps;
  for (const auto& u : f.units)
    for (const auto& p : u.packets) ps.push_back(&p);
  std::vector<std::array<std::size_t, 5>> ptrs(ps.size(), {0, 0, 0, 0, 0});
  Arena a{img, table, f.fill};
  for (std::size_t k = 0; k < ps.size(); ++k) ptrs[k][0] = a.place(ps[k]->verts.data(), ps[k]->verts.size() * 8);
  for (std::size_t k = 0; k < ps.size(); ++k) ptrs[k][1] = a.place(ps[k]->norms.data(), ps[k]->norms.size() * 8);
  if (f.sealouse_order) {
    for (std::size_t k = 0; k < ps.size(); ++k)
      for (int s = 0; s < 3; ++s)
        if (!ps[k]->uvs[s].empty()) ptrs[k][2 + s] = a.place(ps[k]->uvs[s].data(), ps[k]->uvs[s].size() * 4);
  } else {
    for (int s = 0; s < 3; ++s)
      for (std::size_t k = 0; k < ps.size(); ++k)
        if (!ps[k]->uvs[s].empty()) ptrs[k][2 + s] = a.place(ps[k]->uvs[s].data(), ps[k]->uvs[s].size() * 4);
  }
  for (std::size_t k = 0; k < ps.size(); ++k) {
    const std::size_t at = pack_at[k];
    const KPacket& p = *ps[k];
    img.u32(at + 0x00, p.flag);
    img.u32(at + 0x04, static_cast<std::uint32_t>(p.verts.size()) | (p.n_verts_high << 16));
    for (int t = 0; t < 3; ++t) img.u32(at + 0x08 + t * (f.mc ? 8 : 4), p.tex[t]);
    const std::size_t first = f.mc ? 0x20 : 0x14;
    for (int q = 0; q < 5; ++q) img.ptr(at + first + q * pw, f.mc, ptrs[k][q]);
  }
  img.b.insert(img.b.end(), f.trailing.begin(), f.trailing.end());
  return img.b;
}

// ---- EVM --------------------------------------------------------------------------------------

struct EBone {
  std::uint32_t flag = 0;
  std::int32_t parent = -1;
  F3 t{}, rt{};
  F4 bmin{}, bmax{};
};
struct EPacket {
  std::uint32_t flag = 0x48;
  std::array<std::uint32_t, 3> tex{0xB7E31E, 0, 0};
  std::uint32_t n_mats = 1;
  std::array<std::uint8_t, 8> mat{0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  std::vector<S4> verts;  // x, y, z, kick
  std::vector<S4> norms;  // x, y, z, pad
  std::array<std::vector<S4>, 3> uvs;  // u, v, w, pad
  std::vector<std::array<std::uint8_t, 8>> weights;  // empty = absent
};
struct EFile {
  bool mc = false;
  std::uint32_t n_models = 1;
  F3 bmin{}, bmax{};
  std::uint32_t type = 0x01000000;
  std::uint32_t texture = 0x88D878;
  std::vector<EBone> bones;
  std::vector<EPacket> packets;
  std::uint8_t fill = 0;
  std::vector<std::uint8_t> trailing;
};

inline std::vector<std::uint8_t> evm_bytes(const EFile& f) {
  const std::size_t head = f.mc ? 0x40 : 0x30;
  const std::size_t pack_size = f.mc ? 0x70 : 0x40;
  const std::size_t pw = f.mc ? 8 : 4;
  Img img;
  img.u32(0x00, f.n_models);
  img.u32(0x04, static_cast<std::uint32_t>(f.bones.size()));
  img.f3(0x08, f.bmin);
  img.f3(0x14, f.bmax);
  const std::size_t table = head + f.bones.size() * 0x40;
  if (f.mc) {
    img.u32(0x20, f.texture);
    img.u32(0x28, f.type);
    img.u32(0x2C, static_cast<std::uint32_t>(f.packets.size()));
    img.u64(0x30, table);
    img.u64(0x38, 0);
  } else {
    img.u32(0x20, f.type);
    img.u32(0x24, f.texture);
    img.u32(0x28, static_cast<std::uint32_t>(f.packets.size()));
    img.u32(0x2C, static_cast<std::uint32_t>(table));
  }
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    const EBone& b = f.bones[i];
    const std::size_t at = head + i * 0x40;
    img.u32(at, b.flag);
    img.put(at + 4, b.parent);
    img.f3(at + 0x08, b.t);
    img.f3(at + 0x14, b.rt);
    img.f4(at + 0x20, b.bmin);
    img.f4(at + 0x30, b.bmax);
  }
  const std::size_t end = table + f.packets.size() * pack_size;
  img.b.resize(end, 0);
  std::vector<std::array<std::size_t, 6>> ptrs(f.packets.size(), {0, 0, 0, 0, 0, 0});
  Arena a{img, end, f.fill};
  for (std::size_t k = 0; k < f.packets.size(); ++k) ptrs[k][0] = a.place(f.packets[k].verts.data(), f.packets[k].verts.size() * 8);
  for (std::size_t k = 0; k < f.packets.size(); ++k) ptrs[k][1] = a.place(f.packets[k].norms.data(), f.packets[k].norms.size() * 8);
  for (int s = 0; s < 3; ++s)
    for (std::size_t k = 0; k < f.packets.size(); ++k)
      if (!f.packets[k].uvs[s].empty()) ptrs[k][2 + s] = a.place(f.packets[k].uvs[s].data(), f.packets[k].uvs[s].size() * 8);
  for (std::size_t k = 0; k < f.packets.size(); ++k)
    if (!f.packets[k].weights.empty()) ptrs[k][5] = a.place(f.packets[k].weights.data(), f.packets[k].weights.size() * 8);
  for (std::size_t k = 0; k < f.packets.size(); ++k) {
    const EPacket& p = f.packets[k];
    const std::size_t at = table + k * pack_size;
    img.u32(at, p.flag);
    const std::size_t tex_at = f.mc ? 0x08 : 0x04;
    for (int t = 0; t < 3; ++t) img.u32(at + tex_at + t * (f.mc ? 8 : 4), p.tex[t]);
    const std::size_t n_at = f.mc ? 0x20 : 0x10;
    img.u32(at + n_at, static_cast<std::uint32_t>(p.verts.size()));
    img.u32(at + n_at + 4, p.n_mats);
    for (int m = 0; m < 8; ++m) img.u8(at + n_at + 8 + m, p.mat[m]);
    for (int q = 0; q < 6; ++q) img.ptr(at + n_at + 0x10 + q * pw, f.mc, ptrs[k][q]);
  }
  img.b.insert(img.b.end(), f.trailing.begin(), f.trailing.end());
  return img.b;
}

// ---- The standard fixtures used across the tests -------------------------------------------

// Two units: unit 0 (regular) with a 4-vertex strip 0F 1F 2 3 and UV0; unit 1 (extended,
// parent 0, at (0, 10, 0)) with a 3-vertex strip and no UVs. MULTITEX adds UV1 to unit 0.
inline KFile standard_kms(bool mc, bool multitex) {
  KFile f;
  f.mc = mc;
  f.data_format = multitex ? 0x00B253A3 : 0x00C81371;
  f.pad0 = 0x3FC00000;  // 1.5f, as real PS2 files may hold a float here
  f.bmin = {-1, -1, -1};
  f.bmax = {11, 12, 1};
  f.fill = 0xCD;
  f.trailing = {'T', 'R', 'A', 'I', 'L'};
  KUnit u0;
  u0.bmin = {0, 0, 0};
  u0.bmax = {10, 10, 0};
  KPacket p0;
  p0.flag = multitex ? 0xD8 : 0x48;  // TEX0|TEX1|UV0|UV1 or TEX0|UV0
  p0.tex = {0xB7E31E, multitex ? 0x123456U : 0U, 0};
  p0.verts = {{0, 0, 0, 4096}, {10, 0, 0, 4096}, {0, 10, 0, 4096}, {10, 10, 0, 2048}};
  p0.norms = {{0, 0, 4096, -28673}, {0, 0, 4096, -28673}, {0, 0, 4096, 0x0FFF}, {0, 0, -4096, 0x0FFF}};  // 0x8FFF
  p0.uvs[0] = {{0, 0}, {4096, 0}, {0, 4096}, {4096, 4096}};
  if (multitex) p0.uvs[1] = {{2048, 2048}, {2048, 2048}, {1024, -1024}, {0, 0}};
  u0.packets.push_back(p0);
  KUnit u1;
  u1.type = 0x4000;
  u1.parent = 0;
  u1.pos = {0, 10, 0};
  u1.bmin = {0, 0, 0};
  u1.bmax = {1, 1, 0};
  KPacket p1;
  p1.flag = 0x49;
  p1.verts = {{0, 0, 0, 4096}, {1, 0, 0, 4096}, {0, 1, 0, 3072}};
  p1.norms = {{4096, 0, 0, -28673}, {0, 4096, 0, -28673}, {0, 0, 4096, 0x0FFF}};
  u1.packets.push_back(p1);
  f.units = {u0, u1};
  return f;
}

// Three joints (root, child at (0, 16, 0), extended finger at (4, 16, 0)); one packet of 5
// vertices whose strip restarts at vertex 3 (0F 1F 2 3F 4); V2 weights unless v1.
inline EFile standard_evm(bool mc, bool large, bool v1) {
  EFile f;
  f.mc = mc;
  f.n_models = 2;
  f.type = (v1 ? 0U : 0x01000000U) | (large ? 1U : 0U);
  const float s = large ? 1.0f : 1.0f / 16.0f;  // stored 160 -> 160 or 10
  f.bmin = {0, 0, 0};
  f.bmax = {160 * s, 160 * s, 16 * s};
  f.fill = 0xEE;
  f.trailing = {1, 2, 3};
  EBone root;
  root.bmin = {0, 0, 0, 0};
  root.bmax = {160 * s, 160 * s, 16 * s, 0};
  EBone child;
  child.parent = 0;
  child.t = {0, 16, 0};
  child.rt = {0, 16, 0};
  child.bmin = {0, 0, 0, 0};
  child.bmax = {160 * s, 160 * s, 16 * s, 0};
  EBone finger;
  finger.parent = 1;
  finger.t = {4, 0, 0};
  finger.rt = {4, 16, 0};
  finger.bmin = {-1000, -1000, -1000, 0};
  finger.bmax = {1000, 1000, 1000, 0};
  f.bones = {root, child, finger};
  EPacket p;
  p.n_mats = 2;
  p.mat = {0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  p.verts = {{0, 0, 0, -28673}, {160, 0, 0, -28673}, {0, 160, 16, 0x0FFF}, {160, 160, 0, -28673}, {0, 0, 0, 0x0020}};
  p.norms = {{0, 0, 4096, 0}, {0, 0, 4096, 0}, {0, 0, 4096, 0}, {0, 0, 4096, 0}, {0, 4096, 0, 0}};
  p.uvs[0] = {{0, 0, 4096, 0}, {4096, 0, 4096, 0}, {0, 4096, 4096, 0}, {4096, 4096, 4096, 0}, {2048, 2048, 4096, 0}};
  if (v1) {
    // 8 weights, one per matrix slot.
    p.weights = {{{128, 0, 0, 0, 0, 0, 0, 0}}, {{64, 64, 0, 0, 0, 0, 0, 0}}, {{0, 128, 0, 0, 0, 0, 0, 0}},
                 {{32, 96, 0, 0, 0, 0, 0, 0}}, {{128, 0, 0, 0, 0, 0, 0, 0}}};
  } else {
    // 4 weights, then palette bytes (slot * 4).
    p.weights = {{{128, 0, 0, 0, 0, 0, 0, 0}}, {{64, 64, 0, 0, 0, 4, 0, 0}}, {{128, 0, 0, 0, 4, 0, 0, 0}},
                 {{96, 32, 0, 0, 4, 0, 0, 0}}, {{128, 0, 0, 0, 0, 0, 0, 0}}};
  }
  f.packets = {p};
  return f;
}

}  // namespace boneyard::test::mgs2fx
