// Limits on data that expands when converted (include/boneyard/limits.h, docs/safety.md "Memory"):
// static tracks stay single keys whatever the frame count, a motion over 2^20 frames and a
// conversion over 2^22 frames are errors naming the motion, and the glTF sampler refuses
// animations it would expand past the same limits.
#include "scene/extras_json.h"
#include "boneyard/core/limits.h"
#include "import_support.h"
#include "omf_fixture.h"

namespace boneyard::test {
namespace {

// One bone "root", static rotation and constant translation, in motions of the given frames.
OmfSpec static_spec(const std::vector<std::uint32_t>& frames) {
  OmfSpec s;
  s.parts = {{"default", {{"root", 0}}}};
  const BoneSpec bone{0x02, {{0, 0, 0, 32767}}, {}, {}, {0.0f, 1.0f, 0.0f}};
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const std::string name = "m" + std::to_string(i);
    s.keys.push_back({name, frames[i], {bone}, {}});
    s.params.push_back({name, 0, 0xFFFF, static_cast<std::uint16_t>(i), 1.0f, 1.0f, 2.0f, 1.0f, {}});
  }
  return s;
}

struct ReadOmf {
  xray::OmfFile omf;  // keeps its bytes alive (OmfFile::source)
};

ReadOmf read_spec(const OmfSpec& spec) {
  auto omf = xray::read_omf(FileData::from_vector(omf_bytes(spec)));
  EXPECT_TRUE(omf) << omf.error().message;
  return {std::move(omf).value()};
}

TEST(MemoryLimits, StaticMotionAtTheLimitKeepsOneKeyPerTrackAndNoTimeRamp) {
  const auto r = read_spec(static_spec({std::uint32_t(kMaxMotionFrames)}));
  scene::Scene s = xray::flat_scene(r.omf.motions, "flat");
  Diagnostics w;
  ASSERT_TRUE(xray::add_motions(s, nullptr, r.omf.motions, "t.omf", w));
  ASSERT_EQ(s.animations.size(), 1u);
  const auto& a = s.animations[0];
  ASSERT_EQ(a.timelines.size(), 1u);  // the held value at t = 0 and at the end, so DCCs keep the length
  ASSERT_EQ(a.timelines[0].times.size(), 2u);
  EXPECT_EQ(a.timelines[0].times[1], float(kMaxMotionFrames - 1) / 30.0f);
  for (const auto& c : a.channels) EXPECT_LE(c.values.size(), 8u);
  EXPECT_EQ(json_of(a.extras)["xray"]["frames"].get<std::uint64_t>(), kMaxMotionFrames);
}

TEST(MemoryLimits, MotionOverTheLimitIsAnErrorNamingIt) {
  const auto r = read_spec(static_spec({10, std::uint32_t(kMaxMotionFrames) + 1}));
  scene::Scene s = xray::flat_scene(r.omf.motions, "flat");
  Diagnostics w;
  const auto added = xray::add_motions(s, nullptr, r.omf.motions, "t.omf", w);
  ASSERT_FALSE(added.ok());
  const Finding* err = &added.error();
  EXPECT_NE(err->path.find("motion \"m1\""), std::string::npos) << err->path;
  EXPECT_EQ(err->found, std::to_string(kMaxMotionFrames + 1) + " frames");
  EXPECT_EQ(err->expected, "<= 1048576 frames (9.7 hours at 30 fps)");
}

TEST(MemoryLimits, TotalFramesAreCountedAcrossMotionSets) {
  // Two sets of two motions each just under the per-motion limit: the fourth crosses 2^22.
  const std::uint32_t f = std::uint32_t(kMaxMotionFrames);
  const auto r = read_spec(static_spec({f, f, f}));
  const auto r2 = read_spec(static_spec({f}));
  const auto r3 = read_spec(static_spec({1}));
  scene::Scene s = xray::flat_scene(r.omf.motions, "flat");
  Diagnostics w;
  ASSERT_TRUE(xray::add_motions(s, nullptr, r.omf.motions, "a.omf", w));
  ASSERT_TRUE(xray::add_motions(s, nullptr, r2.omf.motions, "b.omf", w));  // exactly 2^22
  const auto added = xray::add_motions(s, nullptr, r3.omf.motions, "c.omf", w);
  ASSERT_FALSE(added.ok());
  const Finding* err = &added.error();
  EXPECT_NE(err->message.find("in total"), std::string::npos) << err->message;
  EXPECT_NE(err->path.find("motion \"m0\""), std::string::npos) << err->path;
}

TEST(MemoryLimits, SamplerRefusesAnAnimationReachingABillionSeconds) {
  HandMade h;
  h.times = {0.0f, 1.0e9f};
  h.animation = "forever";
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().path.find("animation \"forever\""), std::string::npos) << s.error().path;
  EXPECT_NE(s.error().message.find("too long to sample"), std::string::npos) << s.error().message;
}

TEST(MemoryLimits, SamplerAcceptsAnAnimationAtTheLimit) {
  HandMade h;
  h.times = {0.0f, float(double(kMaxMotionFrames - 1) / 30.0)};
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->animations[0].timelines[0].times.size(), kMaxMotionFrames);
}

TEST(MemoryLimits, FrameCountTextNamesHours) {
  EXPECT_EQ(frames_text(kMaxMotionFrames), "1048576 frames (9.7 hours at 30 fps)");
  EXPECT_EQ(frames_text(kMaxTotalFrames), "4194304 frames (38.8 hours at 30 fps)");
}

}  // namespace
}  // namespace boneyard::test
