// OGF v3 (builds before 2004): the real sample (blender-xray's test file) read, validated,
// rewritten byte for byte and exported; hand-laid fixtures for every vertex format, the three IK
// layouts (the model-space bind of S_IKDATA_0 made relative to the parent), both motion layouts
// and parameter versions, progressive data, bit-31 chunk ids and hostile counts.
#include <cmath>

#include "boneyard/scene/scene.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/ogf_v3/ogf_v3_report.h"
#include "boneyard/xray/ogf_v3/ogf_v3_scene.h"
#include "boneyard/xray/omf/omf.h"
#include "ogf_v3_fixture.h"
#include "test_support.h"

namespace boneyard::xray {
namespace {

namespace fs = std::filesystem;
using test::Buf;
namespace v3 = test::v3;

constexpr float kPi = 3.14159265358979f;

OgfV3File read(const std::vector<std::uint8_t>& bytes) {
  auto f = read_ogf_v3(FileData::from_vector(bytes));
  EXPECT_TRUE(f) << (f ? "" : format_finding(f.error(), "fixture"));
  return f ? std::move(f).value() : OgfV3File{};
}

scene::Scene to_scene(const OgfV3File& f, Diagnostics& warnings, bool keep_going = false) {
  XrayExportOptions o;
  o.input = "model.ogf";
  o.keep_going = keep_going;
  auto s = ogf_v3_to_scene(f, o, warnings);
  EXPECT_TRUE(s) << (s ? "" : format_finding(s.error(), "fixture"));
  return s ? std::move(s).value() : scene::Scene{};
}

bool has(const Diagnostics& d, Severity s, const std::string& text) {
  for (const auto& f : d.findings())
    if (f.severity == s && (f.message + " " + f.path).find(text) != std::string::npos) return true;
  return false;
}

// A point of a glTF-space matrix.
std::array<double, 3> apply(const scene::Mat4& m, const float* p) {
  return {m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
          m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]};
}

fs::path sample() { return test::samples_dir() / "xray/sdk/blender-xray/test_fmt_ogf_v3.ogf"; }

TEST(OgfV3Sample, ReadsValidatesRewritesByteExactAndKnowsItsContents) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  auto data = FileData::open(sample()).value();
  const auto bytes = std::vector<std::uint8_t>(data->bytes().begin(), data->bytes().end());
  const OgfV3File f = read(bytes);
  EXPECT_EQ(f.model.header.version, 3);
  EXPECT_EQ(f.model.header.type, 0xF);  // SKELETON_RIGID
  ASSERT_EQ(f.bones.size(), 1u);
  EXPECT_EQ(f.bones[0].name, "bone01");
  EXPECT_EQ(f.ik_chunk, kOgf3IkData1);
  ASSERT_TRUE(f.bones[0].ik);
  EXPECT_EQ(f.bones[0].ik->game_mtl, "objects\\small_weapon");
  EXPECT_FALSE(f.bones[0].ik->joint.friction);
  EXPECT_FLOAT_EQ(f.bones[0].ik->mass, 10.0f);
  ASSERT_EQ(f.model.children.size(), 1u);
  const Ogf3Visual& c = f.model.children[0];
  EXPECT_EQ(c.path, "0x11/0");
  EXPECT_EQ(c.header.type, 7);  // SKELETON_GEOMDEF_ST
  EXPECT_EQ(c.texture.value_or(""), "item\\item_ustroystva");
  EXPECT_EQ(c.shader.value_or(""), "models\\weapons");
  ASSERT_TRUE(c.vertices);
  EXPECT_EQ(c.vertices->format, kOgf3Vertex1L);
  EXPECT_EQ(c.vertices->count, 24u);
  EXPECT_EQ(c.vertices->stride, 36u);
  EXPECT_EQ(c.index_count, 36u);
  ASSERT_TRUE(f.description && f.description->parsed);
  EXPECT_EQ(f.description->source, "item_aptechka.object");
  const Diagnostics d = validate_ogf_v3(f);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.count(Severity::warning), 0u);
  auto out = rewrite_ogf_v3(f);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out.value(), bytes);
  EXPECT_NE(describe_ogf_v3(f).find("v3, type 15 SKELETON_RIGID"), std::string::npos);
}

