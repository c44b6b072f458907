// Editing commands: each changes what it is asked to and leaves every other motion's bytes alone.
#include <cmath>

#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "omf_fixture.h"
#include "test_support.h"

namespace boneyard::xray {
namespace {

using test::OmfSpec;

OmfFile load(const std::vector<std::uint8_t>& bytes) {
  auto r = read_omf(FileData::from_vector(bytes));
  if (!r) ADD_FAILURE() << format_finding(r.error(), "fixture");
  return std::move(r).value();
}

OmfFile reload(const OmfFile& f) { return load(write_omf(f)); }

// The error's message, or "succeeded": tests of refused edits name the refusal they expect.
template <class T>
std::string error_message(const Result<T>& r) {
  return r ? "succeeded" : r.error().message;
}

// The stored payload of motion i's 0xE sub-chunk, and its 0xF entry, as bytes.
std::vector<std::uint8_t> keys_bytes(const OmfFile& f, std::size_t i) {
  for (const auto& s : f.motions.subchunks) {
    if (s.kind != MotionsSubchunk::Kind::motion || s.motion != i) continue;
    const Bytes all = f.source->bytes();
    const std::uint32_t size = load_le<std::uint32_t>(all.data() + s.offset + 4);
    return {all.begin() + static_cast<std::ptrdiff_t>(s.offset + 8),
            all.begin() + static_cast<std::ptrdiff_t>(s.offset + 8 + size)};
  }
  return {};
}
std::vector<std::uint8_t> params_bytes(const OmfFile& f, std::size_t i) {
  const auto& m = f.motions.params.motions;
  const std::uint64_t end = i + 1 < m.size() ? m[i + 1].offset : f.motions.params.tail_offset;
  const Bytes all = f.source->bytes();
  return {all.begin() + static_cast<std::ptrdiff_t>(m[i].offset), all.begin() + static_cast<std::ptrdiff_t>(end)};
}

OmfSpec three_motions() {
  OmfSpec s = test::rich_spec();
  s.keys.push_back(s.keys[0]);
  s.keys[2].name = "run";
  s.params.push_back(s.params[0]);
  s.params[2].name = "run";
  s.params[2].motion_id = 2;
  return s;
}

TEST(OmfEdit, SelectsByNameAndGlobIgnoringCase) {
  const OmfFile f = load(test::omf_bytes(three_motions()));
  auto s = select_motions(f, {"W*", "sh??t"});
  ASSERT_TRUE(s);
  EXPECT_EQ(s.value(), (std::vector<std::size_t>{0, 1}));
  EXPECT_FALSE(select_motions(f, {"nothing*"}));
}

TEST(OmfEdit, DeleteKeepsOtherMotionsByteIdentical) {
  const OmfFile original = load(test::omf_bytes(three_motions()));
  OmfFile f = original;
  auto r = delete_motions(f, {"shoot"});
  ASSERT_TRUE(r) << r.error().message;
  const OmfFile out = reload(f);
  ASSERT_EQ(out.motions.motions.size(), 2u);
  EXPECT_EQ(out.motions.params.motions[1].name, "run");
  EXPECT_EQ(keys_bytes(out, 0), keys_bytes(original, 0));
  EXPECT_EQ(keys_bytes(out, 1), keys_bytes(original, 2));
  EXPECT_EQ(params_bytes(out, 0), params_bytes(original, 0));
  EXPECT_EQ(params_bytes(out, 1), params_bytes(original, 2));
  EXPECT_FALSE(validate_omf(out).has_errors());
}

TEST(OmfEdit, ExtractWritesOnlyTheChosenMotions) {
  const OmfFile original = load(test::omf_bytes(three_motions()));
  EditReport report;
  auto out = extract_motions(original, {"run", "walk"}, report);
  ASSERT_TRUE(out);
  const OmfFile again = reload(out.value());
  ASSERT_EQ(again.motions.motions.size(), 2u);
  EXPECT_EQ(keys_bytes(again, 1), keys_bytes(original, 2));
  EXPECT_EQ(again.motions.declared_count, 2u);
  EXPECT_EQ(write_omf(original), test::omf_bytes(three_motions()));  // the source is untouched
}

TEST(OmfEdit, RenameChangesOnlyTheName) {
  const OmfFile original = load(test::omf_bytes(three_motions()));
  OmfFile f = original;
  ASSERT_TRUE(rename_motion(f, "SHOOT", "fire"));
  const OmfFile out = reload(f);
  EXPECT_EQ(out.motions.params.motions[1].name, "fire");
  EXPECT_EQ(out.motions.motions[1].name, "fire");  // the 0xE name followed since it matched
  EXPECT_EQ(keys_bytes(out, 0), keys_bytes(original, 0));
  EXPECT_EQ(params_bytes(out, 2), params_bytes(original, 2));
  EXPECT_EQ(error_message(rename_motion(f, "walk", "run")), "another motion already has this name");  // clash among cycles
  EXPECT_EQ(error_message(rename_motion(f, "nope", "x")), "no motion has this name");
  EXPECT_EQ(error_message(rename_motion(f, "walk", std::string(128, 'a'))), "new name too long for the engine");
}

TEST(OmfEdit, SetParamsFlagsPartAndMarks) {
  OmfFile f = load(test::omf_bytes(three_motions()));
  ParamEdit e;
  e.speed = 1.25f;
  e.part = "lower";
  e.add_marks = {{"Left", 0.05f, 0.06f}, {"Jump", 0.0f, 0.05f}};  // within the 3-frame (0.067 s) motions
  auto r = set_params(f, {"walk", "run"}, e);
  ASSERT_TRUE(r) << r.error().message;
  const OmfFile out = reload(f);
  const auto& walk = out.motions.params.motions[0];
  EXPECT_EQ(walk.speed, 1.25f);
  EXPECT_EQ(walk.bone_or_part, 1);
  ASSERT_EQ(walk.marks.size(), 3u);
  EXPECT_EQ(walk.marks[0].intervals.size(), 2u);
  EXPECT_EQ(walk.marks[0].intervals[0].start, 0.05f);  // kept sorted by start
  EXPECT_EQ(out.motions.params.motions[1].speed, 1.5f);  // shoot untouched
  EXPECT_FALSE(validate_omf(out).has_errors());

  ParamEdit flags;
  flags.flags = parse_motion_flags("fx,weapon_bone").value();
  flags.bone = "root";
  ASSERT_TRUE(set_params(f, {"run"}, flags));
  EXPECT_EQ(f.motions.params.motions[2].flags, kMotionFx | kMotionWeaponBone);
  EXPECT_EQ(f.motions.params.motions[2].bone_or_part, 0);

  ParamEdit bad_part;
  bad_part.part = "all";
  EXPECT_EQ(error_message(set_params(f, {"shoot"}, bad_part)), "FX motions start at a bone, not a part: use --bone");  // FX motions take a bone
  EXPECT_EQ(error_message(parse_motion_flags("fx,flying")), "unknown motion flag");
  ParamEdit clear;
  clear.clear_marks = true;
  ASSERT_TRUE(set_params(f, {"*"}, clear));
  for (const auto& m : f.motions.params.motions) EXPECT_TRUE(m.marks.empty());
}

TEST(OmfEdit, MarksNeedVersion4) {
  OmfSpec s = three_motions();
  s.version = 3;
  OmfFile f = load(test::omf_bytes(s));
  ParamEdit e;
  e.add_marks = {{"Left", 0.0f, 0.05f}};  // within the 3-frame motion
  auto r = set_params(f, {"walk"}, e);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "marks need params version 4 (use: boneyard omf retarget --params-version 4)");
  EXPECT_EQ(r.error().expected, "version 4");
  EXPECT_EQ(r.error().found, "3");
  // The same edit on a version 4 file succeeds: the version, not the mark, was refused.
  s.version = 4;
  OmfFile v4 = load(test::omf_bytes(s));
  EXPECT_TRUE(set_params(v4, {"walk"}, e));
}

TEST(OmfEdit, MergeChecksPartsAndNames) {
  const auto a_bytes = test::omf_bytes(three_motions());
  OmfSpec b_spec = test::rich_spec();
  b_spec.keys.resize(1);
  b_spec.params.resize(1);
  b_spec.keys[0].name = b_spec.params[0].name = "crouch";
  const auto b_bytes = test::omf_bytes(b_spec);
  EditReport report;
  auto merged = merge_omfs({load(a_bytes), load(b_bytes)}, false, report);
  ASSERT_TRUE(merged) << merged.error().message;
  const OmfFile out = reload(merged.value());
  ASSERT_EQ(out.motions.motions.size(), 4u);
  EXPECT_EQ(out.motions.params.motions[3].name, "crouch");
  EXPECT_EQ(out.motions.params.motions[3].motion_id, 3);
  EXPECT_EQ(keys_bytes(out, 3), keys_bytes(load(b_bytes), 0));
  EXPECT_EQ(keys_bytes(out, 2), keys_bytes(load(a_bytes), 2));
  EXPECT_FALSE(validate_omf(out).has_errors());

  EXPECT_EQ(error_message(merge_omfs({load(a_bytes), load(a_bytes)}, false, report)), "motion name in more than one file (use --rename-clashes)");
  auto renamed = merge_omfs({load(a_bytes), load(a_bytes)}, true, report);
  ASSERT_TRUE(renamed);
  EXPECT_EQ(renamed->motions.params.motions[3].name, "walk_2");

  OmfSpec other_parts = b_spec;
  other_parts.parts[0].name = "torso";
  EXPECT_EQ(error_message(merge_omfs({load(a_bytes), load(test::omf_bytes(other_parts))}, false, report)), "bone parts differ between the files to merge (file 2)");
}

TEST(OmfEdit, RepairFixesWhatIsSafe) {
  OmfSpec s = test::rich_spec();
  s.motions_id = 0x8000000E;
  s.keys[0].name = "garbage\x0A";
  s.keys[1].bones[0].rot_crc_override = 0;
  s.params[1].motion_id = 777;
  s.params[0].marks[1].intervals = {{0.3f, 0.4f}, {0.1f, 0.2f}};
  auto bytes = test::omf_bytes(s);
  bytes.push_back(0x42);
  OmfFile f = load(bytes);
  const EditReport r = repair_omf(f);
  EXPECT_GE(r.changes.size(), 6u);
  const OmfFile out = reload(f);
  const Diagnostics d = validate_omf(out);
  EXPECT_EQ(d.count(Severity::warning), 0u);
  for (const auto& finding : d.findings()) {
    EXPECT_EQ(finding.message.find("motion id"), std::string::npos);
    EXPECT_EQ(finding.message.find("0xE name"), std::string::npos);
  }
  EXPECT_EQ(out.motions.motions[0].name, "walk");
  EXPECT_EQ(out.motions.params.motions[1].motion_id, 1);
  EXPECT_EQ(out.motions.motions_raw_id, 0xEu);
  EXPECT_EQ(out.motions.params.motions[0].marks[1].intervals[0].start, 0.1f);
  // A clean file has nothing to repair.
  OmfFile clean = load(test::omf_bytes(test::rich_spec()));
  EXPECT_TRUE(repair_omf(clean).changes.empty());
  EXPECT_EQ(write_omf(clean), test::omf_bytes(test::rich_spec()));
}

TEST(OmfEdit, RetargetToSocRequantisesWithinOneStep) {
  const OmfFile original = load(test::omf_bytes(test::rich_spec()));
  OmfFile f = original;
  auto r = retarget_omf(f, std::nullopt, Game::soc);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->warnings.empty());  // the marks of "walk" were dropped
  const OmfFile out = reload(f);
  EXPECT_EQ(out.motions.params.version, 3);
  const Diagnostics d = validate_omf(out);
  EXPECT_EQ(d.count(Severity::warning), 0u);
  for (std::size_t m = 0; m < out.motions.motions.size(); ++m) {
    for (std::size_t b = 0; b < out.motions.motions[m].bones.size(); ++b) {
      const BoneKeys& after = out.motions.motions[m].bones[b];
      const BoneKeys& before = original.motions.motions[m].bones[b];
      EXPECT_EQ(after.flags & kFlagTKeys16, 0);
      for (std::uint32_t k = 0; k < out.motions.motions[m].frames; ++k) {
        const Vec3 x = before.translation(k), y = after.translation(k);
        // One 8-bit step of the new quantisation (truncation toward zero).
        const float step = std::max({after.translation_size.x, after.translation_size.y, after.translation_size.z});
        EXPECT_LE(std::fabs(x.x - y.x), step * 1.001f + 1e-6f);
        EXPECT_LE(std::fabs(x.y - y.y), step * 1.001f + 1e-6f);
        EXPECT_LE(std::fabs(x.z - y.z), step * 1.001f + 1e-6f);
      }
    }
  }
  // Rotations are untouched.
  EXPECT_EQ(keys_bytes(out, 0).size(), keys_bytes(original, 0).size());
}

