// MGS2 <-> glTF: export mapping, byte-exact round trips of our own exports, and models built from
// hand-made scenes (as another tool would write them) checked after export for world-space
// positions and weights.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <cstring>
#include <functional>
#include <set>

#include <nlohmann/json.hpp>

#include "scene/extras_json.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/evm/evm.h"
#include "mgs2_fixture.h"
#include "mgs2_gltf_support.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;

std::string all(const Diagnostics& d) { return dump_findings(d); }

// Models are views into their bytes: keep every buffer read here alive for the whole run.
const std::vector<std::uint8_t>& keep(std::vector<std::uint8_t> b) {
  static std::deque<std::vector<std::uint8_t>> kept;
  kept.push_back(std::move(b));
  return kept.back();
}

KmsFile read_k(const std::vector<std::uint8_t>& bytes) {
  const auto& b = keep(bytes);
  auto r = read_kms(FileData::from_view(as_bytes(b), nullptr));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "kms"));
  return r.ok() ? std::move(r).value() : KmsFile{};
}
EvmFile read_e(const std::vector<std::uint8_t>& bytes) {
  const auto& b = keep(bytes);
  auto r = read_evm(FileData::from_view(as_bytes(b), nullptr));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "evm"));
  return r.ok() ? std::move(r).value() : EvmFile{};
}
template <class T>
T must(Result<T> r) {
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "scene"));
  return r.ok() ? std::move(r).value() : T{};
}

// ---- export mapping ---------------------------------------------------------------------------

TEST(Mgs2Gltf, KmsExportPlacesUnitsAndWeights) {
  const KmsFile m = read_k(mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false)));
  Diagnostics w;
  const scene::Scene s = must(kms_to_scene(m, {}, w));
  ASSERT_EQ(s.skeleton.joints.size(), 2U);
  EXPECT_EQ(s.skeleton.joints[1].parent, 0);
  EXPECT_FLOAT_EQ(s.skeleton.joints[1].translation.y, 0.010f);  // (0, 10, 0) units = 1 cm
  EXPECT_TRUE(json_of(s.skeleton.joints[1].extras)["mgs2_joint"]["extended"].get<bool>());
  ASSERT_EQ(s.meshes.size(), 2U);
  // Unit 1 (at y = 10 units): vertex 2 = (0, 1, 0) local, weight 3072/4096 to unit 1, rest to 0.
  const auto& p = s.meshes[1].primitives.at(0);
  EXPECT_FLOAT_EQ(p.positions[2 * 3 + 1], 0.011f);
  EXPECT_FLOAT_EQ(weight_of(p, 2, 1), 0.75f);
  EXPECT_FLOAT_EQ(weight_of(p, 2, 0), 0.25f);
  EXPECT_EQ(p.indices.size(), 3U);
  // Unit 0's packet is not ENVELOPE: rigid even where w = 2048.
  const auto& q = s.meshes[0].primitives.at(0);
  EXPECT_FLOAT_EQ(weight_of(q, 3, 0), 1.0f);
  EXPECT_EQ(q.indices, (std::vector<std::uint32_t>{0, 2, 1, 1, 2, 3}));
  EXPECT_FLOAT_EQ(q.uvs.at(0)[3 * 2], 1.0f);
  EXPECT_EQ(json_of(s.extras)["mgs2"]["data_format"], 0x00C81371U);
  EXPECT_EQ(json_of(q.extras)["mgs2_packet"]["tex_id"][0], 0xB7E31EU);
  ASSERT_FALSE(s.materials.empty());
  EXPECT_EQ(s.materials[q.material].name, "00B7E31E");
}

TEST(Mgs2Gltf, EvmExportUsesRootOffsetsAndPalette) {
  const EvmFile m = read_e(mgs2fx::evm_bytes(mgs2fx::standard_evm(false, false, false)));
  Diagnostics w;
  const scene::Scene s = must(evm_to_scene(m, {}, w));
  ASSERT_EQ(s.skeleton.joints.size(), 3U);
  const auto world = scene::world_matrices(s.skeleton);
  EXPECT_NEAR(world[2][12], 0.004, 1e-7);  // finger root offset (4, 16, 0) units
  EXPECT_NEAR(world[2][13], 0.016, 1e-7);
  const auto& p = s.meshes.at(0).primitives.at(0);
  EXPECT_NEAR(p.positions[1 * 3 + 0], 0.010, 1e-7);  // 160 / 16 units
  EXPECT_FLOAT_EQ(weight_of(p, 3, 1), 0.75f);  // 96 through palette byte 4 = slot 1 = joint 1
  EXPECT_FLOAT_EQ(weight_of(p, 3, 0), 0.25f);
  EXPECT_FLOAT_EQ(weight_of(p, 1, 0) + weight_of(p, 1, 1), 1.0f);
}

