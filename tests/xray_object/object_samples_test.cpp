// Every real .object and .bones of ../shared/samples/xray/sdk (blender-xray's test files and a
// mod's objects): read, validated (the files broken on purpose found broken), rewritten byte for
// byte; through glTF and back with the template (byte for byte) and without (the same triangles,
// UVs, weights and normals); an edit landing in the template's layout; .ogf -> .object -> .ogf
// keeping every vertex, UV and weight; bone data out of and into models.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"
#include "core/base64.h"
#include "object_support.h"
#include "scene/extras_json.h"
#include "xray/object/object_extras.h"

namespace boneyard::test {
namespace {

TEST(ObjectSamples, EverySdkFileReadsValidatesAndRewritesIdentically) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const auto objects = sdk_samples(".object");
  ASSERT_GE(objects.size(), 19u);
  std::size_t compressed = 0;
  for (const auto& p : objects) {
    const xray::ObjectFile f = load_object(p);
    compressed += f.compressed ? 1 : 0;
    const Diagnostics d = xray::validate_object(f);
    EXPECT_EQ(d.has_errors(), broken_on_purpose(p)) << p << ": " << (d.errors().empty() ? "no errors" : d.errors()[0].message);
    auto out = xray::rewrite_object(f);
    ASSERT_TRUE(out) << p << ": " << out.error().message;
    EXPECT_EQ(out.value(), read_file(p)) << p;
  }
  EXPECT_EQ(compressed, 1u);  // test_fmt_old.object
  for (const auto& p : sdk_samples(".bones")) {
    auto f = xray::read_bones(FileData::from_vector(read_file(p)));
    ASSERT_TRUE(f) << p;
    EXPECT_FALSE(xray::validate_bones(f.value()).has_errors()) << p;
    EXPECT_EQ(xray::write_bones(f.value()), read_file(p)) << p;
  }
}

TEST(ObjectSamples, GltfRoundTripWithTemplateIsByteExact) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  std::size_t checked = 0;
  for (const auto& p : sdk_samples(".object")) {
    if (broken_on_purpose(p)) continue;
    const xray::ObjectFile f = load_object(p);
    const scene::Scene back = through_glb(object_scene(f));
    xray::ObjectImportOptions o;
    o.template_object = &f;
    Diagnostics w;
    xray::ObjectImportStats st;
    auto bytes = xray::scene_to_object_bytes(back, o, w, &st);
    ASSERT_TRUE(bytes) << p << ": " << bytes.error().path << ": " << bytes.error().message;
    EXPECT_EQ(bytes.value(), read_file(p)) << p;
    EXPECT_EQ(st.rebuilt, 0u) << p;
    ++checked;
  }
  EXPECT_GE(checked, 17u);
}

// What the fuzzer found (tests/fuzz_seeds/fuzz_object/regress_*): NaN joint limits and centre of
// mass, a mesh chunk after a gap in the ids; each comes back through glTF with itself as template
// byte for byte. Needs no samples.
TEST(ObjectSamples, FuzzFoundTemplatesComeBackByteExact) {
  std::size_t checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(BONEYARD_SOURCE_DIR) / "tests/fuzz_seeds/fuzz_object")) {
    if (e.path().filename().string().rfind("regress_", 0) != 0) continue;
    const xray::ObjectFile f = load_object(e.path());
    const scene::Scene back = through_glb(object_scene(f));
    xray::ObjectImportOptions o;
    o.template_object = &f;
    Diagnostics w;
    auto bytes = xray::scene_to_object_bytes(back, o, w);
    ASSERT_TRUE(bytes) << e.path() << ": " << bytes.error().path << ": " << bytes.error().message;
    EXPECT_EQ(bytes.value(), read_file(e.path())) << e.path();
    ++checked;
  }
  EXPECT_GE(checked, 3u);
}

TEST(ObjectSamples, GltfRoundTripWithoutTemplateKeepsEveryTriangle) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  for (const auto& p : sdk_samples(".object")) {
    if (broken_on_purpose(p)) continue;
    const xray::ObjectFile f = load_object(p);
    const scene::Scene exported = object_scene(f);
    Diagnostics w;
    auto bytes = xray::scene_to_object_bytes(through_glb(exported), {}, w);
    ASSERT_TRUE(bytes) << p << ": " << bytes.error().path << ": " << bytes.error().message;
    const xray::ObjectFile made = object_of(bytes.value());
    EXPECT_FALSE(xray::validate_object(made).has_errors()) << p;
    EXPECT_EQ(made.bones.size(), f.bones.size()) << p;
    EXPECT_EQ(xray::detect_smoothing(made), xray::detect_smoothing(f)) << p;
    // The new object exports the same triangles: positions, normals (its smoothing groups give
    // them back), every UV map, every weight.
    const auto want = triangles_by_material(exported);
    const auto have = triangles_by_material(object_scene(made));
    ASSERT_EQ(want.size(), have.size()) << p;
    for (const auto& [mat, tris] : want) {
      ASSERT_TRUE(have.count(mat)) << p << " " << mat;
      EXPECT_EQ(tris.size(), have.at(mat).size()) << p << " " << mat;
      EXPECT_EQ(missing_triangles(tris, have.at(mat)), 0u) << p << " " << mat;
    }
  }
}

