// The scene's mesh model and its glTF output, checked through tinygltf (an independent reader)
// and, when node_modules is present, the Khronos validator and three.js.
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "scene/extras_json.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/gltf_files.h"
#include "boneyard/scene/scene.h"
#include "cli_harness.h"
#include "test_support.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using scene::AlphaMode;
using scene::Material;
using scene::Primitive;

// Two joints (root at the origin, "arm" 1 m up, turned 90 degrees about Z), a skinned quad split
// between them, a rigid triangle on the arm, and two materials (one textured).
scene::Scene make_scene() {
  scene::Scene sc;
  sc.skeleton.name = "Armature";
  scene::Joint root{"root", -1, {0, 0, 0}, {}, {1, 1, 1}, {}};
  const float h = std::sqrt(0.5f);
  scene::Joint arm{"arm", 0, {0, 1, 0}, {0, 0, h, h}, {1, 1, 1}, {}};
  sc.skeleton.joints = {root, arm};

  Primitive quad;
  quad.positions = {-1, 0, 0, 1, 0, 0, 1, 2, 0, -1, 2, 0};
  quad.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  quad.uvs = {{0, 1, 1, 1, 1, 0, 0, 0}};
  quad.joints = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  quad.weights = {1, 0, 0, 0, 1, 0, 0, 0, 0.75f, 0.25f, 0, 0, 1, 0, 0, 0};
  quad.joints[9] = 0;  // vertex 2: 0.75 on the arm, 0.25 on the root
  quad.indices = {0, 1, 2, 0, 2, 3};
  quad.material = 0;
  json_of(quad.extras) = {{"packet", 7}};
  sc.meshes.push_back({"body", true, -1, {quad}, {}});
  json_of(sc.meshes.back().extras) = {{"unit", 3}};

  Primitive tri;
  tri.positions = {0, 0, 0, 0.5f, 0, 0, 0, 0.5f, 0};
  tri.indices = {0, 1, 2};
  tri.material = 1;
  sc.meshes.push_back({"badge", false, 1, {tri}, {}});

  Material skin;
  skin.name = "skin tex";
  skin.image = 0;
  skin.alpha_mode = AlphaMode::mask;
  skin.alpha_cutoff = 0.75f;
  sc.materials.push_back(skin);
  json_of(sc.materials.back().extras) = {{"shader", "models\\model"}};
  sc.images.push_back({"act stalker", "textures/act stalker.png", {}, 4, 4});
  Material plain;
  plain.name = "plain";
  plain.double_sided = false;
  plain.alpha_mode = AlphaMode::blend;  // no image: written opaque
  sc.materials.push_back(plain);
  return sc;
}

tinygltf::Model load(const std::vector<std::uint8_t>& glb) {
  tinygltf::TinyGLTF loader;
  // Images are external files that these tests do not create; only their URIs matter here.
  loader.SetImageLoader([](tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*,
                           int, void*) { return true; },
                        nullptr);
  tinygltf::Model model;
  std::string err, warn;
  EXPECT_TRUE(loader.LoadBinaryFromMemory(&model, &err, &warn, glb.data(), static_cast<unsigned>(glb.size())))
      << err;
  return model;
}

template <class T>
const T* accessor_data(const tinygltf::Model& m, int index, int* count = nullptr) {
  const auto& a = m.accessors.at(static_cast<std::size_t>(index));
  const auto& v = m.bufferViews.at(static_cast<std::size_t>(a.bufferView));
  if (count) *count = static_cast<int>(a.count);
  return reinterpret_cast<const T*>(m.buffers.at(0).data.data() + v.byteOffset + a.byteOffset);
}

int find_node(const tinygltf::Model& m, const std::string& name) {
  for (std::size_t i = 0; i < m.nodes.size(); ++i)
    if (m.nodes[i].name == name) return static_cast<int>(i);
  return -1;
}