// ---- byte-exact round trips -------------------------------------------------------------------

TEST(Mgs2Gltf, KmsRoundTripThroughGlbIsByteExact) {
  for (bool mc : {false, true})
    for (bool multitex : {false, true}) {
      SCOPED_TRACE(std::string(mc ? "mc" : "ps2") + (multitex ? " multitex" : ""));
      const auto original = mgs2fx::kms_bytes(mgs2fx::standard_kms(mc, multitex));
      const KmsFile m = read_k(original);
      // Without a template the builder's layout comes back: compare with the model laid out fresh.
      const auto canonical = must(build_kms(m, m.layout));
      Diagnostics w;
      const scene::Scene s = via_glb(must(kms_to_scene(read_k(canonical), {}, w)), w);
      EXPECT_TRUE(same_bytes(as_bytes(must(scene_to_kms(s, {}, w))), as_bytes(canonical))) << all(w);
      // With the original as template, its own placement (padding bytes, trailing data) too.
      Mgs2ImportOptions o;
      o.kms_template = &m;
      const scene::Scene s2 = via_glb(must(kms_to_scene(m, {}, w)), w);
      EXPECT_TRUE(same_bytes(as_bytes(must(scene_to_kms(s2, o, w))), as_bytes(original))) << all(w);
      EXPECT_EQ(w.count(Severity::warning), 0U) << all(w);
    }
}

TEST(Mgs2Gltf, EvmRoundTripThroughGlbIsByteExact) {
  for (bool mc : {false, true})
    for (bool large : {false, true})
      for (bool v1 : {false, true}) {
        SCOPED_TRACE(std::string(mc ? "mc" : "ps2") + (large ? " large" : "") + (v1 ? " v1" : ""));
        const auto original = mgs2fx::evm_bytes(mgs2fx::standard_evm(mc, large, v1));
        const EvmFile m = read_e(original);
        const auto canonical = must(build_evm(m, m.layout));
        Diagnostics w;
        const scene::Scene s = via_glb(must(evm_to_scene(read_e(canonical), {}, w)), w);
        EXPECT_TRUE(same_bytes(as_bytes(must(scene_to_evm(s, {}, w))), as_bytes(canonical))) << all(w);
        Mgs2ImportOptions o;
        o.evm_template = &m;
        EXPECT_TRUE(same_bytes(as_bytes(must(scene_to_evm(via_glb(must(evm_to_scene(m, {}, w)), w), o, w))), as_bytes(original)));
      }
}

TEST(Mgs2Gltf, LayoutChangeOnTheWayBack) {
  const KmsFile m = read_k(must(build_kms(read_k(mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false))), Layout::ps2)));
  Diagnostics w;
  Mgs2ImportOptions o;
  o.layout = Layout::mc;
  const KmsFile back = read_k(must(scene_to_kms(via_glb(must(kms_to_scene(m, {}, w)), w), o, w)));
  EXPECT_EQ(back.layout, Layout::mc);
  expect_same_content(m, back);
}

// ---- models built from hand-made scenes -------------------------------------------------------

scene::Scene cube_scene() {
  scene::Scene s;
  s.skeleton.joints = {joint("root", -1, {0, 1, 0})};
  std::vector<Vtx> vs;
  std::vector<std::uint32_t> idx;
  add_box(vs, idx, {-0.1f, 0.9f, -0.1f}, {0.1f, 1.1f, 0.1f});
  scene::Mesh mesh;
  mesh.name = "cube";
  mesh.skinned = true;
  mesh.primitives.push_back(make_primitive(vs, idx));
  s.meshes.push_back(mesh);
  return s;
}