// The primitive columns (per vertex its point, per triangle its smoothing value and face) are
// base64 of u32 LE: each vertex's column value is the point it stands on; a glTF whose columns are
// JSON arrays instead (older exports, a person's edit) gives the same object.
TEST(ObjectSamples, PrimitiveColumnsAreBase64AndJsonArraysStillRead) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  std::size_t checked = 0;
  for (const auto& p : sdk_samples(".object")) {
    if (broken_on_purpose(p)) continue;
    const xray::ObjectFile f = load_object(p);
    scene::Scene s = through_glb(object_scene(f));
    scene::Scene as_arrays = s;
    for (std::size_t m = 0; m < s.meshes.size(); ++m)
      for (std::size_t q = 0; q < s.meshes[m].primitives.size(); ++q) {
        const scene::Primitive& prim = s.meshes[m].primitives[q];
        const nlohmann::json& x = scene::json_of(prim.extras).at("xray");
        const xray::ObjectMesh* mesh = nullptr;
        for (const auto& om : f.meshes)
          if (om.index == x.at("mesh").get<std::size_t>()) mesh = &om;
        ASSERT_NE(mesh, nullptr) << p;
        nlohmann::json& y = scene::json_of(as_arrays.meshes[m].primitives[q].extras)["xray"];
        for (const char* key : {"points", "groups", "faces"}) {
          ASSERT_TRUE(x.at(key).is_string()) << p << " " << key;
          std::vector<std::uint8_t> bytes;
          ASSERT_TRUE(from_b64(x.at(key).get<std::string>(), bytes)) << p << " " << key;
          const std::size_t want = std::string(key) == "points" ? prim.vertex_count() : prim.indices.size() / 3;
          ASSERT_EQ(bytes.size(), want * 4) << p << " " << key;
          std::vector<std::uint32_t> values(want);
          std::memcpy(values.data(), bytes.data(), bytes.size());
          if (std::string(key) == "points") {
            for (std::size_t v = 0; v < want; ++v) {
              ASSERT_LT(values[v], mesh->point_count) << p;
              const Vec3 at = mesh->point(values[v]);
              EXPECT_EQ(prim.positions[3 * v], at.x) << p << " vertex " << v;
              EXPECT_EQ(prim.positions[3 * v + 2], -at.z) << p << " vertex " << v;
            }
          }
          if (std::string(key) == "faces") {
            for (std::size_t t = 0; t < want; ++t) ASSERT_LT(values[t], mesh->face_count) << p;
          }
          y[key] = values;
        }
      }
    Diagnostics w;
    auto from_b64_columns = xray::scene_to_object_bytes(s, {}, w);
    auto from_arrays = xray::scene_to_object_bytes(as_arrays, {}, w);
    ASSERT_TRUE(from_b64_columns && from_arrays) << p;
    EXPECT_EQ(from_b64_columns.value(), from_arrays.value()) << p;
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

// A joint's extras are written as text for speed: exactly what nlohmann prints for the same
// document, and read back to the same bone data.
TEST(ObjectSamples, JointExtrasTextIsNlohmannsOwnAndReadsBack) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  std::size_t bones = 0;
  for (const auto& p : sdk_samples(".object")) {
    if (broken_on_purpose(p)) continue;
    const xray::ObjectFile f = load_object(p);
    for (const auto& b : f.bones) {
      const std::string text = xray::object_extras::bone_extras_text(b);
      const auto doc = nlohmann::json::parse(text);
      EXPECT_EQ(doc.dump(), text) << p << " " << b.name;
      xray::BoneData back = b;
      back.game_mtl.reset();
      back.wmap.clear();
      back.mass.reset();
      back.joint.reset();
      back.shape.reset();
      xray::object_extras::bone_from_json(doc.at("xray"), back);
      EXPECT_EQ(xray::object_extras::bone_extras_text(back), text) << p << " " << b.name;
      ++bones;
    }
  }
  EXPECT_GE(bones, 50u);
}