TEST(SceneGltf, MeshesSkinsAndMaterialsReadBackThroughTinygltf) {
  const auto sc = make_scene();
  const auto model = load(gltf::write(sc, gltf::Container::glb).main);
  ASSERT_EQ(model.meshes.size(), 2u);
  ASSERT_EQ(model.skins.size(), 1u);

  // The skinned mesh node is a scene root with the skin and no transform.
  const int body = find_node(model, "body");
  ASSERT_GE(body, 0);
  EXPECT_EQ(model.nodes[body].skin, 0);
  EXPECT_TRUE(model.nodes[body].translation.empty());
  const auto& roots = model.scenes.at(0).nodes;
  EXPECT_NE(std::find(roots.begin(), roots.end(), body), roots.end());

  // The rigid mesh hangs under joint "arm", without a skin.
  const int badge = find_node(model, "badge"), arm = find_node(model, "arm");
  ASSERT_GE(badge, 0);
  EXPECT_EQ(model.nodes[badge].skin, -1);
  const auto& arm_children = model.nodes.at(arm).children;
  EXPECT_NE(std::find(arm_children.begin(), arm_children.end(), badge), arm_children.end());

  const auto& prim = model.meshes[model.nodes[body].mesh].primitives.at(0);
  int count = 0;
  const float* pos = accessor_data<float>(model, prim.attributes.at("POSITION"), &count);
  ASSERT_EQ(count, 4);
  EXPECT_EQ(pos[6], 1.0f);
  EXPECT_EQ(pos[7], 2.0f);
  const auto& pos_acc = model.accessors[prim.attributes.at("POSITION")];
  EXPECT_EQ(pos_acc.minValues, (std::vector<double>{-1, 0, 0}));
  EXPECT_EQ(pos_acc.maxValues, (std::vector<double>{1, 2, 0}));
  // Joint numbers under 256 are written as bytes (exact; glTF allows either).
  EXPECT_EQ(model.accessors[prim.attributes.at("JOINTS_0")].componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE);
  const std::uint8_t* jts = accessor_data<std::uint8_t>(model, prim.attributes.at("JOINTS_0"));
  const float* wts = accessor_data<float>(model, prim.attributes.at("WEIGHTS_0"));
  EXPECT_EQ(jts[8], 1);
  EXPECT_EQ(wts[8], 0.75f);
  EXPECT_EQ(model.accessors[prim.indices].componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  const std::uint16_t* idx = accessor_data<std::uint16_t>(model, prim.indices, &count);
  ASSERT_EQ(count, 6);
  EXPECT_EQ(idx[4], 2);
  EXPECT_EQ(idx[5], 3);
  EXPECT_TRUE(prim.attributes.count("NORMAL"));
  EXPECT_TRUE(prim.attributes.count("TEXCOORD_0"));
  EXPECT_EQ(prim.extras.Get("packet").GetNumberAsInt(), 7);

  // Materials: the textured one points at an image whose URI is percent-encoded (slashes kept).
  ASSERT_EQ(model.materials.size(), 2u);
  EXPECT_EQ(prim.material, 0);
  EXPECT_TRUE(model.materials[0].doubleSided);
  EXPECT_FALSE(model.materials[1].doubleSided);
  const int tex = model.materials[0].pbrMetallicRoughness.baseColorTexture.index;
  ASSERT_GE(tex, 0);
  EXPECT_EQ(model.images.at(model.textures.at(tex).source).uri, "textures/act%20stalker.png");
  EXPECT_EQ(model.images.at(model.textures.at(tex).source).name, "act stalker");
  EXPECT_EQ(model.materials[0].alphaMode, "MASK");
  EXPECT_DOUBLE_EQ(model.materials[0].alphaCutoff, 0.75);
  EXPECT_EQ(model.materials[1].pbrMetallicRoughness.baseColorTexture.index, -1);
  EXPECT_EQ(model.materials[1].alphaMode, "OPAQUE");
}

TEST(SceneGltf, EmbeddedImagesGoIntoTheBinaryChunkOnlyWhenAMaterialUsesThem) {
  auto sc = make_scene();
  const std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', 1, 2, 3, 4, 5};
  sc.images[0].uri.clear();
  sc.images[0].data = png;
  sc.images.push_back({"unused", "", {9, 9, 9}, 1, 1});
  sc.materials[0].alpha_mode = AlphaMode::blend;
  const auto glb = gltf::write(sc, gltf::Container::glb).main;
  const std::string text(glb.begin(), glb.end());
  EXPECT_NE(text.find("\"images\":[{\"name\":\"act stalker\",\"bufferView\":"), std::string::npos) << text;
  EXPECT_NE(text.find("\"mimeType\":\"image/png\"}]"), std::string::npos);  // one image: the unused one is left out
  EXPECT_NE(text.find("\"alphaMode\":\"BLEND\""), std::string::npos);
  const auto model = load(glb);
  ASSERT_EQ(model.images.size(), 1u);
  const auto& view = model.bufferViews.at(static_cast<std::size_t>(model.images[0].bufferView));
  EXPECT_EQ(view.target, 0);
  ASSERT_EQ(view.byteLength, png.size());
  EXPECT_TRUE(std::equal(png.begin(), png.end(), model.buffers[0].data.begin() + static_cast<std::ptrdiff_t>(view.byteOffset)));
}

TEST(SceneGltf, BindPoseSkinningGivesBackTheModelSpacePositions) {
  const auto sc = make_scene();
  const auto model = load(gltf::write(sc, gltf::Container::glb).main);
  const auto world = scene::world_matrices(sc.skeleton);
  const float* ibm = accessor_data<float>(model, model.skins[0].inverseBindMatrices);
  const auto& prim = model.meshes.at(0).primitives.at(0);
  int count = 0;
  const float* pos = accessor_data<float>(model, prim.attributes.at("POSITION"), &count);
  const std::uint8_t* jts = accessor_data<std::uint8_t>(model, prim.attributes.at("JOINTS_0"));
  const float* wts = accessor_data<float>(model, prim.attributes.at("WEIGHTS_0"));
  for (int v = 0; v < count; ++v) {
    double out[3] = {0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      const int joint = jts[v * 4 + k];
      scene::Mat4 inv;
      for (int e = 0; e < 16; ++e) inv[e] = ibm[joint * 16 + e];
      const auto m = scene::multiply(world[joint], inv);
      for (int r = 0; r < 3; ++r)
        out[r] += wts[v * 4 + k] *
                  (m[r] * pos[v * 3] + m[4 + r] * pos[v * 3 + 1] + m[8 + r] * pos[v * 3 + 2] + m[12 + r]);
    }
    for (int r = 0; r < 3; ++r) EXPECT_NEAR(out[r], pos[v * 3 + r], 1e-6) << "vertex " << v;
  }
}

TEST(SceneGltf, LargePrimitivesUse32BitIndicesAndEmptyOnesAreLeftOut) {
  scene::Scene sc;
  Primitive big;
  const std::uint32_t vertices = 70000;
  big.positions.assign(vertices * 3, 0.0f);
  for (std::uint32_t v = 0; v < vertices; ++v) big.positions[v * 3] = static_cast<float>(v);
  big.indices = {0, 1, vertices - 1};
  sc.meshes.push_back({"big", false, -1, {big, Primitive{}}, {}});
  sc.meshes.push_back({"empty", false, -1, {Primitive{}}, {}});
  const auto model = load(gltf::write(sc, gltf::Container::glb).main);
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.meshes[0].primitives.size(), 1u);
  const auto& prim = model.meshes[0].primitives[0];
  EXPECT_EQ(model.accessors[prim.indices].componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
  EXPECT_EQ(accessor_data<std::uint32_t>(model, prim.indices)[2], vertices - 1);
  EXPECT_EQ(find_node(model, "empty"), -1);
}

TEST(SceneGltf, JointNumbersFrom256OnStay16Bit) {
  scene::Scene sc;
  for (int j = 0; j < 300; ++j) sc.skeleton.joints.push_back({"j" + std::to_string(j), -1, {}, {}, {1, 1, 1}, {}});
  Primitive p;
  p.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  p.joints = {0, 0, 0, 0, 299, 0, 0, 0, 255, 0, 0, 0};
  p.weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  p.indices = {0, 1, 2};
  sc.meshes.push_back({"m", true, -1, {p}, {}});
  const auto model = load(gltf::write(sc, gltf::Container::glb).main);
  const auto& prim = model.meshes.at(0).primitives.at(0);
  EXPECT_EQ(model.accessors[prim.attributes.at("JOINTS_0")].componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  EXPECT_EQ(accessor_data<std::uint16_t>(model, prim.attributes.at("JOINTS_0"))[4], 299);
}

TEST(SceneGltf, CleanWeightsMergesClampsNormalisesAndSorts) {
  Primitive p;
  p.positions.assign(4 * 3, 0.0f);
  p.joints = {3, 3, 5, 9,  /**/ 2, 4, 6, 8, /**/ 1, 2, 3, 4, /**/ 7, 1, 0, 0};
  p.weights = {0.25f, 0.25f, 0.5f, 0, /**/ -1, 0.5f, 0.5f, 0, /**/ 0, 0, 0, 0, /**/ 2, 1, 1, 0};
  p.weights[11] = std::nanf("");
  EXPECT_EQ(scene::clean_weights(p, 6), 3u);  // vertices 0 (duplicate), 1 (negative), 2 (no weight)
  // Vertex 0: joints 3 and 3 merged to 0.5, tie with joint 5 keeps the earlier slot first.
  EXPECT_EQ(p.joints[0], 3);
  EXPECT_FLOAT_EQ(p.weights[0], 0.5f);
  EXPECT_EQ(p.joints[1], 5);
  EXPECT_FLOAT_EQ(p.weights[1], 0.5f);
  EXPECT_EQ(p.joints[2], 0);  // empty slots point at joint 0
  EXPECT_EQ(p.weights[2], 0.0f);
  // Vertex 1: the negative weight is dropped.
  EXPECT_FLOAT_EQ(p.weights[4] + p.weights[5], 1.0f);
  EXPECT_EQ(p.weights[6], 0.0f);
  // Vertex 2: no weight at all goes to the fallback joint.
  EXPECT_EQ(p.joints[8], 6);
  EXPECT_EQ(p.weights[8], 1.0f);
  // Vertex 3: renormalised (2, 1, 1) / 4 and sorted.
  EXPECT_EQ(p.joints[12], 7);
  EXPECT_FLOAT_EQ(p.weights[12], 0.5f);
  EXPECT_FLOAT_EQ(p.weights[13], 0.25f);
  for (int v = 0; v < 4; ++v) {
    const float* w = &p.weights[v * 4];
    EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.0f, 1e-7f);
  }
}

TEST(SceneGltf, ComputedNormalsFollowTheCounterClockwiseWinding) {
  Primitive p;
  p.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5};
  p.indices = {0, 1, 2};
  scene::compute_normals(p);
  ASSERT_EQ(p.normals.size(), 12u);
  EXPECT_FLOAT_EQ(p.normals[2], 1.0f);   // +Z for a counter-clockwise triangle in XY
  EXPECT_FLOAT_EQ(p.normals[10], 1.0f);  // an unused vertex gets +Y
}

