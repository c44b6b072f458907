// Test fixtures for .omf files, laid out field by field here (independently of the library's
// writer) so that reader and writer are checked against bytes that follow the format notes.
#pragma once

#include <zlib.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace boneyard::test {

class Buf {
 public:
  std::vector<std::uint8_t> b;
  Buf& u8(unsigned v) { b.push_back(static_cast<std::uint8_t>(v)); return *this; }
  Buf& u16(unsigned v) { return raw(static_cast<std::uint16_t>(v)); }
  Buf& s16(int v) { return raw(static_cast<std::int16_t>(v)); }
  Buf& u32(std::uint32_t v) { return raw(v); }
  Buf& f32(float v) { return raw(v); }
  Buf& str(const std::string& s) { b.insert(b.end(), s.begin(), s.end()); return u8(0); }
  Buf& crlf(const std::string& s) { b.insert(b.end(), s.begin(), s.end()); return u8('\r').u8('\n'); }
  Buf& add(const Buf& o) { b.insert(b.end(), o.b.begin(), o.b.end()); return *this; }
  Buf& chunk(std::uint32_t id, const Buf& payload) { return u32(id).u32(static_cast<std::uint32_t>(payload.b.size())).add(payload); }
  template <class T> Buf& raw(T v) {
    std::uint8_t t[sizeof v];
    std::memcpy(t, &v, sizeof v);
    b.insert(b.end(), t, t + sizeof v);
    return *this;
  }
};

inline std::uint32_t zcrc(const std::vector<std::uint8_t>& v) {
  return static_cast<std::uint32_t>(::crc32(0L, v.data(), static_cast<uInt>(v.size())));
}

using Q = std::array<int, 4>;
using T3 = std::array<int, 3>;
using F3 = std::array<float, 3>;

// One bone record. crc_override: store this instead of the true CRC (e.g. 0).
struct BoneSpec {
  std::uint8_t flags = 0;
  std::vector<Q> rot;                 // 1 when static
  std::vector<T3> trans;              // empty when constant
  F3 size{}, init{};                  // init = constant translation when not keyed
  long long rot_crc_override = -1, trans_crc_override = -1;
};

inline Buf bone_record(const BoneSpec& s) {
  Buf r;
  r.u8(s.flags);
  Buf rk;
  for (const auto& q : s.rot) rk.s16(q[0]).s16(q[1]).s16(q[2]).s16(q[3]);
  if (!(s.flags & 2)) r.u32(s.rot_crc_override >= 0 ? static_cast<std::uint32_t>(s.rot_crc_override) : zcrc(rk.b));
  r.add(rk);
  if (s.flags & 1) {
    Buf tk;
    for (const auto& t : s.trans) {
      if (s.flags & 4)
        tk.s16(t[0]).s16(t[1]).s16(t[2]);
      else
        tk.u8(static_cast<std::uint8_t>(t[0])).u8(static_cast<std::uint8_t>(t[1])).u8(static_cast<std::uint8_t>(t[2]));
    }
    r.u32(s.trans_crc_override >= 0 ? static_cast<std::uint32_t>(s.trans_crc_override) : zcrc(tk.b));
    r.add(tk).f32(s.size[0]).f32(s.size[1]).f32(s.size[2]);
  }
  r.f32(s.init[0]).f32(s.init[1]).f32(s.init[2]);
  return r;
}

struct MotionKeysSpec {
  std::string name;
  std::uint32_t frames = 1;
  std::vector<BoneSpec> bones;
  Buf extra;  // appended after the records
};

struct MarkSpec {
  std::string name;
  std::vector<std::array<float, 2>> intervals;
};

struct MotionParamsSpec {
  std::string name;
  std::uint32_t flags = 0;
  std::uint16_t bone_or_part = 0xFFFF;
  std::uint16_t motion_id = 0;
  float speed = 1, power = 1, accrue = 2, falloff = 1;
  std::vector<MarkSpec> marks;
};

struct PartSpec {
  std::string name;
  std::vector<std::pair<std::string, std::uint32_t>> bones;
};

