// glTF -> .ogf with a template, edited: a moved vertex lands in its child (written in the
// template child's layout, with tangent frames) while the other children keep their bytes; a
// new primitive becomes a new child; removed children go; influence reduction, progressive
// children and the limits are reported.
#include <algorithm>
#include <cmath>

#include "boneyard/xray/ogf/ogf_import.h"
#include "model_support.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

struct Loaded {
  xray::OgfFile tpl;
  scene::Scene scene;
};

Loaded load(const char* name) {
  Loaded l{load_ogf(samples_dir() / "xray" / name), {}};
  l.scene = read_glb(export_glb(l.tpl));
  return l;
}

scene::Primitive* primitive_of(scene::Scene& s, std::size_t child, std::size_t* mesh = nullptr) {
  for (std::size_t m = 0; m < s.meshes.size(); ++m)
    for (auto& p : s.meshes[m].primitives) {
      const auto& x = json_of(p.extras);
      if (x.is_object() && x.contains("xray") && x["xray"].value("child", 9999u) == child) {
        if (mesh) *mesh = m;
        return &p;
      }
    }
  return nullptr;
}

Result<std::vector<std::uint8_t>> import(const Loaded& l, Diagnostics& w, xray::OgfImportStats* st = nullptr,
                                         xray::Game game = xray::Game::keep) {
  xray::OgfImportOptions o;
  o.template_ogf = &l.tpl;
  o.game = game;
  return xray::scene_to_ogf_bytes(l.scene, o, w, st);
}

bool has_warning(const Diagnostics& w, const std::string& part) {
  for (const auto& f : w.findings())
    if ((f.path + " " + f.message + " " + f.found).find(part) != std::string::npos) return true;
  return false;
}

double length(const Vec3& v) { return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z); }
double dot(const Vec3& a, const Vec3& b) { return double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z; }

TEST(OgfTemplateEdit, MovedVertexLandsAndOtherChildrenKeepTheirBytes) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  Loaded l = load("soc/wpn_binoculars_hud.ogf");  // two children, SoC magic 1L and 2L ids
  ASSERT_EQ(l.tpl.children.size(), 2u);
  scene::Primitive* p = primitive_of(l.scene, 1);
  ASSERT_NE(p, nullptr);
  const std::size_t exported_triangles = p->indices.size() / 3;
  p->positions[1] += 0.01f;  // vertex 0, y (glTF)
  const Vec3 moved{p->positions[0], p->positions[1], -p->positions[2]};
  Diagnostics w;
  xray::OgfImportStats st;
  auto out = import(l, w, &st);
  ASSERT_TRUE(out) << out.error().path << ": " << out.error().message;
  EXPECT_EQ(st.edited, 1u);
  EXPECT_EQ(st.kept, 1u);
  const xray::OgfFile r = ogf_from(out.value());
  ASSERT_EQ(r.children.size(), 2u);
  EXPECT_EQ(child_bytes(r, 0), child_bytes(l.tpl, 0));
  for (std::uint32_t id : {xray::kOgfBoneNames, xray::kOgfIkData, xray::kOgfMotionRefs, xray::kOgfDesc}) {
    const Chunk* a = r.chunks.find(id);
    const Chunk* b = l.tpl.chunks.find(id);
    ASSERT_TRUE(a && b) << id;
    EXPECT_TRUE(std::equal(a->payload.begin(), a->payload.end(), b->payload.begin(), b->payload.end())) << id;
  }
  const xray::OgfChild& c1 = r.children[1];
  const xray::OgfChild& t1 = l.tpl.children[1];
  EXPECT_EQ(c1.vertices->format, t1.vertices->format);  // the template child's layout (SoC magic 2L)
  EXPECT_EQ(c1.texture, t1.texture);
  EXPECT_EQ(c1.shader, t1.shader);
  EXPECT_EQ(c1.header.type, 5);
  EXPECT_EQ(c1.index_count / 3, exported_triangles);
  bool found = false;
  for (std::size_t i = 0; i < c1.vertices->count; ++i) {
    const xray::OgfVertex v = xray::decode_vertex(*c1.vertices, i);
    found = found || (std::fabs(v.position.x - moved.x) < 1e-6 && std::fabs(v.position.y - moved.y) < 1e-6 &&
                      std::fabs(v.position.z - moved.z) < 1e-6);
    // Tangent frames: unit, orthogonal to the normal.
    EXPECT_NEAR(length(v.tangent), 1.0, 1e-4);
    EXPECT_NEAR(length(v.binormal), 1.0, 1e-4);
    EXPECT_NEAR(dot(v.tangent, v.normal), 0.0, 1e-3);
  }
  EXPECT_TRUE(found);
  // The child's box holds the moved vertex; the model's box is the merge of the children's.
  EXPECT_LE(c1.header.bbox[1], moved.y);
  EXPECT_GE(c1.header.bbox[4], moved.y);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(r.header.bbox[k], std::min(r.children[0].header.bbox[k], c1.header.bbox[k]));
    EXPECT_EQ(r.header.bbox[k + 3], std::max(r.children[0].header.bbox[k + 3], c1.header.bbox[k + 3]));
  }
  // Exported again: the moved vertex is there, everything else as before.
  scene::Scene again = read_glb(export_glb(r));
  const scene::Primitive* q = primitive_of(again, 1);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->indices.size() / 3, exported_triangles);
}