// The question the notes left open for 1-link vertices: stored in their bone's space. After the
// bone's bind transform the sample's 24 vertices fill its stored bounding box exactly (they do
// not as stored); the export puts the rigid mesh on the bone's node with the stored positions.
TEST(OgfV3Sample, BoneSpaceVerticesFillTheStoredBoxOnlyThroughTheBind) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  auto data = FileData::open(sample()).value();
  const OgfV3File f = read(std::vector<std::uint8_t>(data->bytes().begin(), data->bytes().end()));
  ASSERT_TRUE(f.model.bbox);
  Diagnostics w;
  const scene::Scene s = to_scene(f, w);
  EXPECT_EQ(w.count(Severity::warning), 0u);
  ASSERT_EQ(s.meshes.size(), 1u);
  const scene::Mesh& m = s.meshes[0];
  EXPECT_FALSE(m.skinned);
  EXPECT_EQ(m.joint, 0);
  ASSERT_EQ(m.primitives.size(), 1u);
  const auto world = scene::world_matrices(s.skeleton);
  std::array<double, 3> lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9}, raw_lo = lo, raw_hi = hi;
  const auto& p = m.primitives[0];
  for (std::size_t i = 0; i < p.vertex_count(); ++i) {
    auto g = apply(world[0], &p.positions[i * 3]);
    g[2] = -g[2];  // back to X-Ray space
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], g[k]), hi[k] = std::max(hi[k], g[k]);
      const double r = k == 2 ? -p.positions[i * 3 + 2] : p.positions[i * 3 + k];
      raw_lo[k] = std::min(raw_lo[k], r), raw_hi[k] = std::max(raw_hi[k], r);
    }
  }
  const auto& box = *f.model.bbox;
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(lo[k], box[k], 1e-5) << k;
    EXPECT_NEAR(hi[k], box[k + 3], 1e-5) << k;
  }
  EXPECT_GT(std::fabs(raw_lo[1] - box[1]), 0.05);  // as stored they do not fit it
  EXPECT_EQ(p.indices.size(), 36u);
  EXPECT_EQ(s.materials.size(), 1u);
}

// ---- vertex formats

std::vector<v3::Vertex> triangle_vertices(std::uint16_t b0 = 0, std::uint16_t b1 = 0, float w = 0) {
  std::vector<v3::Vertex> vs(3);
  for (int i = 0; i < 3; ++i) {
    vs[std::size_t(i)].p = {float(i), float(i % 2), 0.5f};
    vs[std::size_t(i)].uv = {0.25f * float(i), 0.5f};
    vs[std::size_t(i)].b0 = b0, vs[std::size_t(i)].b1 = b1, vs[std::size_t(i)].w = w;
  }
  return vs;
}

TEST(OgfV3Formats, StaticFvfModelAndHierarchy) {
  Buf normal;
  normal.add(v3::visual(0, v3::kFvf, triangle_vertices(), {0, 1, 2}));
  OgfV3File f = read(normal.b);
  ASSERT_TRUE(f.model.vertices);
  EXPECT_EQ(f.model.vertices->stride, 32u);
  EXPECT_EQ(f.model.vertices->links(), 0);
  const Ogf3Vertex x = decode_vertex(*f.model.vertices, 1);
  EXPECT_EQ(x.position.x, 1.0f);
  EXPECT_EQ(x.u, 0.25f);
  EXPECT_FALSE(validate_ogf_v3(f).has_errors());
  Diagnostics w;
  scene::Scene s = to_scene(f, w);
  ASSERT_EQ(s.meshes.size(), 1u);
  EXPECT_FALSE(s.meshes[0].skinned);
  const auto& p = s.meshes[0].primitives[0];
  EXPECT_EQ(p.positions[2], -0.5f);  // mirrored Z
  EXPECT_EQ(p.indices, (std::vector<std::uint32_t>{0, 2, 1}));
  EXPECT_TRUE(s.skeleton.joints.empty());

  Buf hierarchy;
  hierarchy.chunk(0x1, v3::header(1)).chunk(0x6, v3::bbox());
  hierarchy.chunk(0x11, v3::nested({v3::visual(0, v3::kFvf, triangle_vertices(), {0, 1, 2}, "a"),
                                    v3::visual(0, v3::kFvf, triangle_vertices(), {2, 1, 0}, "b")}));
  f = read(hierarchy.b);
  ASSERT_EQ(f.model.children.size(), 2u);
  EXPECT_EQ(f.model.children[1].path, "0x11/1");
  Diagnostics w2;
  s = to_scene(f, w2);
  ASSERT_EQ(s.meshes.size(), 1u);
  EXPECT_EQ(s.meshes[0].primitives.size(), 2u);
  EXPECT_EQ(s.materials.size(), 2u);
}