TEST(ObjectSamples, AnEditedMeshIsRebuiltInTheTemplatesLayoutTheRestKept) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const auto path = samples_dir() / "xray/sdk/mod/handflash_hud.object";
  const xray::ObjectFile f = load_object(path);
  scene::Scene s = through_glb(object_scene(f));
  // Move one vertex of the first primitive up by 1 cm (and every vertex at its position).
  auto& prim = s.meshes.at(0).primitives.at(0);
  const std::array<float, 3> at{prim.positions[0], prim.positions[1], prim.positions[2]};
  std::size_t moved = 0;
  for (auto& m : s.meshes)
    for (auto& q : m.primitives)
      for (std::size_t v = 0; v < q.vertex_count(); ++v)
        if (q.positions[v * 3] == at[0] && q.positions[v * 3 + 1] == at[1] && q.positions[v * 3 + 2] == at[2])
          q.positions[v * 3 + 1] += 0.01f, ++moved;
  ASSERT_GE(moved, 1u);
  xray::ObjectImportOptions o;
  o.template_object = &f;
  Diagnostics w;
  xray::ObjectImportStats st;
  auto bytes = xray::scene_to_object_bytes(s, o, w, &st);
  ASSERT_TRUE(bytes) << bytes.error().message;
  EXPECT_EQ(st.rebuilt, 1u);
  EXPECT_EQ(st.smoothing_conflicts, 0u);
  const xray::ObjectFile made = object_of(bytes.value());
  EXPECT_FALSE(xray::validate_object(made).has_errors());
  // Everything but the meshes chunk keeps its bytes and order.
  ASSERT_EQ(made.chunks.chunks.size(), f.chunks.chunks.size());
  for (std::size_t i = 0; i < f.chunks.chunks.size(); ++i) {
    const Chunk& a = f.chunks.chunks[i];
    const Chunk& b = made.chunks.chunks[i];
    EXPECT_EQ(a.raw_id, b.raw_id);
    if (a.id() != xray::kObjMeshes) {
      EXPECT_TRUE(std::equal(a.payload.begin(), a.payload.end(), b.payload.begin(), b.payload.end())) << hex(a.id());
    }
  }
  // The mesh keeps its name, flags, chunk order, vmap names and point count; the point moved.
  const auto& m0 = f.meshes[0];
  const auto& m1 = made.meshes[0];
  EXPECT_EQ(m1.name, m0.name);
  EXPECT_EQ(m1.flags, m0.flags);
  EXPECT_EQ(m1.point_count, m0.point_count);
  EXPECT_EQ(m1.face_count, m0.face_count);
  ASSERT_EQ(m1.chunks.chunks.size(), m0.chunks.chunks.size());
  for (std::size_t i = 0; i < m0.chunks.chunks.size(); ++i) EXPECT_EQ(m1.chunks.chunks[i].id(), m0.chunks.chunks[i].id());
  std::size_t points_moved = 0;
  for (std::size_t i = 0; i < m0.point_count; ++i) points_moved += m0.point(i) == m1.point(i) ? 0 : 1;
  EXPECT_EQ(points_moved, 1u);
  for (std::size_t i = 0; i < m0.face_count; ++i) EXPECT_EQ(m1.smoothing_group(i), m0.smoothing_group(i));
}

// What a DCC tool gives back: no primitive extras (no exported points, smoothing values or faces)
// and float noise on every position. The rebuilt mesh still keeps the template's points in order:
// each unmoved point on its template point within noise, the moved one in the place left free.
TEST(ObjectSamples, AnEditWithoutPrimitiveExtrasKeepsThePointOrder) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const auto path = samples_dir() / "xray/sdk/mod/handflash_hud.object";
  const xray::ObjectFile f = load_object(path);
  scene::Scene s = through_glb(object_scene(f));
  auto& prim = s.meshes.at(0).primitives.at(0);
  const std::array<float, 3> at{prim.positions[0], prim.positions[1], prim.positions[2]};
  for (auto& m : s.meshes)
    for (auto& q : m.primitives) {
      q.extras = scene::Extras();
      for (std::size_t v = 0; v < q.vertex_count(); ++v) {
        const bool here = q.positions[v * 3] == at[0] && q.positions[v * 3 + 1] == at[1] && q.positions[v * 3 + 2] == at[2];
        q.positions[v * 3] = std::nextafter(q.positions[v * 3], 1e9f);  // about 1e-8 m
        if (here) q.positions[v * 3 + 1] += 0.01f;
      }
    }
  xray::ObjectImportOptions o;
  o.template_object = &f;
  Diagnostics w;
  xray::ObjectImportStats st;
  auto bytes = xray::scene_to_object_bytes(s, o, w, &st);
  ASSERT_TRUE(bytes) << bytes.error().message;
  EXPECT_EQ(st.rebuilt, 1u);
  const xray::ObjectFile made = object_of(bytes.value());
  EXPECT_FALSE(xray::validate_object(made).has_errors());
  const auto& m0 = f.meshes[0];
  const auto& m1 = made.meshes[0];
  ASSERT_EQ(m1.point_count, m0.point_count);
  std::size_t points_moved = 0;
  for (std::size_t i = 0; i < m0.point_count; ++i) {
    const Vec3 a = m0.point(i), b = m1.point(i);
    points_moved += std::fabs(a.x - b.x) + std::fabs(a.y - b.y) + std::fabs(a.z - b.z) > 1e-5 ? 1 : 0;
  }
  EXPECT_EQ(points_moved, 1u);
}

