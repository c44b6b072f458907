// Limits on data that expands when converted (include/boneyard/limits.h, docs/safety.md "Memory"):
// static tracks stay single keys whatever the frame count, a motion over 2^20 frames and a
// conversion over 2^22 frames are errors naming the motion, and the glTF sampler refuses
// animations it would expand past the same limits.
#include <cmath>
#include <cstring>

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

// `animations` animations named a0, a1, ... of `channels` rotation channels on node 0 that all
// share one sampler: two different keys at 0 and `seconds` (so every frame is sampled).
std::string shared_sampler_gltf(std::size_t animations, std::size_t channels, double seconds) {
  std::vector<std::uint8_t> buf(40);
  const float h = float(std::sqrt(0.5));
  const float values[10] = {0.0f, float(seconds), 0, 0, 0, 1, 0, h, 0, h};
  std::memcpy(buf.data(), values, sizeof values);
  std::string j = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"root"}],)";
  j += R"("buffers":[{"byteLength":40,"uri":"data:application/octet-stream;base64,)" + base64(buf) + R"("}],)";
  j += R"("bufferViews":[{"buffer":0,"byteLength":40}],"accessors":[)";
  j += R"({"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},)";
  j += R"({"bufferView":0,"byteOffset":8,"componentType":5126,"count":2,"type":"VEC4"}],"animations":[)";
  for (std::size_t a = 0; a < animations; ++a) {
    j += (a ? "," : "") + std::string(R"({"name":"a)") + std::to_string(a) +
         R"(","samplers":[{"input":0,"output":1}],"channels":[)";
    for (std::size_t c = 0; c < channels; ++c) j += (c ? "," : "") + std::string(R"({"sampler":0,"target":{"node":0,"path":"rotation"}})");
    j += "]}";
  }
  return j + "]}";
}

Result<scene::Scene> read_text(const std::string& text, Diagnostics& w, bool deferred = false) {
  if (!deferred) return gltf::read(Bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), {}, {}, w);
  return gltf::read_deferred(FileData::from_vector(std::vector<std::uint8_t>(text.begin(), text.end())), {}, {}, w);
}

TEST(MemoryLimits, SamplerRefusesAnAnimationOverItsByteBudgetBeforeSampling) {
  // 5,600 channels sharing one 100 s sampler: 3,001 frames x 22,401 floats = 269 MB of samples.
  for (const bool deferred : {false, true}) {
    Diagnostics w;
    auto s = read_text(shared_sampler_gltf(1, 5600, 100.0), w, deferred);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().path.find("animation \"a0\""), std::string::npos) << s.error().path;
    EXPECT_NE(s.error().message.find("more data than one animation may hold"), std::string::npos) << s.error().message;
    EXPECT_EQ(s.error().expected, "<= 268435456 bytes (256 MiB)");
    EXPECT_EQ(s.error().found, "268901604 bytes: 3001 frames x 22400 values");
  }
}

TEST(MemoryLimits, SamplerRefusesAnimationsOverTheReadsByteBudget) {
  // Nine animations of 100,001 frames x 167 rotations (268 MB each): the ninth crosses 2 GiB.
  Diagnostics w;
  auto s = read_text(shared_sampler_gltf(9, 167, 100000.0 / 30.0), w, true);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().path.find("animation \"a8\""), std::string::npos) << s.error().path;
  EXPECT_NE(s.error().message.find("more data in all"), std::string::npos) << s.error().message;
  EXPECT_EQ(s.error().expected, "<= 2147483648 bytes (2 GiB) in all");
}

// What made the hands model fail: samples far beyond any ratio to the file's size (here 40
// animations of 100 s x 42 rotations: 81 MB of samples from 12 KB) are what boneyard's export of
// held keys looks like; they read, and a deferred read holds none of them until asked.
TEST(MemoryLimits, DeferredReadSamplesEachAnimationOnDemandAsTheEagerReadDoes) {
  const std::string text = shared_sampler_gltf(40, 42, 100.0);
  Diagnostics w;
  auto deferred = read_text(text, w, true);
  ASSERT_TRUE(deferred) << deferred.error().message;
  ASSERT_TRUE(deferred->sampler);
  ASSERT_EQ(deferred->animations.size(), 40u);
  for (const auto& a : deferred->animations) {
    EXPECT_EQ(a.frames, 3001u);
    EXPECT_TRUE(a.timelines.empty());
    ASSERT_EQ(a.channels.size(), 42u);
    EXPECT_TRUE(a.channels[0].values.empty());
  }
  const std::string small = shared_sampler_gltf(2, 3, 1.0);
  auto eager = read_text(small, w);
  auto lazy = read_text(small, w, true);
  ASSERT_TRUE(eager && lazy);
  EXPECT_FALSE(eager->sampler);
  for (std::size_t a = 0; a < 2; ++a) {
    scene::Animation storage;
    auto sampled = scene::sampled_animation(lazy.value(), a, storage);
    ASSERT_TRUE(sampled);
    const scene::Animation& x = eager->animations[a];
    const scene::Animation& y = *sampled.value();
    EXPECT_EQ(y.frames, x.frames);
    ASSERT_EQ(y.timelines.size(), 1u);
    EXPECT_EQ(y.timelines[0].times, x.timelines[0].times);
    ASSERT_EQ(y.channels.size(), x.channels.size());
    for (std::size_t c = 0; c < x.channels.size(); ++c) EXPECT_EQ(y.channels[c].values, x.channels[c].values);
    EXPECT_EQ(&eager->animations[a], scene::sampled_animation(eager.value(), a, storage).value());
  }
  scene::Animation last;
  auto far = scene::sampled_animation(deferred.value(), 39, last);
  ASSERT_TRUE(far);
  EXPECT_EQ(far.value()->channels[41].values.size(), 3001u * 4);
}

TEST(MemoryLimits, FrameCountTextNamesHours) {
  EXPECT_EQ(frames_text(kMaxMotionFrames), "1048576 frames (9.7 hours at 30 fps)");
  EXPECT_EQ(frames_text(kMaxTotalFrames), "4194304 frames (38.8 hours at 30 fps)");
}

}  // namespace
}  // namespace boneyard::test
