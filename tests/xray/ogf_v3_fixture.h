// Hand-laid OGF v3 models, field by field from the layouts in docs/xray-ogf-v3.md (independently
// of boneyard's reader), for what the one real v3 sample does not cover: every vertex format,
// the three IK layouts, both motion layouts and parameter versions, progressive data, bit-31 ids.
#pragma once

#include <array>
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

// 0x14 (version 1-3) when version != 0, else 0x12.
inline Buf params(unsigned version, const std::vector<Part>& parts, const std::vector<Params>& motions) {
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
    if (version == 0) b.u8(m.fx ? 0 : 1);
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

}  // namespace boneyard::test::v3
