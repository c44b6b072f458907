// Real embedded motions through glTF: blender-xray's test_fmt_armature.object (the one sample with
// a 0x916) and the mod's dev_detector_1_hud.object with the 17 motions of its
// dev_detector_1_hud_animation.skls embedded here (never copied into the repository). One
// animation per motion on the skin's joints; back with the template byte for byte; one edited
// motion rebuilt while the others keep their bytes; without a template every motion comes back
// with its poses. Skipped without ../shared/samples.
#include <gtest/gtest.h>

#include "boneyard/core/text.h"
#include "boneyard/xray/skl/skl.h"
#include "object_motions_support.h"
#include "object_support.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;

fs::path sdk(const char* rel) { return samples_dir() / "xray" / "sdk" / rel; }

Result<std::vector<std::uint8_t>> import(const scene::Scene& s, const xray::ObjectFile* tpl, xray::ObjectImportStats* st) {
  xray::ObjectImportOptions o;
  o.template_object = tpl;
  Diagnostics w;
  return xray::scene_to_object_bytes(s, o, w, st);
}

// The detector HUD model with the motions of its .skls as its 0x916.
std::vector<std::uint8_t> detector_with_motions() {
  const auto skls = read_file(sdk("mod/dev_detector_1_hud_animation.skls"));
  return with_embedded_motions(read_file(sdk("mod/dev_detector_1_hud.object")), skls);
}


TEST(ObjectMotionSamples, ArmatureMotionIsAnAnimationOnTheSkinAndComesBack) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const fs::path path = sdk("blender-xray/test_fmt_armature.object");
  const xray::ObjectFile f = load_object(path);
  ASSERT_EQ(f.motions.size(), 1u);
  const scene::Scene exported = through_glb(object_scene(f));
  ASSERT_EQ(exported.animations.size(), f.motions.size());
  EXPECT_EQ(exported.animations[0].name, "Action");
  EXPECT_EQ(json_of(exported.animations[0].extras)["xray"]["name"], "Action");
  // Every channel on a joint of the skin, one rotation and one translation per bone.
  ASSERT_EQ(exported.skeleton.skin.size(), f.bones.size());
  EXPECT_EQ(exported.animations[0].channels.size(), 2 * f.bones.size());
  for (const auto& c : exported.animations[0].channels)
    EXPECT_NE(std::find(exported.skeleton.skin.begin(), exported.skeleton.skin.end(), c.joint), exported.skeleton.skin.end());
  // With the template: the file byte for byte, the motion's bytes kept.
  xray::ObjectImportStats st;
  auto back = import(exported, &f, &st);
  ASSERT_TRUE(back) << back.error().path << ": " << back.error().message;
  EXPECT_EQ(back.value(), read_file(path));
  EXPECT_EQ(st.motions_kept, 1u);
  // Without: the motion again, with the same poses.
  auto made = import(exported, nullptr, &st);
  ASSERT_TRUE(made) << made.error().path << ": " << made.error().message;
  const xray::ObjectFile g = object_of(made.value());
  EXPECT_FALSE(xray::validate_object(g).has_errors());
  ASSERT_EQ(g.motions.size(), 1u);
  EXPECT_EQ(g.motions[0].name, "Action");
  EXPECT_EQ(g.motions[0].frame_end, f.motions[0].frame_end);
  EXPECT_EQ(differing_samples(exported, through_glb(object_scene(g)), 1e-5), 0u);
}

