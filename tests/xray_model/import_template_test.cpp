// glTF -> .ogf with a template, unedited: our export of every sample comes back byte for byte
// (every child found unchanged and copied), also when the glTF has lost the primitive extras and
// its vertices are reordered with float noise, as after a Blender round trip.
#include <cmath>
#include <numeric>
#include <random>

#include "boneyard/xray/ogf/ogf_import.h"
#include "model_support.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

// An OGF v3 model cannot be a template (the v4 reader refuses it and says why); its glTF becomes a
// v4 model through the import without a template (how a v3 model reaches a v4 game): checked by the
// v4 reader, with the v3 model's bones and, as a set, its model-space vertex positions.
void check_v3_through_gltf(const std::filesystem::path& p, const std::vector<std::uint8_t>& original) {
  SCOPED_TRACE(p.string());
  auto as_v4 = xray::read_ogf(FileData::from_vector(original));
  ASSERT_FALSE(as_v4);
  EXPECT_NE(as_v4.error().message.find("OGF v3"), std::string::npos) << as_v4.error().message;
  const xray::OgfV3File v3 = load_ogf_v3(p);
  const auto glb = export_glb(v3);
  ASSERT_FALSE(glb.empty());
  const scene::Scene s = read_glb(glb);
  xray::OgfImportOptions o;
  o.game = xray::Game::soc;
  Diagnostics w;
  xray::OgfImportStats st;
  auto out = xray::scene_to_ogf_bytes(s, o, w, &st);
  ASSERT_TRUE(out) << out.error().path << ": " << out.error().message;
  const xray::OgfFile v4 = ogf_from(out.value());
  ASSERT_EQ(v4.bones.size(), v3.bones.size());
  for (std::size_t b = 0; b < v3.bones.size(); ++b) {
    EXPECT_EQ(v4.bones[b].name, v3.bones[b].name);
    EXPECT_EQ(v4.bones[b].parent_name, v3.bones[b].parent_name);
  }
  // Model-space positions of the v3 model: its bone-space vertices through the bind pose.
  const auto world = scene::world_matrices(s.skeleton);
  std::vector<std::array<float, 3>> want;
  for (const auto& m : s.meshes)
    for (const auto& prim : m.primitives)
      for (std::size_t i = 0; i < prim.vertex_count(); ++i) {
        const float* q = &prim.positions[i * 3];
        std::array<double, 3> g{q[0], q[1], q[2]};
        if (!m.skinned && m.joint >= 0) {
          const auto& a = world[std::size_t(m.joint)];
          g = {a[0] * q[0] + a[4] * q[1] + a[8] * q[2] + a[12], a[1] * q[0] + a[5] * q[1] + a[9] * q[2] + a[13],
               a[2] * q[0] + a[6] * q[1] + a[10] * q[2] + a[14]};
        }
        want.push_back({float(g[0]), float(g[1]), float(-g[2])});
      }
  ASSERT_FALSE(want.empty());
  std::size_t written = 0;
  for (const auto& c : v4.children) {
    ASSERT_TRUE(c.vertices);
    for (std::size_t i = 0; i < c.vertices->count; ++i, ++written) {
      const Vec3 x = xray::decode_vertex(*c.vertices, i).position;
      EXPECT_TRUE(std::any_of(want.begin(), want.end(), [&](const auto& w3) {
        return std::fabs(w3[0] - x.x) < 1e-5f && std::fabs(w3[1] - x.y) < 1e-5f && std::fabs(w3[2] - x.z) < 1e-5f;
      })) << "vertex " << i << " of " << c.path();
    }
  }
  EXPECT_GE(written, want.size());
}

