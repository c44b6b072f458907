// .object and .bones on fixtures laid out by hand (object_fixture.h): what is read, what the
// validator finds (with offsets and paths), byte-exact rewrites, the compressed body, and broken
// and hostile inputs failing with one clear finding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>

#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/bones/bones.h"
#include "boneyard/core/file_io.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/object/object_scene.h"
#include "object_fixture.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

xray::ObjectFile object_from(const std::vector<std::uint8_t>& bytes) {
  auto f = xray::read_object(FileData::from_vector(bytes));
  EXPECT_TRUE(f) << (f ? "" : f.error().path + ": " + f.error().message);
  return f ? std::move(f).value() : xray::ObjectFile{};
}

// The absolute offset of the payload of the chunk at `path` (ids, from the top), or 0.
std::size_t payload_at(const std::vector<std::uint8_t>& b, std::vector<std::uint32_t> path) {
  std::size_t begin = 0, end = b.size();
  for (std::uint32_t id : path) {
    std::size_t pos = begin;
    bool found = false;
    while (pos + 8 <= end) {
      std::uint32_t cid, size;
      std::memcpy(&cid, &b[pos], 4);
      std::memcpy(&size, &b[pos + 4], 4);
      if ((cid & 0x7FFFFFFFu) == id) {
        begin = pos + 8, end = pos + 8 + size, found = true;
        break;
      }
      pos += 8 + size;
    }
    if (!found) return 0;
  }
  return begin;
}

const Finding* find_message(const Diagnostics& d, const std::string& part, Severity s = Severity::error) {
  for (const auto& f : d.findings())
    if (f.severity == s && f.message.find(part) != std::string::npos) return &f;
  return nullptr;
}

ObjFile skinned_quad() {
  ObjFile o;
  o.flags = 1;
  ObjMesh m = quad_mesh();
  ObjVmap w;
  w.name = "root";
  w.dim = 1;
  w.type = 1;
  w.values = {1, 1, 1, 1};
  w.points = {0, 1, 2, 3};
  m.vmaps.push_back(w);
  // Each corner: its UV entry, then its point's weight entry.
  const std::int32_t point_of_entry[6] = {0, 2, 1, 1, 2, 3};
  for (std::int32_t i = 0; i < 6; ++i) m.vmrefs[std::size_t(i)].push_back({1, point_of_entry[i]});
  o.meshes = {m};
  o.bones = {{"root", "", "root"}, {"child", "root", "child", {0, 1, 0}}};
  o.parts = {{"default", {"root", "child"}}};
  o.refs = {"anims\\a", "anims\\b"};
  return o;
}

TEST(Object, ReadsEveryChunkOfTheFixture) {
  const auto bytes = obj_bytes(skinned_quad());
  const xray::ObjectFile f = object_from(bytes);
  EXPECT_EQ(f.version, 0x10);
  EXPECT_EQ(f.flags, 1u);
  ASSERT_EQ(f.meshes.size(), 1u);
  const auto& m = f.meshes[0];
  EXPECT_TRUE(m.readable);
  EXPECT_EQ(m.point_count, 4u);
  EXPECT_EQ(m.face_count, 2u);
  EXPECT_EQ(m.corner_point(1, 2), 3u);
  EXPECT_EQ(m.corner_vmref(1, 2), 5u);
  EXPECT_EQ(m.vmref_count, 6u);
  EXPECT_EQ(m.vmref_size(5), 2u);
  EXPECT_EQ(m.vmref_entry(5, 1).vmap, 1);
  EXPECT_EQ(m.vmref_entry(5, 1).index, 3);
  ASSERT_EQ(m.vmaps.size(), 2u);
  EXPECT_TRUE(m.vmaps[0].is_uv());
  EXPECT_EQ(m.vmaps[0].face(4), 1);
  EXPECT_FLOAT_EQ(m.vmaps[0].value(5, 0), 1.0f);
  EXPECT_TRUE(m.vmaps[1].is_weight());
  ASSERT_EQ(f.surfaces.size(), 1u);
  EXPECT_EQ(f.surfaces[0].texture, "wpn\\wpn_test");
  ASSERT_EQ(f.bones.size(), 2u);
  EXPECT_EQ(f.bones[1].parent, "root");
  EXPECT_EQ(f.bones[1].def_chunks, 2u);  // CBone::Save's DEF and SaveData's
  EXPECT_FLOAT_EQ(f.bones[1].rest_offset.y, 1.0f);
  ASSERT_TRUE(f.bones[1].mass);
  EXPECT_FLOAT_EQ(*f.bones[1].mass, 10.0f);
  EXPECT_EQ(f.motion_refs_chunk, xray::kObjMotionRefsSoc);
  ASSERT_EQ(f.motion_refs.size(), 2u);
  EXPECT_EQ(f.motion_refs[1], "anims\\b");
  ASSERT_TRUE(f.parts);
  EXPECT_EQ(f.parts->parts[0].bones.size(), 2u);
  ASSERT_TRUE(f.description && f.description->parsed);
  EXPECT_EQ(f.description->creator, "test");
  const Diagnostics d = xray::validate_object(f);
  EXPECT_FALSE(d.has_errors()) << (d.errors().empty() ? "" : d.errors()[0].message);
  EXPECT_EQ(xray::write_object(f), bytes);
}

