// The X-Ray -> glTF mapping checked numerically against the engine's convention, plus sign
// continuity and key compaction on a hand-laid .omf.
#include <cmath>
#include <random>

#include "scene/extras_json.h"
#include "boneyard/xray/xray_scene.h"
#include "gltf_test_support.h"
#include "omf_fixture.h"

namespace boneyard::test {
namespace {

// Column-form rotation of v by the unit quaternion q.
Vec3 rotate(const Quat& q, const Vec3& v) {
  const auto m = scene::trs_matrix({}, q, {1, 1, 1});
  return {float(m[0] * v.x + m[4] * v.y + m[8] * v.z), float(m[1] * v.x + m[5] * v.y + m[9] * v.z),
          float(m[2] * v.x + m[6] * v.y + m[10] * v.z)};
}

TEST(Handedness, MirroredZMatchesTheEngineOnRandomTransforms) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> u(-1, 1);
  double worst = 0;
  for (int i = 0; i < 1000; ++i) {
    // Stored quaternions are up to 6e-5 off unit length; the engine uses them as they are, we
    // normalise (CLARIFICATIONS), so compare with a normalised engine matrix.
    const Quat q = scene::normalized({u(rng), u(rng), u(rng), u(rng)});
    const Vec3 t{u(rng), u(rng), u(rng)}, v{u(rng), u(rng), u(rng)};
    const RowMat m = engine_xform(q, t);
    // Engine: v' = v * M (row vector).
    const double ex = v.x * m[0][0] + v.y * m[1][0] + v.z * m[2][0] + m[3][0];
    const double ey = v.x * m[0][1] + v.y * m[1][1] + v.z * m[2][1] + m[3][1];
    const double ez = v.x * m[0][2] + v.y * m[1][2] + v.z * m[2][2] + m[3][2];
    // glTF: mirror the point, apply the converted rotation and translation.
    const Vec3 r = rotate(xray::to_gltf(q), xray::to_gltf(v));
    const Vec3 gt = xray::to_gltf(t);
    worst = std::max({worst, std::fabs(r.x + gt.x - ex), std::fabs(r.y + gt.y - ey), std::fabs(r.z + gt.z + ez)});
  }
  EXPECT_LT(worst, 1e-5);
}

TEST(Handedness, BindQuaternionReproducesSetHpb) {
  // Fmatrix::setHPB(h, p, b) as the format notes give it, rows i, j, k; setXYZi(x, y, z) =
  // setHPB(-y, -x, -z).
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> angle(-3.14159f, 3.14159f);
  for (int i = 0; i < 500; ++i) {
    const Vec3 r{angle(rng), angle(rng), angle(rng)};
    const double h = -r.y, p = -r.x, b = -r.z;
    const double sh = std::sin(h), ch = std::cos(h), sp = std::sin(p), cp = std::cos(p), sb = std::sin(b),
                 cb = std::cos(b);
    const double hpb[3][3] = {{ch * cb - sp * sh * sb, -cp * sb, sp * ch * sb + sh * cb},
                              {sp * sh * cb + ch * sb, cp * cb, sh * sb - sp * ch * cb},
                              {-cp * sh, sp, cp * ch}};
    const RowMat m = engine_xform(xray::bind_quaternion(r), {});
    for (int row = 0; row < 3; ++row)
      for (int col = 0; col < 3; ++col) ASSERT_NEAR(m[row][col], hpb[row][col], 1e-6) << i;
  }
}

TEST(Handedness, SignContinuityFlipsOnlyAcrossNegativeDots) {
  std::vector<float> q = {0, 0, 0, 1, 0, 0, 0.1f, -0.99f, 0, 0, 0.2f, -0.98f, 0, 0, -0.3f, 0.95f};
  scene::make_sign_continuous(q);
  for (std::size_t i = 4; i < q.size(); i += 4) {
    const float d = q[i] * q[i - 4] + q[i + 1] * q[i - 3] + q[i + 2] * q[i - 2] + q[i + 3] * q[i - 1];
    EXPECT_GE(d, 0.0f) << i / 4;
  }
  EXPECT_FLOAT_EQ(q[7], 0.99f);   // flipped
  EXPECT_FLOAT_EQ(q[11], 0.98f);  // follows the flipped one
  EXPECT_FLOAT_EQ(q[15], 0.95f);  // already continuous with the (flipped) predecessor
}

TEST(XrayScene, KeysAreStoredShortsContinuousAndStaticChannelsHaveOneKey) {
  const auto bytes = omf_bytes(rich_spec());
  auto omf = xray::read_omf(FileData::from_vector(bytes));
  ASSERT_TRUE(omf);
  Diagnostics warnings;
  auto sc = xray::omf_to_scene(omf->motions, {"rich.omf", {}, {}}, warnings);
  ASSERT_TRUE(sc);
  EXPECT_EQ(warnings.count(Severity::warning), 1u);  // the flat-armature warning
  ASSERT_EQ(sc->animations.size(), 2u);
  const auto& walk = sc->animations[0];
  EXPECT_EQ(walk.name, "walk");
  ASSERT_EQ(walk.channels.size(), 4u);
  // Record 0 has motion-bone index 0 = "root" (joint 0): keyed rotation and translation.
  const auto& rot = walk.channels[0];
  ASSERT_EQ(rot.values.size(), 12u);
  // The stored 16-bit components as glTF normalised SHORTs, decoded values beside them.
  ASSERT_EQ(rot.shorts.size(), 12u);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(rot.values[i], float(rot.shorts[i]) / 32767.0f);
  for (std::size_t k = 0; k < 3; ++k) {
    const Quat q{rot.values[k * 4], rot.values[k * 4 + 1], rot.values[k * 4 + 2], rot.values[k * 4 + 3]};
    EXPECT_NEAR(q.norm(), 1.0f, 1e-4f);  // as stored: within 1e-4 of unit length
    if (k > 0) {
      const Quat p{rot.values[k * 4 - 4], rot.values[k * 4 - 3], rot.values[k * 4 - 2], rot.values[k * 4 - 1]};
      EXPECT_GE(scene::dot(p, q), 0.0f);
    }
  }
  // Key 2 is stored as (-32767, 0, 0, 0): negated for continuity with key 1 (x > 0).
  EXPECT_GT(rot.values[8], 0.0f);
  EXPECT_EQ(walk.timelines[rot.timeline].times.size(), 3u);
  EXPECT_FLOAT_EQ(walk.timelines[rot.timeline].times[2], 2.0f / 30.0f);
  // Record 1 (joint "spine"): static rotation and constant translation -> the one value held
  // from t = 0 to the motion's end, so that the channel spans the motion like the keyed ones.
  EXPECT_EQ(walk.channels[2].values.size(), 8u);
  EXPECT_EQ(walk.channels[3].values.size(), 6u);
  EXPECT_EQ(walk.timelines[walk.channels[3].timeline].times, (std::vector<float>{0.0f, 2.0f / 30.0f}));
  // Constant translation (0.5, -0.25, 4) mirrored in Z, at both ends.
  EXPECT_FLOAT_EQ(walk.channels[3].values[2], -4.0f);
  EXPECT_FLOAT_EQ(walk.channels[3].values[5], -4.0f);
  // Params and marks reach the extras.
  const auto& x = json_of(walk.extras).at("xray");
  EXPECT_EQ(x.at("marks").size(), 2u);
  EXPECT_EQ(x.at("marks")[0].at("name"), "Left");
  EXPECT_EQ(json_of(sc->animations[1].extras).at("xray").at("flags"), 3u);
  EXPECT_EQ(json_of(sc->extras).at("xray").at("motion_sets")[0].at("parts").size(), 2u);
}

}  // namespace
}  // namespace boneyard::test