// A sink that keeps what it is given and the largest single write.
class RecordingSink final : public ByteSink {
 public:
  std::vector<std::uint8_t> bytes;
  std::size_t largest = 0;
  Status write(Bytes data) override {
    largest = std::max(largest, data.size());
    bytes.insert(bytes.end(), data.begin(), data.end());
    return {};
  }
};

// The JSON chunk of a large .glb reaches the output in blocks, never as one text (a hands model
// with 2,772 motions has 30 MB of it); a small one is written as it was kept. Either way the
// header's lengths match what follows and an independent reader loads it.
TEST(SceneGltf, LargeJsonChunkIsStreamedInBlocks) {
  for (const std::size_t motions : {std::size_t{10}, std::size_t{15000}}) {
    scene::Scene sc;
    sc.skeleton.joints = {{"root", -1, {}, {}, {1, 1, 1}, {}}};
    for (std::size_t a = 0; a < motions; ++a) {
      scene::Animation anim;
      anim.name = "motion " + std::to_string(a);
      anim.timelines.push_back({{0.0f, 1.0f + float(a % 7)}});
      const float z = float(a) * 1e-4f;  // a distinct held rotation per motion: its own accessor
      const float w = std::sqrt(1 - z * z);
      anim.channels.push_back({0, scene::Channel::Path::rotation, 0, {0, 0, z, w, 0, 0, z, w}, {}});
      anim.channels.push_back({0, scene::Channel::Path::translation, 0, {z, 0, 0, z, 0, 0}, {}});
      sc.animations.push_back(std::move(anim));
    }
    const gltf::Encoding encoding(sc, gltf::Container::glb);
    RecordingSink out;
    ASSERT_TRUE(encoding.write(out).ok());
    ASSERT_EQ(out.bytes.size(), encoding.size());
    const std::size_t json = std::size_t(out.bytes[12]) | std::size_t(out.bytes[13]) << 8 |
                             std::size_t(out.bytes[14]) << 16 | std::size_t(out.bytes[15]) << 24;
    if (motions > 1000) {
      EXPECT_GT(json, std::size_t{4} << 20);
      EXPECT_LE(out.largest, std::size_t{1} << 20) << "the JSON chunk was written whole";
    }
    const tinygltf::Model m = load(out.bytes);
    ASSERT_EQ(m.animations.size(), motions);
    EXPECT_EQ(m.animations.back().name, "motion " + std::to_string(motions - 1));
  }
}

