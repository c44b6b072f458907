// .mar motions as scene animations on the branching KMS and EVM skeletons (joint = unit / skeleton
// entry): names, key times at frame / 30, values, sign continuity, the extras that keep what no
// reader applies, --motions, and motions that do not fit the skeleton.
#include <gtest/gtest.h>

#include <cmath>

#include "boneyard/mgs2/mar/mar_report.h"
#include "boneyard/mgs2/mar/mar_scene.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/strcode.h"
#include "mar_fixture.h"
#include "mgs2_branching_fixture.h"
#include "mgs2_test_util.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;

scene::Scene branching_scene(bool evm) {
  std::array<std::uint32_t, 4> ids{1, 2, 3, 4};
  Diagnostics w;
  Mgs2ExportOptions e;
  if (evm) {
    auto m = read_evm(FileData::from_vector(mgs2fx::evm_bytes(mgs2fx::branching_evm(false, ids))));
    EXPECT_TRUE(m.ok());
    auto s = evm_to_scene(m.value(), e, w);
    EXPECT_TRUE(s.ok());
    return s.ok() ? std::move(s).value() : scene::Scene{};
  }
  auto m = read_kms(FileData::from_vector(mgs2fx::kms_bytes(mgs2fx::branching_kms(false, ids))));
  EXPECT_TRUE(m.ok());
  auto s = kms_to_scene(m.value(), e, w);
  EXPECT_TRUE(s.ok());
  return s.ok() ? std::move(s).value() : scene::Scene{};
}

MarFile standard(bool mc) {
  auto r = read_mar(FileData::from_vector(marfx::mar_bytes(marfx::standard_mar(mc))));
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r).value() : MarFile{};
}