TEST(OmfEdit, RetargetVersion3To4) {
  OmfSpec s = test::rich_spec();
  s.version = 3;
  OmfFile f = load(test::omf_bytes(s));
  ASSERT_TRUE(retarget_omf(f, 4, Game::keep));
  const OmfFile out = reload(f);
  EXPECT_EQ(out.motions.params.version, 4);
  EXPECT_TRUE(out.motions.params.motions[0].marks.empty());
  EXPECT_EQ(error_message(retarget_omf(f, 2, Game::keep)), "unsupported target params version");
}

TEST(OmfEdit, SetRefusesNonFiniteOrNegativeParamsAndMarksOutsideTheMotion) {
  OmfFile f = load(test::omf_bytes(three_motions()));
  const float before = f.motions.params.motions[0].speed;
  for (float bad : {std::nanf(""), INFINITY, -INFINITY, -1.0f}) {
    ParamEdit e;
    e.power = bad;
    auto r = set_params(f, {"walk"}, e);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("--power"), std::string::npos) << r.error().message;
  }
  EXPECT_TRUE(valid_motion_param(0.0f));
  const std::uint32_t frames = f.motions.motions[0].frames;
  const float length = static_cast<float>(frames - 1) / 30.0f;
  ParamEdit outside;
  outside.speed = 2.0f;
  outside.add_marks = {{"M", -5.0f, 500.0f}};
  auto r = set_params(f, {"walk"}, outside);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("outside motion"), std::string::npos) << r.error().message;
  EXPECT_EQ(f.motions.params.motions[0].speed, before);  // nothing changed
  ParamEdit past_end;
  past_end.add_marks = {{"M", 0.0f, length + 0.01f}};
  EXPECT_EQ(error_message(set_params(f, {"walk"}, past_end)), "mark \"M\" lies outside motion \"walk\" (3 frames)");
  ParamEdit whole;
  whole.add_marks = {{"M", 0.0f, length}};
  EXPECT_TRUE(set_params(f, {"walk"}, whole));
}

}  // namespace
}  // namespace boneyard::xray
