// .omf <-> .skls (xray/skl/skl_convert.h) and .skls/.anm <-> the scene: files laid out by hand,
// keys worked out from the SDK's formulas here (one-axis rotations, the translation rule), and the
// round trips that must give the stored keys back.
#include <cmath>
#include <cstring>
#include <numbers>

#include <gtest/gtest.h>

#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/anm/anm_scene.h"
#include "boneyard/xray/sdk_pose.h"
#include "boneyard/xray/skl/skl.h"
#include "boneyard/xray/skl/skl_convert.h"
#include "boneyard/xray/skl/skl_scene.h"
#include "omf_fixture.h"
#include "sdk_fixtures.h"

namespace boneyard::xray {
namespace {

using test::BoneSpec;
using test::OmfSpec;

OmfFile read_omf_bytes(const std::vector<std::uint8_t>& bytes) {
  auto r = read_omf(FileData::from_vector(bytes));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

// A stepped envelope of (time, value) keys.
Envelope stepped(SklFile& owner, const std::vector<std::pair<float, float>>& keys) {
  std::vector<EnvelopeKey> k;
  for (auto [t, v] : keys) {
    EnvelopeKey e;
    e.time = t, e.value = v, e.shape = static_cast<std::uint32_t>(EnvelopeShape::stepped);
    k.push_back(e);
  }
  Envelope e;
  e.layout = EnvelopeLayout::v2;
  e.key_count = static_cast<std::uint32_t>(k.size());
  e.keys = owner.keep(encode_envelope_keys(EnvelopeLayout::v2, k));
  return e;
}

SklBone bone_of(SklFile& owner, const std::string& name, const std::array<std::vector<std::pair<float, float>>, 6>& ch) {
  std::array<Envelope, kMotionChannels> channels;
  for (std::size_t c = 0; c < 6; ++c) channels[c] = stepped(owner, ch[c].empty() ? std::vector<std::pair<float, float>>{{0, 0}} : ch[c]);
  return make_skl_bone(owner.keep_text(name), 0, EnvelopeLayout::v2, channels, *owner.owned);
}

std::array<std::int16_t, 4> key_at(const BoneKeys& b, std::size_t f) {
  const QuatKey k = b.rotation_key(b.rotation_static() ? 0 : f);
  return {k.x, k.y, k.z, k.w};
}

TEST(SklConvert, OmfBecomesSteppedKeysPerChangeWithItsParamsAndMarks) {
  const OmfFile omf = read_omf_bytes(test::omf_bytes(test::rich_spec()));
  Diagnostics warnings;
  auto skl = omf_to_skl_motions(omf.motions, {}, warnings);
  ASSERT_TRUE(skl.ok()) << skl.error().message;
  ASSERT_EQ(skl->motions.size(), 2u);
  const SklMotion& walk = skl->motions[0];
  EXPECT_EQ(walk.name, "walk");
  EXPECT_EQ(walk.frame_start, 0);
  EXPECT_EQ(walk.frame_end, 2);  // three frames: the SDK compiles start..end
  EXPECT_EQ(walk.fps, 30.0f);
  EXPECT_EQ(walk.version, 7);  // marks
  ASSERT_EQ(walk.marks.size(), 2u);
  EXPECT_EQ(walk.marks[1].name, "Right");
  EXPECT_EQ(walk.falloff, 1.0f);
  const SklMotion& shoot = skl->motions[1];
  EXPECT_EQ(shoot.version, 6);
  EXPECT_EQ(shoot.flags, 0x3u);
  EXPECT_EQ(shoot.bone_or_part, 1u);
  EXPECT_EQ(shoot.speed, 1.5f);
  EXPECT_EQ(shoot.power, 2.0f);
  // Bones in motion-bone-index order (the parts list spine first, with index 1).
  ASSERT_EQ(walk.bones.size(), 2u);
  EXPECT_EQ(walk.bones[0].name, "root");
  EXPECT_EQ(walk.bones[1].name, "spine");
  // Bone 1 of walk: static rotation, constant translation: one key per channel.
  for (const auto& e : walk.bones[1].channels()) EXPECT_EQ(e.key_count, 1u);
  const auto x = decode_envelope_keys(walk.bones[1].channel(0));
  EXPECT_EQ(x[0].value, 0.5f);
  EXPECT_EQ(x[0].engine_shape(), static_cast<std::uint8_t>(EnvelopeShape::stepped));
  // Bone 0 of walk: a key per frame where the value changes, at frame / 30 s, decoded as the engine.
  const auto tx = decode_envelope_keys(walk.bones[0].channel(0));
  ASSERT_EQ(tx.size(), 3u);
  EXPECT_EQ(tx[1].time, 1.0f / 30.0f);
  EXPECT_EQ(tx[2].value, omf.motions.motions[0].bones[0].translation(2).x);
  // The heading of key 1, (16384, 0, 0, 28377): a turn about X only, so h = b = 0 and p = -2 * atan2.
  const auto p = decode_envelope_keys(walk.bones[0].channel(4));
  const double angle = 2 * std::atan2(16384.0, 28377.0);
  EXPECT_NEAR(p[1].value, -angle, 1e-6);
  // The .skls reads back and validates.
  auto bytes = checked_skl_bytes(write_skl(skl.value()), SklContainer::skls);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message << " at " << bytes.error().path;
}

// Keys as the SDK writes them (ExportSkeleton.cpp), worked out here: rotations the truncated float
// quaternion of a frame's angles, translations over their range with keys int(K * (t - centre) /
// half), so that the extremes are +-K.
std::array<int, 4> sdk_rotation(float h, float p, float b) {
  const auto q = quaternion_of(envelope_rotation(h, p, b));
  std::array<int, 4> k{};
  for (int i = 0; i < 4; ++i) k[i] = std::clamp(static_cast<int>(q[i] * 32767.0f), -32767, 32767);
  return k;
}

BoneSpec sdk_translation(BoneSpec b, const std::vector<test::F3>& t, bool sixteen) {
  const float k = sixteen ? 32767.0f : 127.0f;
  test::F3 lo = t[0], hi = t[0];
  for (const auto& v : t)
    for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], v[a]), hi[a] = std::max(hi[a], v[a]);
  b.trans.clear();
  for (const auto& v : t) {
    test::T3 q{};
    for (int a = 0; a < 3; ++a) {
      const float centre = (hi[a] + lo[a]) * 0.5f, half = (hi[a] - lo[a]) * 0.5f;
      q[a] = half == 0 ? 0 : std::clamp(static_cast<int>(k * (v[a] - centre) / half), sixteen ? -32767 : -128, sixteen ? 32767 : 127);
    }
    b.trans.push_back(q);
  }
  for (int a = 0; a < 3; ++a) {
    b.size[a] = (hi[a] - lo[a]) * 0.5f / k;
    b.init[a] = (hi[a] + lo[a]) * 0.5f;
  }
  b.flags = static_cast<std::uint8_t>(b.flags | 1 | (sixteen ? 4 : 0));
  return b;
}

// Steps well above the float resolution of the values (a 16-bit step of a few ulps is decoded alike
// by several sizes, so that only the values come back: docs/xray-sdk.md "Conversions").
OmfSpec sdk_spec() {
  OmfSpec s;
  s.parts = {{"upper", {{"spine", 1}, {"hand", 2}}}, {"lower", {{"root", 0}}}};
  const std::uint32_t frames = 6;
  BoneSpec root, spine, hand;
  std::vector<test::F3> walk_t, hand_t;
  for (std::uint32_t f = 0; f < frames; ++f) {
    const float x = static_cast<float>(f);
    root.rot.push_back(sdk_rotation(0.3f * x - 1.0f, 0.1f * x, 2.9f + 0.2f * x));  // crosses a half turn
    walk_t.push_back({0.013f * x * x, 0.9f, -0.2f * x});
    hand.rot.push_back(sdk_rotation(0.05f * x, -1.2f, 0.4f));
    hand_t.push_back({0.001f * x, 0.25f + 0.2f * x, -0.5f + 0.15f * x});
  }
  // The SDK forced to 16 bits (the CS/CoP default): every keyed track 16-bit, the short ones too.
  root = sdk_translation(root, walk_t, true);
  hand = sdk_translation(hand, hand_t, true);
  spine.flags = 0x2 | 0x4;                     // static rotation, constant translation (bit 2: forced)
  spine.rot = {sdk_rotation(0.2f, 0.3f, -0.1f)};
  spine.init = {0.0f, 0.12f, 0.0f};
  s.keys = {{"walk", frames, {root, spine, hand}, {}}};
  s.params = {{"walk", 0, 0xFFFF, 0, 1.0f, 1.0f, 2.0f, 1.0f, {{"Left", {{0.1f, 0.1333f}}}}}};
  return s;
}

TEST(SklConvert, TheRoundTripGivesTheStoredKeysBack) {
  const auto original = test::omf_bytes(sdk_spec());
  const OmfFile omf = read_omf_bytes(original);
  Diagnostics warnings;
  auto skl = omf_to_skl_motions(omf.motions, {}, warnings);
  ASSERT_TRUE(skl.ok()) << skl.error().message;
  MotionSkeleton sk = motion_skeleton(skl->motions);
  auto parts = parts_for(sk, omf.motions.params, "sdk.omf");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  sk.parts = parts.value();
  SklCompileOptions co;
  co.skeleton = &sk;
  SklCompileStats st;
  auto back = compile_skl_motions(skl->motions, co, warnings, &st);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(st.rotation_keys_found, st.rotation_keys);
  EXPECT_EQ(st.translations_found, st.translations);
  // Keys, signs, sizes, inits, flags (bit 2 on the constant record too: the short 16-bit track
  // shows the SDK was forced to 16 bits), CRCs, params and marks: the same file.
  auto bytes = checked_omf_bytes(write_omf(back.value()));
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  EXPECT_EQ(bytes.value(), original);
}

TEST(SklConvert, OtherWritersKeysComeBackWithinAStep) {
  // rich_spec's keys are not the SDK's (a ray's longer key, tracks whose extremes are not +-127): the
  // SDK's rules make them again, each within one step of the stored one.
  const OmfFile omf = read_omf_bytes(test::omf_bytes(test::rich_spec()));
  Diagnostics warnings;
  auto skl = omf_to_skl_motions(omf.motions, {}, warnings);
  ASSERT_TRUE(skl.ok());
  MotionSkeleton sk = motion_skeleton(skl->motions);
  sk.parts = parts_for(sk, omf.motions.params, "rich.omf").value();
  SklCompileOptions co;
  co.skeleton = &sk;
  auto back = compile_skl_motions(skl->motions, co, warnings);
  ASSERT_TRUE(back.ok()) << back.error().message;
  for (std::size_t m = 0; m < 2; ++m) {
    const MotionKeys& a = omf.motions.motions[m];
    const MotionKeys& b = back->motions.motions[m];
    ASSERT_EQ(a.frames, b.frames);
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t f = 0; f < a.frames; ++f) {
        const auto ka = key_at(a.bones[r], f), kb = key_at(b.bones[r], f);
        int same = 0, negated = 0;
        for (int i = 0; i < 4; ++i) same = std::max(same, std::abs(ka[i] - kb[i])), negated = std::max(negated, std::abs(ka[i] + kb[i]));
        EXPECT_LE(std::min(same, negated), 1) << m << " " << r << " " << f;
        const Vec3 ta = a.bones[r].translation(f), tb = b.bones[r].translation(f);
        const Vec3 step = b.bones[r].translation_keyed() ? b.bones[r].translation_size : Vec3{};
        EXPECT_LE(std::fabs(ta.x - tb.x), step.x + 1e-6f);
        EXPECT_LE(std::fabs(ta.y - tb.y), step.y + 1e-6f);
        EXPECT_LE(std::fabs(ta.z - tb.z), step.z + 1e-6f);
      }
  }
}

