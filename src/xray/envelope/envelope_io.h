// Reading envelopes inside the readers of the formats that hold them (.skl/.skls, .anm, an
// .object's motions): private to the X-Ray library (src/xray).
#pragma once

#include <limits>
#include <string_view>

#include "boneyard/xray/envelope/envelope.h"
#include "core/byte_reader.h"

namespace boneyard::xray {

// Out of line: v1 envelopes (old files), and the error of a cut key.
void read_envelope_v1(ByteReader& r, std::string_view what, Envelope& out);
[[noreturn]] void fail_truncated_key(ByteReader& r, std::size_t at, std::string_view what, std::uint32_t key,
                                     std::size_t need, std::size_t left);

// Reads one envelope at the reader's position into `out` (a local or the motion's own storage: no
// copy). The key count is checked against the bytes left before anything else; v2 keys are walked
// (their size depends on their shape) and kept as one view, and the same walk sets out.plain.
// Short data throws ParseError with `what` as its path. Inline: a large .skls has tens of
// thousands of envelopes of a few keys each.
inline void read_envelope(ByteReader& r, EnvelopeLayout layout, std::string_view what, Envelope& e) {
  if (layout == EnvelopeLayout::v1) return read_envelope_v1(r, what, e);
  e.layout = layout;
  e.offset = r.offset();
  if (r.remaining() < 4) r.need(4, what);  // throws
  const std::uint8_t* head = r.rest().data();
  e.pre = head[0];
  e.post = head[1];
  e.key_count = load_le<std::uint16_t>(head + 2);
  r.skip(4, what);
  if (std::size_t{e.key_count} * kEnvelopeV2SteppedKeyBytes > r.remaining())
    r.need_array(e.key_count, kEnvelopeV2SteppedKeyBytes, what);  // throws
  const std::uint8_t* const p = r.rest().data();
  const std::uint8_t* const end = p + r.remaining();
  constexpr std::uint32_t kOscillate = static_cast<std::uint32_t>(EnvelopeBehaviour::oscillate);
  constexpr std::uint8_t kStepped = static_cast<std::uint8_t>(EnvelopeShape::stepped);
  constexpr std::uint8_t kBezier2d = static_cast<std::uint8_t>(EnvelopeShape::bezier_2d);
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  bool plain = e.pre < kEnvelopeBehaviours && e.post < kEnvelopeBehaviours && e.pre != kOscillate && e.post != kOscillate;
  float previous = -kInfinity;
  std::uint32_t bad = 0;  // nonzero once a key is not plain
  const std::uint8_t* q = p;
  for (std::uint32_t i = 0; i < e.key_count; ++i) {
    const std::size_t left = static_cast<std::size_t>(end - q);
    const std::size_t need = left < kEnvelopeV2SteppedKeyBytes ? kEnvelopeV2SteppedKeyBytes
                             : q[8] == kStepped                 ? kEnvelopeV2SteppedKeyBytes
                                                                : kEnvelopeV2KeyBytes;
    if (need > left) fail_truncated_key(r, static_cast<std::size_t>(q - p), what, i, need, left);
    // Plain: a finite value, a time after the previous one and finite (NaN fails both compares),
    // a shape before Bezier 2D.
    const float time = load_le<float>(q + 4);
    bad |= ((load_le<std::uint32_t>(q) & 0x7F800000u) == 0x7F800000u) | !(previous < time) | !(time < kInfinity) |
           (q[8] >= kBezier2d);
    previous = time;
    q += need;
  }
  e.plain = plain && bad == 0;
  e.keys = r.bytes(static_cast<std::size_t>(q - p), what);
}

inline Envelope read_envelope(ByteReader& r, EnvelopeLayout layout, std::string_view what) {
  Envelope e;
  read_envelope(r, layout, what, e);
  return e;
}

}  // namespace boneyard::xray