// Bone 1 sits at (0, 1, 0) under the root and is turned a quarter about Y (setXYZi with y = -pi/2
// is setHPB(h = pi/2): row-vector (x, y, z) -> (-z, y, x)). A 1-link vertex at (1, 0, 0) in its
// space is at (0, 1, 1) in the model, (0, 1, -1) in glTF.
const std::vector<v3::Bone> kTurned = {{"root", "", {0, 0, 0}, {0, 0, 0}}, {"arm", "root", {0, -kPi / 2, 0}, {0, 1, 0}}};

TEST(OgfV3Formats, OneLinkVerticesMoveThroughTheirBonesBind) {
  std::vector<v3::Vertex> vs = triangle_vertices(1);
  vs[0].p = {1, 0, 0};
  vs[0].n = {1, 0, 0};
  const OgfV3File f = read(v3::skinned_model(4, v3::k1L, vs, {0, 1, 2}, kTurned, 0x19));
  EXPECT_FALSE(validate_ogf_v3(f).has_errors());
  Diagnostics w;
  const scene::Scene s = to_scene(f, w);
  ASSERT_EQ(s.meshes.size(), 1u);
  const auto& p = s.meshes[0].primitives[0];
  EXPECT_TRUE(s.meshes[0].skinned);
  EXPECT_NEAR(p.positions[0], 0.0f, 1e-6);
  EXPECT_NEAR(p.positions[1], 1.0f, 1e-6);
  EXPECT_NEAR(p.positions[2], -1.0f, 1e-6);
  EXPECT_NEAR(p.normals[2], -1.0f, 1e-6);  // the normal turns with the bone
  EXPECT_EQ(p.joints[0], 1);
  EXPECT_EQ(p.weights[0], 1.0f);
}

TEST(OgfV3Formats, TwoLinkWeightsAfterTheBinormalAndPositionsThroughTheFirstBone) {
  std::vector<v3::Vertex> vs = triangle_vertices(1, 0, 0.25f);
  vs[0].p = {1, 0, 0};
  const OgfV3File f = read(v3::skinned_model(4, v3::k2L, vs, {0, 1, 2}, kTurned, 0x1C));
  const auto& c = f.model.children.at(0);
  ASSERT_TRUE(c.vertices);
  EXPECT_EQ(c.vertices->stride, 64u);
  const Ogf3Vertex x = decode_vertex(*c.vertices, 0);
  EXPECT_EQ(x.bones[0], 1);
  EXPECT_EQ(x.bones[1], 0);
  EXPECT_EQ(x.weights[0], 0.75f);
  EXPECT_EQ(x.weights[1], 0.25f);
  EXPECT_EQ(x.u, 0.0f);
  EXPECT_EQ(x.v, 0.5f);
  EXPECT_FALSE(validate_ogf_v3(f).has_errors());
  Diagnostics w;
  const scene::Scene s = to_scene(f, w);
  const auto& p = s.meshes.at(0).primitives.at(0);
  EXPECT_NEAR(p.positions[2], -1.0f, 1e-6);  // through bone 1, the first stored bone
  EXPECT_EQ(p.joints[0], 1);                 // sorted by weight
  EXPECT_EQ(p.weights[0], 0.75f);
  EXPECT_EQ(p.joints[1], 0);
  EXPECT_EQ(p.weights[1], 0.25f);
  // A weight outside [0, 1] would show a misplaced weight on real files: warned.
  vs[1].w = 3.0f;
  const OgfV3File bad = read(v3::skinned_model(4, v3::k2L, vs, {0, 1, 2}, kTurned, 0x1C));
  EXPECT_TRUE(has(validate_ogf_v3(bad), Severity::warning, "2-link weight outside [0, 1]"));
}

// ---- IK layouts

TEST(OgfV3Ik, ThreeLayoutsReadTheirFields) {
  const auto vs = triangle_vertices();
  for (std::uint32_t id : {0x17u, 0x19u, 0x1Cu}) {
    SCOPED_TRACE(id);
    const OgfV3File f = read(v3::skinned_model(0xF, v3::k1L, vs, {0, 1, 2}, kTurned, id));
    EXPECT_EQ(f.ik_chunk, id);
    const Ogf3Ik& ik = *f.bones.at(1).ik;
    EXPECT_EQ(ik.game_mtl, "default_object");
    EXPECT_EQ(ik.joint.type, 2u);
    EXPECT_EQ(ik.joint.limits[2].damping, 0.25f);
    EXPECT_EQ(ik.joint.damping, 2.0f);
    EXPECT_EQ(ik.joint.ik_flags, id == 0x17 ? 0u : 1u);
    EXPECT_EQ(ik.joint.break_torque, id == 0x17 ? 0.0f : 4.0f);
    EXPECT_EQ(ik.joint.friction.has_value(), id == 0x1C);
    EXPECT_EQ(ik.version.has_value(), id == 0x1C);
    EXPECT_EQ(ik.bind_position.y, 1.0f);
    EXPECT_EQ(ik.mass, 10.0f);
    EXPECT_EQ(f.bind_in_model_space(), id == 0x17);
    EXPECT_FALSE(validate_ogf_v3(f).has_errors());
  }
}