TEST(SklConvert, CompilingFollowsTheSdksFormulas) {
  SklFile f;
  SklMotion m;
  m.name = "turn";
  m.frame_start = 3;  // frames 3..5 at 15 fps: t = 0.2, 0.2667, 0.3333 s
  m.frame_end = 5;
  m.fps = 15;
  m.version = 6;
  const float t0 = 3.0f / 15.0f, t1 = 4.0f / 15.0f, t2 = 5.0f / 15.0f;
  // Bone a: heading 0.5 then 1.0 (stepped at t1), x moving 0 -> 1 -> 2; bone b: pitch -0.3 and a
  // position that wanders by less than 1 mm (constant, stored as the mean); bone c: 3.2 m of travel
  // (a half-range over 1.5 m: 16-bit).
  m.bones.push_back(bone_of(f, "a", {{{{t0, 0}, {t1, 1}, {t2, 2}}, {}, {}, {{t0, 0.5f}, {t1, 1.0f}}, {}, {}}}));
  m.bones.push_back(bone_of(f, "b", {{{{t0, 0.1f}, {t1, 0.1004f}}, {}, {}, {}, {{t0, -0.3f}}, {}}}));
  m.bones.push_back(bone_of(f, "c", {{{}, {{t0, -1.6f}, {t2, 1.6f}}, {}, {}, {}, {{t0, 0.25f}}}}));
  f.motions.push_back(std::move(m));
  MotionSkeleton sk = motion_skeleton(f.motions);
  SklCompileOptions co;
  co.skeleton = &sk;
  Diagnostics warnings;
  auto omf = compile_skl_motions(f.motions, co, warnings);
  ASSERT_TRUE(omf.ok()) << omf.error().message;
  const MotionKeys& k = omf->motions.motions[0];
  EXPECT_EQ(k.frames, 3u);
  // Heading H: setHPB(-H): the quaternion (0, -sin(H/2), 0, cos(H/2)), truncated.
  auto expect_key = [](const std::array<std::int16_t, 4>& got, double x, double y, double z, double w) {
    const double e[4] = {x, y, z, w};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], std::trunc(e[i] * 32767), 1.0) << i;
  };
  expect_key(key_at(k.bones[0], 0), 0, -std::sin(0.25), 0, std::cos(0.25));
  expect_key(key_at(k.bones[0], 1), 0, -std::sin(0.5), 0, std::cos(0.5));
  EXPECT_FALSE(k.bones[0].rotation_static());
  // Pitch P: setHPB(0, -P, 0): (-sin(P/2), 0, 0, cos(P/2)); the same every frame: static.
  EXPECT_TRUE(k.bones[1].rotation_static());
  expect_key(key_at(k.bones[1], 0), std::sin(0.15), 0, 0, std::cos(0.15));
  // Bank B: (0, 0, -sin(B/2), cos(B/2)).
  expect_key(key_at(k.bones[2], 0), 0, 0, -std::sin(0.125), std::cos(0.125));
  // x of bone a: centre 1, half-range 1: keys int(127 * (t - 1) / 1) = -127, 0, 127, 8-bit.
  const BoneKeys& a = k.bones[0];
  EXPECT_TRUE(a.translation_keyed());
  EXPECT_FALSE(a.translation_16bit());
  EXPECT_EQ(a.translation_key(0)[0], -127);
  EXPECT_EQ(a.translation_key(1)[0], 0);
  EXPECT_EQ(a.translation_key(2)[0], 127);
  EXPECT_EQ(a.translation_size.x, 1.0f / 127.0f);
  EXPECT_EQ(a.translation_init.x, 1.0f);
  // Bone b: within 1 mm of the mean on every frame: constant, the mean (0.1 + 0.1004 + 0.1004) / 3.
  const BoneKeys& b = k.bones[1];
  EXPECT_FALSE(b.translation_keyed());
  EXPECT_EQ(b.translation_init.x, (0.1f + 0.1004f + 0.1004f) / 3.0f);
  // Bone c: 16-bit, bit 2 set.
  const BoneKeys& c = k.bones[2];
  EXPECT_TRUE(c.translation_16bit());
  EXPECT_EQ(c.translation_key(0)[1], -32767);
  EXPECT_EQ(c.translation_key(2)[1], 32767);
  // The CRCs are the keys' CRC-32.
  EXPECT_EQ(a.rotation_crc, key_crc(a.rotation_keys));
  EXPECT_EQ(a.translation_crc, key_crc(a.translation_keys));
  // fps other than 30: said once.
  EXPECT_FALSE(warnings.findings().empty());
  // --hq: every keyed track 16-bit, and bit 2 on every record.
  co.force_16bit = true;
  auto hq = compile_skl_motions(f.motions, co, warnings);
  ASSERT_TRUE(hq.ok());
  for (const auto& r : hq->motions.motions[0].bones) EXPECT_NE(r.flags & kFlagTKeys16, 0) << int(r.flags);
  EXPECT_TRUE(hq->motions.motions[0].bones[0].translation_16bit());
  // SoC (params version 3): no 16-bit keys, even over 1.5 m.
  co.force_16bit = false;
  co.params_version = 3;
  auto soc = compile_skl_motions(f.motions, co, warnings);
  ASSERT_TRUE(soc.ok());
  EXPECT_FALSE(soc->motions.motions[0].bones[2].translation_16bit());
}

