// Hand-laid OGF v3 models, field by field from the layouts in docs/xray-ogf-v3.md (independently
// of boneyard's reader), for what the one real v3 sample does not cover: every vertex format,
// the three IK layouts, both motion layouts and parameter versions, progressive data, bit-31 ids.
#pragma once

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "omf_fixture.h"

namespace boneyard::test::v3 {

inline constexpr std::uint32_t kFvf = 0x112, k1L = 0x12071980, k2L = 0x240E3300;

struct Vertex {
  std::array<float, 3> p{}, n{0, 1, 0};
  std::array<float, 2> uv{};
  std::uint16_t b0 = 0, b1 = 0;
  float w = 0;  // 2-link: the weight of b1
};

inline Buf header(unsigned type) { return Buf().u8(3).u8(type).u16(0); }

inline Buf vertices(std::uint32_t format, const std::vector<Vertex>& vs) {
  Buf b;
  b.u32(format).u32(static_cast<std::uint32_t>(vs.size()));
  for (const auto& v : vs) {
    if (format == k2L) b.u16(v.b0).u16(v.b1);
    for (float x : v.p) b.f32(x);
    for (float x : v.n) b.f32(x);
    if (format == k2L) {
      for (int i = 0; i < 6; ++i) b.f32(0.5f);  // tangent, binormal
      b.f32(v.w);
    }
    b.f32(v.uv[0]).f32(v.uv[1]);
    if (format == k1L) b.u32(v.b0);
  }
  return b;
}

inline Buf indices(const std::vector<std::uint16_t>& is) {
  Buf b;
  b.u32(static_cast<std::uint32_t>(is.size()));
  for (auto i : is) b.u16(i);
  return b;
}

inline Buf bbox() {
  Buf b;
  for (float v : {-1.f, -1.f, -1.f, 1.f, 1.f, 1.f}) b.f32(v);
  return b;
}

// A visual with geometry: header, texture, bbox, vertices, indices (the SDK's order).
inline Buf visual(unsigned type, std::uint32_t format, const std::vector<Vertex>& vs, const std::vector<std::uint16_t>& is,
                  const std::string& texture = "act\\act_test") {
  Buf b;
  b.chunk(0x1, header(type)).chunk(0x2, Buf().str(texture).str("models\\model")).chunk(0x6, bbox());
  b.chunk(0x7, vertices(format, vs)).chunk(0x8, indices(is));
  return b;
}

inline Buf nested(const std::vector<Buf>& visuals) {
  Buf b;
  for (std::size_t i = 0; i < visuals.size(); ++i) b.chunk(static_cast<std::uint32_t>(i), visuals[i]);
  return b;
}

struct Bone {
  std::string name, parent;
  std::array<float, 3> rot{}, pos{};
};

inline Buf bone_names(const std::vector<Bone>& bones) {
  Buf b;
  b.u32(static_cast<std::uint32_t>(bones.size()));
  for (const auto& d : bones) {
    b.str(d.name).str(d.parent);
    for (int i = 0; i < 9; ++i) b.f32(i % 4 == 0 ? 1.0f : 0.0f);
    for (int i = 0; i < 6; ++i) b.f32(0.1f);
  }
  return b;
}

// IK data in the layout of chunk `id`: 0x17 (no ik flags, break values, friction), 0x19 (no
// version, no friction) or 0x1C (version 1 first, friction).
inline Buf ik(std::uint32_t id, const std::vector<Bone>& bones) {
  Buf b;
  for (const auto& d : bones) {
    if (id == 0x1C) b.u32(1);
    b.str("default_object");
    for (int i = 0; i < 112; ++i) b.u8(0);
    b.u32(2);                                      // joint type
    for (int i = 0; i < 12; ++i) b.f32(0.25f);     // limits
    b.f32(1).f32(2);                               // spring, damping
    if (id != 0x17) b.u32(0x1).f32(3).f32(4);      // ik flags, break force, break torque
    if (id == 0x1C) b.f32(0.5f);                   // friction
    for (float v : d.rot) b.f32(v);
    for (float v : d.pos) b.f32(v);
    b.f32(10).f32(0).f32(0).f32(0);                // mass, centre of mass
  }
  return b;
}

// ---- motions

struct Part {
  std::string name;
  std::vector<std::pair<std::string, std::uint32_t>> bones;  // name (versions 2-3), id (0x12, 1, 3)
};

struct Params {
  std::string name;
  std::uint32_t flags = 0;  // 0x14
  bool fx = false, stop = false;  // 0x12
  std::uint16_t bone_or_part = 0xFFFF, motion_id = 0;
  float speed = 1, power = 1, accrue = 2, falloff = 2;
};

// 0x14 (version 1-3) when version != 0, else 0x12 (its motion kind a u8 as the converter reads
// it, or with `wide_kind` a u32 as blender-xray reads it).
inline Buf params(unsigned version, const std::vector<Part>& parts, const std::vector<Params>& motions,
                  bool wide_kind = false) {
  Buf b;
  if (version != 0) b.u16(version);
  b.u16(static_cast<unsigned>(parts.size()));
  for (const auto& p : parts) {
    b.str(p.name).u16(static_cast<unsigned>(p.bones.size()));
    for (const auto& [name, id] : p.bones) {
      if (version >= 2) b.str(name);
      if (version != 2) b.u32(id);
    }
  }
  b.u16(static_cast<unsigned>(motions.size()));
  for (const auto& m : motions) {
    b.str(m.name);
    if (version == 0 && wide_kind) b.u32(m.fx ? 0 : 1);
    else if (version == 0) b.u8(m.fx ? 0 : 1);
    else b.u32(m.flags);
    b.u16(m.bone_or_part).u16(m.motion_id).f32(m.speed).f32(m.power).f32(m.accrue).f32(m.falloff);
    if (version == 0) b.u8(m.stop ? 1 : 0);
  }
  return b;
}

struct Track {  // one bone in one motion
  std::vector<Q> rot;             // one per frame
  std::vector<F3> trans_floats;   // 0xE: one per frame
  std::vector<T3> trans;          // 0x1A with a translation track: one per frame
  F3 size{}, init{};
};

struct Keys {
  std::string name;
  std::uint32_t frames = 1;
  std::vector<Track> bones;
};

// 0xE (floats) or 0x1A.
inline Buf key_sets(bool floats, const std::vector<Keys>& motions) {
  Buf b;
  b.chunk(0, Buf().u32(static_cast<std::uint32_t>(motions.size())));
  for (std::size_t m = 0; m < motions.size(); ++m) {
    const Keys& k = motions[m];
    Buf s;
    s.str(k.name).u32(k.frames);
    for (const auto& t : k.bones) {
      if (floats) {
        for (std::uint32_t f = 0; f < k.frames; ++f) {
          for (int c : t.rot[f]) s.s16(c);
          for (float c : t.trans_floats[f]) s.f32(c);
        }
        continue;
      }
      Buf rk;
      for (const auto& q : t.rot) rk.s16(q[0]).s16(q[1]).s16(q[2]).s16(q[3]);
      s.u8(t.trans.empty() ? 0 : 1).u32(zcrc(rk.b)).add(rk);
      if (!t.trans.empty()) {
        Buf tk;
        for (const auto& v : t.trans) tk.u8(std::uint8_t(v[0])).u8(std::uint8_t(v[1])).u8(std::uint8_t(v[2]));
        s.u32(zcrc(tk.b)).add(tk).f32(t.size[0]).f32(t.size[1]).f32(t.size[2]);
      }
      s.f32(t.init[0]).f32(t.init[1]).f32(t.init[2]);
    }
    b.chunk(static_cast<std::uint32_t>(m + 1), s);
  }
  return b;
}

// A skinned model of type 4 (animated) or 0xF (rigid): one child of `format`, bone names, IK
// data in chunk `ik_id` (0: none).
inline std::vector<std::uint8_t> skinned_model(unsigned type, std::uint32_t format, const std::vector<Vertex>& vs,
                                               const std::vector<std::uint16_t>& is, const std::vector<Bone>& bones,
                                               std::uint32_t ik_id, const Buf& extra = Buf()) {
  Buf f;
  f.chunk(0x1, header(type)).chunk(0x6, bbox());
  f.chunk(0x11, nested({visual(7, format, vs, is)}));
  f.chunk(0xD, bone_names(bones));
  if (ik_id != 0) f.chunk(ik_id, ik(ik_id, bones));
  f.add(extra);
  return f.b;
}

// ---- the animated fixtures (also written by write_ogf_v3_fixtures for the fuzz seeds and the
// external glTF checks): two bones, the arm a quarter turn about Y at (0, 1, 0) (a name with an
// upper-case letter, which the export's lower-cased lookup must find), a 1-link child with a vertex
// on each, and motions "wave" and "nod" (3 frames) in the 0xE (floats) or 0x1A layout.

inline constexpr float kPi = 3.14159265358979f;

inline std::vector<Bone> animated_bones() {
  return {{"root", "", {0, 0, 0}, {0, 0, 0}}, {"Arm", "root", {0, -kPi / 2, 0}, {0, 1, 0}}};
}

inline std::vector<Vertex> animated_vertices() {
  std::vector<Vertex> vs(3);
  vs[0].p = {1, 0, 0}, vs[0].b0 = 1;
  vs[1].p = {0, 0.5f, 0.25f}, vs[1].b0 = 1;
  vs[2].p = {0.5f, 0, 0}, vs[2].b0 = 0;
  return vs;
}

inline Q turn(double angle, int axis) {  // a stored key: components x 32767
  Q q{0, 0, 0, int(std::lround(std::cos(angle / 2) * 32767))};
  q[std::size_t(axis)] = int(std::lround(std::sin(angle / 2) * 32767));
  return q;
}

inline std::vector<std::uint8_t> animated(bool floats, std::uint32_t ik_id = 0x19, std::uint32_t format = k1L) {
  std::vector<Keys> keys;
  for (int m = 0; m < 2; ++m) {
    Keys k{m == 0 ? "wave" : "nod", 3, {}};
    for (int b = 0; b < 2; ++b) {
      Track t;
      for (int f = 0; f < 3; ++f) {
        t.rot.push_back(turn(0.3 * f + 0.2 * b + 0.1 * m, (b + m) % 3));
        if (floats) t.trans_floats.push_back({0.1f * float(f), b == 1 ? 1.0f : 0.0f, -0.05f * float(m)});
        else if (b == 1) t.trans.push_back({10 * f, 0, -5 * f});
      }
      if (!floats) {
        t.size = {0.01f, 0.01f, 0.01f};
        t.init = {0, b == 1 ? 1.0f : 0.0f, 0};
      }
      k.bones.push_back(t);
    }
    keys.push_back(k);
  }
  Buf extra;
  const std::vector<Part> parts = {{"body", {{"root", 0}, {"Arm", 1}}}};
  extra.chunk(floats ? 0x12 : 0x14, params(floats ? 0 : 3, parts, {{"wave", 0, false, false, 0, 0}, {"nod", 1, true, false, 1, 1}}));
  extra.chunk(floats ? 0xE : 0x1A, key_sets(floats, keys));
  std::vector<Vertex> vs = animated_vertices();
  if (format == k2L)
    for (auto& v : vs) v.b1 = std::uint16_t(1 - v.b0), v.w = 0.25f;
  return skinned_model(4, format, vs, {0, 1, 2}, animated_bones(), ik_id, extra);
}

// Every kind of v3 model the fixtures cover, by file name.
inline std::map<std::string, std::vector<std::uint8_t>> all_fixtures() {
  std::map<std::string, std::vector<std::uint8_t>> out;
  std::vector<Vertex> tri(3);
  for (int i = 0; i < 3; ++i) tri[std::size_t(i)].p = {float(i), float(i % 2), 0.5f}, tri[std::size_t(i)].uv = {0.25f * float(i), 0.5f};
  out["v3_normal_fvf.ogf"] = visual(0, kFvf, tri, {0, 1, 2}).b;
  Buf hierarchy;
  hierarchy.chunk(0x1, header(1)).chunk(0x6, bbox());
  hierarchy.chunk(0x11, nested({visual(0, kFvf, tri, {0, 1, 2}, "a"), visual(0, kFvf, tri, {2, 1, 0}, "b")}));
  out["v3_hierarchy.ogf"] = hierarchy.b;
  std::vector<Vertex> pm = tri;
  pm.push_back(tri[2]);
  pm[3].p = {5, 5, 5};
  Buf lod, progressive;
  lod.chunk(1, Buf().u32(3).u32(3)).chunk(2, Buf().u16(2).u8(1).u8(1)).chunk(3, Buf().u32(1).u16(5));
  progressive.add(visual(2, kFvf, pm, {0, 1, 2, 1, 2, 2})).chunk(0x9, lod);
  out["v3_progressive.ogf"] = progressive.b;
  out["v3_anim_floats_ik0.ogf"] = animated(true, 0x17);
  out["v3_anim_floats.ogf"] = animated(true);
  out["v3_anim_8bit.ogf"] = animated(false);
  out["v3_anim_8bit_2link_ik2.ogf"] = animated(false, 0x1C, k2L);
  out["v3_rigid_no_ik.ogf"] = skinned_model(0xF, k1L, animated_vertices(), {0, 1, 2}, animated_bones(), 0);
  Buf refs;
  refs.chunk(0x1D, Buf().str("old\\motions")).chunk(0x18, Buf().str("[ini]"));
  auto with_refs = skinned_model(4, k1L, animated_vertices(), {0, 1, 2}, animated_bones(), 0x19, refs);
  with_refs[3] |= 0x80;  // the header with bit 31 (the compressed mark, payload plain)
  out["v3_refs_bit31.ogf"] = with_refs;
  return out;
}

}  // namespace boneyard::test::v3
