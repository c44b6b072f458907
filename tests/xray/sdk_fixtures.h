// Small .skl, .skls and .anm files laid out by hand, for the reader, CLI and Python tests.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/chunks.h"
#include "boneyard/xray/envelope/envelope.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::test::sdk {

using namespace boneyard::xray;

// One envelope in `layout` with `keys` (time, value) of `shape`.
inline void put_envelope(ByteWriter& w, EnvelopeLayout layout, std::uint32_t pre, std::uint32_t post,
                  const std::vector<std::pair<float, float>>& keys, EnvelopeShape shape = EnvelopeShape::stepped) {
  std::vector<EnvelopeKey> k;
  for (auto [t, v] : keys) {
    EnvelopeKey key;
    key.time = t;
    key.value = v;
    key.shape = static_cast<std::uint32_t>(shape);
    k.push_back(key);
  }
  if (layout == EnvelopeLayout::v1) {
    w.u32(pre);
    w.u32(post);
    w.u32(static_cast<std::uint32_t>(k.size()));
  } else {
    w.u8(static_cast<std::uint8_t>(pre));
    w.u8(static_cast<std::uint8_t>(post));
    w.u16(static_cast<std::uint16_t>(k.size()));
  }
  w.bytes(encode_envelope_keys(layout, k));
}

// A motion body of `version` with `bones` bones, each with two keys per channel (TCB positions,
// stepped rotations), params 1/2/1/1, a cycle that stops at its end (v4: an FX), v7 with one mark.
inline std::vector<std::uint8_t> motion_body(std::uint16_t version, int bones = 2, bool with_mark = true,
                                             const char* name = "idle") {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  w.stringz(name);
  w.s32(0);
  w.s32(30);
  w.f32(30.0f);
  w.u16(version);
  if (version == 4) {
    w.u32(kNoBoneOrPart);
    w.u8(1);  // fx
    w.u8(0);  // stop at end
  } else if (version == 5) {
    w.u32(kMotionStopAtEnd);
    w.u32(0);
  } else {
    w.u8(static_cast<std::uint8_t>(kMotionStopAtEnd));
    w.u16(0);
  }
  w.f32(1.0f);  // speed
  w.f32(2.0f);  // accrue
  w.f32(1.0f);  // falloff
  w.f32(1.0f);  // power
  if (version >= 6) w.u16(static_cast<std::uint16_t>(bones));
  else w.u32(static_cast<std::uint32_t>(bones));
  const EnvelopeLayout layout = version >= 6 ? EnvelopeLayout::v2 : EnvelopeLayout::v1;
  for (int b = 0; b < bones; ++b) {
    if (version >= 5) w.stringz(b == 0 ? "bip01" : "bip01_spine");
    if (version >= 6) w.u8(0);
    else w.u32(0);
    for (int c = 0; c < 6; ++c)
      put_envelope(w, layout, 1, 1, {{0.0f, float(c)}, {1.0f, float(c) + 0.5f}},
                   c < 3 ? EnvelopeShape::tcb : EnvelopeShape::stepped);
  }
  if (version >= 7) {
    w.u32(with_mark ? 1 : 0);
    if (with_mark) {
      w.string_crlf("Left foot");
      w.u32(1);
      w.f32(0.1f);
      w.f32(0.4f);
    }
  }
  return out;
}

inline std::vector<std::uint8_t> skls_of(const std::vector<std::vector<std::uint8_t>>& bodies) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  w.u32(static_cast<std::uint32_t>(bodies.size()));
  for (const auto& b : bodies) w.bytes(b);
  return out;
}

inline std::vector<std::uint8_t> chunk_of(std::uint32_t id, const std::vector<std::uint8_t>& body) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  write_chunk(w, id, body);
  return out;
}

inline std::vector<std::uint8_t> anm_body(std::uint16_t version) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  w.stringz("camera");
  w.s32(0);
  w.s32(60);
  w.f32(30.0f);
  w.u16(version);
  const EnvelopeLayout layout = version == 3 ? EnvelopeLayout::v1 : EnvelopeLayout::v2;
  // Stored order: x, y, z, then h, p, b (v3/v5) or p, h, b (v4); values name what they hold.
  const float stored_values[6] = {1, 2, 3, version == 4 ? 5.0f : 4.0f, version == 4 ? 4.0f : 5.0f, 6};
  for (float v : stored_values) put_envelope(w, layout, 1, 1, {{0.0f, v}, {2.0f, v * 10}}, EnvelopeShape::tcb);
  return out;
}

}  // namespace boneyard::test::sdk
