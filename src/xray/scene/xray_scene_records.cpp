// What an exported motion carries besides the glTF values, so that an import without the original
// .omf reproduces its bytes (docs/xray-gltf.md section 6.1): rotation tracks as the stored 16-bit
// components, and per record the quantisation the values cannot show (the `tracks` extras).
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "boneyard/xray/xray_scene.h"
#include "xray_import_internal.h"
#include "xray_scene_internal.h"

namespace boneyard::xray {

namespace {

// |1 - |q|| above this is no unit quaternion to the Khronos validator (its limit is 0.00769);
// stored keys are at most 6e-5 off.
constexpr double kUnitLengthTolerance = 0.0075;

char hex_digit(unsigned v) { return "0123456789abcdef"[v & 15]; }

std::string hex_of(Bytes bytes) {
  std::string s;
  s.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) s += hex_digit(b >> 4), s += hex_digit(b);
  return s;
}

// The stored key k in glTF space (x, y, -z, w), or false when a component cannot be written
// exactly as a normalised SHORT (-32768 decodes as -1 there, and its negation does not exist).
bool gltf_short_key(const QuatKey& k, std::array<std::int32_t, 4>& c) {
  if (k.x == -32768 || k.y == -32768 || k.z == -32768 || k.w == -32768) return false;
  c = {k.x, k.y, -std::int32_t{k.z}, k.w};
  double len2 = 0;
  for (std::int32_t v : c) len2 += (double(v) / 32767.0) * (double(v) / 32767.0);
  return std::fabs(1.0 - std::sqrt(len2)) <= kUnitLengthTolerance;
}

}  // namespace

double compact_float(float f) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, f);
  double d = 0;
  // from_chars rounds correctly as strtod does, without its locale work (a tenth of the time).
  if (std::from_chars(b, r.ptr, d).ec != std::errc{}) return double(f);
  // The shortest decimal of the float, read as a double, prints as that decimal and reads back
  // to the same float; in the rare case where double rounding breaks that, the exact value.
  return static_cast<float>(d) == f || (std::isnan(f) && std::isnan(d)) ? d : double(f);
}

RotationExport export_rotation(const BoneKeys& bk, std::size_t keys, bool held, bool float_rotations,
                               scene::Channel& rot) {
  RotationExport out;
  if (!float_rotations) {
    rot.shorts.resize(keys * 4);
    rot.values.resize(keys * 4);
    bool exact = true, flipped = false;
    for (std::size_t f = 0; f < keys && exact; ++f) {
      std::array<std::int32_t, 4> c{};
      exact = gltf_short_key(bk.rotation_key(held ? 0 : f), c);
      if (!exact) break;
      bool flip = false;
      if (f > 0) {
        const std::int16_t* p = rot.shorts.data() + (f - 1) * 4;
        const std::int64_t d = std::int64_t{p[0]} * c[0] + std::int64_t{p[1]} * c[1] + std::int64_t{p[2]} * c[2] +
                               std::int64_t{p[3]} * c[3];
        flip = d < 0;  // the shorter arc, as the engine's slerp takes it; negation is exact here
      }
      if (flip != flipped) out.sign_toggles.push_back(static_cast<std::uint32_t>(f));
      flipped = flip;
      for (int i = 0; i < 4; ++i) {
        const std::int32_t v = flip ? -c[i] : c[i];
        rot.shorts[f * 4 + i] = static_cast<std::int16_t>(v);
        rot.values[f * 4 + i] = static_cast<float>(v) / 32767.0f;  // as a glTF reader decodes it
      }
    }
    if (exact) return out;
    out = RotationExport{};
    out.floats = true;
    rot.shorts.clear();
  }
  rot.values.resize(keys * 4);
  for (std::size_t f = 0; f < keys; ++f) {
    const Quat q = to_gltf(bk.rotation(held ? 0 : f));
    float* v = rot.values.data() + f * 4;
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  }
  scene::make_sign_continuous(rot.values);
  return out;
}

// Whether the importer, from the decoded float values and the stored size and init, finds the
// stored integer keys again (not when sizes are far below the values' float resolution).
bool translation_keys_recoverable(const BoneKeys& bk, std::uint32_t frames) {
  import_detail::RecordSource src;
  src.fallback = &bk;
  src.fallback_frames = frames;
  src.sampled = frames;
  std::vector<std::uint8_t> keys;
  if (!import_detail::quantise_under(src, frames, bk.translation_size, bk.translation_init, bk.translation_16bit(),
                                     keys))
    return false;
  return keys.size() == bk.translation_keys.size() &&
         std::equal(keys.begin(), keys.end(), bk.translation_keys.begin());
}

nlohmann::json motion_tracks_extras(const MotionKeys& k, const std::vector<RotationExport>& rotations,
                                    bool float_rotations) {
  nlohmann::json t;
  std::string flags;
  flags.reserve(k.bones.size() * 2);
  nlohmann::json translations = nlohmann::json::array(), signs = nlohmann::json::array(),
                 stored = nlohmann::json::array(), crcs = nlohmann::json::array();
  for (std::size_t r = 0; r < k.bones.size(); ++r) {
    const BoneKeys& b = k.bones[r];
    flags += hex_digit(b.flags >> 4), flags += hex_digit(b.flags);
    if (rotations[r].floats && !float_rotations) stored.push_back({r, "rotation", hex_of(b.rotation_keys)});
    if (!b.rotation_static()) {
      if (!rotations[r].sign_toggles.empty()) {
        nlohmann::json s = {r};
        for (std::uint32_t f : rotations[r].sign_toggles) s.push_back(f);
        signs.push_back(std::move(s));
      }
      if (const std::uint32_t crc = key_crc(b.rotation_keys); crc != b.rotation_crc)
        crcs.push_back({r, "rotation", b.rotation_crc, crc});
    }
    if (b.translation_keyed()) {
      const Vec3 s = b.translation_size, i = b.translation_init;
      translations.push_back({r, compact_float(s.x), compact_float(s.y), compact_float(s.z), compact_float(i.x),
                              compact_float(i.y), compact_float(i.z)});
      if (!translation_keys_recoverable(b, k.frames))
        stored.push_back({r, "translation", hex_of(b.translation_keys)});
      if (const std::uint32_t crc = key_crc(b.translation_keys); crc != b.translation_crc)
        crcs.push_back({r, "translation", b.translation_crc, crc});
    }
  }
  t["flags"] = std::move(flags);
  if (!translations.empty()) t["translations"] = std::move(translations);
  if (!signs.empty()) t["signs"] = std::move(signs);
  if (!stored.empty()) t["keys"] = std::move(stored);
  if (!crcs.empty()) t["crcs"] = std::move(crcs);
  return t;
}

}  // namespace boneyard::xray