TEST(Object, CompressedBodyIsReadAndRewrittenAsStored) {
  const Buf body = obj_body(skinned_quad());
  const auto packed = lzhuf_encode(body.b);
  const auto bytes = Buf().chunk(0x80007777u, Buf{packed}).b;
  const xray::ObjectFile f = object_from(bytes);
  EXPECT_TRUE(f.compressed);
  EXPECT_EQ(f.body.size(), body.b.size());
  ASSERT_EQ(f.meshes.size(), 1u);
  EXPECT_EQ(f.meshes[0].face_count, 2u);
  EXPECT_EQ(xray::write_object(f), bytes);
  auto again = xray::object_file_bytes(body.b, true);
  ASSERT_TRUE(again);
  EXPECT_EQ(again.value(), bytes);  // the body packed again gives the same bytes
}

TEST(Object, DegenerateFaceAndBadReferencesAreErrorsWithOffsets) {
  ObjFile o;
  ObjMesh m = quad_mesh();
  m.faces[1] = {{1, 3, 2, 4, 2, 5}};  // point 2 twice: blender-xray's test_fmt_invalid_face
  o.meshes = {m};
  const auto bytes = obj_bytes(o);
  const Diagnostics d = xray::validate_object(object_from(bytes));
  const Finding* f = find_message(d, "invalid face");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->path.find("0x910/0"), std::string::npos);
  EXPECT_NE(f->path.find("face 1"), std::string::npos);
  // The face record's own offset: the 0x1006 payload + count + one face.
  EXPECT_EQ(f->offset, payload_at(bytes, {0x7777, 0x910, 0, 0x1006}) + 4 + 24);

  ObjFile bad;
  ObjMesh b = quad_mesh();
  b.vmrefs[3] = {{5, 0}};            // a vmap that does not exist
  b.surfaces[0].first = "missing";  // a surface the object does not have
  b.faces[0][0] = 9;                // a point past the mesh
  bad.meshes = {b};
  const Diagnostics e = xray::validate_object(object_from(obj_bytes(bad)));
  EXPECT_NE(find_message(e, "vmref entries name a vertex map"), nullptr);
  EXPECT_NE(find_message(e, "faces of a surface the object does not have"), nullptr);
  EXPECT_NE(find_message(e, "faces name points past the mesh"), nullptr);
}

