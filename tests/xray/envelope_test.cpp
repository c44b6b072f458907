// Envelopes (xray/envelope/envelope.h): the evaluator against values worked out by hand from the
// engine's formulas (docs/xray-sdk.md "Envelopes"), the key codec and the checker. blender-xray's
// own interpolator checks the evaluator independently in blender_xray_interp_test.py.
#include <cmath>

#include "boneyard/xray/envelope/envelope.h"
#include "core/byte_reader.h"
#include "test_support.h"
#include "xray/envelope/envelope_io.h"

namespace boneyard::xray {
namespace {

EnvelopeKey key(float time, float value, EnvelopeShape shape) {
  EnvelopeKey k;
  k.time = time;
  k.value = value;
  k.shape = static_cast<std::uint32_t>(shape);
  return k;
}

constexpr auto kConstant = static_cast<std::uint32_t>(EnvelopeBehaviour::constant);

float at(const std::vector<EnvelopeKey>& keys, float time, std::uint32_t pre = kConstant, std::uint32_t post = kConstant) {
  return evaluate_envelope(keys, pre, post, time);
}

TEST(EnvelopeEval, NoKeyIsZeroAndOneKeyIsItsValue) {
  EXPECT_EQ(at({}, 3.0f), 0.0f);
  EXPECT_EQ(at({key(1, 7, EnvelopeShape::tcb)}, -5.0f), 7.0f);
  EXPECT_EQ(at({key(1, 7, EnvelopeShape::tcb)}, 50.0f, 0, 0), 7.0f);
}

TEST(EnvelopeEval, LinearAndSteppedSpansFollowTheLaterKeysShape) {
  const std::vector<EnvelopeKey> keys = {key(0, 0, EnvelopeShape::tcb), key(1, 10, EnvelopeShape::linear),
                                         key(2, 30, EnvelopeShape::stepped)};
  EXPECT_FLOAT_EQ(at(keys, 0.25f), 2.5f);
  EXPECT_EQ(at(keys, 1.0f), 10.0f);
  EXPECT_EQ(at(keys, 1.5f), 10.0f);  // stepped: the earlier key's value until the key
  EXPECT_EQ(at(keys, 2.0f), 30.0f);
}

// Keys (0, 0), (1, 1), (2, 0), all TCB with tension, continuity and bias 0. In the span 0-1 at
// t = 0.5: the Hermite basis is h1 = h2 = 0.5, h3 = 0.125, h4 = -0.125; the outgoing tangent of
// key 0 (no key before it) is b * d = 1, the incoming one of key 1 is
// (1 / 2) * (b * (0 - 1) + a * 1) = 0; so 0.5 * 1 + 0.125 * 1 = 0.625.
TEST(EnvelopeEval, TcbByHand) {
  std::vector<EnvelopeKey> keys = {key(0, 0, EnvelopeShape::tcb), key(1, 1, EnvelopeShape::tcb),
                                   key(2, 0, EnvelopeShape::tcb)};
  EXPECT_FLOAT_EQ(at(keys, 0.5f), 0.625f);
  EXPECT_FLOAT_EQ(at(keys, 1.5f), 0.625f);  // mirror image
  // Continuity 0.5 on key 0: a = 1.5, b = 0.5, and the engine takes b * d = 0.5 as the tangent
  // of an end key (LightWave's interp.c; blender-xray takes the mean (a + b) / 2 * d = 1 here):
  // 0.5 * 1 + 0.125 * 0.5 = 0.5625.
  keys[0].continuity = 0.5f;
  EXPECT_FLOAT_EQ(at(keys, 0.5f), 0.5625f);
  // Tension 1 flattens key 1's tangents: in = 0 either way; key 1's outgoing tangent in the span
  // 1-2 is 0 too, and key 2's incoming one is a * d = -1: at 1.5, 0.5 * 1 + 0.5 * 0 - 0.125 * -1.
  keys[0].continuity = 0.0f;
  keys[1].tension = 1.0f;
  EXPECT_FLOAT_EQ(at(keys, 1.5f), 0.625f);
}

// Hermite keys carry their tangents: param[1] leaves a key, param[0] arrives. Without neighbours
// they are used as they are: at 0.5, 0.5 * 1 + 0.125 * 2 - 0.125 * 0 = 0.75. With a key after the
// span, the incoming tangent is scaled by the span over the two spans: 4 * (1 / 2) = 2, so
// 0.5 * 1 + 0.125 * 2 - 0.125 * 2 = 0.5.
TEST(EnvelopeEval, HermiteAndBezierTangentsByHand) {
  std::vector<EnvelopeKey> keys = {key(0, 0, EnvelopeShape::hermite), key(1, 1, EnvelopeShape::hermite)};
  keys[0].param[1] = 2.0f;
  EXPECT_FLOAT_EQ(at(keys, 0.5f), 0.75f);
  keys[1].shape = static_cast<std::uint32_t>(EnvelopeShape::bezier);  // the same formula
  EXPECT_FLOAT_EQ(at(keys, 0.5f), 0.75f);
  keys[1].param[0] = 4.0f;
  keys.push_back(key(2, 1, EnvelopeShape::hermite));
  EXPECT_FLOAT_EQ(at(keys, 0.5f), 0.5f);
}

// Bezier 2D handles at a third of the span in time and flat in value: the time curve is t itself,
// the value curve 3t^2 - 2t^3. The halving search tries t = 0.5 (time 0.5, too late for 0.25),
// then t = 0.25: value 3/16 - 2/64 = 0.15625.
TEST(EnvelopeEval, Bezier2dByHand) {
  std::vector<EnvelopeKey> keys = {key(0, 0, EnvelopeShape::bezier_2d), key(1, 1, EnvelopeShape::bezier_2d)};
  keys[0].param[2] = 1.0f / 3.0f;  // out handle: time, value offsets
  keys[0].param[3] = 0.0f;
  keys[1].param[0] = -1.0f / 3.0f;  // in handle
  keys[1].param[1] = 0.0f;
  EXPECT_NEAR(at(keys, 0.25f), 0.15625f, 1e-5f);
  EXPECT_NEAR(at(keys, 0.5f), 0.5f, 1e-5f);
  // A key before that is not Bezier 2D gives its value handle as param[1] / 3 (the engine's
  // choice; its time handle is a third of the span).
  keys[0].shape = static_cast<std::uint32_t>(EnvelopeShape::tcb);
  keys[0].param[1] = 3.0f;  // value handle 0 + 3 / 3 = 1: control values 0, 1, 1, 1
  // t = 0.5 (time handles 1/3 and 2/3: the time curve is t): 0.125 * 0 + 0.375 + 0.375 + 0.125 = 0.875.
  EXPECT_NEAR(at(keys, 0.5f), 0.875f, 1e-5f);
  // Handles that never reach the time: the search ends (the engine's would not), with a finite value.
  keys[0].shape = static_cast<std::uint32_t>(EnvelopeShape::bezier_2d);
  keys[0].param[2] = 30.0f;
  keys[1].param[0] = 30.0f;
  EXPECT_TRUE(std::isfinite(at(keys, 0.01f)));
}

// Two linear keys at (1 s, 10) and (3 s, 30), before and after them, each behaviour. The engine
// wraps with lo + v - r * floor(v / r): 3.5 s becomes 1 + 3.5 - 2 = 2.5 s (not 1.5 s) and
// 0.5 s becomes 1.5 s.
TEST(EnvelopeEval, EveryBehaviourByHand) {
  const std::vector<EnvelopeKey> keys = {key(1, 10, EnvelopeShape::linear), key(3, 30, EnvelopeShape::linear)};
  auto both = [&](std::uint32_t behaviour, float time) { return at(keys, time, behaviour, behaviour); };
  EXPECT_EQ(both(0, 0.5f), 0.0f);  // reset
  EXPECT_EQ(both(0, 4.0f), 0.0f);
  EXPECT_EQ(both(1, 0.5f), 10.0f);  // constant
  EXPECT_EQ(both(1, 4.0f), 30.0f);
  EXPECT_FLOAT_EQ(both(2, 3.5f), 25.0f);  // repeat
  EXPECT_FLOAT_EQ(both(2, 0.5f), 15.0f);
  // offset: one range later adds (30 - 10), one earlier subtracts it.
  EXPECT_FLOAT_EQ(both(4, 3.5f), 45.0f);
  EXPECT_FLOAT_EQ(both(4, 0.5f), -5.0f);
  // oscillate: an odd range mirrors with (last - first) - t = 3 - 1 - 2.5 = -0.5 s, which the
  // first span extends: 10 + (-1.5 / 2) * 20 = -5 (mirroring is right only from a first key at 0).
  EXPECT_FLOAT_EQ(both(3, 3.5f), -5.0f);
  const std::vector<EnvelopeKey> from_zero = {key(0, 0, EnvelopeShape::linear), key(2, 20, EnvelopeShape::linear)};
  EXPECT_FLOAT_EQ(at(from_zero, 2.5f, 3, 3), 15.0f);
  // linear: the end keys' tangents (a linear key's is the span's difference d = 20, per 2 s).
  EXPECT_FLOAT_EQ(both(5, 4.0f), 40.0f);
  EXPECT_FLOAT_EQ(both(5, 0.0f), 0.0f);
  // Out of range: the engine extrapolates the first span before the keys; after them it would read
  // past its keys, boneyard extends the last span.
  EXPECT_FLOAT_EQ(both(9, 0.0f), 0.0f);
  EXPECT_FLOAT_EQ(both(9, 4.0f), 40.0f);
}

TEST(EnvelopeEval, UnknownShapesAndDisorderStayDefined) {
  std::vector<EnvelopeKey> keys = {key(0, 5, EnvelopeShape::tcb), key(1, 6, EnvelopeShape::tcb)};
  keys[1].shape = 7;
  EXPECT_EQ(at(keys, 0.5f), 0.0f);  // the engine's default: the offset alone
  keys[1].shape = 0x100 | 3;        // v1 u32 shape: only its low byte counts
  EXPECT_FLOAT_EQ(at(keys, 0.5f), 5.5f);
  const std::vector<EnvelopeKey> disorder = {key(2, 1, EnvelopeShape::linear), key(0, 2, EnvelopeShape::linear),
                                             key(1, 3, EnvelopeShape::linear)};
  for (float t : {-1.0f, 0.5f, 1.5f, 2.5f, 9.0f}) (void)at(disorder, t, 2, 5);
  const std::vector<EnvelopeKey> nan_time = {key(0, 1, EnvelopeShape::tcb), key(NAN, 2, EnvelopeShape::tcb)};
  for (std::uint32_t b = 0; b < 7; ++b) (void)at(nan_time, 1e30f, b, b), (void)at(nan_time, -1e30f, b, b);
}

TEST(EnvelopeCodec, KeyParametersQuantiseAsTheSdk) {
  EXPECT_EQ(quantise_key_param(0.0f), 32768);
  EXPECT_EQ(quantise_key_param(-32.0f), 0);
  EXPECT_EQ(quantise_key_param(32.0f), 65535);
  EXPECT_EQ(quantise_key_param(100.0f), 65535);  // clamped
  EXPECT_EQ(key_param(0), -32.0f);
  EXPECT_EQ(key_param(65535), 32.0f);
  for (int q = 0; q < 65536; q += 97) EXPECT_EQ(quantise_key_param(key_param(static_cast<std::uint16_t>(q))), q) << q;
}

TEST(EnvelopeCodec, KeysEncodeAndDecodeInBothLayouts) {
  std::vector<EnvelopeKey> keys = {key(0, 1.5f, EnvelopeShape::tcb), key(0.5f, -2, EnvelopeShape::stepped),
                                   key(1, 3, EnvelopeShape::bezier_2d)};
  keys[0].tension = 0.25f;
  keys[2].param = {0.1f, -0.2f, 0.3f, -0.4f};
  for (EnvelopeLayout layout : {EnvelopeLayout::v1, EnvelopeLayout::v2}) {
    const auto bytes = encode_envelope_keys(layout, keys);
    EXPECT_EQ(bytes.size(), layout == EnvelopeLayout::v1 ? 3 * kEnvelopeV1KeyBytes
                                                         : 2 * kEnvelopeV2KeyBytes + kEnvelopeV2SteppedKeyBytes);
    Envelope e;
    e.layout = layout;
    e.key_count = 3;
    e.keys = bytes;
    e.offset = 100;
    const auto back = decode_envelope_keys(e);
    ASSERT_EQ(back.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(back[i].time, keys[i].time);
      EXPECT_EQ(back[i].value, keys[i].value);
      EXPECT_EQ(back[i].shape, keys[i].shape);
      const float tolerance = layout == EnvelopeLayout::v1 ? 0.0f : 64.0f / 65535.0f;
      EXPECT_NEAR(back[i].tension, keys[i].tension, tolerance);
      for (int j = 0; j < 4; ++j) EXPECT_NEAR(back[i].param[j], keys[i].param[j], tolerance);
    }
    // Decoded keys encode to the very same bytes (the stored q16 values are kept).
    EXPECT_EQ(encode_envelope_keys(layout, back), bytes);
    const auto offsets = envelope_key_offsets(e);
    ASSERT_EQ(offsets.size(), 3u);
    EXPECT_EQ(offsets[0], 100u + e.header_bytes());
    EXPECT_EQ(offsets[2] - offsets[1], layout == EnvelopeLayout::v1 ? 40u : 9u);
  }
}

TEST(EnvelopeCodec, ReadingChecksCountsBeforeWalkingAndNamesTheCutKey) {
  std::vector<std::uint8_t> data;
  ByteWriter w(data);
  w.u8(1);
  w.u8(1);
  w.u16(2);
  const std::vector<EnvelopeKey> keys = {key(0, 1, EnvelopeShape::tcb), key(1, 2, EnvelopeShape::tcb)};
  w.bytes(encode_envelope_keys(EnvelopeLayout::v2, keys));
  {
    ByteReader r(data, 50);
    const Envelope e = read_envelope(r, EnvelopeLayout::v2, "x");
    EXPECT_TRUE(r.at_end());
    EXPECT_EQ(e.key_count, 2u);
    EXPECT_EQ(e.offset, 50u);
    std::vector<std::uint8_t> out;
    ByteWriter again(out);
    write_envelope(again, e);
    EXPECT_EQ(out, data);
  }
  data.pop_back();  // the second key's last parameter is cut
  try {
    ByteReader r(data, 50);
    (void)read_envelope(r, EnvelopeLayout::v2, "bone 0 x");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.finding().path, "bone 0 x key 1");
    EXPECT_EQ(e.finding().offset, 50u + 4 + 23);
    EXPECT_EQ(e.finding().expected, "23 bytes");
    EXPECT_EQ(e.finding().found, "22 bytes");
  }
  std::vector<std::uint8_t> huge = {1, 1, 0xFF, 0xFF, 0, 0, 0, 0};
  ByteReader r(huge, 0);
  EXPECT_THROW((void)read_envelope(r, EnvelopeLayout::v2, "x"), ParseError);
  std::vector<std::uint8_t> huge_v1 = {1, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
  ByteReader r1(huge_v1, 0);
  EXPECT_THROW((void)read_envelope(r1, EnvelopeLayout::v1, "x"), ParseError);
}

TEST(EnvelopeChecker, ReportsEachKindOnceWithCountsAndPlaces) {
  std::vector<EnvelopeKey> keys = {key(0, 1, EnvelopeShape::tcb), key(NAN, 2, EnvelopeShape::tcb),
                                   key(2, 3, EnvelopeShape::linear), key(1, 4, EnvelopeShape::linear),
                                   key(1, 4, EnvelopeShape::linear)};
  keys[2].shape = 9;
  const auto bytes = encode_envelope_keys(EnvelopeLayout::v2, keys);
  Envelope e;
  e.layout = EnvelopeLayout::v2;
  e.pre = 1;
  e.post = 8;
  e.key_count = static_cast<std::uint32_t>(keys.size());
  e.keys = bytes;
  e.offset = 1000;
  EnvelopeChecker checker([](std::size_t bone, std::size_t channel) {
    return "bone " + std::to_string(bone) + " channel " + std::to_string(channel);
  });
  checker.check(e, 3, 4);
  checker.check(e, 5, 0);
  Diagnostics d;
  checker.report(d);
  auto find = [&](std::string_view words) -> const Finding* {
    for (const auto& f : d.findings())
      if (f.message.find(words) != std::string::npos) return &f;
    return nullptr;
  };
  const Finding* behaviour = find("behaviour out of range");
  ASSERT_NE(behaviour, nullptr);
  EXPECT_EQ(behaviour->severity, Severity::error);
  EXPECT_EQ(behaviour->path, "bone 3 channel 4 post-behaviour");
  EXPECT_EQ(behaviour->offset, 1001u);
  EXPECT_EQ(behaviour->found, "8");
  EXPECT_NE(behaviour->message.find("(and 1 more in this motion)"), std::string::npos);
  const Finding* time = find("key time is not a finite number");
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->offset, 1000u + 4 + 23 + 4);
  EXPECT_EQ(time->found, "key 1 time nan");
  ASSERT_NE(find("key shape out of range"), nullptr);
  const Finding* order = find("keys out of time order");
  ASSERT_NE(order, nullptr);
  EXPECT_EQ(order->found, "key 3 at 1 s after a key at 2 s");
  const Finding* same = find("two keys at the same time");
  ASSERT_NE(same, nullptr);
  EXPECT_EQ(same->severity, Severity::warning);
  // Counting starts anew after a report.
  Diagnostics none;
  checker.report(none);
  EXPECT_TRUE(none.findings().empty());
}

}  // namespace
}  // namespace boneyard::xray