TEST(Mgs2Gltf, CubeOnOneUnit) {
  Diagnostics w;
  const scene::Scene in = via_glb(cube_scene(), w);
  const auto bytes = must(scene_to_kms(in, {}, w));
  const KmsFile m = read_k(bytes);
  Diagnostics v;
  v.append(validate_kms(m));
  EXPECT_EQ(v.count(Severity::error), 0U) << all(v);
  ASSERT_EQ(m.units.size(), 1U);
  EXPECT_FLOAT_EQ(m.units[0].position.y, 1000.0f);  // 1 m = 1000 units
  EXPECT_FLOAT_EQ(m.units[0].bbox_min.x, -100.0f);
  EXPECT_FLOAT_EQ(m.units[0].bbox_max.y, 100.0f);
  const scene::Scene out = must(kms_to_scene(m, {}, w));
  EXPECT_EQ(triangle_set(out), triangle_set(in));
  EXPECT_EQ(triangle_set(out).size(), 12U);
}

// Upper arm (root at shoulder height) and forearm 0.3 m further along x; rings of 4 vertices at
// x = 0, 0.3, 0.6 weighted 1/0, 0.5/0.5, 0/1.
scene::Scene arm_scene() {
  scene::Scene s;
  s.skeleton.joints = {joint("upper", -1, {0, 1.5f, 0}), joint("fore", 0, {0.3f, 0, 0})};
  std::vector<Vtx> vs;
  std::vector<std::uint32_t> idx;
  for (int r = 0; r < 3; ++r)
    for (int q = 0; q < 4; ++q) {
      Vtx v{};
      const float a = float(q) * 1.5707964f;
      v.pos = {0.3f * float(r), 1.5f + 0.05f * std::cos(a), 0.05f * std::sin(a)};
      v.normal = {0, std::cos(a), std::sin(a)};
      v.uv = {0.5f * float(r), 0.25f * float(q)};
      const float fore = r == 0 ? 0.0f : r == 1 ? 0.5f : 1.0f;
      v.joints = {1, 0, 0, 0};
      v.weights = {fore, 1 - fore, 0, 0};
      if (r == 0) v.joints = {0, 0, 0, 0}, v.weights = {1, 0, 0, 0};
      vs.push_back(v);
    }
  for (std::uint32_t r = 0; r < 2; ++r)
    for (std::uint32_t q = 0; q < 4; ++q) {
      const std::uint32_t a = r * 4 + q, b = r * 4 + (q + 1) % 4, c = a + 4, d = b + 4;
      idx.insert(idx.end(), {a, b, d, a, d, c});
    }
  scene::Mesh mesh;
  mesh.name = "arm";
  mesh.skinned = true;
  mesh.primitives.push_back(make_primitive(vs, idx));
  s.meshes.push_back(mesh);
  return s;
}

TEST(Mgs2Gltf, TwoUnitEnvelopeArm) {
  Diagnostics w;
  const scene::Scene in = via_glb(arm_scene(), w);
  const KmsFile m = read_k(must(scene_to_kms(in, {}, w)));
  EXPECT_EQ(find(w, "weights", "moved").size(), 0U) << all(w);
  ASSERT_EQ(m.units.size(), 2U);
  EXPECT_EQ(m.units[1].parent, 0);
  EXPECT_FLOAT_EQ(m.units[1].position.x, 300.0f);
  bool envelope = false;
  for (const auto& p : m.units[1].packets) envelope |= (p.flag & kPackEnvelope) != 0;
  EXPECT_TRUE(envelope);
  const scene::Scene out = must(kms_to_scene(m, {}, w));
  EXPECT_EQ(triangle_set(out), triangle_set(in));
  // Every exported vertex: weight to the forearm as its position along x says.
  std::size_t checked = 0;
  for (const auto& mesh : out.meshes)
    for (const auto& p : mesh.primitives)
      for (std::size_t v = 0; v < p.vertex_count(); ++v) {
        const float x = p.positions[v * 3];
        const float expected = x < 0.15f ? 0.0f : x < 0.45f ? 0.5f : 1.0f;
        EXPECT_NEAR(weight_of(p, v, 1), expected, 1.0 / 128) << "x " << x;
        EXPECT_NEAR(weight_of(p, v, 0) + weight_of(p, v, 1), 1.0f, 1e-6);
        ++checked;
      }
  EXPECT_GE(checked, 12U);
}

