// An .object's embedded motions (0x916) through glTF, on an object laid out by hand with a v7
// motion (TCB positions, a mark) and a v6 one: animations on the object's joints with the poses of
// the .skls export; back with the template byte for byte; an edited motion rebuilt while the other
// keeps its bytes; removed, added and dropped animations; without a template the motions come
// back; a truncated 0x916 leaves the model exportable without animations. Needs no samples.
#include <cmath>

#include <gtest/gtest.h>

#include "boneyard/xray/skl/skl_convert.h"
#include "boneyard/xray/skl/skl_scene.h"
#include "object_fixture.h"
#include "object_motions_support.h"
#include "object_support.h"
#include "scene/extras_json.h"
#include "sdk_fixtures.h"

namespace boneyard::test {
namespace {

std::vector<std::uint8_t> motion_list() {
  return sdk::skls_of({sdk::motion_body(7, 2, true, "walk"), sdk::motion_body(6, 2, false, "idle")});
}

// A skinned quad on two bones, one part: the object the motions play on.
ObjFile two_bone_object() {
  ObjFile o;
  o.meshes = {quad_mesh()};
  o.flags = 1;
  ObjBone root;
  root.name = root.wmap = "bip01";
  ObjBone spine;
  spine.name = spine.wmap = "bip01_spine";
  spine.parent = "bip01";
  spine.offset = {0, 0.5f, 0};
  o.bones = {root, spine};
  o.parts = {{"default", {"bip01", "bip01_spine"}}};
  return o;
}

std::vector<std::uint8_t> fixture_object(const std::vector<std::uint8_t>& list) {
  return with_embedded_motions(obj_bytes(two_bone_object()), list);
}


Result<std::vector<std::uint8_t>> import(const scene::Scene& s, const xray::ObjectFile* tpl, xray::ObjectImportStats* st,
                                         Diagnostics* warnings = nullptr) {
  xray::ObjectImportOptions o;
  o.template_object = tpl;
  Diagnostics scratch;
  return xray::scene_to_object_bytes(s, o, warnings ? *warnings : scratch, st);
}

TEST(ObjectMotions, EachMotionIsAnAnimationOnTheObjectsJointsWithTheSklsPoses) {
  const auto bytes = fixture_object(motion_list());
  const xray::ObjectFile f = object_of(bytes);
  ASSERT_EQ(f.motions.size(), 2u);
  EXPECT_FALSE(xray::validate_object(f).has_errors());
  const scene::Scene s = object_scene(f);
  ASSERT_EQ(s.animations.size(), 2u);
  EXPECT_EQ(s.animations[0].name, "walk");
  EXPECT_EQ(s.animations[1].name, "idle");
  EXPECT_EQ(s.meshes.size(), 1u);
  // The .skls export on the object's skeleton: the very same channels and values.
  auto sk = xray::motion_skeleton(f, "fixture");
  ASSERT_TRUE(sk);
  xray::SklExportOptions eo;
  eo.skeleton = &sk.value();
  Diagnostics w;
  auto skls = xray::skl_to_scene(f.motions, "model", eo, w);
  ASSERT_TRUE(skls);
  for (std::size_t a = 0; a < 2; ++a) {
    const auto& got = s.animations[a];
    const auto& want = skls->animations[a];
    ASSERT_EQ(got.channels.size(), want.channels.size());
    for (std::size_t c = 0; c < got.channels.size(); ++c) {
      EXPECT_EQ(s.skeleton.joints[got.channels[c].joint].name, skls->skeleton.joints[want.channels[c].joint].name);
      EXPECT_EQ(got.channels[c].values, want.channels[c].values);
    }
    // The motion header in the extras, as the .skls export writes it.
    EXPECT_EQ(json_of(got.extras), json_of(want.extras));
  }
  const auto& x = json_of(s.animations[0].extras)["xray"];
  EXPECT_EQ(x["skl"]["version"], 7);
  EXPECT_EQ(x["marks"].size(), 1u);
  EXPECT_EQ(json_of(s.extras)["xray"]["motion_sets"].size(), 1u);
  // --motions picks motions by name.
  xray::ObjectExportOptions only;
  only.motion_globs = {"ID*"};
  auto picked = xray::object_to_scene(f, "model", only, w);
  ASSERT_TRUE(picked);
  ASSERT_EQ(picked->animations.size(), 1u);
  EXPECT_EQ(picked->animations[0].name, "idle");
}

TEST(ObjectMotions, UneditedTheTemplatesChunkKeepsItsBytes) {
  const auto bytes = fixture_object(motion_list());
  const xray::ObjectFile f = object_of(bytes);
  xray::ObjectImportStats st;
  auto back = import(through_glb(object_scene(f)), &f, &st);
  ASSERT_TRUE(back) << back.error().path << ": " << back.error().message;
  EXPECT_EQ(back.value(), bytes);
  EXPECT_EQ(st.motions_kept, 2u);
  EXPECT_EQ(st.motions_rebuilt, 0u);
  // The export's own scene, not through glTF bytes (what the library's users and the fuzzer hand
  // in): the same.
  scene::Scene direct = object_scene(f);
  for (std::uint32_t j = 0; j < direct.skeleton.joints.size(); ++j) direct.skeleton.skin.push_back(j);
  back = import(direct, &f, &st);
  ASSERT_TRUE(back) << back.error().path << ": " << back.error().message;
  EXPECT_EQ(back.value(), bytes);
  EXPECT_EQ(st.motions_kept, 2u);
}

TEST(ObjectMotions, AnEditedMotionIsRebuiltTheOtherKeepsItsBytes) {
  const auto bytes = fixture_object(motion_list());
  const xray::ObjectFile f = object_of(bytes);
  const auto original = stored_motion_bytes(f);
  scene::Scene s = through_glb(object_scene(f));
  turn_joint(s, 1, "bip01_spine", 0.2f);
  xray::ObjectImportStats st;
  auto back = import(s, &f, &st);
  ASSERT_TRUE(back) << back.error().path << ": " << back.error().message;
  EXPECT_EQ(st.motions_kept, 1u);
  EXPECT_EQ(st.motions_rebuilt, 1u);
  EXPECT_EQ(st.kept, 1u);  // the mesh
  const xray::ObjectFile g = object_of(back.value());
  EXPECT_FALSE(xray::validate_object(g).has_errors());
  const auto now = stored_motion_bytes(g);
  ASSERT_EQ(now.size(), 2u);
  EXPECT_EQ(now[0], original[0]);
  EXPECT_NE(now[1], original[1]);
  EXPECT_EQ(g.motions[1].name, "idle");
  // The edit is what the object now plays: its export holds the turned keys, the rest as before.
  const scene::Scene again = through_glb(object_scene(g));
  EXPECT_EQ(differing_samples(s, again, 1e-5), 0u);
  // Every chunk but 0x916 is the template's.
  ASSERT_EQ(g.chunks.chunks.size(), f.chunks.chunks.size());
  for (std::size_t i = 0; i < f.chunks.chunks.size(); ++i) {
    const Chunk& a = f.chunks.chunks[i];
    const Chunk& b = g.chunks.chunks[i];
    EXPECT_EQ(a.raw_id, b.raw_id);
    if (a.id() != xray::kObjMotions) {
      EXPECT_TRUE(std::equal(a.payload.begin(), a.payload.end(), b.payload.begin(), b.payload.end())) << std::hex << a.id();
    }
  }
}

TEST(ObjectMotions, RemovedAndReorderedAnimationsAndAGltfWithoutAny) {
  const auto bytes = fixture_object(motion_list());
  const xray::ObjectFile f = object_of(bytes);
  const auto original = stored_motion_bytes(f);
  const scene::Scene exported = through_glb(object_scene(f));
  // One animation left: the 0x916 holds that motion's bytes alone.
  scene::Scene one = exported;
  one.animations.erase(one.animations.begin());
  xray::ObjectImportStats st;
  auto back = import(one, &f, &st);
  ASSERT_TRUE(back) << back.error().message;
  auto now = stored_motion_bytes(object_of(back.value()));
  ASSERT_EQ(now.size(), 1u);
  EXPECT_EQ(now[0], original[1]);
  // Swapped (Blender lists animations alphabetically): the template's order, the file unchanged.
  scene::Scene swapped = exported;
  std::swap(swapped.animations[0], swapped.animations[1]);
  back = import(swapped, &f, &st);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back.value(), bytes);
  EXPECT_EQ(st.motions_kept, 2u);
  // A new animation (a copy of "walk" renamed) goes after the template's motions.
  scene::Scene added_one = swapped;
  added_one.animations.push_back(exported.animations[0]);
  added_one.animations.back().name = "run";
  json_of(added_one.animations.back().extras)["xray"]["name"] = "run";
  back = import(added_one, &f, &st);
  ASSERT_TRUE(back) << back.error().message;
  const xray::ObjectFile three = object_of(back.value());
  now = stored_motion_bytes(three);
  ASSERT_EQ(now.size(), 3u);
  EXPECT_EQ(now[0], original[0]);
  EXPECT_EQ(now[1], original[1]);
  EXPECT_EQ(three.motions[2].name, "run");
  EXPECT_EQ(st.motions_rebuilt, 1u);
  EXPECT_FALSE(xray::validate_object(three).has_errors());
  // A glTF without animations (a DCC tool that did not export them): the template's motions stay.
  scene::Scene none = exported;
  none.animations.clear();
  Diagnostics w;
  back = import(none, &f, &st, &w);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back.value(), bytes);
  bool warned = false;
  for (const auto& x : w.findings()) warned |= x.message.find("kept as stored") != std::string::npos;
  EXPECT_TRUE(warned);
  // A template without motions gets them after its bones, where the SDK writes them.
  const xray::ObjectFile bare = object_of(obj_bytes(two_bone_object()));
  back = import(exported, &bare, &st);
  ASSERT_TRUE(back) << back.error().message;
  const xray::ObjectFile added = object_of(back.value());
  ASSERT_EQ(added.motions.size(), 2u);
  EXPECT_EQ(st.motions_rebuilt, 2u);
  EXPECT_FALSE(xray::validate_object(added).has_errors());
  for (std::size_t i = 0; i + 1 < added.chunks.chunks.size(); ++i)
    if (added.chunks.chunks[i].id() == xray::kObjBones) {
      EXPECT_EQ(added.chunks.chunks[i + 1].id(), xray::kObjMotions);
    }
  EXPECT_EQ(differing_samples(exported, through_glb(object_scene(added)), 1e-5), 0u);
}

