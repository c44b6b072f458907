// Key quantisation for the glTF -> .omf importer, following the SDK
// (../shared/docs/xray-motions.md 1.2) and reusing known size/init where the values still fit.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <optional>

#include "xray_import_internal.h"

namespace boneyard::xray::import_detail {

namespace {
constexpr double kRotationTolerance = 1.0 / 32767.0 + 1e-6;  // one step, plus float noise
}  // namespace


bool rotation_matches(const RecordSource& src, const BoneKeys& k, std::size_t frames) {
  for (std::size_t f = 0; f < frames; ++f) {
    const Quat d = scene::normalized(k.rotation(f));
    Quat s = scene::normalized(src.rot(f));  // normalised SHORT keys are as far off unit length as the stored ones
    if (scene::dot(s, d) < 0) s = {-s.x, -s.y, -s.z, -s.w};
    if (std::fabs(double(s.x) - d.x) > kRotationTolerance || std::fabs(double(s.y) - d.y) > kRotationTolerance ||
        std::fabs(double(s.z) - d.z) > kRotationTolerance || std::fabs(double(s.w) - d.w) > kRotationTolerance)
      return false;
  }
  return true;
}

// |value - decoded| within half a step of `size` (plus float rounding of the value itself); an
// axis of size 0 is constant, within kTranslationNoise.
bool within_half_step(float value, float decoded, float size) {
  const double half = size == 0 ? kTranslationNoise : 0.5 * std::fabs(double(size));
  const double tol = half + 4.0 * FLT_EPSILON * std::max(std::fabs(value), std::fabs(decoded));
  return std::fabs(double(value) - double(decoded)) <= tol;
}

bool translation_matches(const RecordSource& src, const BoneKeys& k, std::size_t frames) {
  const Vec3 size = k.translation_keyed() ? k.translation_size : Vec3{};
  for (std::size_t f = 0; f < frames; ++f) {
    const Vec3 d = k.translation(f), s = src.tr(f);
    if (!within_half_step(s.x, d.x, size.x) || !within_half_step(s.y, d.y, size.y) ||
        !within_half_step(s.z, d.z, size.z))
      return false;
  }
  return true;
}

void put_i16(std::uint8_t* p, std::int32_t v) {
  const auto u = static_cast<std::uint16_t>(static_cast<std::int16_t>(v));
  p[0] = static_cast<std::uint8_t>(u & 0xFF);
  p[1] = static_cast<std::uint8_t>(u >> 8);
}

bool all_keys_equal(const std::vector<std::uint8_t>& keys, std::size_t width) {
  for (std::size_t i = width; i < keys.size(); i += width)
    if (std::memcmp(keys.data(), keys.data() + i, width) != 0) return false;
  return true;
}

void put_rotation_key(const Quat& q, std::uint8_t* key) {
  const float c[4] = {q.x, q.y, q.z, q.w};
  for (int i = 0; i < 4; ++i)
    put_i16(key + i * 2, static_cast<std::int32_t>(std::clamp(std::lround(double(c[i]) * 32767.0), -32767L, 32767L)));
}

// The rotation's centre when every sample is within half a key step (1/32767) of it per
// component, signs aligned: float noise around a constant then cannot split it into two keys.
std::optional<Quat> constant_rotation(const RecordSource& src, std::size_t frames) {
  const Quat first = src.rot(0);
  double lo[4] = {first.x, first.y, first.z, first.w}, hi[4] = {lo[0], lo[1], lo[2], lo[3]};
  for (std::size_t f = 1; f < frames; ++f) {
    Quat q = src.rot(f);
    if (scene::dot(q, first) < 0) q = {-q.x, -q.y, -q.z, -q.w};
    const double c[4] = {q.x, q.y, q.z, q.w};
    for (int i = 0; i < 4; ++i) lo[i] = std::min(lo[i], c[i]), hi[i] = std::max(hi[i], c[i]);
  }
  for (int i = 0; i < 4; ++i)
    if (hi[i] - lo[i] > 1.0 / 32767.0) return std::nullopt;  // half-range above half a step
  return Quat{float((lo[0] + hi[0]) / 2), float((lo[1] + hi[1]) / 2), float((lo[2] + hi[2]) / 2), float((lo[3] + hi[3]) / 2)};
}

// Rotation: components x32767 rounded; within half a step of constant -> one static key (unless
// the exported or template record said keyed, so that a keyed-but-constant record stays keyed).
void quantise_rotation(const RecordSource& src, std::size_t frames, bool prefer_static, OmfFile& out, BoneKeys& b) {
  std::vector<std::uint8_t> keys(frames * 8);
  for (std::size_t f = 0; f < frames; ++f) put_rotation_key(src.rot(f), keys.data() + f * 8);
  if (prefer_static && (frames == 1 || all_keys_equal(keys, 8) || constant_rotation(src, frames))) {
    if (!all_keys_equal(keys, 8)) put_rotation_key(*constant_rotation(src, frames), keys.data());
    keys.resize(8);
    b.flags |= kFlagRKeysAbsent;
  }
  b.rotation_keys = out.keep(std::move(keys));
  b.rotation_crc = b.rotation_static() ? 0 : key_crc(b.rotation_keys);
}

// Keys under a known size/init (from extras): nearest integer, accepted only if every value is
// within half a step of its decoded key (decoded as the engine does, in float).
bool quantise_under(const RecordSource& src, std::size_t frames, Vec3 size, Vec3 init, bool b16,
                    std::vector<std::uint8_t>& keys) {
  const double limit = b16 ? 32767 : 127;
  const std::size_t w = b16 ? 6 : 3;
  keys.assign(frames * w, 0);
  const float sz[3] = {size.x, size.y, size.z}, in[3] = {init.x, init.y, init.z};
  for (std::size_t f = 0; f < frames; ++f) {
    const Vec3 t = src.tr(f);
    const float tv[3] = {t.x, t.y, t.z};
    for (int a = 0; a < 3; ++a) {
      double q = 0;
      if (sz[a] != 0) q = std::round((double(tv[a]) - double(in[a])) / double(sz[a]));
      if (std::isnan(q)) return false;
      // With sizes far below float resolution (1e-10 on a 0.07 m init) the decoded floats are
      // ulps apart, so the extreme keys can read back past +-limit: clamp, then check the value.
      q = std::clamp(q, -limit, limit);
      const float decoded = static_cast<float>(q) * sz[a] + in[a];
      if (!within_half_step(tv[a], decoded, sz[a])) return false;
      if (b16) put_i16(keys.data() + f * 6 + a * 2, static_cast<std::int32_t>(q));
      else keys[f * 3 + a] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
    }
  }
  return true;
}


// Every sample (between lo and hi per axis) within kTranslationNoise of `c`.
bool near_constant(const Vec3& lo, const Vec3& hi, const Vec3& c) {
  const float l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z}, v[3] = {c.x, c.y, c.z};
  for (int a = 0; a < 3; ++a)
    if (!(std::fabs(double(l[a]) - v[a]) <= kTranslationNoise && std::fabs(double(h[a]) - v[a]) <= kTranslationNoise))
      return false;
  return true;
}