TEST(SklConvert, RootsGoIntoActorTransformAndComeOutAgain) {
  SklFile f;
  SklMotion m;
  m.name = "idle";
  m.frame_end = 1;
  m.version = 6;
  m.bones.push_back(bone_of(f, "root", {{{{0, 0.25f}}, {{0, 1.0f}}, {}, {{0, 0.3f}}, {}, {}}}));
  m.bones.push_back(bone_of(f, "child", {{{{0, 0.5f}}, {}, {}, {}, {}, {{0, 0.2f}}}}));
  f.motions.push_back(std::move(m));
  MotionSkeleton sk;
  sk.bones = {{"root", -1, {}, {}}, {"child", 0, {}, {}}};
  sk.actor_transform = std::array<Vec3, 2>{Vec3{1, 2, 3}, Vec3{0, 1.5707964f, 0}};  // turned about Y
  SklCompileOptions co;
  co.skeleton = &sk;
  Diagnostics warnings;
  auto omf = compile_skl_motions(f.motions, co, warnings);
  ASSERT_TRUE(omf.ok()) << omf.error().message;
  // The root's translation (0.25, 1, 0) turned by setHPB(pi/2, 0, 0) (row vectors: x -> +z) and
  // moved by (1, 2, 3).
  const Vec3 t = omf->motions.motions[0].bones[0].translation(0);
  EXPECT_NEAR(t.x, 1.0f, 1e-6);
  EXPECT_NEAR(t.y, 3.0f, 1e-6);
  EXPECT_NEAR(t.z, 3.25f, 1e-6);
  // The child is left as it is.
  EXPECT_EQ(omf->motions.motions[0].bones[1].translation(0).x, 0.5f);
  // Back to an .skls with the same skeleton: the root's own pose again.
  OmfToSklOptions so;
  so.skeleton = &sk;
  auto skl = omf_to_skl_motions(omf->motions, so, warnings);
  ASSERT_TRUE(skl.ok()) << skl.error().message;
  EXPECT_NEAR(decode_envelope_keys(skl->motions[0].bones[0].channel(0))[0].value, 0.25f, 1e-5);
  EXPECT_NEAR(decode_envelope_keys(skl->motions[0].bones[0].channel(1))[0].value, 1.0f, 1e-5);
  EXPECT_NEAR(decode_envelope_keys(skl->motions[0].bones[0].channel(3))[0].value, 0.3f, 1e-4);
}