TEST(ObjectMotionSamples, DetectorWithItsSklsEmbeddedEditAndBack) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const auto bytes = detector_with_motions();
  const xray::ObjectFile f = object_of(bytes);
  ASSERT_EQ(f.motions.size(), 17u);
  // The .skls's bones are the object's.
  for (const auto& m : f.motions) {
    ASSERT_EQ(m.bones.size(), f.bones.size()) << m.name;
    for (const auto& b : m.bones) {
      bool found = false;
      for (const auto& ob : f.bones) found |= lower_ascii(ob.name) == lower_ascii(std::string(b.name));
      EXPECT_TRUE(found) << b.name;
    }
  }
  EXPECT_FALSE(xray::validate_object(f).has_errors());
  const scene::Scene exported = through_glb(object_scene(f));
  ASSERT_EQ(exported.animations.size(), 17u);
  for (std::size_t i = 0; i < 17; ++i) EXPECT_EQ(exported.animations[i].name, f.motions[i].name);
  // Unedited: byte for byte.
  xray::ObjectImportStats st;
  auto back = import(exported, &f, &st);
  ASSERT_TRUE(back) << back.error().path << ": " << back.error().message;
  EXPECT_EQ(back.value(), bytes);
  EXPECT_EQ(st.motions_kept, 17u);
  // One motion's lid turned: that motion is rebuilt, the 16 others keep their bytes, and the
  // mesh and every other chunk too.
  const auto original = stored_motion_bytes(f);
  scene::Scene edited = exported;
  turn_joint(edited, 3, "lid", 0.3f);
  back = import(edited, &f, &st);
  ASSERT_TRUE(back) << back.error().path << ": " << back.error().message;
  EXPECT_EQ(st.motions_kept, 16u);
  EXPECT_EQ(st.motions_rebuilt, 1u);
  EXPECT_EQ(st.rebuilt, 0u);
  const xray::ObjectFile g = object_of(back.value());
  EXPECT_FALSE(xray::validate_object(g).has_errors());
  const auto now = stored_motion_bytes(g);
  ASSERT_EQ(now.size(), 17u);
  for (std::size_t i = 0; i < 17; ++i) {
    if (i == 3) {
      EXPECT_NE(now[i], original[i]);
    } else {
      EXPECT_EQ(now[i], original[i]) << i;
    }
  }
  EXPECT_EQ(differing_samples(edited, through_glb(object_scene(g)), 1e-5), 0u);
  // Without a template: all 17 motions with their poses.
  auto made = import(exported, nullptr, &st);
  ASSERT_TRUE(made) << made.error().path << ": " << made.error().message;
  const xray::ObjectFile h = object_of(made.value());
  EXPECT_FALSE(xray::validate_object(h).has_errors());
  ASSERT_EQ(h.motions.size(), 17u);
  EXPECT_EQ(st.motions_rebuilt, 17u);
  for (std::size_t i = 0; i < 17; ++i) {
    EXPECT_EQ(h.motions[i].name, f.motions[i].name);
    EXPECT_EQ(h.motions[i].flags, f.motions[i].flags);
    EXPECT_EQ(h.motions[i].speed, f.motions[i].speed);
    EXPECT_EQ(h.motions[i].accrue, f.motions[i].accrue);
    EXPECT_EQ(h.motions[i].falloff, f.motions[i].falloff);
  }
  EXPECT_EQ(differing_samples(exported, through_glb(object_scene(h)), 1e-5), 0u);
}

// The Actor Editor's Motions > Save: the embedded motions as a .skls are the .skls they were made
// of, byte for byte; an object without them is refused.
TEST(ObjectMotionSamples, EmbeddedMotionsSaveAsTheirSkls) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const xray::ObjectFile detector = object_of(detector_with_motions());
  auto skls = xray::motions_of_object(detector);
  ASSERT_TRUE(skls) << skls.error().message;
  EXPECT_EQ(skls.value(), read_file(sdk("mod/dev_detector_1_hud_animation.skls")));
  const xray::ObjectFile armature = load_object(sdk("blender-xray/test_fmt_armature.object"));
  auto one = xray::motions_of_object(armature);
  ASSERT_TRUE(one) << one.error().message;
  auto read = xray::read_skls(FileData::from_vector(one.value()));
  ASSERT_TRUE(read);
  EXPECT_EQ(read->motions.size(), 1u);
  auto none = xray::motions_of_object(load_object(sdk("mod/handflash_hud.object")));
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no embedded motions"), std::string::npos);
}

}  // namespace
}  // namespace boneyard::test