// S_IKDATA_0 stores the bind pose relative to the model: a child at model position (1, 1, 0)
// turned like its parent (at (0, 1, 0)) is, relative to the parent, unturned at (0, 0, -1)
// (the parent's inverse turn of (1, 0, 0)). The export then equals that of the same skeleton
// stored relative to the parent (S_IKDATA).
TEST(OgfV3Ik, ModelSpaceBindIsMadeRelativeToTheParent) {
  const std::vector<v3::Bone> global = {{"root", "", {0, -kPi / 2, 0}, {0, 1, 0}},
                                        {"arm", "root", {0, -kPi / 2, 0}, {1, 1, 0}}};
  const std::vector<v3::Bone> local = {{"root", "", {0, -kPi / 2, 0}, {0, 1, 0}}, {"arm", "root", {0, 0, 0}, {0, 0, -1}}};
  const auto vs = triangle_vertices(1);
  const OgfV3File g = read(v3::skinned_model(4, v3::k1L, vs, {0, 1, 2}, global, 0x17));
  const auto locals = bind_locals(g);
  ASSERT_EQ(locals.size(), 2u);
  EXPECT_NEAR(locals[1].position.x, 0.0f, 1e-6);
  EXPECT_NEAR(locals[1].position.y, 0.0f, 1e-6);
  EXPECT_NEAR(locals[1].position.z, -1.0f, 1e-6);
  EXPECT_NEAR(locals[1].rotation.y, 0.0f, 1e-6);
  EXPECT_EQ(locals[0].position.y, 1.0f);  // a root stays as stored
  const OgfV3File l = read(v3::skinned_model(4, v3::k1L, vs, {0, 1, 2}, local, 0x19));
  Diagnostics w1, w2;
  const scene::Scene a = to_scene(g, w1), b = to_scene(l, w2);
  ASSERT_EQ(a.skeleton.joints.size(), 2u);
  for (std::size_t j = 0; j < 2; ++j) {
    const auto& x = a.skeleton.joints[j];
    const auto& y = b.skeleton.joints[j];
    EXPECT_NEAR(x.translation.x, y.translation.x, 1e-6);
    EXPECT_NEAR(x.translation.y, y.translation.y, 1e-6);
    EXPECT_NEAR(x.translation.z, y.translation.z, 1e-6);
    EXPECT_NEAR(std::fabs(scene::dot(x.rotation, y.rotation)), 1.0f, 1e-6);
  }
  const auto& pa = a.meshes.at(0).primitives.at(0).positions;
  const auto& pb = b.meshes.at(0).primitives.at(0).positions;
  for (std::size_t i = 0; i < pa.size(); ++i) EXPECT_NEAR(pa[i], pb[i], 1e-5);
}

TEST(OgfV3Ik, WithoutIkDataTheSkeletonHasIdentityRestPosesAndAWarning) {
  std::vector<v3::Vertex> vs = triangle_vertices(1);
  vs[0].p = {1, 0, 0};
  const OgfV3File f = read(v3::skinned_model(4, v3::k1L, vs, {0, 1, 2}, kTurned, 0));
  EXPECT_FALSE(f.has_bind_pose());
  EXPECT_TRUE(has(validate_ogf_v3(f), Severity::warning, "no bind pose"));
  Diagnostics w;
  const scene::Scene s = to_scene(f, w);
  EXPECT_TRUE(has(w, Severity::warning, "no bind pose"));
  ASSERT_EQ(s.skeleton.joints.size(), 2u);
  EXPECT_EQ(s.skeleton.joints[1].parent, 0);
  EXPECT_EQ(s.skeleton.joints[1].translation.y, 0.0f);
  const auto& p = s.meshes.at(0).primitives.at(0).positions;
  EXPECT_EQ(p[0], 1.0f);  // as stored
  EXPECT_EQ(p[2], -0.0f);
}