// Inner keys of runs of equal keys are left out where the bytes saved outweigh a time accessor for
// the kept frames, which tracks with equal kept frames share; what linear interpolation gives at
// every frame is unchanged.
TEST(SceneGltf, RunsOfEqualKeysKeepTheirEndsWhereThatSavesBytes) {
  scene::Scene sc;
  sc.skeleton.joints = {{"a", -1, {}, {}, {1, 1, 1}, {}}, {"b", -1, {}, {}, {1, 1, 1}, {}}};
  scene::Animation anim;
  anim.name = "m";
  anim.timelines.push_back({});
  for (int i = 0; i < 40; ++i) anim.timelines[0].times.push_back(float(i) / 30.0f);
  auto held_then_moving = [](float scale) {  // frames 0..19 equal, then a ramp
    std::vector<float> v;
    for (int i = 0; i < 40; ++i) v.insert(v.end(), {i < 20 ? 0.0f : scale * float(i - 19), 1, 2});
    return v;
  };
  std::vector<float> rot;  // one key repeated three times: not worth a time accessor
  for (int i = 0; i < 40; ++i) {
    const float z = (i >= 10 && i <= 12) ? 0.1f : 0.01f * float(i);
    rot.insert(rot.end(), {0, 0, z, std::sqrt(1 - z * z)});
  }
  anim.channels.push_back({0, scene::Channel::Path::translation, 0, held_then_moving(1), {}});
  anim.channels.push_back({1, scene::Channel::Path::translation, 0, held_then_moving(2), {}});
  anim.channels.push_back({0, scene::Channel::Path::rotation, 0, rot, {}});
  sc.animations.push_back(anim);
  const tinygltf::Model m = load(gltf::write(sc, gltf::Container::glb).main);
  ASSERT_EQ(m.animations.size(), 1u);
  const auto& a = m.animations[0];
  auto sampler_of = [&](std::size_t c) { return a.samplers[std::size_t(a.channels[c].sampler)]; };
  auto floats = [&](int accessor) {
    const auto& acc = m.accessors[std::size_t(accessor)];
    const auto& view = m.bufferViews[std::size_t(acc.bufferView)];
    const auto* p = reinterpret_cast<const float*>(m.buffers[0].data.data() + view.byteOffset + acc.byteOffset);
    return std::vector<float>(p, p + acc.count * (acc.type == TINYGLTF_TYPE_SCALAR ? 1 : acc.type == TINYGLTF_TYPE_VEC3 ? 3 : 4));
  };
  // Translations: frames 0, 19, 20..39 kept (22 of 40), one time accessor for both joints.
  EXPECT_EQ(sampler_of(0).input, sampler_of(1).input);
  const auto times = floats(sampler_of(0).input);
  ASSERT_EQ(times.size(), 22u);
  EXPECT_EQ(times[0], 0.0f);
  EXPECT_EQ(times[1], 19.0f / 30.0f);
  EXPECT_EQ(times[21], 39.0f / 30.0f);
  for (std::size_t c = 0; c < 2; ++c) {
    const auto v = floats(sampler_of(c).output);
    const auto& original = anim.channels[c].values;
    for (int f = 0; f < 40; ++f) {  // linear interpolation over the kept keys gives every frame
      const float t = float(f) / 30.0f;
      const std::size_t k = std::size_t(std::upper_bound(times.begin(), times.end(), t + 1e-6f) - times.begin()) - 1;
      const std::size_t k1 = std::min(k + 1, times.size() - 1);
      const float u = k1 == k ? 0.0f : (t - times[k]) / (times[k1] - times[k]);
      for (int x = 0; x < 3; ++x)
        EXPECT_NEAR((1 - u) * v[k * 3 + x] + u * v[k1 * 3 + x], original[std::size_t(f) * 3 + x], 1e-6) << c << " " << f;
    }
  }
  // The rotation's single inner key would save 16 bytes: it keeps the motion's 40-key timeline.
  EXPECT_EQ(m.accessors[std::size_t(sampler_of(2).input)].count, 40u);
  EXPECT_EQ(floats(sampler_of(2).output), rot);
}