// The export's check (errors only) finds the errors the full check finds, with the same messages,
// offsets and counts: a degenerate face past the first, faces past the points and the vmrefs.
TEST(Object, ErrorsOnlyCheckGivesTheFullChecksErrors) {
  const auto errors = [](const ObjFile& o, bool errors_only) {
    const xray::ObjectFile f = object_from(obj_bytes(o));
    Diagnostics d;
    xray::validate_object_mesh(f, f.meshes.at(0), d, errors_only);
    std::vector<std::string> out;
    for (const Finding& x : d.findings())
      if (x.severity == Severity::error) out.push_back(x.path + ": " + x.message + " @" + std::to_string(x.offset) + " " + x.found);
    return out;
  };
  ObjFile o;
  ObjMesh m = quad_mesh();
  m.points.push_back({0, 1, 0});
  m.faces.push_back({{0, 0, 1, 1, 4, 2}});
  m.faces.push_back({{1, 3, 4, 4, 1, 5}});  // face 3: point 1 twice
  m.faces.push_back({{2, 3, 2, 4, 2, 5}});  // face 4: point 2 three times
  m.groups = {0, 0, 0, 0, 0};
  m.surfaces[0].second = {0, 1, 2, 3, 4};
  o.meshes = {m};
  std::vector<std::string> full = errors(o, false);
  ASSERT_EQ(full.size(), 1u);
  EXPECT_NE(full[0].find("face 3: invalid face"), std::string::npos) << full[0];
  EXPECT_NE(full[0].find("2 face(s)"), std::string::npos) << full[0];
  EXPECT_EQ(errors(o, true), full);
  o.meshes[0].faces[0][0] = 9;   // a point past the mesh
  o.meshes[0].faces[1][5] = 77;  // a vmref past the list
  full = errors(o, false);
  EXPECT_EQ(full.size(), 3u);
  EXPECT_EQ(errors(o, true), full);
}

// Vmref entries whose value belongs to another point than the corner's: counted per entry, both
// when a vmref's entries agree on one (wrong) point and when they disagree among themselves.
TEST(Object, VmrefEntriesOfAnotherPointAreCountedPerEntry) {
  ObjFile o = skinned_quad();
  EXPECT_EQ(find_message(xray::validate_object(object_from(obj_bytes(o))), "belongs to another point", Severity::warning), nullptr);
  o.meshes[0].vmrefs[0] = {{0, 5}, {1, 3}};  // corner on point 0; UV and weight of point 3: 2 entries
  o.meshes[0].vmrefs[3] = {{0, 3}, {1, 2}};  // corner on point 1; UV of point 1, weight of point 2: 1 entry
  const Diagnostics d = xray::validate_object(object_from(obj_bytes(o)));
  const Finding* f = find_message(d, "belongs to another point", Severity::warning);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->found, "3 entries");
}

TEST(Object, BrokenBoneShapeAndJointTypesAreErrors) {
  ObjFile o = skinned_quad();
  o.bones[0].shape_type = 62;           // blender-xray's test_fmt_broken
  o.bones[0].joint_type = 0x04000000u;
  const Diagnostics d = xray::validate_object(object_from(obj_bytes(o)));
  const Finding* shape = find_message(d, "unknown bone shape type");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->path, "0x921/0 0x5 shape type");
  EXPECT_EQ(shape->found, "62");
  EXPECT_NE(find_message(d, "unknown joint type"), nullptr);
}

TEST(Object, TruncatedMeshFailsThatMeshAloneWithItsPath) {
  ObjFile o;
  ObjMesh m = quad_mesh();
  o.meshes = {m, m};
  auto bytes = obj_bytes(o);
  // The second mesh's face count made huge: counts are checked against the bytes left.
  const std::size_t count_at = payload_at(bytes, {0x7777, 0x910, 1, 0x1006});
  ASSERT_NE(count_at, 0u);
  bytes[count_at + 3] = 0x7F;
  const xray::ObjectFile f = object_from(bytes);
  ASSERT_EQ(f.meshes.size(), 2u);
  EXPECT_TRUE(f.meshes[0].readable);
  ASSERT_FALSE(f.meshes[1].readable);
  EXPECT_EQ(f.meshes[1].readable.error().offset, count_at + 4);
  EXPECT_NE(f.meshes[1].readable.error().path.find("0x910/1 0x1006"), std::string::npos);
  EXPECT_TRUE(xray::validate_object(f).has_errors());
  EXPECT_EQ(xray::write_object(f), bytes);  // kept as stored
}