// ---- motions

v3::Track float_track(float base) {
  v3::Track t;
  for (int f = 0; f < 3; ++f) {
    t.rot.push_back({0, 0, 0, 32767});
    t.trans_floats.push_back({base + 0.5f * float(f), 0.25f, -1.0f});
  }
  t.rot[2] = {0, 23170, 0, 23170};
  return t;
}

TEST(OgfV3Motions, OldLayoutFloatTranslationsMatchedByName) {
  Buf extra;
  extra.chunk(0x12, v3::params(0, {{"all", {{"", 0}, {"", 1}}}},
                               {{"idle", 0, false, true, 0, 1}, {"shot", 0, true, false, 1, 0}}));
  // The key sets in the other order: the engine matches them by name.
  extra.chunk(0xE, v3::key_sets(true, {{"shot", 3, {float_track(0), float_track(1)}},
                                       {"idle", 3, {float_track(2), float_track(3)}}}));
  const OgfV3File f = read(v3::skinned_model(4, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19, extra));
  ASSERT_TRUE(f.params && f.motions);
  EXPECT_EQ(f.params->chunk, 0x12u);
  EXPECT_EQ(f.params->motions[0].flags, 2u);  // a cycle that stops at its end
  EXPECT_EQ(f.params->motions[1].flags, 1u);  // an fx
  EXPECT_TRUE(f.motions->floats());
  ASSERT_EQ(f.motions->motions.size(), 2u);
  EXPECT_EQ(f.motions->motions[1].bones[1].translation(2).x, 4.0f);
  const Diagnostics d = validate_ogf_v3(f);
  EXPECT_FALSE(d.has_errors()) << (d.errors().empty() ? "" : d.errors()[0].message);
  Diagnostics w;
  const scene::Scene s = to_scene(f, w);
  ASSERT_EQ(s.animations.size(), 2u);
  const scene::Animation& idle = s.animations[0];
  EXPECT_EQ(idle.name, "idle");
  ASSERT_EQ(idle.timelines.size(), 2u);
  EXPECT_NEAR(idle.timelines[1].times[2], 2.0f / 30.0f, 1e-7);
  const scene::Channel& tr = idle.channels[3];  // bone 1 translation
  EXPECT_EQ(tr.joint, 1u);
  EXPECT_EQ(tr.path, scene::Channel::Path::translation);
  EXPECT_EQ(tr.values[6], 4.0f);   // idle's bone 1 is float_track(3), frame 2
  EXPECT_EQ(tr.values[8], 1.0f);   // Z mirrored
  const scene::Channel& rot = idle.channels[2];
  ASSERT_EQ(rot.shorts.size(), 12u);  // stored 16-bit components, as the .omf export writes them
  EXPECT_EQ(rot.shorts[9], 23170);
}

// The converter reads 0x12's motion kind as one byte, blender-xray as four: a file laid out the
// second way (which the first reading cannot use up) reads the same motions, with a note.
TEST(OgfV3Motions, OldParamsWithFourByteKindsReadTheSame) {
  Buf extra;
  extra.chunk(0x12, v3::params(0, {{"all", {{"", 0}, {"", 1}}}},
                               {{"idle", 0, false, true, 0, 1}, {"shot", 0, true, false, 1, 0}}, true));
  extra.chunk(0xE, v3::key_sets(true, {{"shot", 3, {float_track(0), float_track(1)}},
                                       {"idle", 3, {float_track(2), float_track(3)}}}));
  const OgfV3File f = read(v3::skinned_model(4, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19, extra));
  ASSERT_TRUE(f.params);
  EXPECT_TRUE(f.params->wide_kind);
  EXPECT_EQ(f.params->motions[0].flags, 2u);
  EXPECT_EQ(f.params->motions[1].flags, 1u);
  EXPECT_EQ(f.params->motions[1].speed, 1.0f);
  const Diagnostics d = validate_ogf_v3(f);
  EXPECT_FALSE(d.has_errors());
  EXPECT_TRUE(has(d, Severity::info, "read as 4 bytes"));
  EXPECT_EQ(rewrite_ogf_v3(f).value(), write_ogf_v3(f));
}

