// Rigid and one-bone models (issue 37 scope 2): export and import agree on the rest pose of every
// model type. Fixtures of the shapes found in public game data: a one-bone type-10 model whose
// bone is named like the file and sits off the origin (SoC weapons\upgrade\wpn_silencer.ogf: bone
// "wpn_silencer" at (-0.0021, 0, 0)), a three-bone rigid model, and a model without IK data
// (0x10). Each comes back byte-identical with itself as template, and a model made without
// template keeps the bones and their bind pose.
#include <cmath>

#include "boneyard/gltf/gltf_read.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"
#include "model_support.h"
#include "ogf_mesh_fixture.h"
#include "scene/extras_json.h"

namespace boneyard::test::rigid {
namespace {

struct RigidBone {
  std::string name, parent;
  std::array<float, 3> bind_position{}, bind_rotation{};
};

// A type-10 model: one 1-link child per bone (two triangles each, in model space at the bind
// pose, as the SDK writes rigid models), 0xD and, unless `ik` is false, 0x10.
std::vector<std::uint8_t> rigid_model(const std::vector<RigidBone>& bones, bool ik = true) {
  std::vector<Buf> kids;
  for (std::size_t b = 0; b < bones.size(); ++b) {
    ChildSpec c;
    c.format = 0x12071980u;  // SoC's 1-link id
    c.texture = "wpn\\wpn_rigid_" + std::to_string(b);
    for (int k = 0; k < 4; ++k) {
      MeshVertex v;
      v.p = {bones[b].bind_position[0] + 0.01f * float(k & 1), 0.02f * float(k >> 1) + 0.1f * float(b), 0.05f};
      v.n = {0, 0, -1};
      v.u = float(k & 1), v.v = float(k >> 1);
      v.bones = {unsigned(b), 0, 0, 0};
      c.vertices.push_back(skinned_vertex(1, v));
    }
    c.indices = {0, 1, 2, 1, 3, 2};
    kids.push_back(child(c));
  }
  Buf header;
  header.u32(4u | (10u << 8));
  for (float v : {-1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 2.0f}) header.f32(v);
  Buf names;
  names.u32(std::uint32_t(bones.size()));
  for (const auto& b : bones) {
    names.str(b.name).str(b.parent);
    for (int i = 0; i < 9; ++i) names.f32(i % 4 == 0 ? 1.0f : 0.0f);
    for (int i = 0; i < 3; ++i) names.f32(0.0f);
    for (int i = 0; i < 3; ++i) names.f32(0.02f);
  }
  Buf ikd;
  for (const auto& b : bones) {
    ikd.u32(1).str("objects\\small_weapon");
    for (int i = 0; i < 112; ++i) ikd.u8(0);
    ikd.u32(0);
    for (int i = 0; i < 3; ++i) ikd.f32(0).f32(0).f32(1).f32(1);
    ikd.f32(1).f32(1).u32(0).f32(0).f32(0).f32(0);
    for (float v : b.bind_rotation) ikd.f32(v);
    for (float v : b.bind_position) ikd.f32(v);
    ikd.f32(3.0f).f32(0).f32(0).f32(0);
  }
  Buf f;
  f.chunk(0x1, header).chunk(0x9, children(kids)).chunk(0xD, names);
  if (ik) f.chunk(0x10, ikd);
  return f.b;
}

// `convert NAME.ogf -o x.glb` then read back as `convert x.glb` reads it.
scene::Scene export_and_read(const xray::OgfFile& ogf, const std::string& file_name, Diagnostics& warnings) {
  xray::XrayExportOptions o;
  o.input = file_name;
  auto sc = xray::ogf_to_scene(ogf, o, warnings);
  EXPECT_TRUE(sc) << (sc ? "" : sc.error().path + ": " + sc.error().message);
  const auto glb = gltf::write(sc.value(), gltf::Container::glb).main;
  gltf::ReadOptions ro;
  ro.require_animations = false;
  auto back = gltf::read_deferred(FileData::from_vector(glb), {}, ro, warnings);
  EXPECT_TRUE(back) << (back ? "" : back.error().message);
  return std::move(back).value();
}

void expect_round_trip(const std::vector<std::uint8_t>& bytes, const std::string& file_name) {
  const xray::OgfFile ogf = ogf_from(bytes);
  Diagnostics w;
  const scene::Scene s = export_and_read(ogf, file_name, w);
  xray::OgfImportOptions with;
  with.template_ogf = &ogf;
  auto same = xray::scene_to_ogf_bytes(s, with, w);
  ASSERT_TRUE(same) << file_name << ": " << same.error().path << ": " << same.error().message;
  EXPECT_EQ(same.value(), bytes) << file_name;
  auto made = xray::scene_to_ogf_bytes(s, {}, w);
  ASSERT_TRUE(made) << file_name << ": " << made.error().path << ": " << made.error().message;
  const xray::OgfFile again = ogf_from(made.value());
  EXPECT_EQ(again.header.type, 10) << file_name;
  ASSERT_EQ(again.bones.size(), ogf.bones.size()) << file_name;
  for (std::size_t b = 0; b < ogf.bones.size(); ++b) {
    EXPECT_EQ(again.bones[b].name, ogf.bones[b].name);
    ASSERT_TRUE(again.bones[b].ik);
    const Vec3 want = ogf.bones[b].ik ? ogf.bones[b].ik->bind_position : Vec3{};
    EXPECT_NEAR(again.bones[b].ik->bind_position.x, want.x, 1e-6) << file_name << " bone " << b;
    EXPECT_NEAR(again.bones[b].ik->bind_position.y, want.y, 1e-6) << file_name << " bone " << b;
    EXPECT_NEAR(again.bones[b].ik->bind_position.z, want.z, 1e-6) << file_name << " bone " << b;
  }
}

TEST(RigidRoundTrip, OneBoneModelNamedLikeItsBoneOffTheOrigin) {
  const auto bytes = rigid_model({{"wpn_silencer", "", {-0.0020945f, 0, 0}, {0, 0, 0}}});
  // The export names the node that holds the skeleton after the file, here also the bone's name:
  // that node (at the origin) must not be taken for the bone (2 mm away).
  Diagnostics w;
  const scene::Scene s = export_and_read(ogf_from(bytes), "wpn_silencer.ogf", w);
  std::size_t named = 0;
  for (const auto& j : s.skeleton.joints) named += j.name == "wpn_silencer";
  EXPECT_EQ(named, 2u);
  expect_round_trip(bytes, "wpn_silencer.ogf");
}

TEST(RigidRoundTrip, ThreeBoneRigidModelWithTurnedBones) {
  expect_round_trip(rigid_model({{"root", "", {0.1f, 0.2f, -0.3f}, {0.3f, -0.2f, 1.1f}},
                                 {"lid", "root", {0.0f, 0.05f, 0.01f}, {-0.7f, 0.0f, 0.2f}},
                                 {"lock", "lid", {0.02f, 0.0f, -0.04f}, {0.0f, 1.5f, 0.0f}}}),
                    "box.ogf");
  expect_round_trip(rigid_model({{"box", "", {0.1f, 0.2f, -0.3f}, {0.3f, -0.2f, 1.1f}},
                                 {"lid", "box", {0.0f, 0.05f, 0.01f}, {-0.7f, 0.0f, 0.2f}}}),
                    "box.ogf");
}

TEST(RigidRoundTrip, BonesWithoutIkDataExportAtTheirParentsOrigin) {
  const auto bytes = rigid_model({{"door", "", {}, {}}, {"handle", "door", {}, {}}}, false);
  const xray::OgfFile ogf = ogf_from(bytes);
  ASSERT_FALSE(ogf.has_ik);
  Diagnostics w;
  const scene::Scene s = export_and_read(ogf, "door.ogf", w);
  bool warned = false;
  for (const auto& f : w.findings()) warned |= f.path == "0x10" && f.message.find("no IK data") != std::string::npos;
  EXPECT_TRUE(warned);
  for (std::size_t j = 0; j < 2; ++j) {
    EXPECT_EQ(s.skeleton.joints[j].translation.x, 0.0f);
    EXPECT_EQ(s.skeleton.joints[j].rotation.w, 1.0f);
  }
  expect_round_trip(bytes, "door.ogf");
}

// The .omf side of the same name clash: motions exported on a one-bone skeleton from a file named
// like the bone come back onto that skeleton.
TEST(RigidRoundTrip, MotionsOfAOneBoneModelNamedLikeTheirFile) {
  const auto model_bytes = rigid_model({{"wpn_knife", "", {0.0f, 0.0f, 0.15f}, {0, 0, 0}}});
  const xray::OgfFile ogf = ogf_from(model_bytes);
  OmfSpec spec;
  spec.parts = {{"default", {{"wpn_knife", 0}}}};
  spec.keys = {{"swing", 3, {BoneSpec{0x02, {{0, 0, 0, 32767}}, {}, {}, {0.0f, 0.0f, 0.15f}}}, {}}};
  spec.params = {{"swing", 0, 0xFFFF, 0, 1, 1, 2, 2, {}}};
  const auto omf_data = omf_bytes(spec);
  auto omf = xray::read_omf(FileData::from_vector(omf_data));
  ASSERT_TRUE(omf);
  xray::XrayExportOptions o;
  o.input = "wpn_knife.omf";
  o.skeleton = &ogf;
  o.skeleton_path = "wpn_knife.ogf";
  Diagnostics w;
  auto sc = xray::omf_to_scene(omf->motions, o, w);
  ASSERT_TRUE(sc) << sc.error().message;
  const auto glb = gltf::write(sc.value(), gltf::Container::glb).main;
  auto back = gltf::read_deferred(FileData::from_vector(glb), {}, {}, w);
  ASSERT_TRUE(back) << back.error().message;
  xray::XrayImportOptions io;
  io.skeleton = &ogf;
  io.template_omf = &omf.value();
  auto bytes = xray::scene_to_omf_bytes(back.value(), io, w);
  ASSERT_TRUE(bytes) << bytes.error().path << ": " << bytes.error().message;
  EXPECT_EQ(bytes.value(), omf_data);
}

}  // namespace
}  // namespace boneyard::test::rigid
