// OGF skeleton reader: 0xD bone names, 0x10 IK data, motion refs 0x13/0x18, user data, the
// description; bone-tree validation; byte-exact rewrite; clear failures on broken input.
#include <map>

#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "gltf_test_support.h"
#include "ogf_fixture.h"

namespace boneyard::test {
namespace {

xray::OgfFile read_ok(const std::vector<std::uint8_t>& bytes) {
  auto r = xray::read_ogf(FileData::from_vector(bytes));
  EXPECT_TRUE(r) << (r ? "" : format_finding(r.error(), "model.ogf"));
  return r ? std::move(r).value() : xray::OgfFile{};
}

bool has(const Diagnostics& d, Severity s, const std::string& text) {
  for (const auto& f : d.findings())
    if (f.severity == s && f.message.find(text) != std::string::npos) return true;
  return false;
}

TEST(OgfSkeleton, ReadsBonesIkRefsUserDataDescriptionAndRewritesByteExact) {
  Buf refs;
  refs.str("monsters\\zombi_animation, monsters\\extra");
  Buf f;
  f.chunk(0x1, header_payload()).chunk(0xD, bone_names({{"Root", ""}, {"spine", "Root"}, {"head", "spine"}}));
  f.chunk(0x10, ik_data(3)).chunk(0x13, refs).chunk(0x11, Buf().str("[ini]\nx=1"));
  f.chunk(0x12, Buf().str("src.object").str("builder").u32(1).str("creator").u32(2).str("modifier").u32(3));
  f.chunk(0x42, Buf().u32(7));  // unknown chunk: kept
  const auto ogf = read_ok(f.b);
  ASSERT_EQ(ogf.bones.size(), 3u);
  EXPECT_EQ(ogf.bones[2].parent, 1);
  EXPECT_EQ(ogf.find_bone("root"), 0);  // engine lookup: lower-cased OGF names
  ASSERT_TRUE(ogf.bones[1].ik);
  EXPECT_FLOAT_EQ(ogf.bones[1].ik->bind_rotation.x, 0.1f);
  EXPECT_FLOAT_EQ(ogf.bones[1].ik->bind_position.y, 0.25f);
  EXPECT_FLOAT_EQ(*ogf.bones[1].ik->joint.friction, 0.5f);
  EXPECT_EQ(ogf.bones[0].ik->game_mtl, "default_object");
  EXPECT_EQ(ogf.motion_refs, (std::vector<std::string>{"monsters\\zombi_animation", "monsters\\extra"}));
  EXPECT_EQ(ogf.motion_refs_chunk, 0x13u);
  EXPECT_EQ(*ogf.user_data, "[ini]\nx=1");
  ASSERT_TRUE(ogf.description && ogf.description->parsed);
  EXPECT_EQ(ogf.description->modifier, "modifier");
  EXPECT_EQ(xray::write_ogf(ogf), f.b);
  EXPECT_FALSE(xray::validate_ogf(ogf).has_errors());
}

TEST(OgfSkeleton, Refs2AndGarbageIkVersions) {
  Buf refs;
  refs.u32(2).str("a\\one").str("b\\*");
  // 0x81 (protected files): non-zero, so friction is present; 0x10000 truncates to 0: absent.
  for (std::uint32_t version : {0x81u, 0x10000u}) {
    const auto ogf = read_ok(model({{"root", ""}, {"b", "root"}}, &refs, 0x18, version));
    EXPECT_EQ(ogf.motion_refs, (std::vector<std::string>{"a\\one", "b\\*"}));
    EXPECT_EQ(ogf.bones[1].ik->joint.friction.has_value(), version == 0x81u);
    EXPECT_FLOAT_EQ(ogf.bones[1].ik->bind_position.y, 0.25f);
  }
}

TEST(OgfSkeleton, SecondRootIsAWarningWithoutMotionsAndAnErrorWithThem) {
  const std::vector<BoneDef> two = {{"root", ""}, {"other", ""}};
  const auto d1 = xray::validate_ogf(read_ok(model(two)));
  EXPECT_FALSE(d1.has_errors());
  EXPECT_TRUE(has(d1, Severity::warning, "second root"));
  Buf refs;
  refs.str("x\\y");
  const auto d2 = xray::validate_ogf(read_ok(model(two, &refs)));
  EXPECT_TRUE(has(d2, Severity::error, "second root"));
}

TEST(OgfSkeleton, TreeErrors) {
  EXPECT_TRUE(has(xray::validate_ogf(read_ok(model({{"root", ""}, {"a", "nowhere"}}))), Severity::error,
                  "parent bone does not exist"));
  EXPECT_TRUE(has(xray::validate_ogf(read_ok(model({{"root", ""}, {"a", "b"}, {"b", "a"}}))), Severity::error,
                  "cycle"));
  EXPECT_TRUE(has(xray::validate_ogf(read_ok(model({{"root", ""}, {"ROOT", "root"}}))), Severity::error,
                  "duplicate bone name"));
  std::vector<BoneDef> many = {{"b0", ""}};
  for (int i = 1; i < 65; ++i) many.push_back({"b" + std::to_string(i), "b0"});
  EXPECT_TRUE(has(xray::validate_ogf(read_ok(model(many))), Severity::error, "too many bones"));
}

TEST(OgfSkeleton, BrokenChunksFailWithOffsetsAndPaths) {
  // IK data one record short.
  Buf f;
  f.chunk(0x1, header_payload()).chunk(0xD, bone_names({{"root", ""}, {"a", "root"}})).chunk(0x10, ik_data(1));
  auto r = xray::read_ogf(FileData::from_vector(f.b));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().path.find("0x10 bone 1"), std::string::npos) << r.error().path;
  // A bone count that cannot fit: fails before allocating.
  Buf g;
  g.chunk(0x1, header_payload()).chunk(0xD, Buf().u32(0xFFFFFFFFu));
  r = xray::read_ogf(FileData::from_vector(g.b));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().path.find("0xD"), std::string::npos);
  // OGF v3 (a 4-byte header) is a format of its own: the v4 reader says so, the v3 reader reads it.
  Buf v3;
  v3.chunk(0x1, Buf().u32(3));
  r = xray::read_ogf(FileData::from_vector(v3.b));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("an OGF v3 model"), std::string::npos) << r.error().message;
  EXPECT_TRUE(xray::read_ogf_v3(FileData::from_vector(v3.b)));
}

