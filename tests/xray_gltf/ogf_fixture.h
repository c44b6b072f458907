// Hand-laid .ogf models (header, 0xD, 0x10, refs) for the skeleton and export tests.
#pragma once

#include <string>
#include <vector>

#include "omf_fixture.h"

namespace boneyard::test {

struct BoneDef {
  std::string name, parent;
};

inline Buf header_payload(unsigned version = 4) {
  Buf h;
  h.u32(version | (3u << 8));  // u8 version, u8 type 3, u16 shader 0 (one u32 dodges a GCC 12 false positive)
  for (int i = 0; i < 10; ++i) h.f32(0.0f);
  return h;
}

inline Buf bone_names(const std::vector<BoneDef>& bones) {
  Buf b;
  b.u32(static_cast<std::uint32_t>(bones.size()));
  for (const auto& d : bones) {
    b.str(d.name).str(d.parent);
    for (int i = 0; i < 15; ++i) b.f32(0.0f);
  }
  return b;
}

inline Buf ik_record(std::uint32_t version, float x_rot = 0, float y_pos = 0) {
  Buf r;
  r.u32(version).str("default_object");
  for (int i = 0; i < 112; ++i) r.u8(0);
  r.u32(2);
  for (int i = 0; i < 12; ++i) r.f32(0.1f);
  r.f32(1).f32(2).u32(0).f32(0).f32(0);
  if (static_cast<std::uint16_t>(version) != 0) r.f32(0.5f);  // friction
  r.f32(x_rot).f32(0).f32(0);   // bind rotation
  r.f32(0).f32(y_pos).f32(0);   // bind position
  r.f32(10.0f);                 // mass
  r.f32(0).f32(0).f32(0);       // centre of mass
  return r;
}

inline Buf ik_data(std::size_t count, std::uint32_t version = 1) {
  Buf b;
  for (std::size_t i = 0; i < count; ++i) b.add(ik_record(version, 0.1f * float(i), 0.25f));
  return b;
}

inline std::vector<std::uint8_t> model(const std::vector<BoneDef>& bones, const Buf* refs = nullptr,
                                std::uint32_t refs_id = 0x13, std::uint32_t ik_version = 1) {
  Buf f;
  f.chunk(0x1, header_payload()).chunk(0xD, bone_names(bones)).chunk(0x10, ik_data(bones.size(), ik_version));
  if (refs) f.chunk(refs_id, *refs);
  return f.b;
}

}  // namespace boneyard::test
