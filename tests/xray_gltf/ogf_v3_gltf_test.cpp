// OGF v3 through the CLI and the registry: info, validate, dump, convert (glTF, the lossless .ogf
// rewrite), view, the batch, and the refusals (a v3 model as a --template, edits). The animated
// fixtures' glTF, read back with tinygltf, matches the engine's composition of the stored keys
// at every frame, and their 1-link vertices the engine's P x bone world (vertices in bone space).
#include <cmath>

#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/xray_scene.h"
#include "cli_harness.h"
#include "gltf_model_support.h"
#include "ogf_v3_fixture.h"

namespace boneyard::test {
namespace {

fs::path v3_sample() { return samples_dir() / "xray/sdk/blender-xray/test_fmt_ogf_v3.ogf"; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(OgfV3Cli, SampleInfoValidateDumpConvertAndRewrite) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  TempDir tmp;
  const std::string in = quote(v3_sample());
  CliRun r = run_cli("info " + in);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, ".ogf v3, type 15 SKELETON_RIGID")) << r.out;
  r = run_cli("validate " + in);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  r = run_cli("dump " + in);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\"ogf_version\":3")) << r.out;
  EXPECT_TRUE(contains(r.out, "\"ik_chunk\":\"0x19\""));
  r = run_cli("convert " + in + " -o " + quote(tmp.path() / "copy.ogf"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(tmp.path() / "copy.ogf"), read_file(v3_sample()));
  r = run_cli("convert " + in + " -o " + quote(tmp.path() / "m.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  const tinygltf::Model m = load_glb(tmp.path() / "m.glb");
  ASSERT_GE(m.nodes.size(), 2u);
  EXPECT_EQ(m.nodes[0].name, "bone01");
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.accessors[std::size_t(m.meshes[0].primitives[0].attributes.at("POSITION"))].count, 24u);
  r = run_cli("view " + in + " -o " + quote(tmp.path() / "page.html"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_GT(fs::file_size(tmp.path() / "page.html"), 1000u);
  // A v3 model is no template for a v4 .ogf, and `boneyard ogf` edits v4 models: both say why.
  r = run_cli("convert " + quote(tmp.path() / "m.glb") + " --template " + in + " -o " + quote(tmp.path() / "t.ogf"));
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.err, "an OGF v3 model")) << r.err;
  EXPECT_FALSE(fs::exists(tmp.path() / "t.ogf"));
  r = run_cli("ogf list " + in);
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.err, "an OGF v3 model")) << r.err;
  // It has no motions to extract as an .omf.
  r = run_cli("convert " + in + " -o " + quote(tmp.path() / "m.omf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "no embedded motions")) << r.err;
  EXPECT_FALSE(fs::exists(tmp.path() / "m.omf"));
}

using v3::animated;
const std::vector<v3::Bone> kBones = v3::animated_bones();
std::vector<v3::Vertex> vertices() { return v3::animated_vertices(); }

// World positions of a skinned primitive's vertices by the glTF skinning equation, for the node
// poses `world`.
std::vector<std::array<double, 3>> gltf_positions_of(const tinygltf::Model& m, const tinygltf::Node& node,
                                                     const tinygltf::Primitive& prim, const std::vector<Mat4>& world) {
  const int pos = prim.attributes.at("POSITION");
  const auto& skin = m.skins.at(std::size_t(node.skin));
  std::vector<Mat4> joint_mats;
  for (std::size_t j = 0; j < skin.joints.size(); ++j) {
    Mat4 ibm;
    for (std::size_t e = 0; e < 16; ++e) ibm[e] = accessor_value(m, skin.inverseBindMatrices, j, e);
    joint_mats.push_back(scene::multiply(world[std::size_t(skin.joints[j])], ibm));
  }
  std::vector<std::array<double, 3>> out(m.accessors[std::size_t(pos)].count);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double p[3] = {accessor_value(m, pos, i, 0), accessor_value(m, pos, i, 1), accessor_value(m, pos, i, 2)};
    for (std::size_t k = 0; k < 4; ++k) {
      const double w = accessor_value(m, prim.attributes.at("WEIGHTS_0"), i, k);
      if (w == 0) continue;
      const Mat4& a = joint_mats[std::size_t(accessor_value(m, prim.attributes.at("JOINTS_0"), i, k))];
      for (std::size_t r = 0; r < 3; ++r) out[i][r] += w * (a[r] * p[0] + a[4 + r] * p[1] + a[8 + r] * p[2] + a[12 + r]);
    }
  }
  return out;
}

