// Sampler evaluation (LINEAR, STEP, CUBICSPLINE) on hand-made glTF files, and the 30 fps
// resampling rule frames = round(duration * 30) + 1.
#include <cmath>

#include "import_support.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

const float* sample(const scene::Scene& s, std::size_t frame) {
  return s.animations[0].channels[0].values.data() + frame * (s.animations[0].channels[0].path == scene::Channel::Path::rotation ? 4 : 3);
}

TEST(Sampler, LinearTranslationAt30Fps) {
  HandMade h;  // 0 -> 3 on x over 1 s
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(s->animations[0].timelines[0].times.size(), 31u);
  for (std::size_t f = 0; f <= 30; ++f) EXPECT_NEAR(sample(*s, f)[0], 3.0 * double(f) / 30, 1e-5) << f;
}

TEST(Sampler, StepHoldsTheEarlierKey) {
  HandMade h;
  h.interp = "STEP";
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s);
  for (std::size_t f = 0; f < 30; ++f) EXPECT_EQ(sample(*s, f)[0], 0.0f) << f;
  EXPECT_EQ(sample(*s, 30)[0], 3.0f);
}

TEST(Sampler, CubicSplineUsesTangentsScaledByTheInterval) {
  HandMade h;
  // Keys at 0 and 2 s: value 0 -> 1 on x, out-tangent of key 0 = 1 per second, in-tangent of key 1 = -2.
  h.times = {0.0f, 2.0f};
  h.interp = "CUBICSPLINE";
  h.values = {/*in*/ 9, 9, 9, /*v*/ 0, 0, 0, /*out*/ 1, 0, 0,
              /*in*/ -2, 0, 0, /*v*/ 1, 0, 0, /*out*/ 9, 9, 9};
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(s->animations[0].timelines[0].times.size(), 61u);
  for (std::size_t f = 0; f <= 60; ++f) {
    const double u = double(f) / 60.0, dt = 2.0;
    const double want = (2 * u * u * u - 3 * u * u + 1) * 0 + (u * u * u - 2 * u * u + u) * dt * 1 +
                        (-2 * u * u * u + 3 * u * u) * 1 + (u * u * u - u * u) * dt * -2;
    EXPECT_NEAR(sample(*s, f)[0], want, 1e-5) << f;
    EXPECT_NEAR(sample(*s, f)[1], 0.0, 1e-6);  // the "9" tangents of the ends are never used
  }
}

TEST(Sampler, LinearRotationSlerpsAndCubicRotationIsNormalised) {
  HandMade h;
  h.path = "rotation";
  const float s45 = std::sin(float(M_PI) / 4);
  h.values = {0, 0, 0, 1, 0, s45, 0, s45};  // identity -> 90 degrees about Y
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s);
  const float* q = sample(*s, 15);  // half way: 45 degrees
  EXPECT_NEAR(q[1], std::sin(M_PI / 8), 1e-6);
  EXPECT_NEAR(q[3], std::cos(M_PI / 8), 1e-6);

  h.interp = "CUBICSPLINE";
  h.values = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, s45, 0, s45, 0, 0, 0, 0};
  auto c = h.read(w);
  ASSERT_TRUE(c);
  for (std::size_t f = 0; f <= 30; ++f) {
    const float* r = sample(*c, f);
    EXPECT_NEAR(std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]), 1.0, 1e-6);
  }
}

TEST(Sampler, FrameCountIsRoundedDurationTimes30PlusOne) {
  HandMade h;
  h.times = {0.0f, 0.51f};  // 15.3 frames -> 15 intervals, 16 samples
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->animations[0].timelines[0].times.size(), 16u);
  h.times = {0.0f};
  h.values = {1, 2, 3};
  auto one = h.read(w);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->animations[0].timelines[0].times.size(), 1u);
}

TEST(Sampler, StepAndCubicImportIntoTheOmf) {
  // A STEP translation becomes keys that jump at the last frame; the .omf decodes to them.
  HandMade h;
  h.interp = "STEP";
  Diagnostics w;
  auto s = h.read(w);
  ASSERT_TRUE(s);
  json_of(s->extras)["xray"]["motion_sets"] = nlohmann::json::parse(
      R"([{"params_version":4,"parts":[{"name":"default","bones":[{"name":"bip01","index":0},{"name":"bip01_spine","index":1}]}]}])");
  auto out = xray::scene_to_omf(s.value(), {}, w);
  ASSERT_TRUE(out) << out.error().message;
  const auto& rec = out->motions.motions[0].bones[1];
  EXPECT_EQ(out->motions.motions[0].frames, 31u);
  EXPECT_TRUE(rec.translation_keyed());
  for (std::size_t f = 0; f < 30; ++f) EXPECT_NEAR(rec.translation(f).x, 0.0, 3.0 / 127 / 2 + 1e-6);
  EXPECT_NEAR(rec.translation(30).x, 3.0, 3.0 / 127 / 2 + 1e-6);
  EXPECT_TRUE(out->motions.motions[0].bones[0].rotation_static());  // not animated: bind pose, static
}

}  // namespace
}  // namespace boneyard::test