TEST(OgfV3Motions, NewLayoutInEveryParamsVersion) {
  v3::Track a, b;
  for (int f = 0; f < 2; ++f) {
    a.rot.push_back({0, 0, 0, 32767});
    b.rot.push_back({0, 0, 0, 32767});
    a.trans.push_back({f * 10, -f * 10, 0});
  }
  a.size = {0.01f, 0.01f, 0.01f};
  a.init = {0.5f, 0, 0};
  b.init = {0, 2, 0};
  for (unsigned version : {1u, 2u, 3u}) {
    SCOPED_TRACE(version);
    Buf extra;
    // "ARM": the engine compares names lower-cased.
    extra.chunk(0x14, v3::params(version, {{"body", {{"root", 0}, {"ARM", 1}}}}, {{"walk", 0, false, false, 0, 0}}));
    extra.chunk(0x1A, v3::key_sets(false, {{"walk", 2, {a, b}}}));
    const OgfV3File f = read(v3::skinned_model(4, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19, extra));
    ASSERT_TRUE(f.params && f.motions);
    EXPECT_EQ(f.params->version, version);
    EXPECT_EQ(f.params->parts[0].bones[1].name, version >= 2 ? "ARM" : "");
    EXPECT_EQ(f.params->parts[0].bones[1].index.has_value(), version != 2);
    const Ogf3BoneKeys& k = f.motions->motions.at(0).bones.at(0);
    EXPECT_TRUE(k.translation_keyed());
    EXPECT_NEAR(k.translation(1).x, 0.6f, 1e-6);
    EXPECT_NEAR(k.translation(1).y, -0.1f, 1e-6);
    EXPECT_FALSE(f.motions->motions[0].bones[1].translation_keyed());
    const Diagnostics d = validate_ogf_v3(f);
    EXPECT_FALSE(d.has_errors());
    EXPECT_EQ(d.count(Severity::warning), 0u);  // CRCs included
    Diagnostics w;
    const scene::Scene s = to_scene(f, w);
    ASSERT_EQ(s.animations.size(), 1u);
    const auto& an = s.animations[0];
    EXPECT_EQ(an.name, "walk");
    bool found = false;
    for (const auto& c : an.channels)
      if (c.joint == 0 && c.path == scene::Channel::Path::translation && c.values.size() == 6) {
        EXPECT_NEAR(c.values[3], 0.6f, 1e-6);
        found = true;
      }
    EXPECT_TRUE(found);
  }
}

// The 0x1A motions as an .omf: the stored records as .omf records (same keys, CRCs, size, init),
// parameters in order with their key sets matched by name; 0xE has no exact .omf form.
TEST(OgfV3Motions, NewLayoutExtractsToAnOmfWithTheStoredRecords) {
  const OgfV3File f = read(v3::animated(false));
  auto omf_bytes = extract_omf_v3(f);
  ASSERT_TRUE(omf_bytes) << omf_bytes.error().message;
  auto omf = read_omf(FileData::from_vector(omf_bytes.value()));
  ASSERT_TRUE(omf);
  EXPECT_FALSE(validate_omf(omf.value()).has_errors());
  const MotionSet& set = omf->motions;
  EXPECT_EQ(set.params.version, 3);
  ASSERT_EQ(set.params.parts.size(), 1u);
  EXPECT_EQ(set.params.parts[0].bones[1].name, "arm");  // lower-cased, as the engine compares
  EXPECT_EQ(set.params.parts[0].bones[1].index, 1u);
  ASSERT_EQ(set.motions.size(), 2u);
  for (std::size_t m = 0; m < 2; ++m) {
    const Ogf3Motion* k = nullptr;
    for (const auto& x : f.motions->motions)
      if (x.name == set.params.motions[m].name) k = &x;
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(set.motions[m].frames, k->frames);
    for (std::size_t b = 0; b < 2; ++b) {
      const BoneKeys& o = set.motions[m].bones[b];
      const Ogf3BoneKeys& v = k->bones[b];
      EXPECT_TRUE(std::equal(o.rotation_keys.begin(), o.rotation_keys.end(), v.keys.begin(), v.keys.end()));
      EXPECT_EQ(o.rotation_crc, v.rotation_crc);
      EXPECT_EQ(o.translation_keyed(), v.flags != 0);
      for (std::size_t i = 0; i < k->frames; ++i) EXPECT_EQ(o.translation(i), v.translation(i));
    }
  }
  EXPECT_EQ(set.params.motions[1].flags, 1u);  // "nod" is an fx
  auto floats = extract_omf_v3(read(v3::animated(true)));
  ASSERT_FALSE(floats);
  EXPECT_NE(floats.error().message.find("no exact .omf form"), std::string::npos);
  EXPECT_FALSE(extract_omf_v3(read(v3::skinned_model(0xF, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19))));
}