TEST(OgfTemplateEdit, EditedProgressiveChildLosesItsSlideWindowsWithAWarning) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  Loaded l = load("soc/zombi_1.ogf");
  ASSERT_FALSE(l.tpl.children[0].windows.empty());
  primitive_of(l.scene, 0)->positions[0] += 0.01f;
  Diagnostics w;
  auto out = import(l, w);
  ASSERT_TRUE(out) << out.error().message;
  const xray::OgfFile r = ogf_from(out.value());
  EXPECT_EQ(r.children[0].header.type, 5);
  EXPECT_TRUE(r.children[0].windows.empty());
  EXPECT_EQ(r.children[0].chunks.find(xray::kOgfSwiData), nullptr);
  EXPECT_TRUE(has_warning(w, "0x9/0 edited progressive child"));
  EXPECT_EQ(r.children[0].index_count / 3, l.tpl.children[0].windows[0].triangles);  // full detail kept
}

TEST(OgfTemplateEdit, NewPrimitiveBecomesANewChildWithItsMaterial) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  Loaded l = load("cop/cat_weak.ogf");
  std::size_t mesh = 0;
  scene::Primitive copy = *primitive_of(l.scene, 0, &mesh);
  json_of(copy.extras) = nullptr;
  for (std::size_t i = 0; i < copy.positions.size(); i += 3) copy.positions[i] += 1.0f;
  scene::Material m;
  m.name = "new material";
  json_of(m.extras)["xray"] = {{"texture", "act\\act_new"}, {"shader", "models\\model_new"}};
  copy.material = static_cast<std::uint32_t>(l.scene.materials.size());
  l.scene.materials.push_back(m);
  l.scene.meshes[mesh].primitives.push_back(copy);
  Diagnostics w;
  xray::OgfImportStats st;
  auto out = import(l, w, &st);
  ASSERT_TRUE(out) << out.error().path << ": " << out.error().message;
  EXPECT_EQ(st.added, 1u);
  EXPECT_EQ(st.kept, l.tpl.children.size());
  const xray::OgfFile r = ogf_from(out.value());
  ASSERT_EQ(r.children.size(), l.tpl.children.size() + 1);
  const xray::OgfChild& n = r.children.back();
  EXPECT_EQ(n.texture, "act\\act_new");
  EXPECT_EQ(n.shader, "models\\model_new");
  EXPECT_EQ(n.header.type, 5);
  EXPECT_LE(n.vertices->format, 4u);  // cat_weak is CS/CoP (numeric ids): the game's layout
  // The model's box grew by the copy's metre.
  EXPECT_GT(r.header.bbox[3], l.tpl.header.bbox[3] + 0.5f);
}

TEST(OgfTemplateEdit, MaterialNamesFromNameOrErrorNamingTheMaterial) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  Loaded l = load("cop/cat_weak.ogf");
  std::size_t mesh = 0;
  scene::Primitive copy = *primitive_of(l.scene, 0, &mesh);
  json_of(copy.extras) = nullptr;
  for (std::size_t i = 1; i < copy.positions.size(); i += 3) copy.positions[i] += 2.0f;
  scene::Material m;
  m.name = "act\\act_other";
  copy.material = static_cast<std::uint32_t>(l.scene.materials.size());
  l.scene.materials.push_back(m);
  l.scene.meshes[mesh].primitives.push_back(copy);
  Diagnostics w;
  auto out = import(l, w);
  ASSERT_TRUE(out) << out.error().message;
  const xray::OgfFile r = ogf_from(out.value());
  EXPECT_EQ(r.children.back().texture, "act\\act_other");
  EXPECT_EQ(r.children.back().shader, "models\\model");
  EXPECT_TRUE(has_warning(w, "material has no shader"));
  l.scene.materials.back().name.clear();
  Diagnostics w2;
  auto refused = import(l, w2);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().path.find("material " + std::to_string(l.scene.materials.size() - 1)), std::string::npos)
      << refused.error().path;
  EXPECT_EQ(refused.error().message, "material names no texture");
}

TEST(OgfTemplateEdit, RemovedPrimitiveRemovesItsChild) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  Loaded l = load("cop/handflash_hud.ogf");
  ASSERT_EQ(l.tpl.children.size(), 3u);
  std::size_t mesh = 0;
  scene::Primitive* p = primitive_of(l.scene, 0, &mesh);
  auto& prims = l.scene.meshes[mesh].primitives;
  prims.erase(prims.begin() + (p - prims.data()));
  Diagnostics w;
  xray::OgfImportStats st;
  auto out = import(l, w, &st);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(st.removed, 1u);
  const xray::OgfFile r = ogf_from(out.value());
  ASSERT_EQ(r.children.size(), l.tpl.children.size() - 1);
  EXPECT_EQ(child_bytes(r, 0), child_bytes(l.tpl, 1));  // renumbered, bytes kept
  EXPECT_TRUE(has_warning(w, "template child removed"));
}