TEST(OgfV3Gltf, AnimatedFixturesMatchTheEngineAtEveryFrame) {
  for (bool floats : {true, false}) {
    SCOPED_TRACE(floats ? "0xE" : "0x1A");
    TempDir tmp;
    const fs::path in = write_bytes(tmp.path() / "anim.ogf", animated(floats));
    CliRun r = run_cli("validate " + quote(in));
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    r = run_cli("convert " + quote(in) + " -o " + quote(tmp.path() / "anim.glb"));
    ASSERT_EQ(r.code, 0) << r.err;
    const tinygltf::Model m = load_glb(tmp.path() / "anim.glb");
    ASSERT_EQ(m.animations.size(), 2u);
    auto read = xray::read_ogf_v3(open_file(in));
    ASSERT_TRUE(read);
    const xray::OgfV3File& f = read.value();
    // Bind: the bone's stored transform composed up the tree.
    std::vector<RowMat> bind(2);
    for (std::size_t b = 0; b < 2; ++b) {
      const auto& ik = *f.bones[b].ik;
      const RowMat local = engine_xform(xray::bind_quaternion(ik.bind_rotation), ik.bind_position);
      bind[b] = b == 0 ? local : engine_mul(bind[0], local);
    }
    const tinygltf::Node* mesh_node = nullptr;
    for (const auto& n : m.nodes)
      if (n.mesh >= 0) mesh_node = &n;
    ASSERT_NE(mesh_node, nullptr);
    const auto& prim = m.meshes[std::size_t(mesh_node->mesh)].primitives[0];
    for (std::size_t a = 0; a < 2; ++a) {
      const auto& anim = m.animations[a];
      const xray::Ogf3Motion* k = nullptr;
      for (const auto& mk : f.motions->motions)
        if (mk.name == anim.name) k = &mk;
      ASSERT_NE(k, nullptr) << anim.name;
      for (std::size_t frame = 0; frame < 3; ++frame) {
        std::vector<RowMat> world(2);
        for (std::size_t b = 0; b < 2; ++b) {
          const RowMat local = engine_xform(k->bones[b].rotation(frame), k->bones[b].translation(frame));
          world[b] = b == 0 ? local : engine_mul(world[0], local);
        }
        const auto g = gltf_world(m, anim, frame);
        for (std::size_t b = 0; b < 2; ++b)
          for (int row = 0; row < 4; ++row)
            for (int col = 0; col < 3; ++col) {
              // glTF = S W^T S with S = diag(1, 1, -1): element (col, row) of the column-major matrix.
              const double sign = (row == 2) != (col == 2) ? -1 : 1;
              EXPECT_NEAR(g[b][std::size_t(row * 4 + col)], sign * world[b][std::size_t(row)][std::size_t(col)], 1e-4)
                  << anim.name << " frame " << frame << " bone " << b;
            }
        // 1-link vertices are in their bone's space: the engine draws P x bone world.
        const auto skinned = gltf_positions_of(m, *mesh_node, prim, g);
        for (std::size_t i = 0; i < 3; ++i) {
          const v3::Vertex v = vertices()[i];
          const RowMat& w = world[v.b0];
          for (int c = 0; c < 3; ++c) {
            const double e = v.p[0] * w[0][std::size_t(c)] + v.p[1] * w[1][std::size_t(c)] + v.p[2] * w[2][std::size_t(c)] +
                             w[3][std::size_t(c)];
            EXPECT_NEAR(skinned[i][std::size_t(c)], c == 2 ? -e : e, 1e-4) << "vertex " << i << " frame " << frame;
          }
        }
      }
    }
  }
}