TEST(OgfV3Motions, MissingKeySetIsAnErrorAndLeftOutOnExport) {
  Buf extra;
  extra.chunk(0x14, v3::params(3, {{"body", {{"root", 0}, {"arm", 1}}}},
                               {{"walk", 0, false, false, 0, 0}, {"run", 0, false, false, 0, 1}}));
  v3::Track t;
  t.rot = {{0, 0, 0, 32767}};
  extra.chunk(0x1A, v3::key_sets(false, {{"walk", 1, {t, t}}}));
  const OgfV3File f = read(v3::skinned_model(4, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19, extra));
  EXPECT_TRUE(has(validate_ogf_v3(f), Severity::error, "no key set of this name"));
  EXPECT_FALSE(ogf_v3_conversion_blockers(f, false).empty());
  Diagnostics w;
  const scene::Scene s = to_scene(f, w);  // with --force
  EXPECT_EQ(s.animations.size(), 1u);
  EXPECT_TRUE(has(w, Severity::warning, "left out"));
}

// ---- container, progressive data, hostile counts

TEST(OgfV3Container, Bit31IdsAreReadAsStoredAndKept) {
  auto bytes = v3::skinned_model(0xF, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19);
  // Set bit 31 on the bone names chunk (0xD): a plain payload, as real protected files do.
  const OgfV3File plain = read(bytes);
  const std::uint64_t at = plain.model.chunks.find(kOgf3BoneNames)->offset;
  bytes[at + 3] |= 0x80;
  const OgfV3File marked = read(bytes);
  EXPECT_EQ(marked.bones.size(), 2u);
  EXPECT_TRUE(has(validate_ogf_v3(marked), Severity::info, "bit 31"));
  auto out = rewrite_ogf_v3(marked);
  ASSERT_TRUE(out);
  EXPECT_EQ(out.value(), bytes);
  // A payload that does not parse under a bit-31 id says what bit 31 means.
  auto broken = bytes;
  const std::uint64_t ik_at = plain.model.chunks.find(kOgf3IkData1)->offset;
  broken[ik_at + 3] |= 0x80;
  broken[ik_at + 4] = 10;  // the IK chunk now holds 10 bytes
  broken[ik_at + 5] = broken[ik_at + 6] = broken[ik_at + 7] = 0;
  broken.resize(ik_at + 8 + 10);
  auto r = read_ogf_v3(FileData::from_vector(broken));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("LZHuf"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().path.rfind("0x19", 0), 0u) << r.error().path;
}

TEST(OgfV3Progressive, VertexSplitsGiveTheFullDetailMesh) {
  std::vector<v3::Vertex> vs = triangle_vertices();
  vs.push_back(vs[2]);
  vs[3].p = {5, 5, 5};
  Buf lod;
  lod.chunk(1, Buf().u32(3).u32(3));
  lod.chunk(2, Buf().u16(2).u8(1).u8(1));  // vertex 3 splits from 2, one new triangle, one fixed slot
  lod.chunk(3, Buf().u32(1).u16(5));       // slot 5 moves to vertex 3
  Buf model;
  model.add(v3::visual(2, v3::kFvf, vs, {0, 1, 2, 1, 2, 2})).chunk(0x9, lod);
  const OgfV3File f = read(model.b);
  ASSERT_TRUE(f.model.lod);
  EXPECT_EQ(f.model.lod->vsplit_count(), 1u);
  EXPECT_FALSE(validate_ogf_v3(f).has_errors());
  Diagnostics w;
  const scene::Scene s = to_scene(f, w);
  EXPECT_EQ(s.meshes.at(0).primitives.at(0).indices, (std::vector<std::uint32_t>{0, 2, 1, 1, 3, 2}));
  // A fix face past the index buffer is an error, and the export refuses the visual.
  Buf bad_lod;
  bad_lod.chunk(1, Buf().u32(3).u32(3)).chunk(2, Buf().u16(2).u8(1).u8(1)).chunk(3, Buf().u32(1).u16(60));
  Buf bad;
  bad.add(v3::visual(2, v3::kFvf, vs, {0, 1, 2, 1, 2, 2})).chunk(0x9, bad_lod);
  const OgfV3File g = read(bad.b);
  EXPECT_TRUE(has(validate_ogf_v3(g), Severity::error, "fix face past the index buffer"));
  XrayExportOptions o;
  o.input = "bad.ogf";
  EXPECT_FALSE(ogf_v3_to_scene(g, o, w));
}

