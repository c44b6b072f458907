// Key decoding exactly as the engine's Dequantize (AnimationKeyCalculate.h): quat_component() for
// rotations, q * size + init for translations.
#include <cstdio>

#include "boneyard/xray/omf/omf.h"

namespace boneyard::xray {

QuatKey BoneKeys::rotation_key(std::size_t i) const {
  const std::uint8_t* p = rotation_keys.data() + i * 8;
  return {load_le<std::int16_t>(p), load_le<std::int16_t>(p + 2), load_le<std::int16_t>(p + 4),
          load_le<std::int16_t>(p + 6)};
}

std::array<std::int32_t, 3> BoneKeys::translation_key(std::size_t i) const {
  if (translation_16bit()) {
    const std::uint8_t* p = translation_keys.data() + i * 6;
    return {load_le<std::int16_t>(p), load_le<std::int16_t>(p + 2), load_le<std::int16_t>(p + 4)};
  }
  const std::uint8_t* p = translation_keys.data() + i * 3;
  return {static_cast<std::int8_t>(p[0]), static_cast<std::int8_t>(p[1]), static_cast<std::int8_t>(p[2])};
}

Quat BoneKeys::rotation(std::size_t frame) const {
  const QuatKey k = rotation_key(rotation_static() ? 0 : frame);
  return {quat_component(k.x), quat_component(k.y), quat_component(k.z), quat_component(k.w)};
}

Vec3 BoneKeys::translation(std::size_t frame) const {
  if (!translation_keyed()) return translation_init;
  const auto q = translation_key(frame);
  return {static_cast<float>(q[0]) * translation_size.x + translation_init.x,
          static_cast<float>(q[1]) * translation_size.y + translation_init.y,
          static_cast<float>(q[2]) * translation_size.z + translation_init.z};
}

std::uint64_t BoneKeys::translation_offset() const {
  return rotation_offset() + (rotation_static() ? 0 : 4) + rotation_keys.size();
}

std::string motion_flag_words(std::uint32_t flags) {
  static constexpr const char* kNames[] = {"fx",         "stop_at_end", "no_mix", "sync_part",
                                           "foot_steps", "root_mover",  "idle",   "weapon_bone"};
  std::string s;
  for (int bit = 0; bit < 32; ++bit) {
    if ((flags & (1u << bit)) == 0) continue;
    if (!s.empty()) s += ',';
    if (bit < 8) {
      s += kNames[bit];
    } else {
      char b[16];
      std::snprintf(b, sizeof b, "bit%d", bit);
      s += b;
    }
  }
  return s.empty() ? "-" : s;
}

}  // namespace boneyard::xray