TEST(SklConvert, BonesAreMatchedByNameAsTheSdkDoes) {
  SklFile f;
  SklMotion m;
  m.name = "wave";
  m.version = 6;
  m.bones.push_back(bone_of(f, "HAND", {{{{0, 0.1f}}, {}, {}, {}, {}, {}}}));  // other case
  m.bones.push_back(bone_of(f, "tail", {{}}));  // not in the skeleton: left out
  f.motions.push_back(std::move(m));
  MotionSkeleton sk;
  sk.bones = {{"arm", -1, {0.5f, 0, 0}, {0, 0.2f, 0}}, {"hand", 0, {}, {}}};
  SklCompileOptions co;
  co.skeleton = &sk;
  Diagnostics warnings;
  auto omf = compile_skl_motions(f.motions, co, warnings);
  ASSERT_TRUE(omf.ok()) << omf.error().message;
  const auto& bones = omf->motions.motions[0].bones;
  ASSERT_EQ(bones.size(), 2u);
  // "arm" is in no motion: its rest pose (setXYZi(0, 0.2, 0) = a heading of 0.2).
  EXPECT_EQ(bones[0].translation(0).x, 0.5f);
  const auto q = key_at(bones[0], 0);
  EXPECT_NEAR(q[1], std::trunc(-std::sin(0.1) * 32767), 1);
  EXPECT_EQ(bones[1].translation(0).x, 0.1f);
  ASSERT_GE(warnings.findings().size(), 2u);  // a bone the motion lacks, one the skeleton lacks
  // Without a skeleton every motion must hold the first one's bones.
  f.motions.push_back(f.motions[0]);
  f.motions[1].bones.pop_back();
  f.motions[1].bones.front().name = f.keep_text("other");
  co.skeleton = nullptr;
  auto none = compile_skl_motions(f.motions, co, warnings);
  EXPECT_FALSE(none.ok());
}