TEST(OgfV3Hostile, CountsAndNestingFailCleanly) {
  {  // a bone count no file could hold
    Buf f;
    f.chunk(0x1, v3::header(0xF)).chunk(0xD, Buf().u32(0xFFFFFFFF));
    auto r = read_ogf_v3(FileData::from_vector(f.b));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().path, "0xD bone records");
  }
  {  // vertices: a count that does not match the chunk
    Buf vis;
    vis.chunk(0x1, v3::header(0)).chunk(0x7, Buf().u32(v3::kFvf).u32(0x7FFFFFFF)).chunk(0x8, v3::indices({0}));
    auto r = read_ogf_v3(FileData::from_vector(vis.b));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().path, "0x7 vertices");
  }
  {  // a child whose index count runs past its chunk: unreadable, and it holds no indices (found by
     // fuzz_ogf: the raw dump read the count's worth of indices from an empty view)
    Buf child;
    child.chunk(0x1, v3::header(0)).chunk(0x7, v3::vertices(v3::kFvf, triangle_vertices()));
    child.chunk(0x8, Buf().u32(100).u16(0));
    Buf f;
    f.chunk(0x1, v3::header(1)).chunk(0x11, Buf().chunk(0, child));
    const OgfV3File m = read(f.b);
    ASSERT_EQ(m.model.children.size(), 1u);
    EXPECT_FALSE(m.model.children[0].readable);
    EXPECT_EQ(m.model.children[0].index_count, 0u);
    JsonWriter out;
    dump_ogf_v3(out, m, true);
    EXPECT_NE(out.str().find("\"error\""), std::string::npos);
  }
  {  // visuals nested deeper than any model: the deep one fails alone
    Buf inner;
    inner.chunk(0x1, v3::header(1));
    for (int i = 0; i < 12; ++i) {
      Buf outer;
      outer.chunk(0x1, v3::header(1)).chunk(0x11, Buf().chunk(0, inner));
      inner = outer;
    }
    const OgfV3File f = read(inner.b);
    EXPECT_TRUE(has(validate_ogf_v3(f), Severity::error, "nested too deep"));
  }
  {  // a motion with 0 frames, and one whose frame count overruns its records
    Buf extra;
    extra.chunk(0x14, v3::params(1, {{"all", {{"", 0}, {"", 1}}}}, {{"a"}, {"b", 0, false, false, 0, 1}}));
    Buf keys;
    keys.chunk(0, Buf().u32(2)).chunk(1, Buf().str("a").u32(0)).chunk(2, Buf().str("b").u32(0x10000000).u8(0));
    extra.chunk(0x1A, keys);
    const OgfV3File f = read(v3::skinned_model(4, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19, extra));
    ASSERT_EQ(f.motions->motions.size(), 2u);
    EXPECT_FALSE(f.motions->motions[0].readable);
    EXPECT_FALSE(f.motions->motions[1].readable);
    EXPECT_NE(f.motions->motions[1].readable.error().path.find("0x1A/2 bone 0"), std::string::npos)
        << f.motions->motions[1].readable.error().path;
    const Diagnostics d = validate_ogf_v3(f);
    EXPECT_TRUE(has(d, Severity::error, "motion has no frames"));
  }
}

TEST(OgfV3Report, DumpKeepsTheV4KeysWhereTheyMeanTheSame) {
  Buf extra;
  extra.chunk(0x1D, Buf().str("monsters\\a, monsters\\b"));
  const OgfV3File f = read(v3::skinned_model(4, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19, extra));
  ASSERT_EQ(f.motion_refs.size(), 2u);
  EXPECT_EQ(f.motion_refs[1], "monsters\\b");
  JsonWriter out;
  dump_ogf_v3(out, f, true);
  const std::string text = out.str();
  for (const char* key : {"\"format\":\"ogf\"", "\"ogf_version\":3", "\"type_name\":\"SKELETON_ANIM\"",
                          "\"refs\":[\"monsters\\\\a\",\"monsters\\\\b\"]", "\"chunk\":\"0x11/0\"", "\"bind_space\":\"parent\"",
                          "\"motions\":null", "\"vertices_offset\""})
    EXPECT_NE(text.find(key), std::string::npos) << key << " in " << text;
  EXPECT_EQ(sniff_ogf_v3(Bytes(v3::header(0).b), ".ogf"), 0);
  const auto bytes = v3::skinned_model(4, v3::k1L, triangle_vertices(), {0, 1, 2}, kTurned, 0x19);
  EXPECT_EQ(sniff_ogf_v3(bytes, ".ogf"), 95);
}

}  // namespace
}  // namespace boneyard::xray
