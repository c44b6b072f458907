// glTF -> .ogf without a template: zombi_1 (skinned), protein (rigid) and a static model come back
// as valid models with the same triangles (positions, UVs, weights) and bone names; refs and user
// data from the options or the export's extras; the game decides ids, refs chunk and link limit;
// the engine's limits are errors naming the node.
#include <cmath>

#include "boneyard/core/text.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "model_support.h"
#include "ogf_fixture.h"
#include "ogf_mesh_fixture.h"
#include "scene/extras_json.h"
#include "xray/ogf/ogf_import_internal.h"

namespace boneyard::test {
namespace {

namespace oi = xray::ogf_import;

// The model's full-detail triangles as one soup, influences merged by bone (the decoder repeats
// bones in unused slots), normals unit: what the scene says about it.
oi::Soup soup_of(const xray::OgfFile& f) {
  oi::Soup all;
  for (const auto& c : f.children) {
    oi::Soup s;
    for (std::size_t i = 0; i < c.vertices->count; ++i) {
      xray::OgfVertex v = xray::decode_vertex(*c.vertices, i);
      const double l = std::sqrt(double(v.normal.x) * v.normal.x + double(v.normal.y) * v.normal.y + double(v.normal.z) * v.normal.z);
      v.normal = {float(v.normal.x / l), float(v.normal.y / l), float(v.normal.z / l)};
      std::array<std::pair<float, std::uint16_t>, 4> inf{};
      int n = 0;
      for (int k = 0; k < v.links; ++k) {
        if (!(v.weights[std::size_t(k)] > 1e-6f)) continue;
        bool merged = false;
        for (int m = 0; m < n; ++m)
          if (inf[std::size_t(m)].second == v.bones[std::size_t(k)]) inf[std::size_t(m)].first += v.weights[std::size_t(k)], merged = true;
        if (!merged) inf[std::size_t(n++)] = {v.weights[std::size_t(k)], v.bones[std::size_t(k)]};
      }
      v.links = c.vertices->links() == 0 ? 0 : n;
      for (int k = 0; k < 4; ++k) {
        v.bones[std::size_t(k)] = k < n ? inf[std::size_t(k)].second : 0;
        v.weights[std::size_t(k)] = k < n ? inf[std::size_t(k)].first : 0;
      }
      s.vertices.push_back(v);
    }
    const auto [first, count] = c.full_detail();
    for (std::size_t k = 0; k < count; ++k) s.indices.push_back(c.index_at(first + k));
    oi::append(all, s);
  }
  return all;
}

void expect_same_triangles(const xray::OgfFile& want, const xray::OgfFile& got, const std::string& what) {
  const oi::Soup a = soup_of(want), b = soup_of(got);
  EXPECT_EQ(a.indices.size(), b.indices.size()) << what;
  std::vector<bool> taken;
  EXPECT_TRUE(oi::find_triangles(a, b, taken)) << what << ": a triangle of the original is missing";
}

Result<std::vector<std::uint8_t>> import_new(const scene::Scene& s, Diagnostics& w, xray::Game game = xray::Game::keep,
                                             xray::OgfImportStats* st = nullptr) {
  xray::OgfImportOptions o;
  o.game = game;
  return xray::scene_to_ogf_bytes(s, o, w, st);
}

TEST(OgfNewModel, ZombiComesBackWithItsBonesAndTriangles) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const xray::OgfFile tpl = load_ogf(samples_dir() / "xray/soc/zombi_1.ogf");
  scene::Scene s = read_glb(export_glb(tpl));
  for (const xray::Game game : {xray::Game::soc, xray::Game::cop}) {
    Diagnostics w;
    auto out = import_new(s, w, game);
    ASSERT_TRUE(out) << out.error().path << ": " << out.error().message;
    const xray::OgfFile r = ogf_from(out.value());
    EXPECT_FALSE(xray::validate_ogf(r).has_errors());
    EXPECT_EQ(r.header.type, 10);  // no refs given: rigid kind
    ASSERT_EQ(r.bones.size(), tpl.bones.size());
    for (std::size_t b = 0; b < r.bones.size(); ++b) {
      EXPECT_EQ(r.bones[b].name, tpl.bones[b].name);
      EXPECT_EQ(r.bones[b].parent_name, tpl.bones[b].parent_name);
      EXPECT_EQ(r.bones[b].ik->bind_rotation, tpl.bones[b].ik->bind_rotation);  // from the joint extras, exact
      EXPECT_EQ(r.bones[b].ik->bind_position, tpl.bones[b].ik->bind_position);
      EXPECT_EQ(r.bones[b].ik->game_mtl, tpl.bones[b].ik->game_mtl);
    }
    for (const auto& c : r.children) {
      EXPECT_EQ(c.header.type, 5);
      if (game == xray::Game::soc) EXPECT_TRUE(c.vertices->format == 0x12071980u || c.vertices->format == 0x240E3300u);
      else EXPECT_LE(c.vertices->format, 4u);
    }
    expect_same_triangles(tpl, r, game == xray::Game::soc ? "soc" : "cop");
    // Bones with vertices get a box (a zero box makes the model vanish near the screen edges).
    std::size_t boxed = 0;
    for (const auto& b : r.bones) boxed += b.obb.halfsize.x > 0 && b.obb.halfsize.y > 0 && b.obb.halfsize.z > 0;
    EXPECT_GE(boxed, 20u);
  }
}

TEST(OgfNewModel, RefsAndUserDataFromOptionsOrExtras) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const xray::OgfFile tpl = load_ogf(samples_dir() / "xray/cs/stalker_lesnik_1.ogf");
  scene::Scene s = read_glb(export_glb(tpl));
  {  // the export's extras (as ogf_to_scene writes them): refs and user data come back
    json_of(s.extras)["xray"]["motion_refs"] = nlohmann::json::array({"actors\\lesnik_animation"});
    json_of(s.extras)["xray"]["user_data"] = cp1251_to_utf8(*tpl.user_data);
    Diagnostics w;
    auto out = import_new(s, w, xray::Game::cs);
    ASSERT_TRUE(out) << out.error().message;
    const xray::OgfFile r = ogf_from(out.value());
    EXPECT_EQ(r.header.type, 3);
    EXPECT_EQ(r.motion_refs_chunk, xray::kOgfMotionRefs2);  // CS/CoP SDK
    EXPECT_EQ(r.motion_refs, tpl.motion_refs);
    EXPECT_EQ(r.user_data, tpl.user_data);
  }
  {  // options win; SoC: refs in 0x13, at most 3
    xray::OgfImportOptions o;
    o.game = xray::Game::soc;
    o.motion_refs = std::vector<std::string>{"a\\b", "c\\d"};
    o.user_data = "[x]\ny = 1\n";
    Diagnostics w;
    auto out = xray::scene_to_ogf_bytes(s, o, w);
    ASSERT_TRUE(out) << out.error().message;
    const xray::OgfFile r = ogf_from(out.value());
    EXPECT_EQ(r.motion_refs_chunk, xray::kOgfMotionRefs);
    EXPECT_EQ(r.motion_refs, (std::vector<std::string>{"a\\b", "c\\d"}));
    EXPECT_EQ(*r.user_data, "[x]\ny = 1\n");
    o.motion_refs = std::vector<std::string>{"a", "b", "c", "d"};
    auto refused = xray::scene_to_ogf_bytes(s, o, w);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message, "too many motion refs for the game");
  }
}