TEST(ObjectSamples, OgfToObjectToOgfKeepsEveryVertexUvAndWeight) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  std::size_t checked = 0;
  for (const auto& dir : {"soc", "cs", "cop"}) {
    for (const auto& e : std::filesystem::directory_iterator(samples_dir() / "xray" / dir)) {
      if (e.path().extension() != ".ogf") continue;
      auto data = FileData::open(e.path());
      ASSERT_TRUE(data);
      auto ogf = xray::read_ogf(std::move(data).value());
      ASSERT_TRUE(ogf);
      if (ogf->children.empty()) continue;
      Diagnostics w;
      auto object = xray::ogf_to_object_bytes(ogf.value(), "model", xray::Game::cop, w);
      ASSERT_TRUE(object) << e.path() << ": " << object.error().path << ": " << object.error().message;
      const xray::ObjectFile made = object_of(object.value());
      EXPECT_FALSE(xray::validate_object(made).has_errors()) << e.path();
      auto back = xray::object_to_ogf_bytes(made, "model", xray::Game::cop, std::nullopt, w);
      ASSERT_TRUE(back) << e.path() << ": " << back.error().path << ": " << back.error().message;
      auto again = xray::read_ogf(FileData::from_vector(back.value()));
      ASSERT_TRUE(again);
      // The engine's triangles (positions, UV, weights by bone) of both models, per texture.
      auto engine_triangles = [](const xray::OgfFile& g) {
        scene::Scene s;
        if (!g.bones.empty()) s = xray::skeleton_scene(g, "m").value();
        Diagnostics ww;
        xray::XrayExportOptions o;
        o.input = "m.ogf";
        EXPECT_TRUE(xray::add_meshes(s, g, o, ww));
        return triangles_by_material(s, false);
      };
      const auto want = engine_triangles(ogf.value());
      const auto have = engine_triangles(again.value());
      for (const auto& [mat, tris] : want) {
        ASSERT_TRUE(have.count(mat)) << e.path() << " " << mat;
        EXPECT_EQ(missing_triangles(tris, have.at(mat)), 0u) << e.path() << " " << mat;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 8u);
}

TEST(ObjectSamples, BoneDataOutOfAndIntoModels) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  const xray::ObjectFile f = load_object(samples_dir() / "xray/sdk/blender-xray/test_fmt_bones.object");
  auto out = xray::bones_of_object(f);
  ASSERT_TRUE(out) << out.error().message;
  auto bones = xray::read_bones(FileData::from_vector(out.value()));
  ASSERT_TRUE(bones);
  EXPECT_EQ(bones->bones.size(), f.bones.size());
  // Loading an object's own bone data changes nothing.
  Diagnostics w;
  auto same = xray::apply_bones_to_object(f, bones.value(), w);
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_EQ(same.value(), read_file(samples_dir() / "xray/sdk/blender-xray/test_fmt_bones.object"));
  // blender-xray's .bones has other shapes and masses for the same bone names.
  auto other = xray::read_bones(FileData::from_vector(read_file(samples_dir() / "xray/sdk/blender-xray/test_fmt.bones")));
  ASSERT_TRUE(other);
  auto loaded = xray::apply_bones_to_object(f, other.value(), w);
  ASSERT_TRUE(loaded) << loaded.error().message;
  const xray::ObjectFile made = object_of(loaded.value());
  for (std::size_t i = 0; i < made.bones.size(); ++i) {
    const auto it = std::find_if(other->bones.begin(), other->bones.end(),
                                 [&](const auto& b) { return xray::bone_key(b.name) == xray::bone_key(made.bones[i].name); });
    if (it == other->bones.end()) continue;
    ASSERT_TRUE(made.bones[i].shape && it->shape);
    EXPECT_EQ(made.bones[i].shape->type, it->shape->type);
    EXPECT_EQ(made.bones[i].mass, it->mass);
    EXPECT_EQ(made.bones[i].rest_offset.x, f.bones[i].rest_offset.x);  // the bind pose stays
  }
}

}  // namespace
}  // namespace boneyard::test