// A chain of `joints` joints 0.1 m apart up y; a ribbon of `rows` rows of 2 vertices `step`
// metres apart (exact in model units), each row blending the two joints around it.
scene::Scene ribbon_scene(int joints, int rows, float step = 0.1f) {
  scene::Scene s;
  for (int j = 0; j < joints; ++j) s.skeleton.joints.push_back(joint("j", j - 1, {0, j ? 0.1f : 0.0f, 0}));
  std::vector<Vtx> vs;
  std::vector<std::uint32_t> idx;
  for (int r = 0; r < rows; ++r) {
    const float t = float(r) * step / 0.1f;
    const int j0 = std::min(int(t), joints - 1), j1 = std::min(j0 + 1, joints - 1);
    const float f = t - float(j0);
    for (int c = 0; c < 2; ++c) {
      Vtx v{};
      v.pos = {0.05f * float(c), step * float(r), 0};
      v.normal = {0, 0, 1};
      v.uv = {float(c), float(r) / float(rows)};
      v.joints = {std::uint16_t(j0), std::uint16_t(j1), 0, 0};
      v.weights = {1 - f, f, 0, 0};
      if (j0 == j1) v.weights = {1, 0, 0, 0};
      vs.push_back(v);
    }
  }
  for (std::uint32_t r = 0; r + 1 < std::uint32_t(rows); ++r) {
    const std::uint32_t a = r * 2, b = a + 1, c = a + 2, d = a + 3;
    idx.insert(idx.end(), {a, b, d, a, d, c});
  }
  scene::Mesh mesh;
  mesh.skinned = true;
  mesh.primitives.push_back(make_primitive(vs, idx));
  s.meshes.push_back(mesh);
  return s;
}

void check_evm_ribbon(int joints, int rows, float step, std::size_t packets) {
  Diagnostics w;
  const scene::Scene in = via_glb(ribbon_scene(joints, rows, step), w);
  const auto evm_bytes_out = must(scene_to_evm(in, {}, w));
  if (const char* d = std::getenv("MGS2_DEBUG_OUT")) {
    std::FILE* f = std::fopen(d, "wb");
    std::fwrite(evm_bytes_out.data(), 1, evm_bytes_out.size(), f);
    std::fclose(f);
  }
  const EvmFile m = read_e(evm_bytes_out);
  Diagnostics v;
  v.append(validate_evm(m));
  EXPECT_EQ(v.count(Severity::error), 0U) << all(v);
  EXPECT_EQ(m.packets.size(), packets);
  std::set<int> used;
  for (const auto& p : m.packets) {
    EXPECT_LE(p.n_mats, 8U);
    EXPECT_LE(p.vertex_count(), 32U);
    for (std::size_t k = 0; k < p.n_mats; ++k) used.insert(p.mat_id[k]);
  }
  EXPECT_EQ(used.size(), std::size_t(joints));
  const scene::Scene out = must(evm_to_scene(m, {}, w));
  EXPECT_EQ(triangle_set(out, 1e-4), triangle_set(in, 1e-4));
  // Weights per vertex as the ribbon defines them, within 1/128.
  const auto& src = in.meshes.at(0).primitives.at(0);
  for (const auto& p : out.meshes.at(0).primitives)
    for (std::size_t i = 0; i < p.vertex_count(); ++i) {
      std::size_t match = src.vertex_count();
      for (std::size_t k = 0; k < src.vertex_count(); ++k)
        if (std::fabs(src.positions[k * 3] - p.positions[i * 3]) < 1e-4 && std::fabs(src.positions[k * 3 + 1] - p.positions[i * 3 + 1]) < 1e-4)
          match = k;
      ASSERT_LT(match, src.vertex_count());
      for (std::uint16_t j = 0; j < joints; ++j) {
        // The source's joints are node indices of the glb; they equal joint indices here.
        EXPECT_NEAR(weight_of(p, i, j), weight_of(src, match, j), 1.0 / 128);
      }
    }
}

TEST(Mgs2Gltf, EvmEightMatricesAcrossTwoPackets) { check_evm_ribbon(8, 15, 0.05f, 2); }  // 30 vertices, 28 triangles > one packet
TEST(Mgs2Gltf, EvmPacketsSplitAtEightMatrices) { check_evm_ribbon(12, 12, 0.1f, 2); }     // 12 joints > 8

// ---- bad input ---------------------------------------------------------------------------------

TEST(Mgs2Gltf, CoordinateOutOfRangeSuggestsScale) {
  scene::Scene s = cube_scene();
  for (auto& f : s.meshes[0].primitives[0].positions) f *= 100;  // a 20 m cube 100 m up
  Diagnostics w;
  auto r = scene_to_kms(s, {}, w);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--scale"), std::string::npos) << r.error().message;
  Mgs2ImportOptions o;
  o.scale = 0.01;  // centimetres fit
  EXPECT_TRUE(scene_to_kms(s, o, w).ok());
}

