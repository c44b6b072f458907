// .ogf edits on the native model: listing, texture/shader, motion refs, user data and retarget
// change only what they are asked to (the other chunks and children keep their bytes), refuse
// names the format cannot hold, and report what they did.
#include "boneyard/xray/ogf/ogf_edit.h"
#include "model_support.h"

namespace boneyard::test {
namespace {

bool same_chunk(const xray::OgfFile& a, const xray::OgfFile& b, std::uint32_t id) {
  const Chunk* x = a.chunks.find(id);
  const Chunk* y = b.chunks.find(id);
  if (!x || !y) return x == y;
  return std::equal(x->payload.begin(), x->payload.end(), y->payload.begin(), y->payload.end());
}

TEST(OgfEdit, ListChildren) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const xray::OgfFile f = load_ogf(samples_dir() / "xray/soc/zombi_1.ogf");
  const auto list = xray::list_children(f);
  ASSERT_EQ(list.size(), f.children.size());
  EXPECT_EQ(list[0].texture, "act\\act_zombie_6");
  EXPECT_EQ(list[0].vertex_format, 0x240E3300u);
  EXPECT_EQ(list[0].links, 2);
  EXPECT_TRUE(list[0].progressive);
  EXPECT_EQ(list[0].vertices, f.children[0].vertices->count);
  EXPECT_EQ(list[0].triangles, f.children[0].windows[0].triangles);
}

TEST(OgfEdit, SetTextureAndShaderKeepsEverythingElse) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const xray::OgfFile before = load_ogf(samples_dir() / "xray/cs/stalker_lesnik_1.ogf");
  xray::OgfFile f = before;
  auto r = xray::set_child_material(f, {"0"}, std::string("act\\act_new"), std::nullopt);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->changes.size(), 1u);
  EXPECT_NE(r->changes[0].find("0x9/0 texture"), std::string::npos);
  EXPECT_EQ(f.children[0].texture, "act\\act_new");
  EXPECT_EQ(f.children[0].shader, before.children[0].shader);
  for (std::uint32_t c = 1; c < f.children.size(); ++c) EXPECT_EQ(child_bytes(f, c), child_bytes(before, c));
  for (std::uint32_t id : {0x1u, 0xDu, 0x10u, 0x11u, 0x18u}) EXPECT_TRUE(same_chunk(f, before, id)) << id;
  // By glob over texture names, shader only.
  auto g = xray::set_child_material(f, {"ACT\\ACT_NEW"}, std::nullopt, std::string("models\\model_x"));
  ASSERT_TRUE(g) << g.error().message;
  EXPECT_EQ(f.children[0].shader, "models\\model_x");
  // Refused: nothing changes.
  const auto kept = xray::write_ogf(f);
  EXPECT_FALSE(xray::set_child_material(f, {"99"}, std::string("x"), std::nullopt));
  EXPECT_FALSE(xray::set_child_material(f, {"nomatch*"}, std::string("x"), std::nullopt));
  EXPECT_FALSE(xray::set_child_material(f, {"0"}, std::string("\xe4\xb8\xad"), std::nullopt));  // no cp1251 form
  EXPECT_FALSE(xray::set_child_material(f, {"0"}, std::string("a\0b", 3), std::nullopt));
  auto long_name = xray::set_child_material(f, {"0"}, std::string(300, 'x'), std::nullopt);
  ASSERT_FALSE(long_name);
  EXPECT_EQ(long_name.error().message, "texture name too long for the engine");
  EXPECT_EQ(xray::write_ogf(f), kept);
}

TEST(OgfEdit, MotionRefsKeepTheChunkAndSetTheType) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  {
    xray::OgfFile f = load_ogf(samples_dir() / "xray/soc/zombi_1.ogf");  // 0x13
    const xray::OgfFile before = f;
    auto r = xray::set_motion_refs(f, {"monsters\\zombi_animation", "monsters\\extra"});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(f.motion_refs_chunk, xray::kOgfMotionRefs);
    EXPECT_EQ(f.motion_refs.size(), 2u);
    EXPECT_TRUE(same_chunk(f, before, 0x9) && same_chunk(f, before, 0xD) && same_chunk(f, before, 0x10));
  }
  {
    xray::OgfFile f = load_ogf(samples_dir() / "xray/cop/medkit_exo_hud.ogf");  // 0x18
    ASSERT_TRUE(xray::set_motion_refs(f, {"x\\y"}));
    EXPECT_EQ(f.motion_refs_chunk, xray::kOgfMotionRefs2);
    EXPECT_EQ(f.motion_refs, std::vector<std::string>{"x\\y"});
  }
  {
    xray::OgfFile f = load_ogf(samples_dir() / "xray/cop/protein.ogf");  // rigid, no refs
    ASSERT_EQ(f.header.type, 10);
    auto r = xray::set_motion_refs(f, {"dynamics\\protein_anims"}, xray::Game::cop);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(f.header.type, 3);
    EXPECT_EQ(f.motion_refs_chunk, xray::kOgfMotionRefs2);
    ASSERT_TRUE(xray::set_motion_refs(f, {}));  // removed again: rigid again
    EXPECT_EQ(f.header.type, 10);
    EXPECT_EQ(f.motion_refs_chunk, 0u);
    EXPECT_EQ(xray::write_ogf(f), read_file(samples_dir() / "xray/cop/protein.ogf"));
  }
  {  // SoC: at most 3 refs; a comma cannot be stored in 0x13
    xray::OgfFile f = load_ogf(samples_dir() / "xray/soc/zombi_1.ogf");
    EXPECT_FALSE(xray::set_motion_refs(f, {"a", "b", "c", "d"}, xray::Game::soc));
    auto comma = xray::set_motion_refs(f, {"a,b"});
    ASSERT_FALSE(comma);
    EXPECT_NE(comma.error().message.find("comma"), std::string::npos);
  }
}