TEST(OgfNewModel, RigidModelStaysRigid) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const xray::OgfFile tpl = load_ogf(samples_dir() / "xray/cop/protein.ogf");
  const scene::Scene s = read_glb(export_glb(tpl));
  Diagnostics w;
  auto out = import_new(s, w);
  ASSERT_TRUE(out) << out.error().path << ": " << out.error().message;
  const xray::OgfFile r = ogf_from(out.value());
  EXPECT_EQ(r.header.type, 10);
  ASSERT_EQ(r.bones.size(), tpl.bones.size());
  for (const auto& c : r.children) EXPECT_EQ(c.vertices->links(), 1);
  expect_same_triangles(tpl, r, "protein");
}

TEST(OgfNewModel, StaticModelBecomesAHierarchyOfFvfChildren) {
  ChildSpec a, b;
  a.type = b.type = 0;
  a.format = b.format = 0x112;
  b.texture = "other\\tex";
  for (int i = 0; i < 4; ++i) {
    MeshVertex v;
    v.p = {float(i % 2), float(i / 2), 0.25f};
    v.n = {0, 0, -1};
    v.u = float(i % 2), v.v = float(i / 2);
    a.vertices.push_back(static_vertex(v));
    v.p[2] = 1;
    b.vertices.push_back(static_vertex(v));
  }
  a.indices = b.indices = {0, 1, 2, 1, 3, 2};
  Buf f;
  f.chunk(0x1, child_header(1)).chunk(0x9, children({child(a), child(b)}));
  const xray::OgfFile tpl = ogf_from(f.b);
  const scene::Scene s = read_glb(export_glb(tpl));
  Diagnostics w;
  auto out = import_new(s, w);
  ASSERT_TRUE(out) << out.error().path << ": " << out.error().message;
  const xray::OgfFile r = ogf_from(out.value());
  EXPECT_EQ(r.header.type, 1);
  EXPECT_TRUE(r.bones.empty());
  ASSERT_EQ(r.children.size(), 2u);
  for (const auto& c : r.children) {
    EXPECT_EQ(c.header.type, 0);
    EXPECT_EQ(c.vertices->format, 0x112u);
  }
  EXPECT_EQ(r.children[1].texture, "other\\tex");
  expect_same_triangles(tpl, r, "static");
  EXPECT_FLOAT_EQ(r.header.bbox[5], 1.0f);
}

TEST(OgfNewModel, EngineLimitsAreErrorsNamingTheNode) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const xray::OgfFile tpl = load_ogf(samples_dir() / "xray/soc/zombi_1.ogf");
  {  // 65 joints in the skin
    scene::Scene s = read_glb(export_glb(tpl));
    const std::size_t n = s.skeleton.joints.size();
    for (std::size_t k = 0; k < 30; ++k) {
      scene::Joint j;
      j.name = "extra_" + std::to_string(k);
      j.parent = 0;
      s.skeleton.joints.push_back(j);
      s.skeleton.skin.push_back(static_cast<std::uint32_t>(n + k));
    }
    Diagnostics w;
    auto r = import_new(s, w);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "too many bones for the engine (a 64-bit visibility mask)");
    EXPECT_NE(r.error().path.find("extra_"), std::string::npos) << r.error().path;
  }
  {  // two bones whose names differ only in case
    scene::Scene s = read_glb(export_glb(tpl));
    s.skeleton.joints[2].name = s.skeleton.joints[1].name;
    json_of(s.skeleton.joints[2].extras) = nullptr;
    for (auto& c : s.skeleton.joints[2].name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    Diagnostics w;
    auto r = import_new(s, w);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("duplicate bone name"), std::string::npos);
  }
}

}  // namespace
}  // namespace boneyard::test