TEST(Object, NotAnObjectAndTruncatedBodyFailClearly) {
  auto none = xray::read_object(FileData::from_vector(Buf().chunk(0x1, Buf().u32(0)).b));
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("not an .object"), std::string::npos);
  auto bytes = obj_bytes(skinned_quad());
  bytes.resize(bytes.size() - 10);
  auto cut = xray::read_object(FileData::from_vector(bytes));
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message.find("truncated"), std::string::npos);
  // A packed body that declares more than its stream can hold is refused before allocating.
  const auto bomb = Buf().chunk(0x80007777u, Buf().u32(0xFFFFFFF0u).u32(0)).b;
  auto refused = xray::read_object(FileData::from_vector(bomb));
  ASSERT_FALSE(refused);
}

TEST(Object, UnknownChunksAreKept) {
  Buf body = obj_body(skinned_quad());
  body.chunk(0x9999, Buf().u32(1234));
  const auto bytes = Buf().chunk(0x7777, body).chunk(0x4242, Buf().u8(1)).b;
  const xray::ObjectFile f = object_from(bytes);
  const Diagnostics d = xray::validate_object(f);
  EXPECT_NE(find_message(d, "unknown object chunk", Severity::info), nullptr);
  EXPECT_NE(find_message(d, "chunk after the object body", Severity::warning), nullptr);
  EXPECT_EQ(xray::write_object(f), bytes);
}

TEST(Bones, ReadValidateRewriteAndMake) {
  Buf file;
  const ObjBone a{"root", "", ""}, b{"child", "root", ""};
  file.chunk(0, obj_bone(a, false)).chunk(1, obj_bone(b, false));
  file.chunk(0x923, Buf().u32(1).str("all").u32(2).str("root").str("child"));
  auto read = xray::read_bones(FileData::from_vector(file.b));
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->bones.size(), 2u);
  EXPECT_EQ(read->bones[1].name, "child");
  EXPECT_FALSE(read->bones[1].def_has_links);
  ASSERT_TRUE(read->parts);
  EXPECT_EQ(read->parts->parts[0].bones[1], "child");
  EXPECT_FALSE(xray::validate_bones(read.value()).has_errors());
  EXPECT_EQ(xray::write_bones(read.value()), file.b);
  // The library's writer lays the same records out as the fixture (SaveData's order).
  EXPECT_EQ(xray::make_bones(read->bones, *read->parts), file.b);
  EXPECT_TRUE(xray::looks_like_bones(file.b));
  // A part naming a bone that is not there, a bone in no part.
  Buf odd;
  odd.chunk(0, obj_bone(a, false)).chunk(1, obj_bone(b, false)).chunk(0x923, Buf().u32(1).str("p").u32(1).str("nope"));
  auto o = xray::read_bones(FileData::from_vector(odd.b));
  ASSERT_TRUE(o);
  const Diagnostics d = xray::validate_bones(o.value());
  EXPECT_NE(find_message(d, "part names a bone", Severity::warning), nullptr);
  EXPECT_NE(find_message(d, "bones in no part", Severity::warning), nullptr);
}

// Corners on one point whose vmrefs give the same UV and weights share a vertex (as the SDK's export
// welds them); a UV that differs keeps its own. The quad's six corners each have a vmref, and the
// two corners on each of the diagonal's points carry equal values.
TEST(ObjectScene, CornersWithEqualValuesShareOneVertex) {
  const auto vertices = [](const ObjFile& o) {
    const xray::ObjectFile f = object_from(obj_bytes(o));
    Diagnostics w;
    auto s = xray::object_to_scene(f, "model", {}, w);
    EXPECT_TRUE(s);
    const scene::Primitive& p = s.value().meshes.at(0).primitives.at(0);
    EXPECT_EQ(p.indices.size(), 6u);
    for (const auto i : p.indices) EXPECT_LT(i, p.vertex_count());
    return p.vertex_count();
  };
  ObjFile o = skinned_quad();
  EXPECT_EQ(vertices(o), 4u);
  o.meshes[0].vmaps[0].values[8] = 0.5f;  // the second face's corner on point 2: another U
  EXPECT_EQ(vertices(o), 5u);
  o = skinned_quad();
  o.meshes[0].vmaps[1].values.push_back(0.5f);  // that corner's weight entry: another weight
  o.meshes[0].vmaps[1].points.push_back(2);
  o.meshes[0].vmrefs[4][1] = {1, 4};
  EXPECT_EQ(vertices(o), 5u);
}