TEST(OgfEdit, UserDataAddedReplacedRemoved) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  xray::OgfFile f = load_ogf(samples_dir() / "xray/soc/wpn_binoculars_hud.ogf");
  const auto original = read_file(samples_dir() / "xray/soc/wpn_binoculars_hud.ogf");
  ASSERT_FALSE(f.user_data);
  ASSERT_TRUE(xray::set_user_data(f, "[collide]\nignore_static\n"));
  ASSERT_TRUE(f.user_data);
  EXPECT_EQ(*f.user_data, "[collide]\nignore_static\n");
  // Placed after the IK data, as the SDK writes it.
  std::size_t ik = 0, ud = 0;
  for (std::size_t i = 0; i < f.chunks.chunks.size(); ++i) {
    if (f.chunks.chunks[i].id() == 0x10) ik = i;
    if (f.chunks.chunks[i].id() == 0x11) ud = i;
  }
  EXPECT_EQ(ud, ik + 1);
  ASSERT_TRUE(xray::set_user_data(f, "[other]\n"));
  EXPECT_EQ(*f.user_data, "[other]\n");
  ASSERT_TRUE(xray::set_user_data(f, ""));
  EXPECT_FALSE(f.user_data);
  EXPECT_EQ(xray::write_ogf(f), original);
}

TEST(OgfEdit, UserDataRemovedFromAModelThatHasIt) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  xray::OgfFile f = load_ogf(samples_dir() / "xray/soc/zombi_1.ogf");
  ASSERT_TRUE(f.user_data);
  auto r = xray::set_user_data(f, "");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->changes, std::vector<std::string>{"user data removed"});
  EXPECT_FALSE(f.user_data);
  EXPECT_EQ(f.chunks.find(xray::kOgfUserData), nullptr);
}

TEST(OgfEdit, RetargetConvertsVertexIdsRefsAndLinks) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  {  // CoP numeric 2L -> SoC magic 2L: the same vertex bytes under the other id
    xray::OgfFile f = load_ogf(samples_dir() / "xray/cop/cat_weak.ogf");
    const xray::OgfFile before = f;
    auto r = xray::retarget_ogf(f, xray::Game::soc);
    ASSERT_TRUE(r) << r.error().message;
    for (std::size_t c = 0; c < f.children.size(); ++c) {
      EXPECT_EQ(f.children[c].vertices->format, 0x240E3300u);
      EXPECT_TRUE(std::equal(f.children[c].vertices->data.begin(), f.children[c].vertices->data.end(),
                             before.children[c].vertices->data.begin(), before.children[c].vertices->data.end()));
    }
    EXPECT_EQ(f.motion_refs_chunk, xray::kOgfMotionRefs);  // SoC reads only 0x13
    EXPECT_EQ(f.motion_refs, before.motion_refs);
    // And back to CoP: numeric ids again, the original children (0x13 stays: CS/CoP read it).
    ASSERT_TRUE(xray::retarget_ogf(f, xray::Game::cop));
    EXPECT_EQ(child_bytes(f, 0), child_bytes(before, 0));
    EXPECT_EQ(f.motion_refs_chunk, xray::kOgfMotionRefs);
  }
  {  // 3 links -> SoC's 2: the weight moved is reported per child
    xray::OgfFile f = load_ogf(samples_dir() / "xray/cop/flush_dead.ogf");
    auto r = xray::retarget_ogf(f, xray::Game::soc);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_FALSE(r->warnings.empty());
    EXPECT_NE(r->warnings[0].find("moved to their two heaviest bones"), std::string::npos) << r->warnings[0];
    for (const auto& c : f.children) EXPECT_EQ(c.vertices->links(), 2);
    EXPECT_FALSE(xray::validate_ogf(f).has_errors());
  }
  {  // CS refs in 0x18 -> SoC's 0x13
    xray::OgfFile f = load_ogf(samples_dir() / "xray/cs/stalker_lesnik_1.ogf");
    const auto refs = f.motion_refs;
    auto r = xray::retarget_ogf(f, xray::Game::soc);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(f.motion_refs_chunk, xray::kOgfMotionRefs);
    EXPECT_EQ(f.motion_refs, refs);
    EXPECT_EQ(f.chunks.find(xray::kOgfMotionRefs2), nullptr);
  }
  {  // nothing to do: no change, no error
    xray::OgfFile f = load_ogf(samples_dir() / "xray/soc/zombi_1.ogf");
    auto r = xray::retarget_ogf(f, xray::Game::soc);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->changes.empty());
  }
}

}  // namespace
}  // namespace boneyard::test