TEST(OgfTemplateEdit, InfluencesBeyondTheGamesLimitAreReported) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  Loaded l = load("soc/wpn_binoculars_hud.ogf");  // SoC magic 2L ids: 2 influences at most
  scene::Primitive* p = primitive_of(l.scene, 1);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->joints.size(), p->vertex_count() * 4);
  p->joints[0] = 1, p->joints[1] = 2, p->joints[2] = 3, p->joints[3] = 0;
  p->weights[0] = 0.5f, p->weights[1] = 0.3f, p->weights[2] = 0.2f, p->weights[3] = 0;
  Diagnostics w;
  xray::OgfImportStats st;
  auto out = import(l, w, &st);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(st.moved_weight_vertices, 1u);
  EXPECT_TRUE(has_warning(w, "influences beyond 2 per vertex"));
  EXPECT_TRUE(has_warning(w, "weight 0.2 moved"));
  const xray::OgfFile r = ogf_from(out.value());
  EXPECT_EQ(r.children[1].vertices->links(), 2);
  // For CoP the same vertex keeps its three influences (numeric 3-link layout).
  Diagnostics w3;
  auto cop = import(l, w3, nullptr, xray::Game::cop);
  ASSERT_TRUE(cop) << cop.error().message;
  EXPECT_EQ(ogf_from(cop.value()).children[1].vertices->links(), 3);
}

TEST(OgfTemplateEdit, LimitsAndMismatchesAreErrorsNamingTheItem) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  {  // a joint moved away from the template's bind pose
    Loaded l = load("soc/zombi_1.ogf");
    l.scene.skeleton.joints[3].translation.x += 0.01f;
    Diagnostics w;
    auto r = import(l, w);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("skeleton mismatch"), std::string::npos);
    EXPECT_NE(r.error().path.find(l.scene.skeleton.joints[3].name), std::string::npos);
  }
  {  // a vertex weighted to a node that is no bone (the model's root node)
    Loaded l = load("soc/zombi_1.ogf");
    scene::Primitive* p = primitive_of(l.scene, 0);
    p->joints[0] = static_cast<std::uint16_t>(l.tpl.bones.size());  // the root node
    p->weights[0] = 1, p->weights[1] = p->weights[2] = p->weights[3] = 0;
    Diagnostics w;
    auto r = import(l, w);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("no bone of the model"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().path.find("primitive"), std::string::npos);
  }
  {  // more vertices than 16-bit indices reach
    Loaded l = load("cop/cat_weak.ogf");
    std::size_t mesh = 0;
    scene::Primitive big = *primitive_of(l.scene, 0, &mesh);
    json_of(big.extras) = nullptr;
    const std::size_t n = big.vertex_count();
    scene::Primitive grown = big;
    while (grown.vertex_count() < 70000) {
      const auto base = static_cast<std::uint32_t>(grown.vertex_count());
      grown.positions.insert(grown.positions.end(), big.positions.begin(), big.positions.end());
      grown.normals.insert(grown.normals.end(), big.normals.begin(), big.normals.end());
      grown.uvs[0].insert(grown.uvs[0].end(), big.uvs[0].begin(), big.uvs[0].end());
      grown.joints.insert(grown.joints.end(), big.joints.begin(), big.joints.end());
      grown.weights.insert(grown.weights.end(), big.weights.begin(), big.weights.end());
      for (auto i : big.indices) grown.indices.push_back(base + i);
    }
    ASSERT_GT(n, 0u);
    scene::Material m;
    m.name = "act\\act_big";
    grown.material = static_cast<std::uint32_t>(l.scene.materials.size());
    l.scene.materials.push_back(m);
    l.scene.meshes[mesh].primitives.push_back(grown);
    Diagnostics w;
    auto r = import(l, w);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "too many vertices for one .ogf child (16-bit indices)");
    EXPECT_NE(r.error().path.find("primitive"), std::string::npos);
  }
}

TEST(OgfTemplateEdit, RigidModelVertexEditStaysOnItsBone) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  Loaded l = load("cop/protein.ogf");  // type 10: meshes on bone nodes
  scene::Primitive* p = primitive_of(l.scene, 0);
  ASSERT_NE(p, nullptr);
  p->positions[0] += 0.005f;
  Diagnostics w;
  xray::OgfImportStats st;
  auto out = import(l, w, &st);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(st.edited, 1u);
  const xray::OgfFile r = ogf_from(out.value());
  EXPECT_EQ(r.header.type, 10);
  EXPECT_EQ(r.children[0].vertices->links(), l.tpl.children[0].vertices->links());
  EXPECT_EQ(r.children[0].vertices->format, l.tpl.children[0].vertices->format);
  EXPECT_FALSE(xray::validate_ogf(r).has_errors());
}

}  // namespace
}  // namespace boneyard::test