TEST(OgfTemplateImport, EverySampleUnchangedExportComesBackIdentical) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  std::size_t models = 0, v3 = 0;
  for (const auto& p : sample_ogfs()) {
    const auto original = read_file(p);
    if (is_ogf_v3(p)) {
      check_v3_through_gltf(p, original);
      ++v3;
      continue;
    }
    const xray::OgfFile tpl = load_ogf(p);
    const auto glb = export_glb(tpl);
    ASSERT_FALSE(glb.empty()) << p;
    const scene::Scene s = read_glb(glb);
    xray::OgfImportOptions o;
    o.template_ogf = &tpl;
    Diagnostics w;
    xray::OgfImportStats st;
    auto out = xray::scene_to_ogf_bytes(s, o, w, &st);
    if (tpl.children.empty()) {  // nothing to import: refused, said so
      ASSERT_FALSE(out) << p;
      EXPECT_EQ(out.error().message, "the glTF has no meshes to import");
      continue;
    }
    ASSERT_TRUE(out) << p << ": " << out.error().path << ": " << out.error().message;
    EXPECT_EQ(out.value(), original) << p;
    EXPECT_EQ(st.kept, tpl.children.size()) << p;
    EXPECT_EQ(st.edited + st.added + st.removed, 0u) << p;
    ++models;
  }
  EXPECT_GE(models, 10u);
  EXPECT_GE(v3, 1u);
}

// What a DCC round trip does to a primitive: the extras go, vertices are reordered (and each
// triangle starts at another corner), values move by float noise.
void scramble(scene::Scene& s, std::mt19937& rng) {
  std::uniform_real_distribution<float> noise(-2e-7f, 2e-7f);
  for (auto& m : s.meshes)
    for (auto& p : m.primitives) {
      json_of(p.extras) = nullptr;
      const std::size_t n = p.vertex_count();
      std::vector<std::uint32_t> perm(n);
      std::iota(perm.begin(), perm.end(), 0u);
      std::shuffle(perm.begin(), perm.end(), rng);
      scene::Primitive q = p;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = perm[i];
        for (int k = 0; k < 3; ++k) q.positions[j * 3 + k] = p.positions[i * 3 + k] + noise(rng);
        if (!p.normals.empty())
          for (int k = 0; k < 3; ++k) q.normals[j * 3 + k] = p.normals[i * 3 + k];
        for (int k = 0; k < 2; ++k) q.uvs[0][j * 2 + k] = p.uvs[0][i * 2 + k];
        if (!p.joints.empty())
          for (int k = 0; k < 4; ++k) q.joints[j * 4 + k] = p.joints[i * 4 + k], q.weights[j * 4 + k] = p.weights[i * 4 + k];
      }
      for (std::size_t t = 0; t + 2 < p.indices.size(); t += 3) {
        const std::size_t r = t / 3 % 3;  // rotate the corners, keep the winding
        for (std::size_t k = 0; k < 3; ++k) q.indices[t + k] = perm[p.indices[t + (k + r) % 3]];
      }
      p = std::move(q);
    }
}

TEST(OgfTemplateImport, ScrambledRoundTripKeepsEveryChildWithinNoise) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  std::mt19937 rng(29);
  for (const char* name : {"soc/zombi_1.ogf", "cop/cat_weak.ogf", "cop/flush_dead.ogf", "cop/protein.ogf",
                           "cs/stalker_lesnik_1.ogf", "soc/wpn_binoculars_hud.ogf"}) {
    const auto path = samples_dir() / "xray" / name;
    const xray::OgfFile tpl = load_ogf(path);
    scene::Scene s = read_glb(export_glb(tpl));
    scramble(s, rng);
    xray::OgfImportOptions o;
    o.template_ogf = &tpl;
    Diagnostics w;
    xray::OgfImportStats st;
    auto out = xray::scene_to_ogf_bytes(s, o, w, &st);
    ASSERT_TRUE(out) << name << ": " << out.error().path << ": " << out.error().message;
    EXPECT_EQ(st.kept_within_noise, tpl.children.size()) << name;
    EXPECT_EQ(out.value(), read_file(path)) << name;
  }
}

}  // namespace
}  // namespace boneyard::test
