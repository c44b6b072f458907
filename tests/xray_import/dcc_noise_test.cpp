// What a DCC round trip does to a motion, without the DCC: static motions keep their length
// through the glTF duration alone (animation extras dropped), keys off the 30 fps grid are
// reported once with the rate, float noise on constant channels stays constant, and with
// --template every record keeps the template's encoding when the noisy samples fit it.
#include <cmath>

#include "boneyard/core/limits.h"
#include "import_support.h"
#include "omf_fixture.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

// Bone "root" static, bone "arm" keyed (8-bit, or 16-bit with `hq`, x translation 0..0.1,
// rotation about x), `frames`.
OmfSpec two_bone_spec(std::uint32_t frames, bool hq = false) {
  OmfSpec s;
  s.parts = {{"default", {{"root", 0}, {"arm", 1}}}};
  const BoneSpec still{0x02, {{0, 0, 0, 32767}}, {}, {}, {0.0f, 1.0f, 0.0f}};
  const int steps = hq ? 32767 : 127;
  BoneSpec moving{std::uint8_t(hq ? 0x05 : 0x01), {}, {}, {0.1f / float(2 * steps), 0, 0}, {0.05f, 0.5f, 0.0f}};
  for (std::uint32_t f = 0; f < frames; ++f) {
    const double a = 0.02 * f;
    moving.rot.push_back({int(std::lround(std::sin(a) * 32767)), 0, 0, int(std::lround(std::cos(a) * 32767))});
    moving.trans.push_back({int(f * 2 * steps / std::max(1u, frames - 1)) - steps, 0, 0});
  }
  s.keys.push_back({"still", frames, {still, still}, {}});
  s.keys.push_back({"move", frames, {still, moving}, {}});
  s.params.push_back({"still", 0, 0xFFFF, 0, 1.0f, 1.0f, 2.0f, 1.0f, {}});
  s.params.push_back({"move", 0, 0xFFFF, 1, 1.0f, 1.0f, 2.0f, 1.0f, {}});
  return s;
}

struct Exported {
  xray::OmfFile omf;
  std::vector<std::uint8_t> bytes;
  scene::Scene scene;  // as read back from the glb, animation extras dropped (as Blender does)
};

Exported export_and_strip(std::uint32_t frames, bool hq = false) {
  Exported e;
  e.bytes = omf_bytes(two_bone_spec(frames, hq));
  auto omf = xray::read_omf(FileData::from_vector(e.bytes));
  EXPECT_TRUE(omf);
  e.omf = std::move(omf).value();
  auto glb = export_glb(e.omf.motions, nullptr);
  EXPECT_TRUE(glb);
  Diagnostics w;
  auto sc = read_glb(*glb, w);
  EXPECT_TRUE(sc);
  e.scene = std::move(sc).value();
  for (auto& a : e.scene.animations) a.extras = scene::Extras{};
  return e;
}

void add_noise(scene::Scene& s, float amplitude) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-amplitude, amplitude);
  for (auto& a : s.animations)
    for (auto& c : a.channels)
      if (c.path == scene::Channel::Path::translation)
        for (float& v : c.values) v += d(rng);
}

TEST(DccRoundTrip, StaticMotionKeepsItsLengthFromTheDurationAlone) {
  Exported e = export_and_strip(20);
  ASSERT_EQ(e.scene.animations[0].name, "still");
  EXPECT_NEAR(e.scene.animations[0].duration, 19.0 / 30, 1e-6);
  xray::XrayImportOptions o;  // no template, no extras: only the glTF duration says 20 frames
  Diagnostics w;
  auto out = xray::scene_to_omf(e.scene, o, w);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->motions.motions[0].frames, 20u);
  EXPECT_EQ(out->motions.motions[1].frames, 20u);
}

TEST(DccRoundTrip, KeysOffThe30FpsGridAreReportedOnceWithTheRate) {
  HandMade h;
  h.times = {0.0f, 1.0f / 24, 2.0f / 24, 3.0f / 24};
  h.values = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};
  Diagnostics w;
  ASSERT_TRUE(h.read(w));
  std::size_t said = 0;
  for (const auto& f : w.findings())
    if (f.message.find("not on the 30 fps grid") != std::string::npos) {
      ++said;
      EXPECT_EQ(f.found, "keys at about 24 fps");
      EXPECT_NE(f.message.find("set the scene to 30 fps"), std::string::npos);
    }
  EXPECT_EQ(said, 1u);
  HandMade on_grid;  // 0 and 1 s: on the grid
  Diagnostics quiet;
  ASSERT_TRUE(on_grid.read(quiet));
  EXPECT_EQ(quiet.count(Severity::warning), 0u);
}