TEST(SklScene, SklsToGltfAndBackKeepsThePoses) {
  const OmfFile omf = read_omf_bytes(test::omf_bytes(test::rich_spec()));
  Diagnostics warnings;
  auto skl = omf_to_skl_motions(omf.motions, {}, warnings);
  ASSERT_TRUE(skl.ok());
  auto sc = skl_to_scene(skl->motions, "rich", {}, warnings);
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  ASSERT_EQ(sc->animations.size(), 2u);
  EXPECT_EQ(sc->animations[0].name, "walk");
  // A flat armature of the motions' bones, with a warning.
  EXPECT_EQ(sc->skeleton.joints.size(), 2u);
  // The scene as the glTF reader gives it: one 30 fps timeline per animation.
  scene::Scene read = sc.value();
  for (auto& a : read.animations) {
    const scene::Timeline full = a.timelines.back();
    const std::size_t n = full.times.size();
    for (auto& c : a.channels) {
      if (c.timeline == 0 && a.timelines.size() > 1) {
        const std::size_t w = c.values.size() / a.timelines[0].times.size();
        std::vector<float> v;
        for (std::size_t i = 0; i < n; ++i) v.insert(v.end(), c.values.begin(), c.values.begin() + static_cast<std::ptrdiff_t>(w));
        c.values = v;
      }
      c.timeline = 0;
    }
    a.timelines = {full};
    a.duration = full.times.back();
  }
  auto back = scene_to_skl(read, {}, warnings);
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->motions.size(), 2u);
  EXPECT_EQ(back->motions[0].frame_end, 2);
  EXPECT_EQ(back->motions[0].marks.size(), 2u);
  EXPECT_EQ(back->motions[1].flags, 0x3u);
  // Every frame's pose again: positions, and the rotations the angles give (the angles may
  // differ by turns: pi and -pi are one heading).
  auto pose = [](const SklBone& b, float t) {
    std::array<double, 6> v{};
    for (std::size_t c = 0; c < 6; ++c) v[c] = evaluate_envelope(decode_envelope_keys(b.channel(c)), b.channel(c).pre, b.channel(c).post, t);
    return v;
  };
  for (std::size_t m = 0; m < 2; ++m)
    for (std::size_t b = 0; b < 2; ++b)
      for (float t : {0.0f, 1.0f / 30.0f, 2.0f / 30.0f}) {
        const auto p0 = pose(skl->motions[m].bones[b], t), p1 = pose(back->motions[m].bones[b], t);
        for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(p0[c], p1[c], 2e-6) << m << " " << b;
        const auto r0 = envelope_rotation(p0[3], p0[4], p0[5]), r1 = envelope_rotation(p1[3], p1[4], p1[5]);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) EXPECT_NEAR(r0[i][j], r1[i][j], 2e-6) << m << " " << b;
      }
}