std::vector<std::uint8_t> from_b64(const std::string& s) {
  EXPECT_EQ(s.rfind("b64:", 0), 0u);
  static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s.substr(4)) {
    if (c == '=') break;
    acc = (acc << 6) | static_cast<std::uint32_t>(kAlphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

const scene::Channel* channel(const scene::Animation& a, std::uint32_t joint, scene::Channel::Path path) {
  for (const auto& c : a.channels)
    if (c.joint == joint && c.path == path) return &c;
  return nullptr;
}

class MarScene : public ::testing::TestWithParam<bool> {};

TEST_P(MarScene, EveryMotionBecomesAnAnimationWithTheStoredKeys) {
  scene::Scene s = branching_scene(GetParam());
  const MarFile m = standard(false);
  Diagnostics w;
  MarExportOptions o;
  ASSERT_TRUE(add_mar_motions(s, m, o, w).ok());
  const marfx::Archive a = marfx::standard_mar(false);
  ASSERT_EQ(s.animations.size(), a.motions.size());
  for (std::size_t i = 0; i < a.motions.size(); ++i) {
    const scene::Animation& anim = s.animations[i];
    const marfx::Motion& want = a.motions[i];
    EXPECT_EQ(anim.name, mar_motion_name(strcode(want.name), nullptr));
    // Joint 0's translation: the initial value at 0 s, then each record; half * 128 units * 1 mm.
    const scene::Channel* t = channel(anim, 0, scene::Channel::Path::translation);
    ASSERT_NE(t, nullptr);
    const auto& times = anim.timelines[t->timeline].times;
    ASSERT_EQ(times.size(), want.trans.size() + 1);
    EXPECT_EQ(times[0], 0.0f);
    std::uint64_t frame = 0;
    for (std::size_t k = 0; k < want.trans.size(); ++k) {
      frame += want.trans[k].delta;
      EXPECT_FLOAT_EQ(times[k + 1], float(double(frame) / 30.0));
      const auto v = translation_key_value(want.trans[k].v);
      for (int c = 0; c < 3; ++c) EXPECT_FLOAT_EQ(t->values[(k + 1) * 3 + std::size_t(c)], float(v[std::size_t(c)] * 0.001));
    }
    // Every joint's rotation: the stored quaternion / 2047, normalised, up to sign, sign-continuous.
    ASSERT_EQ(anim.channels.size(), 1 + want.rots.size());
    for (std::size_t j = 0; j < want.rots.size(); ++j) {
      const scene::Channel* r = channel(anim, static_cast<std::uint32_t>(j), scene::Channel::Path::rotation);
      ASSERT_NE(r, nullptr);
      ASSERT_EQ(r->values.size(), want.rots[j].size() * 4);
      frame = 0;
      for (std::size_t k = 0; k < want.rots[j].size(); ++k) {
        frame += want.rots[j][k].delta;
        EXPECT_FLOAT_EQ(anim.timelines[r->timeline].times[k], float(double(frame) / 30.0));
        const auto q = rotation_key_value(want.rots[j][k].q);
        const float* got = &r->values[k * 4];
        const float dot = q[0] * got[0] + q[1] * got[1] + q[2] * got[2] + q[3] * got[3];
        EXPECT_NEAR(std::fabs(dot), 1.0f, 1e-6f) << "motion " << i << " joint " << j << " key " << k;
        if (k > 0) {
          const float* prev = &r->values[(k - 1) * 4];
          EXPECT_GE(prev[0] * got[0] + prev[1] * got[1] + prev[2] * got[2] + prev[3] * got[3], 0.0f);
        }
      }
    }
  }
  EXPECT_EQ(w.count(Severity::warning), 0u);
}

INSTANTIATE_TEST_SUITE_P(Mar, MarScene, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? std::string("OnEvm") : std::string("OnKms"); });

TEST(MarSceneExtras, KeepWhatNoReaderApplies) {
  scene::Scene s = branching_scene(false);
  const MarFile m = standard(true);
  Diagnostics w;
  ASSERT_TRUE(add_mar_motions(s, m, {}, w).ok());
  const auto& e = scene::json_of(s.animations[0].extras)["mgs2_motion"];
  const marfx::Motion walk = marfx::standard_mar(true).motions[0];
  EXPECT_EQ(e["index"], 0);
  EXPECT_EQ(e["strcode"], strcode("rai_walk"));
  EXPECT_EQ(e["flags"], 0x10);
  EXPECT_EQ(e["frames"], 30);
  EXPECT_EQ(e["pad"], 0);  // MC
  EXPECT_EQ(e["move_offset"].get<std::uint32_t>(), e["root_offset"].get<std::uint32_t>() + 1);
  EXPECT_EQ(from_b64(e["tail"]), walk.tail);
  std::vector<std::uint8_t> want;
  for (const auto& k : walk.trans)
    for (auto v : k.extra) want.push_back(std::uint8_t(v & 0xFF)), want.push_back(std::uint8_t(v >> 8));
  EXPECT_EQ(from_b64(e["second_keys"]["translation"]), want);
  ASSERT_EQ(e["second_keys"]["rotation"].size(), 6u);
  want.clear();
  for (const auto& k : walk.rots[2])
    for (auto v : k.extra) want.push_back(std::uint8_t(std::uint16_t(v) & 0xFF)), want.push_back(std::uint8_t(std::uint16_t(v) >> 8));
  EXPECT_EQ(from_b64(e["second_keys"]["rotation"][2]), want);
  const auto& top = scene::json_of(s.extras)["mgs2_mar"];
  EXPECT_EQ(top["layout"], "mc");
  EXPECT_EQ(top["max_joint"], 6);
  EXPECT_EQ(scene::json_of(s.extras)["mgs2"]["format"], "kms");  // the model's own extras stay
}

TEST(MarSceneSelection, MotionsByNameOrStrcode) {
  TextureNames names;
  names.load_text(marfx::standard_motion_names());
  const MarFile m = standard(false);
  scene::Scene s = branching_scene(false);
  Diagnostics w;
  MarExportOptions o;
  o.names = &names;
  o.motions = {"RAI_W*"};
  ASSERT_TRUE(add_mar_motions(s, m, o, w).ok());
  ASSERT_EQ(s.animations.size(), 1u);
  EXPECT_EQ(s.animations[0].name, "rai_walk");
  scene::Scene t = branching_scene(false);
  o.names = nullptr;
  o.motions = {mar_motion_name(strcode("rai_hold"), nullptr)};
  ASSERT_TRUE(add_mar_motions(t, m, o, w).ok());
  ASSERT_EQ(t.animations.size(), 1u);
  EXPECT_EQ(scene::json_of(t.animations[0].extras)["mgs2_motion"]["index"], 2);
  scene::Scene none = branching_scene(false);
  o.motions = {"nothing*"};
  Diagnostics nw;
  ASSERT_TRUE(add_mar_motions(none, m, o, nw).ok());
  EXPECT_TRUE(none.animations.empty());
  EXPECT_EQ(nw.count(Severity::warning), 1u);
}

TEST(MarSceneSkeleton, AMotionBeyondTheSkeletonFailsOrIsLeftOut) {
  scene::Scene s = branching_scene(false);
  s.skeleton.joints.resize(4);
  const MarFile m = standard(false);
  Diagnostics w;
  auto r = add_mar_motions(s, m, {}, w);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "motion 0 (" + mar_motion_name(strcode("rai_walk"), nullptr) + ") joints");
  scene::Scene forced = branching_scene(false);
  forced.skeleton.joints.resize(4);
  MarExportOptions o;
  o.skip_broken = true;
  Diagnostics fw;
  ASSERT_TRUE(add_mar_motions(forced, m, o, fw).ok());
  ASSERT_EQ(forced.animations.size(), 1u);  // the 3-joint pose (the 5- and 6-joint motions are left out)
  EXPECT_GE(fw.count(Severity::warning), 2u);
}

TEST(MarSceneSkeleton, AFlatArmatureHoldsEveryJointAMotionDrives) {
  const MarFile m = standard(false);
  scene::Scene s = mar_flat_scene(m, "anim");
  ASSERT_EQ(s.skeleton.joints.size(), 6u);
  EXPECT_EQ(s.skeleton.joints[5].name, "joint_5");
  Diagnostics w;
  EXPECT_TRUE(add_mar_motions(s, m, {}, w).ok());
  EXPECT_EQ(s.animations.size(), 4u);
}

}  // namespace
}  // namespace boneyard::test