// The way a v3 model reaches a v4 game (docs/xray-ogf-v3.md "Back to a game"): its glTF becomes a
// v4 model without a template and a v4 .omf on it; the v4 model with that .omf as its ref plays
// the v3 motions: every joint's world at every frame within 1e-3 m of the engine's composition of
// the v3 keys (the .omf quantises translations again: 16-bit with --hq).
TEST(OgfV3Gltf, ReachesAV4GameThroughGltf) {
  for (bool floats : {true, false}) {
    SCOPED_TRACE(floats ? "0xE" : "0x1A");
    TempDir tmp;
    const fs::path meshes = tmp.path() / "meshes";
    const fs::path in = write_bytes(tmp.path() / "old.ogf", animated(floats));
    const auto q = [](const fs::path& p) { return quote(p); };
    CliRun r = run_cli("convert " + q(in) + " -o " + q(tmp.path() / "old.glb"));
    ASSERT_EQ(r.code, 0) << r.err;
    fs::create_directories(meshes);
    r = run_cli("convert " + q(tmp.path() / "old.glb") + " -o " + q(meshes / "new.ogf") + " --game soc --motion-refs new_motions");
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_cli("convert " + q(tmp.path() / "old.glb") + " -o " + q(meshes / "new_motions.omf") + " --skeleton " +
                q(meshes / "new.ogf") + " --hq");
    ASSERT_EQ(r.code, 0) << r.err;
    r = run_cli("validate " + q(meshes / "new.ogf") + " " + q(meshes / "new_motions.omf"));
    EXPECT_EQ(r.code, 0) << r.out;
    r = run_cli("convert " + q(meshes / "new.ogf") + " -o " + q(tmp.path() / "new.glb"));
    ASSERT_EQ(r.code, 0) << r.err;
    const tinygltf::Model m = load_glb(tmp.path() / "new.glb");
    ASSERT_EQ(m.animations.size(), 2u);
    auto read = xray::read_ogf_v3(open_file(in));
    ASSERT_TRUE(read);
    for (const auto& anim : m.animations) {
      const xray::Ogf3Motion* k = nullptr;
      for (const auto& mk : read->motions->motions)
        if (mk.name == anim.name) k = &mk;
      ASSERT_NE(k, nullptr) << anim.name;
      for (std::size_t frame = 0; frame < 3; ++frame) {
        std::vector<RowMat> world(2);
        for (std::size_t b = 0; b < 2; ++b) {
          const RowMat local = engine_xform(k->bones[b].rotation(frame), k->bones[b].translation(frame));
          world[b] = b == 0 ? local : engine_mul(world[0], local);
        }
        const auto g = gltf_world(m, anim, frame);
        for (std::size_t b = 0; b < 2; ++b)
          for (int row = 0; row < 4; ++row)
            for (int col = 0; col < 3; ++col) {
              const double sign = (row == 2) != (col == 2) ? -1 : 1;
              EXPECT_NEAR(g[b][std::size_t(row * 4 + col)], sign * world[b][std::size_t(row)][std::size_t(col)], 1e-3)
                  << anim.name << " frame " << frame << " bone " << b;
            }
      }
    }
  }
}

TEST(OgfV3Gltf, BatchConvertsV3ModelsAndFollowsTheirRefs) {
  TempDir tmp;
  const fs::path meshes = tmp.path() / "in" / "meshes";
  write_bytes(meshes / "old" / "anim.ogf", animated(false));
  // A v3 model with a ref: its motion file is found and not converted on its own.
  Buf refs;
  refs.chunk(0x1D, Buf().str("old\\motions"));
  write_bytes(meshes / "old" / "with_refs.ogf",
              v3::skinned_model(4, v3::k1L, vertices(), {0, 1, 2}, kBones, 0x19, refs));
  {
    OmfSpec omf;  // the two bones' motions as a v4 .omf (params version 3, names lower-case)
    omf.version = 3;
    BoneSpec b;
    b.flags = 2;
    b.rot = {{0, 0, 0, 32767}};
    omf.parts = {{"default", {{"root", 0}, {"arm", 1}}}};
    omf.keys = {{"idle", 2, {b, b}, {}}};
    omf.params.resize(1);
    omf.params[0].name = "idle";
    write_bytes(meshes / "old" / "motions.omf", omf_bytes(omf));
  }
  CliRun r = run_cli("convert --recursive " + quote(tmp.path() / "in") + " -o " + quote(tmp.path() / "out") + " -j 1");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(tmp.path() / "out/meshes/old/anim.glb"));
  ASSERT_TRUE(fs::exists(tmp.path() / "out/meshes/old/with_refs.glb"));
  EXPECT_FALSE(fs::exists(tmp.path() / "out/meshes/old/motions.glb"));
  const tinygltf::Model m = load_glb(tmp.path() / "out/meshes/old/with_refs.glb");
  ASSERT_EQ(m.animations.size(), 1u);
  EXPECT_EQ(m.animations[0].name, "idle");
}

}  // namespace
}  // namespace boneyard::test