TEST(AnmScene, ACameraMotionIsANodeWithACameraAndComesBack) {
  auto file = read_anm(FileData::from_vector(test::sdk::chunk_of(kChunkObjectMotion, test::sdk::anm_body(5))));
  ASSERT_TRUE(file.ok()) << file.error().message;
  Diagnostics warnings;
  AnmExportOptions o;
  o.camera = true;
  auto sc = anm_to_scene(file.value(), "shake", o, warnings);
  ASSERT_TRUE(sc.ok()) << sc.error().message;
  ASSERT_EQ(sc->skeleton.joints.size(), 1u);
  ASSERT_EQ(sc->cameras.size(), 1u);
  EXPECT_EQ(sc->cameras[0].joint, 0u);
  const auto& m = file->motion;
  const std::size_t frames = static_cast<std::size_t>(m.frame_end - m.frame_start + 1);
  ASSERT_EQ(sc->animations[0].timelines[0].times.size(), frames);
  // Frame 1's pose is the envelopes' at (start + 1) / fps, as setXYZi, mirrored into glTF.
  const float t = static_cast<float>(m.frame_start + 1) / m.fps;
  auto value = [&](MotionChannel c) {
    const auto keys = decode_envelope_keys(m.channel(c));
    return evaluate_envelope(keys, m.channel(c).pre, m.channel(c).post, t);
  };
  const auto& tr = sc->animations[0].channels[1].values;
  EXPECT_NEAR(tr[3], value(MotionChannel::x), 1e-6);
  EXPECT_NEAR(tr[5], -value(MotionChannel::z), 1e-6);
  auto back = scene_to_anm(sc.value(), warnings);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->motion.name, m.name);
  EXPECT_EQ(back->motion.frame_start, m.frame_start);
  EXPECT_EQ(back->motion.frame_end, m.frame_end);
  EXPECT_EQ(back->motion.fps, m.fps);
  // Every frame's pose again (the curves become linear keys per frame, equal at the frames): the
  // positions, and the rotations the angles give (the angles themselves may differ by turns).
  auto pose = [](const AnmMotion& mm, float tf) {
    std::array<double, 6> v{};
    for (std::size_t c = 0; c < 6; ++c) {
      const auto ch = static_cast<MotionChannel>(c);
      v[c] = evaluate_envelope(decode_envelope_keys(mm.channel(ch)), mm.channel(ch).pre, mm.channel(ch).post, tf);
    }
    return v;
  };
  for (std::size_t f = 0; f < frames; ++f) {
    const float tf = static_cast<float>(m.frame_start + static_cast<std::int32_t>(f)) / m.fps;
    const auto a = pose(m, tf), b = pose(back->motion, tf);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(a[c], b[c], 1e-5) << "frame " << f;
    const auto ra = envelope_rotation(a[3], a[4], a[5]), rb = envelope_rotation(b[3], b[4], b[5]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(ra[i][j], rb[i][j], 5e-5) << "frame " << f;
  }
  auto bytes = checked_anm_bytes(write_anm(back.value()));
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
}

}  // namespace
}  // namespace boneyard::xray