struct OmfSpec {
  std::uint16_t version = 4;
  std::vector<PartSpec> parts;
  std::vector<MotionKeysSpec> keys;
  std::vector<MotionParamsSpec> params;
  std::uint32_t motions_id = 0xE, params_id = 0xF;
  long long declared_count = -1;  // default: keys.size()
};

inline Buf motions_payload(const OmfSpec& s) {
  Buf p;
  p.chunk(0, Buf().u32(s.declared_count >= 0 ? static_cast<std::uint32_t>(s.declared_count)
                                             : static_cast<std::uint32_t>(s.keys.size())));
  for (std::size_t i = 0; i < s.keys.size(); ++i) {
    Buf m;
    m.str(s.keys[i].name).u32(s.keys[i].frames);
    for (const auto& b : s.keys[i].bones) m.add(bone_record(b));
    m.add(s.keys[i].extra);
    p.chunk(static_cast<std::uint32_t>(i + 1), m);
  }
  return p;
}

inline Buf params_payload(const OmfSpec& s) {
  Buf p;
  p.u16(s.version).u16(static_cast<unsigned>(s.parts.size()));
  for (const auto& part : s.parts) {
    p.str(part.name).u16(static_cast<unsigned>(part.bones.size()));
    for (const auto& [name, index] : part.bones) {
      if (s.version == 1) {
        p.u32(index);
      } else {
        p.str(name);
        if (s.version >= 3) p.u32(index);
      }
    }
  }
  p.u16(static_cast<unsigned>(s.params.size()));
  for (const auto& m : s.params) {
    p.str(m.name).u32(m.flags).u16(m.bone_or_part).u16(m.motion_id);
    p.f32(m.speed).f32(m.power).f32(m.accrue).f32(m.falloff);
    if (s.version >= 4) {
      p.u32(static_cast<std::uint32_t>(m.marks.size()));
      for (const auto& mark : m.marks) {
        p.crlf(mark.name).u32(static_cast<std::uint32_t>(mark.intervals.size()));
        for (const auto& iv : mark.intervals) p.f32(iv[0]).f32(iv[1]);
      }
    }
  }
  return p;
}

inline std::vector<std::uint8_t> omf_bytes(const OmfSpec& s) {
  Buf f;
  f.chunk(s.motions_id, motions_payload(s)).chunk(s.params_id, params_payload(s));
  return f.b;
}

// Two bones in two parts, two motions covering 8-bit and 16-bit keys, static rotation,
// constant translation, bit 2 without bit 0, and marks.
inline OmfSpec rich_spec() {
  OmfSpec s;
  s.parts = {{"upper", {{"spine", 1}}}, {"lower", {{"root", 0}}}};
  BoneSpec walk0{0x01, {{0, 0, 0, 32767}, {16384, 0, 0, 28377}, {-32767, 0, 0, 0}},
                 {{127, 0, -128}, {0, 0, 0}, {-127, 1, 2}}, {0.01f, 0.02f, 0.5f}, {1.0f, 2.0f, 3.0f}};
  BoneSpec walk1{0x06, {{0, 32767, 0, 0}}, {}, {}, {0.5f, -0.25f, 4.0f}};
  BoneSpec shoot0{0x05, {{0, 0, 0, 32767}, {0, 0, 23170, 23170}}, {{32767, -32767, 0}, {100, 200, -300}},
                  {0.0001f, 0.0002f, 0.0005f}, {0.0f, 1.0f, 0.0f}};
  BoneSpec shoot1{0x03, {{0, 0, 0, -32767}}, {{1, 2, 3}, {-1, -2, -3}}, {1.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 0.0f}};
  s.keys = {{"walk", 3, {walk0, walk1}, {}}, {"shoot", 2, {shoot0, shoot1}, {}}};
  s.params = {{"walk", 0, 0xFFFF, 0, 1.0f, 1.0f, 2.0f, 1.0f, {{"Left", {{0.2f, 0.5667f}}}, {"Right", {{0.1f, 0.2f}, {0.3f, 0.4f}}}}},
              {"shoot", 0x3, 1, 1, 1.5f, 2.0f, 3.0f, 0.5f, {}}};
  return s;
}

}  // namespace boneyard::test
