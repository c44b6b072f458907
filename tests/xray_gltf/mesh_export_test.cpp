// OGF meshes -> scene -> glTF on hand-built models: handedness and winding, weight cleaning,
// repairs, materials and texture URIs, rigid and static models, and broken children with and
// without --keep-going (library and CLI).
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <fstream>

#include "scene/extras_json.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/batch.h"
#include "boneyard/texture/dds/dds.h"
#include "boneyard/texture/texture.h"
#include "boneyard/xray/xray_scene.h"
#include "gltf_test_support.h"
#include "ogf_fixture.h"
#include "ogf_mesh_fixture.h"

namespace boneyard::test {
namespace {

// Model with bones root <- spine (IK bind: ogf_fixture's ik_data) and the given children.
std::vector<std::uint8_t> with_children(const std::vector<Buf>& kids, unsigned type = 3) {
  Buf f;
  f.b = model({{"root", ""}, {"spine", "root"}});
  f.b[9] = static_cast<std::uint8_t>(type);  // header: u8 version at 8, u8 type at 9
  f.chunk(0x9, children(kids));
  return f.b;
}

xray::OgfFile read(const std::vector<std::uint8_t>& bytes) {
  auto r = xray::read_ogf(FileData::from_vector(bytes));
  EXPECT_TRUE(r);
  return std::move(r).value();
}

Result<scene::Scene> export_scene(const std::vector<std::uint8_t>& bytes, Diagnostics& warnings,
                                  xray::XrayExportOptions o = {"m.ogf", {}, {}}) {
  const xray::OgfFile f = read(bytes);
  return xray::ogf_to_scene(f, o, warnings);
}

MeshVertex mv(std::array<float, 3> p, std::array<float, 3> n, std::array<unsigned, 4> bones = {},
              std::array<float, 3> w = {}) {
  MeshVertex v;
  v.p = p, v.n = n, v.bones = bones, v.stored_weights = w;
  v.u = 0.5f, v.v = 0.25f;
  return v;
}

ChildSpec triangle(unsigned bone = 0) {
  ChildSpec s;
  // X-Ray front faces are clockwise in its left-handed space: the stored normal is
  // cross(v1 - v0, v2 - v0) (notes 9.4).
  s.vertices = {skinned_vertex(1, mv({0, 0, 1}, {0, 0, -1}, {bone})), skinned_vertex(1, mv({0, 1, 1}, {0, 0, -1}, {bone})),
                skinned_vertex(1, mv({1, 0, 1}, {0, 0, -1}, {bone}))};
  s.indices = {0, 1, 2};
  return s;
}

bool has(const Diagnostics& d, const std::string& text) {
  for (const auto& f : d.findings())
    if (f.message.find(text) != std::string::npos) return true;
  return false;
}

TEST(MeshExport, MirrorsZAndFlipsWindingSoFrontFacesStayFront) {
  Diagnostics w;
  auto sc = export_scene(with_children({child(triangle())}), w);
  ASSERT_TRUE(sc) << sc.error().message;
  ASSERT_EQ(sc->meshes.size(), 1u);
  const auto& m = sc->meshes[0];
  EXPECT_TRUE(m.skinned);
  ASSERT_EQ(m.primitives.size(), 1u);
  const auto& p = m.primitives[0];
  EXPECT_EQ(p.positions, (std::vector<float>{0, 0, -1, 0, 1, -1, 1, 0, -1}));
  EXPECT_EQ(p.indices, (std::vector<std::uint32_t>{0, 2, 1}));
  // glTF fronts are counter-clockwise: the written triangle's cross product follows the normal.
  auto at = [&](std::uint32_t i, int k) { return double(p.positions[i * 3 + std::uint32_t(k)]); };
  const std::uint32_t a = p.indices[0], b = p.indices[1], c = p.indices[2];
  const double e1[3] = {at(b, 0) - at(a, 0), at(b, 1) - at(a, 1), at(b, 2) - at(a, 2)};
  const double e2[3] = {at(c, 0) - at(a, 0), at(c, 1) - at(a, 1), at(c, 2) - at(a, 2)};
  const double cross_z = e1[0] * e2[1] - e1[1] * e2[0];
  EXPECT_GT(cross_z * p.normals[a * 3 + 2], 0);
  EXPECT_EQ(p.normals[2], 1.0f);
  EXPECT_EQ(p.joints.size(), 12u);
  EXPECT_EQ(p.uvs.at(0)[1], 0.25f);  // no v flip
}

TEST(MeshExport, NegativeWeightsAreClampedWithAWarningAndDuplicatesMergedSilently) {
  ChildSpec three;
  three.format = 3;
  three.vertices = {skinned_vertex(3, mv({0, 0, 0}, {0, 1, 0}, {0, 1, 0}, {0.7f, 0.4f, 0})),  // implied -0.1
                    skinned_vertex(3, mv({1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.25f, 0.5f, 0})),  // bone 1 twice
                    skinned_vertex(3, mv({0, 1, 0}, {0, 1, 0}, {0, 0, 0}, {1, 0, 0}))};
  three.indices = {0, 1, 2};
  Diagnostics w;
  auto sc = export_scene(with_children({child(three)}), w);
  ASSERT_TRUE(sc);
  const auto& p = sc->meshes.at(0).primitives.at(0);
  for (std::size_t v = 0; v < 3; ++v) {
    float sum = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_GE(p.weights[v * 4 + k], 0.0f);
      if (p.weights[v * 4 + k] == 0) {
        EXPECT_EQ(p.joints[v * 4 + k], 0u);
      }
      sum += p.weights[v * 4 + k];
    }
    EXPECT_NEAR(sum, 1.0f, 1e-6f);
  }
  // Vertex 1: bone 1 gets 0.25 + 0.5, bone 0 the implied 0.25, merged into two slots.
  EXPECT_EQ(p.joints[4], 1u);
  EXPECT_FLOAT_EQ(p.weights[4], 0.75f);
  EXPECT_FLOAT_EQ(p.weights[5], 0.25f);
  EXPECT_FLOAT_EQ(p.weights[6], 0.0f);
  ASSERT_TRUE(has(w, "negative skin weights"));
  for (const auto& f : w.findings())
    if (f.message.find("negative skin weights") != std::string::npos) {
      EXPECT_EQ(f.found, "1 vertices");
    }
}

TEST(MeshExport, NanUvsAndZeroNormalsAreRepairedWithWarnings) {
  ChildSpec s = triangle();
  MeshVertex bad = mv({0, 0, 1}, {0, 0, 0});
  bad.u = std::nanf("");
  s.vertices[0] = skinned_vertex(1, bad);
  Diagnostics w;
  auto sc = export_scene(with_children({child(s)}), w);
  ASSERT_TRUE(sc);
  EXPECT_TRUE(has(w, "NaN or infinite texture coordinates"));
  EXPECT_TRUE(has(w, "zero or non-finite normals"));
  const auto& p = sc->meshes.at(0).primitives.at(0);
  EXPECT_EQ(p.uvs[0][0], 0.0f);
  // Recomputed from the (written, counter-clockwise) face: +Z in glTF space, like its neighbours.
  EXPECT_NEAR(p.normals[2], 1.0f, 1e-6f);
}

TEST(MeshExport, OneMaterialPerTextureShaderPairNamingItsTextureAndAlphaUse) {
  ChildSpec a = triangle(), b = triangle(), c = triangle(), d = triangle();
  c.shader = "models\\model_aref";
  d.texture = "act\\missing";
  d.shader = "models\\lightplanes";
  Diagnostics w;
  auto sc = export_scene(with_children({child(a), child(b), child(c), child(d)}), w);
  ASSERT_TRUE(sc);
  ASSERT_EQ(sc->materials.size(), 3u);
  EXPECT_EQ(sc->materials[0].name, "act\\act_test");
  EXPECT_EQ(sc->materials[0].texture.path, "act\\act_test");
  EXPECT_EQ(sc->materials[0].texture.origin, "0x9/0 0x2 texture");
  EXPECT_EQ(sc->materials[0].alpha_use, scene::AlphaUse::none);  // models\model: alpha is gloss
  EXPECT_EQ(json_of(sc->materials[0].extras)["xray"]["shader"], "models\\model");
  EXPECT_EQ(json_of(sc->materials[1].extras)["xray"]["shader"], "models\\model_aref");
  EXPECT_EQ(sc->materials[1].alpha_use, scene::AlphaUse::test);
  EXPECT_NEAR(sc->materials[1].alpha_cutoff, 200.0f / 255.0f, 1e-6f);
  EXPECT_EQ(sc->materials[2].alpha_use, scene::AlphaUse::blend);
  for (const auto& m : sc->materials) {
    EXPECT_FALSE(m.double_sided);  // the engine culls; two-sided surfaces are exported twice
    EXPECT_EQ(m.image, scene::kNoImage);  // the registry attaches images
  }
  EXPECT_TRUE(sc->images.empty());
  const auto& prims = sc->meshes.at(0).primitives;
  ASSERT_EQ(prims.size(), 4u);
  EXPECT_EQ(prims[0].material, 0u);
  EXPECT_EQ(prims[1].material, 0u);
  EXPECT_EQ(prims[2].material, 1u);
  EXPECT_EQ(prims[3].material, 2u);
  EXPECT_EQ(w.count(Severity::warning), 0u);
}

TEST(MeshExport, RigidModelHangsOneBoneChildrenOnTheirBones) {
  ChildSpec s;  // two triangles, one on each bone
  s.vertices = {skinned_vertex(1, mv({0, 0, 0}, {0, 0, -1}, {0})), skinned_vertex(1, mv({0, 1, 0}, {0, 0, -1}, {0})),
                skinned_vertex(1, mv({1, 0, 0}, {0, 0, -1}, {0})), skinned_vertex(1, mv({0, 0.25f, 0}, {0, 0, -1}, {1})),
                skinned_vertex(1, mv({0, 1.25f, 0}, {0, 0, -1}, {1})), skinned_vertex(1, mv({1, 0.25f, 0}, {0, 0, -1}, {1}))};
  s.indices = {0, 1, 2, 3, 4, 5};
  Diagnostics w;
  auto sc = export_scene(with_children({child(s)}, 10), w);
  ASSERT_TRUE(sc);
  ASSERT_EQ(sc->meshes.size(), 2u);
  for (int b = 0; b < 2; ++b) {
    const auto& m = sc->meshes[static_cast<std::size_t>(b)];
    EXPECT_FALSE(m.skinned);
    EXPECT_EQ(m.joint, b);
    ASSERT_EQ(m.primitives.size(), 1u);
    EXPECT_EQ(m.primitives[0].vertex_count(), 3u);
    EXPECT_TRUE(m.primitives[0].joints.empty());
    // Bone space: the bind world of the bone maps the vertices back to model space.
    const auto world = scene::world_matrices(sc->skeleton)[static_cast<std::size_t>(b)];
    const float* p = m.primitives[0].positions.data();
    const double y = world[1] * p[0] + world[5] * p[1] + world[9] * p[2] + world[13];
    EXPECT_NEAR(y, b == 0 ? 0.0 : 0.25, 1e-6);
  }
  // A triangle across both bones keeps the child skinned.
  s.indices = {0, 1, 5};
  auto spanning = export_scene(with_children({child(s)}, 10), w);
  ASSERT_TRUE(spanning);
  ASSERT_EQ(spanning->meshes.size(), 1u);
  EXPECT_TRUE(spanning->meshes[0].skinned);
}

TEST(MeshExport, StaticModelWithoutSkeletonBecomesAPlainMesh) {
  ChildSpec s;
  s.type = 0;
  s.format = 0x112;
  s.vertices = {static_vertex(mv({0, 0, 1}, {0, 0, -1})), static_vertex(mv({0, 1, 1}, {0, 0, -1})),
                static_vertex(mv({1, 0, 1}, {0, 0, -1}))};
  s.indices = {0, 1, 2};
  Buf f;
  f.chunk(0x1, child_header(1)).chunk(0x9, children({child(s)}));
  Diagnostics w;
  auto sc = export_scene(f.b, w);
  ASSERT_TRUE(sc) << sc.error().message;
  EXPECT_TRUE(sc->skeleton.joints.empty());
  ASSERT_EQ(sc->meshes.size(), 1u);
  EXPECT_FALSE(sc->meshes[0].skinned);
  EXPECT_EQ(sc->meshes[0].joint, -1);
  EXPECT_EQ(sc->meshes[0].primitives[0].positions[2], -1.0f);
  const auto out = gltf::write(sc.value(), gltf::Container::glb);
  EXPECT_GT(out.main.size(), 0u);
}

TEST(MeshExport, BrokenChildFailsTheExportUnlessKeepGoing) {
  ChildSpec broken = triangle();
  broken.indices = {0, 1, 7};
  const auto bytes = with_children({child(triangle()), child(broken), child(triangle())});
  Diagnostics w;
  auto strict = export_scene(bytes, w);
  ASSERT_FALSE(strict);
  EXPECT_EQ(strict.error().path, "0x9/1 0x4 index 2");
  EXPECT_EQ(strict.error().found, "7");
  Diagnostics w2;
  auto lenient = export_scene(bytes, w2, {"m.ogf", {}, {}, true});
  ASSERT_TRUE(lenient);
  ASSERT_TRUE(has(w2, "--keep-going"));
  const auto& prims = lenient->meshes.at(0).primitives;
  ASSERT_EQ(prims.size(), 2u);
  EXPECT_EQ(json_of(prims[0].extras)["xray"]["child"], 0);
  EXPECT_EQ(json_of(prims[1].extras)["xray"]["child"], 2);
}

TEST(MeshExport, CliKeepGoingAndTexturesOptions) {
  TempDir tmp;
  ChildSpec broken = triangle();
  broken.vertex_count_override = 9;  // stride check fails
  const auto bytes = with_children({child(triangle()), child(broken)});
  const fs::path in = write_bytes(tmp.path() / "m.ogf", bytes);
  const fs::path out = tmp.path() / "m.glb";
  CliRun r = run_cli("convert " + quote(in) + " -o " + quote(out));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("in 0x9/1 0x3 vertices: chunk size does not match count x stride"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // Without a texture: one warning naming it, and the model converts.
  r = run_cli("convert " + quote(in) + " -o " + quote(out) + " --keep-going --textures " + quote(tmp.path() / "tex"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning at byte"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0x9/0 0x2 texture: texture not found: material left untextured (expected " +
                       (tmp.path() / "tex/act/act_test").string() + ".dds (or .png)"),
            std::string::npos)
      << r.err;
  // With the game's .dds (found ignoring case): decoded and embedded as PNG.
  fs::create_directories(tmp.path() / "tex/ACT");
  texture::Image grey{8, 8, std::vector<std::uint8_t>(256, 128)};
  const auto dds = texture::build_dds(grey);
  ASSERT_TRUE(dds);
  write_bytes(tmp.path() / "tex/ACT/Act_Test.dds", dds.value());
  r = run_cli("convert " + quote(in) + " -o " + quote(out) + " --keep-going --textures " + quote(tmp.path() / "tex"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("texture not found"), std::string::npos) << r.err;
  ASSERT_TRUE(fs::exists(out));
  const auto glb = read_file(out);
  const std::string text(glb.begin(), glb.end());
  EXPECT_NE(text.find("{\"name\":\"Act_Test\",\"bufferView\":"), std::string::npos);
  // A .gltf gets the image beside it.
  const fs::path gltf_out = tmp.path() / "g/m.gltf";
  fs::create_directories(gltf_out.parent_path());
  r = run_cli("convert " + quote(in) + " -o " + quote(gltf_out) + " --keep-going --textures " + quote(tmp.path() / "tex"));
  EXPECT_EQ(r.code, 0) << r.err;
  const auto json = read_file(gltf_out);
  EXPECT_NE(std::string(json.begin(), json.end()).find("{\"name\":\"Act_Test\",\"uri\":\"Act_Test.png\"}"),
            std::string::npos);
  const auto png = read_file(tmp.path() / "g/Act_Test.png");
  auto decoded = texture::read_png(png);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->image.width, 8u);
  EXPECT_EQ(decoded->image.rgba[0], 128);  // DXT1 holds a flat grey exactly
}

// --recursive passes --keep-going and --textures to every model (URIs relative to each output).
TEST(MeshExport, BatchHonoursKeepGoingAndTextures) {
  TempDir tmp;
  ChildSpec broken = triangle();
  broken.indices = {0, 1, 9};
  const auto bytes = with_children({child(triangle()), child(broken)});
  const fs::path in = tmp.path() / "in/meshes/props/m.ogf";
  fs::create_directories(in.parent_path());
  std::ofstream(in, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  fs::create_directories(tmp.path() / "tex/act");
  texture::Image red{4, 4, std::vector<std::uint8_t>(64, 255)};
  const auto png = texture::encode_png(red).value();
  std::ofstream(tmp.path() / "tex/act/act_test.png", std::ios::binary)
      .write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
  BatchOptions o;
  o.input_dir = tmp.path() / "in";
  o.output_dir = tmp.path() / "out";
  o.threads = 1;
  const auto strict = convert_tree(o);
  EXPECT_EQ(strict.failed, 1u);
  o.settings.keep_going = true;
  o.settings.textures = tmp.path() / "tex";
  const auto lenient = convert_tree(o);
  EXPECT_EQ(lenient.failed, 0u);
  EXPECT_EQ(lenient.with_warnings, 1u);
  const auto glb = read_file(tmp.path() / "out/meshes/props/m.glb");
  const std::string text(glb.begin(), glb.end());
  // The texture is embedded (its PNG bytes in the binary chunk), named after its file.
  EXPECT_NE(text.find("\"name\":\"act_test\",\"bufferView\":"), std::string::npos) << text.substr(0, 4000);
  EXPECT_NE(text.find("\"mimeType\":\"image/png\""), std::string::npos);
  EXPECT_NE(std::search(glb.begin(), glb.end(), png.begin(), png.end()), glb.end());
}

}  // namespace
}  // namespace boneyard::test