// The first primitive of the object's export with the default options.
scene::Primitive first_primitive(const ObjFile& o) {
  const xray::ObjectFile f = object_from(obj_bytes(o));
  Diagnostics w;
  auto s = xray::object_to_scene(f, "model", {}, w);
  EXPECT_TRUE(s);
  return s ? s.value().meshes.at(0).primitives.at(0) : scene::Primitive{};
}

// A vertex of more than four influences keeps every one in the extras (by its vertex index) and is
// never welded by value: point 2's two corners, each with six equal influences through its own
// vmref, stay two vertices; given the same vmref, they share one.
TEST(ObjectScene, VerticesOfMoreThanFourInfluencesKeepThemAndAreNotWelded) {
  ObjFile o = skinned_quad();
  for (int b = 2; b < 6; ++b) o.bones.push_back({"b" + std::to_string(b), "root", "b" + std::to_string(b)});
  o.parts = {{"default", {"root", "child", "b2", "b3", "b4", "b5"}}};
  ObjMesh& m = o.meshes[0];
  // Point 2 (corner 1 of face 0: vmref 1; corner 2 of face 1: vmref 4) weighs on six bones.
  const char* maps[] = {"child", "b2", "b3", "b4", "b5"};
  for (int i = 0; i < 5; ++i) {
    ObjVmap w;
    w.name = maps[i], w.dim = 1, w.type = 1, w.values = {0.1f * float(i + 1)}, w.points = {2};
    m.vmaps.push_back(w);
    m.vmrefs[1].push_back({2 + i, 0});
    m.vmrefs[4].push_back({2 + i, 0});
  }
  scene::Primitive p = first_primitive(o);
  ASSERT_EQ(p.vertex_count(), 5u);
  const nlohmann::json& x = scene::json_of(p.extras).at("xray");
  ASSERT_TRUE(x.contains("influences"));
  ASSERT_EQ(x["influences"].size(), 2u);  // both corners of point 2
  for (const auto& v : x["influences"]) {
    EXPECT_EQ(v.at(1).size(), 6u);
    EXPECT_EQ(v.at(1).at(0).at(0), 0);  // root (weight 1) first, then the heaviest
    EXPECT_EQ(v.at(1).at(1).at(0), 5);
  }
  m.faces[1][3] = 1;  // face 1's corner on point 2 takes vmref 1 as well
  p = first_primitive(o);
  EXPECT_EQ(p.vertex_count(), 4u);
  EXPECT_EQ(scene::json_of(p.extras).at("xray").at("influences").size(), 1u);
}

// A mesh with more vmrefs than corners resolves only those its corners name: the vertices are
// those of the same mesh without the unused ones.
TEST(ObjectScene, UnusedVmrefsChangeNothing) {
  ObjFile o = skinned_quad();
  const scene::Primitive used = first_primitive(o);
  for (int i = 0; i < 7; ++i) o.meshes[0].vmrefs.push_back({{0, 5}, {1, 3}});
  const scene::Primitive more = first_primitive(o);
  EXPECT_EQ(more.indices, used.indices);
  EXPECT_EQ(more.positions, used.positions);
  EXPECT_EQ(more.normals, used.normals);
  EXPECT_EQ(more.uvs, used.uvs);
  EXPECT_EQ(more.joints, used.joints);
  EXPECT_EQ(more.weights, used.weights);
}