TEST(ObjectMotions, WithoutTemplateTheMotionsComeBackWithTheirPoses) {
  const xray::ObjectFile f = object_of(fixture_object(motion_list()));
  const scene::Scene exported = through_glb(object_scene(f));
  xray::ObjectImportStats st;
  auto made = import(exported, nullptr, &st);
  ASSERT_TRUE(made) << made.error().path << ": " << made.error().message;
  const xray::ObjectFile g = object_of(made.value());
  EXPECT_FALSE(xray::validate_object(g).has_errors());
  ASSERT_EQ(g.motions.size(), 2u);
  EXPECT_EQ(st.motions_rebuilt, 2u);
  EXPECT_EQ(g.motions[0].name, "walk");
  EXPECT_EQ(g.motions[0].version, 7);
  ASSERT_EQ(g.motions[0].marks.size(), 1u);
  EXPECT_EQ(g.motions[0].marks[0].name, "Left foot");
  EXPECT_EQ(g.motions[1].flags, f.motions[1].flags);
  EXPECT_EQ(g.motions[1].accrue, f.motions[1].accrue);
  EXPECT_EQ(differing_samples(exported, through_glb(object_scene(g)), 1e-5), 0u);
}

TEST(ObjectMotions, MotionsThatDoNotReadLeaveTheModelWithoutAnimations) {
  auto list = motion_list();
  list.resize(list.size() - 40);  // the second motion cut short
  const auto bytes = fixture_object(list);
  const xray::ObjectFile f = object_of(bytes);
  EXPECT_FALSE(f.motions_error);
  EXPECT_TRUE(xray::validate_object(f).has_errors());
  Diagnostics w;
  auto s = xray::object_to_scene(f, "model", {}, w);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_TRUE(s->animations.empty());
  EXPECT_EQ(s->meshes.size(), 1u);
  bool warned = false;
  for (const auto& x : w.findings()) warned |= x.message.find("embedded motions do not read") != std::string::npos;
  EXPECT_TRUE(warned);
  // Back with itself as template: the chunk as stored.
  auto back = import(through_glb(s.value()), &f, nullptr);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back.value(), bytes);
}

}  // namespace
}  // namespace boneyard::test
