// Envelope records: names, the q16 parameter codec, decoding and encoding keys, reading and
// writing whole envelopes (docs/xray-sdk.md "Envelopes").
#include <cmath>
#include <cstring>
#include <limits>

#include "boneyard/xray/envelope/envelope.h"
#include "envelope_io.h"

namespace boneyard::xray {

namespace {

constexpr std::uint8_t kCodecStepped = static_cast<std::uint8_t>(EnvelopeShape::stepped);

float key_param_of(const EnvelopeKey& k, int i) {
  switch (i) {
    case 0: return k.tension;
    case 1: return k.continuity;
    case 2: return k.bias;
    default: return k.param[static_cast<std::size_t>(i - 3)];
  }
}

void set_key_param(EnvelopeKey& k, int i, float v) {
  switch (i) {
    case 0: k.tension = v; break;
    case 1: k.continuity = v; break;
    case 2: k.bias = v; break;
    default: k.param[static_cast<std::size_t>(i - 3)] = v; break;
  }
}

bool same_float_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Size of the v2 key record starting at `p` (its shape byte is at p + 8).
std::size_t v2_key_record_bytes(const std::uint8_t* p) {
  return p[8] == kCodecStepped ? kEnvelopeV2SteppedKeyBytes : kEnvelopeV2KeyBytes;
}

}  // namespace

std::string_view motion_channel_name(MotionChannel c) {
  static constexpr std::string_view kNames[] = {"x", "y", "z", "h", "p", "b"};
  return kNames[static_cast<std::size_t>(c)];
}

std::string_view envelope_shape_name(std::uint32_t shape) {
  static constexpr std::string_view kNames[] = {"tcb", "hermite", "bezier", "linear", "stepped", "bezier_2d"};
  return shape < kEnvelopeShapes ? kNames[shape] : std::string_view{};
}

std::string_view envelope_behaviour_name(std::uint32_t behaviour) {
  static constexpr std::string_view kNames[] = {"reset", "constant", "repeat", "oscillate", "offset", "linear"};
  return behaviour < kEnvelopeBehaviours ? kNames[behaviour] : std::string_view{};
}

std::uint16_t quantise_key_param(float v) {
  if (std::isnan(v)) v = 0.0f;
  v = std::fmin(std::fmax(v, -32.0f), 32.0f);
  const float q = (v - -32.0f) / (32.0f - -32.0f);
  return static_cast<std::uint16_t>(static_cast<int>(std::floor(q * 65535.0f + 0.5f)));
}

float key_param(std::uint16_t q) { return (static_cast<float>(q) * (32.0f - -32.0f)) / 65535.0f + -32.0f; }

void decode_envelope_keys(const Envelope& e, std::vector<EnvelopeKey>& out) {
  out.clear();
  out.reserve(e.key_count);
  const std::uint8_t* p = e.keys.data();
  const std::uint8_t* end = p + e.keys.size();
  for (std::uint32_t i = 0; i < e.key_count; ++i) {
    EnvelopeKey k;
    if (e.layout == EnvelopeLayout::v1) {
      if (end - p < static_cast<std::ptrdiff_t>(kEnvelopeV1KeyBytes)) break;
      k.value = load_le<float>(p);
      k.time = load_le<float>(p + 4);
      k.shape = load_le<std::uint32_t>(p + 8);
      for (int j = 0; j < 7; ++j) set_key_param(k, j, load_le<float>(p + 12 + 4 * j));
      p += kEnvelopeV1KeyBytes;
    } else {
      if (end - p < static_cast<std::ptrdiff_t>(kEnvelopeV2SteppedKeyBytes)) break;
      const std::size_t n = v2_key_record_bytes(p);
      if (end - p < static_cast<std::ptrdiff_t>(n)) break;
      k.value = load_le<float>(p);
      k.time = load_le<float>(p + 4);
      k.shape = p[8];
      if (n == kEnvelopeV2KeyBytes) {
        for (int j = 0; j < 7; ++j) {
          k.quantised[static_cast<std::size_t>(j)] = load_le<std::uint16_t>(p + 9 + 2 * j);
          set_key_param(k, j, key_param(k.quantised[static_cast<std::size_t>(j)]));
        }
      }
      p += n;
    }
    out.push_back(k);
  }
}

std::vector<EnvelopeKey> decode_envelope_keys(const Envelope& e) {
  std::vector<EnvelopeKey> out;
  decode_envelope_keys(e, out);
  return out;
}

std::vector<std::uint64_t> envelope_key_offsets(const Envelope& e) {
  std::vector<std::uint64_t> out;
  out.reserve(e.key_count);
  std::size_t at = 0;
  for (std::uint32_t i = 0; i < e.key_count && at < e.keys.size(); ++i) {
    out.push_back(e.keys_offset() + at);
    at += e.layout == EnvelopeLayout::v1 ? kEnvelopeV1KeyBytes
          : at + kEnvelopeV2SteppedKeyBytes <= e.keys.size() ? v2_key_record_bytes(e.keys.data() + at)
                                                             : kEnvelopeV2SteppedKeyBytes;
  }
  return out;
}

std::vector<std::uint8_t> encode_envelope_keys(EnvelopeLayout layout, std::span<const EnvelopeKey> keys) {
  std::vector<std::uint8_t> out;
  out.reserve(keys.size() * (layout == EnvelopeLayout::v1 ? kEnvelopeV1KeyBytes : kEnvelopeV2KeyBytes));
  ByteWriter w(out);
  for (const auto& k : keys) {
    w.f32(k.value);
    w.f32(k.time);
    if (layout == EnvelopeLayout::v1) {
      w.u32(k.shape);
      for (int j = 0; j < 7; ++j) w.f32(key_param_of(k, j));
      continue;
    }
    const auto shape = static_cast<std::uint8_t>(k.shape);
    w.u8(shape);
    if (shape == kCodecStepped) continue;
    for (int j = 0; j < 7; ++j) {
      const float v = key_param_of(k, j);
      const std::uint16_t stored = k.quantised[static_cast<std::size_t>(j)];
      w.u16(same_float_bits(key_param(stored), v) ? stored : quantise_key_param(v));
    }
  }
  return out;
}

void write_envelope(ByteWriter& w, const Envelope& e) {
  if (e.layout == EnvelopeLayout::v1) {
    w.u32(e.pre);
    w.u32(e.post);
    w.u32(e.key_count);
  } else {
    w.u8(static_cast<std::uint8_t>(e.pre));
    w.u8(static_cast<std::uint8_t>(e.post));
    w.u16(static_cast<std::uint16_t>(e.key_count));
  }
  w.bytes(e.keys);
}

void read_envelope_v1(ByteReader& r, std::string_view what, Envelope& e) {
  e.layout = EnvelopeLayout::v1;
  e.offset = r.offset();
  r.need(12, what);
  e.pre = r.u32(what);
  e.post = r.u32(what);
  e.key_count = r.u32(what);
  r.need_array(e.key_count, kEnvelopeV1KeyBytes, what);
  e.keys = r.bytes(std::size_t{e.key_count} * kEnvelopeV1KeyBytes, what);
  e.plain = false;
}

void fail_truncated_key(ByteReader& r, std::size_t at, std::string_view what, std::uint32_t key, std::size_t need,
                        std::size_t left) {
  fail(r.offset() + at, std::string(what) + " key " + std::to_string(key), "truncated", std::to_string(need) + " bytes",
       std::to_string(left) + " bytes");
}

}  // namespace boneyard::xray