// Normals are unit length: the smoothing rules' own results are written as they are, a face too
// small for the rules to normalise (squared length under FLT_MIN) is normalised by the export,
// and a face without area gives +Y.
TEST(ObjectScene, NormalsAreUnitLengthEvenForTinyOrFlatFaces) {
  const auto normals = [](const ObjFile& o) {
    const xray::ObjectFile f = object_from(obj_bytes(o));
    Diagnostics w;
    xray::ObjectExportOptions eo;
    eo.style = xray::SmoothingStyle::soc;  // -1: each corner takes its face's normal
    auto s = xray::object_to_scene(f, "model", eo, w);
    EXPECT_TRUE(s);
    return s ? s.value().meshes.at(0).primitives.at(0).normals : std::vector<float>{};
  };
  const auto unit = [](const float* n) { return std::fabs(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1.0f) <= 1e-6f; };
  ObjFile o;
  o.meshes = {quad_mesh()};
  o.meshes[0].groups = {0xFFFFFFFFu, 0xFFFFFFFFu};
  // Face 0 (points 0, 2, 1) shrunk to 1e-10 m: its cross product's squared length is about 1e-40.
  o.meshes[0].points = {{0, 0, 0}, {1e-10f, 0, 0}, {0, 0, 1e-10f}, {1, 0, 1}};
  std::vector<float> n = normals(o);
  ASSERT_FALSE(n.empty());
  for (std::size_t v = 0; v < n.size() / 3; ++v) EXPECT_TRUE(unit(&n[3 * v])) << "vertex " << v;
  EXPECT_NEAR(std::fabs(n[1]), 1.0f, 1e-6f);  // the first corner is face 0's: its normal is +-Y
  // Face 0 without area (three points at one place): its corners get +Y.
  o.meshes[0].points = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 1}};
  n = normals(o);
  ASSERT_GE(n.size(), 3u);
  EXPECT_EQ(n[0], 0.0f);
  EXPECT_EQ(n[1], 1.0f);
  EXPECT_EQ(n[2], 0.0f);
}

// The import's weight maps: one bone named twice in a vertex's influences is one entry of their
// sum; a bone no corner uses has no map; the corners on a bone name its map.
TEST(ObjectImport, InfluencesOnOneBoneAreSummedIntoItsWeightMap) {
  const xray::ObjectFile f = object_from(obj_bytes(skinned_quad()));
  Diagnostics w;
  auto exported = xray::object_to_scene(f, "model", {}, w);
  ASSERT_TRUE(exported);
  scene::Scene s = std::move(exported).value();
  s.skeleton.skin = {0, 1};  // what a glTF's skin gives the import (the export leaves it to the writer)
  scene::Primitive& p = s.meshes.at(0).primitives.at(0);
  ASSERT_EQ(p.joints.size(), 4 * p.vertex_count());
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    // Vertex 0 hangs on "child" twice (0.25 + 0.25) and on "root" (0.5); the rest on "root".
    const std::uint16_t joints[4] = {std::uint16_t(v == 0 ? 1 : 0), 1, 0, 0};
    const float weights[4] = {v == 0 ? 0.25f : 1.0f, v == 0 ? 0.25f : 0.0f, v == 0 ? 0.5f : 0.0f, 0.0f};
    std::memcpy(p.joints.data() + 4 * v, joints, sizeof joints);
    std::memcpy(p.weights.data() + 4 * v, weights, sizeof weights);
  }
  Diagnostics iw;
  auto bytes = xray::scene_to_object_bytes(s, {}, iw);
  ASSERT_TRUE(bytes) << bytes.error().message;
  const xray::ObjectFile back = object_from(bytes.value());
  ASSERT_EQ(back.meshes.size(), 1u);
  const xray::ObjectMesh& m = back.meshes[0];
  std::map<std::string, std::vector<std::pair<std::int32_t, float>>> weights;  // map name -> (point, weight)
  for (const auto& vm : m.vmaps)
    if (vm.is_weight())
      for (std::size_t i = 0; i < vm.size; ++i) weights[vm.name].emplace_back(vm.point(i), vm.value(i, 0));
  ASSERT_EQ(weights.count("child"), 1u);
  ASSERT_EQ(weights.count("root"), 1u);
  ASSERT_EQ(weights["child"].size(), 1u);  // one point, one entry: the two influences summed
  EXPECT_EQ(weights["child"][0].second, 0.5f);
  const std::int32_t point = weights["child"][0].first;
  bool root_half = false;
  for (const auto& [pt, value] : weights["root"]) root_half = root_half || (pt == point && value == 0.5f);
  EXPECT_TRUE(root_half);
  EXPECT_EQ(weights["root"].size(), std::size_t(m.point_count));
}

}  // namespace
}  // namespace boneyard::test