TEST(SceneGltf, KhronosValidatorAndThreeJsAcceptTheMeshScene) {
  const fs::path src = source_dir();
  if (!fs::is_directory(src / "node_modules" / "gltf-validator") || run_shell("node --version").code != 0)
    GTEST_SKIP() << "node or " << (src / "node_modules") << " missing; run 'npm ci' to enable the validator check";
  TempDir tmp("scene");
  const fs::path& dir = tmp.path();
  fs::create_directories(dir / "textures");
  auto sc = make_scene();
  // A 1x1 PNG so that the image reference resolves.
  static const unsigned char png[] = {
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
      0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00,
      0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF,
      0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
  {
    std::ofstream f(dir / "textures" / "act stalker.png", std::ios::binary);
    f.write(reinterpret_cast<const char*>(png), sizeof png);
  }
  for (const char* name : {"mesh.glb", "mesh.gltf"}) {
    ASSERT_TRUE(write_gltf_files(sc, dir / name).ok());
    const CliRun r =
        run_shell("node " + quote(src / "tests/gltf/check_gltf.mjs") + " " + quote(dir / name) + " --joints 2 --animations 0");
    EXPECT_EQ(r.code, 0) << name << "\n" << r.out << r.err;
  }
}

}  // namespace
}  // namespace boneyard::test