TEST(DccRoundTrip, FloatNoiseOnConstantChannelsStaysConstant) {
  Exported e = export_and_strip(20);
  add_noise(e.scene, 6.3e-7f);  // what Blender adds
  Diagnostics w;
  auto out = xray::scene_to_omf(e.scene, {}, w);
  ASSERT_TRUE(out);
  for (const auto& m : out->motions.motions) {
    EXPECT_FALSE(m.bones[0].translation_keyed()) << m.name;
    EXPECT_TRUE(m.bones[0].rotation_static()) << m.name;
    EXPECT_NEAR(m.bones[0].translation(0).y, 1.0, 1e-6);
  }
  EXPECT_TRUE(out->motions.motions[1].bones[1].translation_keyed());
}

// Marks that a tool put in the extras (the Blender add-on's panel) cannot go into a params
// version 3 file: left out with one warning naming the motion, the file otherwise the template's.
TEST(DccRoundTrip, MarksForAVersion3TemplateAreLeftOutWithAWarning) {
  OmfSpec spec = two_bone_spec(10);
  spec.version = 3;
  const auto bytes = omf_bytes(spec);
  auto omf = xray::read_omf(FileData::from_vector(bytes));
  ASSERT_TRUE(omf);
  auto glb = export_glb(omf->motions, nullptr);
  ASSERT_TRUE(glb);
  Diagnostics rw;
  auto sc = read_glb(*glb, rw);
  ASSERT_TRUE(sc);
  ASSERT_EQ(sc->animations[1].name, "move");
  json_of(sc->animations[1].extras)["xray"]["marks"] =
      nlohmann::json::parse(R"([{"name": "Left", "intervals": [[0.0, 0.1]]}])");
  xray::XrayImportOptions o;
  o.template_omf = &omf.value();
  Diagnostics w;
  auto out = xray::scene_to_omf(*sc, o, w);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(xray::write_omf(out.value()), bytes);
  std::size_t said = 0;
  for (const auto& f : w.findings())
    if (f.message.find("stores no marks") != std::string::npos) {
      ++said;
      EXPECT_NE(f.found.find("move"), std::string::npos) << f.found;
    }
  EXPECT_EQ(said, 1u);
}

TEST(DccRoundTrip, TemplateEncodingsSurviveNoiseAndChangesAreCounted) {
  Exported e = export_and_strip(20);
  add_noise(e.scene, 6.3e-7f);
  xray::XrayImportOptions o;
  o.template_omf = &e.omf;
  Diagnostics w;
  xray::ImportStats st;
  auto out = xray::scene_to_omf(e.scene, o, w, &st);
  ASSERT_TRUE(out);
  EXPECT_EQ(st.template_encodings_changed, 0u);
  const auto bytes = xray::write_omf(out.value());
  EXPECT_EQ(bytes, e.bytes) << "the noisy samples fit every template record";
  // A real edit (+1 cm on the keyed track) no longer fits: the SDK rule, and it is counted.
  ASSERT_EQ(e.scene.animations[1].name, "move");
  for (auto& c : e.scene.animations[1].channels)
    if (c.path == scene::Channel::Path::translation && e.scene.skeleton.joints[c.joint].name == "arm")
      for (std::size_t i = 0; i < c.values.size(); i += 3) c.values[i] += 0.01f * float((i / 3) % 2);
  Diagnostics w2;
  auto edited = xray::scene_to_omf(e.scene, o, w2, &st);
  ASSERT_TRUE(edited);
  EXPECT_GE(st.template_encodings_changed, 1u);
  std::size_t said = 0;
  for (const auto& f : w2.findings()) said += f.message.find("changed encoding from the template") != std::string::npos;
  EXPECT_EQ(said, 1u);
}

// Blender's noise (here 2e-5 m) is far above half a 16-bit step (1.5e-6 m over 0.1 m): the
// template's size/init no longer fit, but the track keeps its 16 bits, so the error stays at the
// noise instead of half an 8-bit step (0.2 mm), which the SDK rule would pick for so small a range.
TEST(DccRoundTrip, SixteenBitTemplateTracksStaySixteenBitWhenTheyNoLongerFit) {
  Exported e = export_and_strip(20, /*hq=*/true);
  add_noise(e.scene, 2e-5f);
  xray::XrayImportOptions o;
  o.template_omf = &e.omf;
  Diagnostics w;
  xray::ImportStats st;
  auto out = xray::scene_to_omf(e.scene, o, w, &st);
  ASSERT_TRUE(out);
  EXPECT_GE(st.template_encodings_changed, 1u);
  const auto& before = e.omf.motions.motions[1].bones[1];
  const auto& after = out->motions.motions[1].bones[1];
  ASSERT_TRUE(after.translation_keyed());
  EXPECT_TRUE(after.flags & 0x04) << "16-bit translation keys";
  for (std::uint32_t f = 0; f < 20; ++f) EXPECT_NEAR(after.translation(f).x, before.translation(f).x, 3e-5) << f;
}

}  // namespace
}  // namespace boneyard::test