// Translation: the exported size/init when the values still fit them; else the SDK's way:
// init = centre, size = half-range / 127 (or 32767), q = int(K * (t - init) / half-range), with
// the hint's bit depth when it had 16 bits.
bool quantise_translation(const RecordSource& src, std::size_t frames, const RecordHint& hint, bool hq, OmfFile& out,
                          BoneKeys& b) {
  std::vector<std::uint8_t> keys;
  if (hint.present && (hint.flags & kFlagTKeysPresent) && hint.size && hint.init) {
    const bool b16 = (hint.flags & kFlagTKeys16) != 0;
    if (quantise_under(src, frames, *hint.size, *hint.init, b16, keys)) {
      b.flags |= static_cast<std::uint8_t>(kFlagTKeysPresent | (hint.flags & kFlagTKeys16));
      b.translation_size = *hint.size;
      b.translation_init = *hint.init;
      b.translation_keys = out.keep(std::move(keys));
      b.translation_crc = key_crc(b.translation_keys);
      return true;
    }
  }
  Vec3 lo = src.tr(0), hi = lo;
  for (std::size_t f = 1; f < frames; ++f) {
    const Vec3 t = src.tr(f);
    lo = {std::min(lo.x, t.x), std::min(lo.y, t.y), std::min(lo.z, t.z)};
    hi = {std::max(hi.x, t.x), std::max(hi.y, t.y), std::max(hi.z, t.z)};
  }
  const float half[3] = {(hi.x - lo.x) * 0.5f, (hi.y - lo.y) * 0.5f, (hi.z - lo.z) * 0.5f};
  // A track the hint stored as 16-bit stays 16-bit: the SDK rule would pick 8 bits for a small
  // range and turn float noise into errors hundreds of times the original step.
  const bool hint_16 = hint.present && (hint.flags & kFlagTKeysPresent) && (hint.flags & kFlagTKeys16);
  const bool b16 = hq || hint_16 || std::sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]) > 1.5f;
  const bool hint_constant = hint.present && !(hint.flags & kFlagTKeysPresent);
  // Constant. The CS/CoP compiler keeps bit 2 when it chose 16-bit; so does the exported record.
  auto constant = [&](Vec3 init) {
    b.translation_init = init;
    if (b16 || (hint_constant && (hint.flags & kFlagTKeys16))) b.flags |= kFlagTKeys16;
  };
  if (hint_constant && hint.init && near_constant(lo, hi, *hint.init)) {
    constant(*hint.init);  // the hint's constant, through float noise
    return true;
  }
  if (half[0] == 0 && half[1] == 0 && half[2] == 0) {
    constant(lo);
    return false;
  }
  if (near_constant(lo, hi, {(lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f, (lo.z + hi.z) * 0.5f})) {
    constant({(lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f, (lo.z + hi.z) * 0.5f});
    return false;
  }
  const float k = b16 ? 32767.0f : 127.0f;
  const float lo_q = b16 ? -32767.0f : -128.0f;
  const float init[3] = {(lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f, (lo.z + hi.z) * 0.5f};
  const std::size_t w = b16 ? 6 : 3;
  keys.assign(frames * w, 0);
  for (std::size_t f = 0; f < frames; ++f) {
    const Vec3 t = src.tr(f);
    const float tv[3] = {t.x, t.y, t.z};
    for (int a = 0; a < 3; ++a) {
      const float q = half[a] == 0 ? 0.0f : std::clamp(std::trunc(k * (tv[a] - init[a]) / half[a]), lo_q, k);
      if (b16) put_i16(keys.data() + f * 6 + a * 2, static_cast<std::int32_t>(q));
      else keys[f * 3 + a] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
    }
  }
  b.flags |= static_cast<std::uint8_t>(kFlagTKeysPresent | (b16 ? kFlagTKeys16 : 0));
  b.translation_size = {half[0] / k, half[1] / k, half[2] / k};
  b.translation_init = {init[0], init[1], init[2]};
  b.translation_keys = out.keep(std::move(keys));
  b.translation_crc = key_crc(b.translation_keys);
  return false;
}

namespace {

Bytes view_of(const std::vector<std::uint8_t>& v) { return {v.data(), v.size()}; }

void fix_crc(const std::optional<std::pair<std::uint32_t, std::uint32_t>>& fix, Bytes keys, std::uint32_t& crc) {
  if (fix && crc == fix->second && key_crc(keys) == fix->second) crc = fix->first;
}

// Keys [from, to) of a rotation array negated (every component; -32768 has no negation and is
// never exported as SHORT, so it does not occur here).
void negate_keys(std::vector<std::uint8_t>& keys, std::size_t from, std::size_t to) {
  for (std::size_t k = from; k < to && (k + 1) * 8 <= keys.size(); ++k)
    for (int c = 0; c < 4; ++c) {
      std::uint8_t* p = keys.data() + k * 8 + c * 2;
      const auto v = static_cast<std::int16_t>(p[0] | (p[1] << 8));
      if (v != -32768) put_i16(p, -std::int32_t{v});
    }
}

}  // namespace

void restore_rotation(const RecordSource& src, std::size_t frames, const RecordHint& hint, OmfFile& out, BoneKeys& b) {
  if (!hint.present) return;
  const bool hint_static = (hint.flags & kFlagRKeysAbsent) != 0;
  if (hint.rotation_keys && hint.rotation_keys->size() == (hint_static ? 1 : frames) * 8) {
    BoneKeys stored;
    stored.flags = hint.flags;
    stored.rotation_keys = view_of(*hint.rotation_keys);
    if (rotation_matches(src, stored, frames)) {
      b.flags = static_cast<std::uint8_t>((b.flags & ~kFlagRKeysAbsent) | (hint.flags & kFlagRKeysAbsent));
      b.rotation_keys = out.keep(*hint.rotation_keys);
      b.rotation_crc = b.rotation_static() ? 0 : key_crc(b.rotation_keys);
    }
  } else if (!hint.sign_toggles.empty() && !b.rotation_static() && b.rotation_key_count() == frames) {
    std::vector<std::uint8_t> keys(b.rotation_keys.begin(), b.rotation_keys.end());
    // From each listed key on the sign toggles: keys between the 1st and 2nd, 3rd and 4th, ... were negated.
    for (std::size_t i = 0; i < hint.sign_toggles.size(); i += 2)
      negate_keys(keys, hint.sign_toggles[i], i + 1 < hint.sign_toggles.size() ? hint.sign_toggles[i + 1] : frames);
    b.rotation_keys = out.keep(std::move(keys));
    b.rotation_crc = key_crc(b.rotation_keys);
  }
  if (!b.rotation_static()) fix_crc(hint.rotation_crc_fix, b.rotation_keys, b.rotation_crc);
}

void restore_translation(const RecordSource& src, std::size_t frames, const RecordHint& hint, OmfFile& out,
                         BoneKeys& b) {
  if (!hint.present || !(hint.flags & kFlagTKeysPresent) || !hint.size || !hint.init) return;
  const bool b16 = (hint.flags & kFlagTKeys16) != 0;
  if (hint.translation_keys && hint.translation_keys->size() == frames * (b16 ? 6 : 3)) {
    BoneKeys stored;
    stored.flags = hint.flags;
    stored.translation_keys = view_of(*hint.translation_keys);
    stored.translation_size = *hint.size;
    stored.translation_init = *hint.init;
    if (translation_matches(src, stored, frames)) {
      b.flags = static_cast<std::uint8_t>((b.flags & ~(kFlagTKeysPresent | kFlagTKeys16)) |
                                          (hint.flags & (kFlagTKeysPresent | kFlagTKeys16)));
      b.translation_keys = out.keep(*hint.translation_keys);
      b.translation_size = *hint.size;
      b.translation_init = *hint.init;
      b.translation_crc = key_crc(b.translation_keys);
    }
  }
  if (b.translation_keyed()) fix_crc(hint.translation_crc_fix, b.translation_keys, b.translation_crc);
}

}  // namespace boneyard::xray::import_detail