TEST(Mgs2Gltf, OurExportWithoutNormalsStillBuilds) {
  // The packet extras must be read from the scene, not from the copy that gets the computed
  // normals (a use after free found by fuzz_gltf).
  const KmsFile m = read_k(mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false)));
  Diagnostics w;
  scene::Scene s = must(kms_to_scene(m, {}, w));
  for (auto& mesh : s.meshes)
    for (auto& p : mesh.primitives) p.normals.clear();
  const KmsFile back = read_k(must(scene_to_kms(s, {}, w)));
  ASSERT_EQ(back.units.size(), 2U);
  EXPECT_EQ(back.units[1].packets.at(0).flag, 0x49U);  // from the packet extras
}

TEST(Mgs2Gltf, MissingNormalsAndUvsAreMadeWithAWarning) {
  scene::Scene s = cube_scene();
  s.meshes[0].primitives[0].normals.clear();
  s.meshes[0].primitives[0].uvs.clear();
  Diagnostics w;
  const KmsFile m = read_k(must(scene_to_kms(s, {}, w)));
  EXPECT_EQ(find(w, "meshes", "normals computed").size(), 1U) << all(w);
  EXPECT_EQ(find(w, "meshes", "zero UVs").size(), 1U) << all(w);
  const scene::Scene out = must(kms_to_scene(m, {}, w));
  EXPECT_EQ(triangle_set(out).size(), 12U);
}

TEST(Mgs2Gltf, KmsInfluencesOutsideUnitAndParentAreReported) {
  scene::Scene s = ribbon_scene(4, 4);  // vertices blend joints j and j+1: fine for a chain
  auto& p = s.meshes[0].primitives[0];
  p.joints[0] = 3, p.weights[0] = 0.5f, p.joints[1] = 0, p.weights[1] = 0.5f;  // root with the tip
  Diagnostics w;
  ASSERT_TRUE(scene_to_kms(s, {}, w).ok());
  EXPECT_EQ(find(w, "weights", "moved").size(), 1U) << all(w);
}

TEST(Mgs2Gltf, EvmWithTooManyJointsIsAnError) {
  Diagnostics w;
  auto r = scene_to_evm(ribbon_scene(300, 4), {}, w);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("joints"), std::string::npos);
}

TEST(Mgs2Gltf, ModelWithoutTrianglesIsAnError) {
  scene::Scene s = cube_scene();
  s.meshes[0].primitives[0].indices.clear();  // vertices, but nothing to draw (found by fuzz_gltf)
  Diagnostics w;
  auto r = scene_to_evm(s, {}, w);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no triangles"), std::string::npos) << r.error().message;
}

// The JSON of a .glb, edited, in a new .glb (same BIN chunk).
std::vector<std::uint8_t> edit_glb(const std::vector<std::uint8_t>& glb, const std::function<void(nlohmann::json&)>& fn) {
  const std::uint32_t json_len = load_le<std::uint32_t>(glb.data() + 12);
  auto j = nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + json_len);
  fn(j);
  std::string text = j.dump();
  while (text.size() % 4) text += ' ';
  const std::vector<std::uint8_t> bin(glb.begin() + 20 + json_len, glb.end());  // BIN chunk with header
  std::vector<std::uint8_t> out(12);
  std::memcpy(out.data(), "glTF", 4);
  const auto put = [&](std::uint32_t v) { for (int k = 0; k < 4; ++k) out.push_back(std::uint8_t(v >> (8 * k))); };
  put(std::uint32_t(text.size()));
  put(0x4E4F534Au);
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), bin.begin(), bin.end());
  const auto total = std::uint32_t(out.size());
  std::uint32_t two = 2;
  std::memcpy(out.data() + 4, &two, 4);
  std::memcpy(out.data() + 8, &total, 4);
  return out;
}