// Reads, validates without errors and rewrites byte for byte; the bone count when `bones` is given.
void check_skeleton(const fs::path& path, std::size_t bones) {
  auto data = open_file(path);
  if (xray::looks_like_ogf_v3(data->bytes())) {  // OGF v3: its own model, held to the same checks
    auto v3 = xray::read_ogf_v3(data);
    ASSERT_TRUE(v3) << format_finding(v3.error(), path.string());
    const auto out = xray::write_ogf_v3(v3.value());
    EXPECT_TRUE(std::equal(out.begin(), out.end(), data->bytes().begin(), data->bytes().end()));
    EXPECT_FALSE(xray::validate_ogf_v3(v3.value()).has_errors());
    EXPECT_TRUE(v3->has_bind_pose() || v3->bones.empty());
    if (bones != 0) {
      EXPECT_EQ(v3->bones.size(), bones);
    }
    return;
  }
  auto ogf = xray::read_ogf(data);
  ASSERT_TRUE(ogf) << format_finding(ogf.error(), path.string());
  const auto out = xray::write_ogf(ogf.value());
  EXPECT_TRUE(std::equal(out.begin(), out.end(), data->bytes().begin(), data->bytes().end()));
  EXPECT_FALSE(xray::validate_ogf(ogf.value()).has_errors());
  EXPECT_TRUE(ogf->has_ik || ogf->bones.empty());
  if (bones != 0) {
    EXPECT_EQ(ogf->bones.size(), bones);
  }
}

// The shipped example always (root > upper_arm > forearm); every real sample when present.
TEST(OgfSkeleton, EverySampleReadsValidatesAndRewritesByteExact) {
  {
    SCOPED_TRACE("examples/wave_arm.ogf");
    check_skeleton(source_dir() / "examples/wave_arm.ogf", 3);
  }
  if (!have_samples("xray")) return;
  const std::map<std::string, std::size_t> bones = {
      {"cop/headflash_hud.ogf", 1},   {"cop/medkit_exo_hud.ogf", 8}, {"soc/zombi_1.ogf", 41},
      {"soc/wpn_binoculars_hud.ogf", 44}, {"soc/rat_1.ogf", 29},    {"cs/stalker_lesnik_1.ogf", 61},
      {"sdk/blender-xray/test_fmt_ogf_v3.ogf", 1}};
  std::size_t seen = 0;
  for (const auto& e : fs::recursive_directory_iterator(samples_dir() / "xray")) {
    if (e.path().extension() != ".ogf") continue;
    const std::string rel = fs::relative(e.path(), samples_dir() / "xray").generic_string();
    SCOPED_TRACE(rel);
    const auto it = bones.find(rel);
    check_skeleton(e.path(), it == bones.end() ? 0 : it->second);
    ++seen;
  }
  EXPECT_GE(seen, 10u);
}

}  // namespace
}  // namespace boneyard::test