TEST(Mgs2Gltf, ReaderSkipsPointsAndChecksSkinJoints) {
  const KmsFile m = read_k(mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false)));
  Diagnostics w;
  const auto glb = gltf::write(must(kms_to_scene(m, {}, w)), gltf::Container::glb).main;
  gltf::ReadOptions o;
  o.require_animations = false;
  // Points: skipped with a warning, the other primitives kept; the model still builds.
  const auto points = edit_glb(glb, [](nlohmann::json& j) { j["meshes"][1]["primitives"][0]["mode"] = 0; });
  Diagnostics rw;
  auto s = gltf::read(Bytes(points.data(), points.size()), {}, o, rw);
  ASSERT_TRUE(s.ok()) << format_finding(s.error(), "glb");
  EXPECT_EQ(find(rw, "primitive 0", "points or lines").size(), 1U) << all(rw);
  const KmsFile back = read_k(must(scene_to_kms(s.value(), {}, w)));
  EXPECT_EQ(back.units[0].packets.size(), 1U);
  EXPECT_EQ(back.units[1].packets.size(), 0U);
  // A skin joint that is no node, and the default (animations required) for motion import.
  const auto bad_skin = edit_glb(glb, [](nlohmann::json& j) { j["skins"][0]["joints"][0] = 999; });
  EXPECT_FALSE(gltf::read(Bytes(bad_skin.data(), bad_skin.size()), {}, o, rw).ok());
  EXPECT_FALSE(gltf::read(Bytes(glb.data(), glb.size()), {}, gltf::ReadOptions{}, rw).ok());
  // Skin joints are mapped to node indices: our joints are nodes 0 and 1.
  auto ok = gltf::read(Bytes(glb.data(), glb.size()), {}, o, rw);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->skeleton.skin, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_TRUE(ok->meshes.at(1).skinned);
  EXPECT_FLOAT_EQ(weight_of(ok->meshes.at(1).primitives.at(0), 2, 1), 0.75f);
}

// Found by fuzz_gltf: extras whose fields have the wrong JSON type fall back to the defaults (here
// the layout: PS2) instead of throwing out of the importer.
TEST(Mgs2Gltf, ExtrasOfTheWrongTypeFallBackToDefaults) {
  const KmsFile m = read_k(mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false)));
  Diagnostics w;
  auto sc = must(kms_to_scene(m, {}, w));
  for (const nlohmann::json& bad : {nlohmann::json::array({0, 0, 0}), nlohmann::json(7), nlohmann::json("ps1")}) {
    scene::Scene edited = sc;
    json_of(edited.extras)["mgs2"]["layout"] = bad;
    const auto kms = scene_to_kms(edited, {}, w);
    ASSERT_TRUE(kms.ok()) << bad.dump() << ": " << format_finding(kms.error(), "glb");
    EXPECT_EQ(read_k(kms.value()).layout, Layout::ps2) << bad.dump();
  }
  const EvmFile e = read_e(mgs2fx::evm_bytes(mgs2fx::standard_evm(false, false, false)));
  scene::Scene evm_scene = must(evm_to_scene(e, {}, w));
  json_of(evm_scene.extras)["mgs2"]["layout"] = nlohmann::json::array({0, 0, 0});
  const auto evm = scene_to_evm(evm_scene, {}, w);
  ASSERT_TRUE(evm.ok()) << format_finding(evm.error(), "glb");
  EXPECT_EQ(read_e(evm.value()).layout, Layout::ps2);
}

}  // namespace
}  // namespace boneyard::test

namespace boneyard::test {
namespace {

// Packets that all point at one vertex array (a crafted file can hold thousands) must not each
// decode a copy: past the file's size / 2 + 2^20 vertices the export is an error naming the packet.
TEST(Mgs2Gltf, PacketsSharingOneVertexArrayAreBoundedByTheFileSize) {
  mgs2fx::KFile f;
  mgs2fx::KUnit u;
  mgs2fx::KPacket p;
  p.verts.assign(60000, {0, 0, 0, 4096});
  p.norms.assign(60000, {0, 0, 4096, -28673});  // every vertex restarts the strip: no triangles
  u.packets.push_back(p);
  f.units.push_back(u);
  KmsFile m = read_k(mgs2fx::kms_bytes(f));
  ASSERT_EQ(m.units.size(), 1U);
  Diagnostics w;
  ASSERT_TRUE(kms_to_scene(m, {}, w).ok());  // one copy is fine
  const KmsPacket shared = m.units[0].packets[0];
  m.units[0].packets.assign(40, shared);  // 2.4M vertices from a ~1 MB file
  const auto r = kms_to_scene(m, {}, w);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("share vertex arrays"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().path.find("unit 0 packet "), std::string::npos) << r.error().path;
}

}  // namespace
}  // namespace boneyard::test
