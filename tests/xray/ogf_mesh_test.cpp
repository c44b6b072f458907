// OGF mesh reading (0x9 children): every vertex layout under both ids, strides checked against
// the chunk size, progressive windows, broken children, validator findings, and byte-exact
// rewrites of every real sample with its meshes parsed.
#include <cmath>
#include <filesystem>

#include "boneyard/xray/ogf/ogf.h"
#include "ogf_mesh_fixture.h"
#include "test_support.h"

namespace boneyard::test {
namespace {

using xray::OgfFile;
using xray::VertexLayout;

// A type-3 model with `bones` root-less chain bones (0xD only) and the given children.
std::vector<std::uint8_t> mesh_model(const std::vector<Buf>& kids, unsigned bones = 4, const Buf* trailing = nullptr) {
  Buf names;
  names.u32(bones);
  for (unsigned i = 0; i < bones; ++i) {
    names.str("b" + std::to_string(i)).str(i == 0 ? "" : "b" + std::to_string(i - 1));
    for (int k = 0; k < 15; ++k) names.f32(0);
  }
  Buf f;
  f.chunk(0x1, child_header(3)).chunk(0x9, children(kids)).chunk(0xD, names);
  if (trailing) f.add(*trailing);
  return f.b;
}

OgfFile read(const std::vector<std::uint8_t>& bytes) {
  auto r = xray::read_ogf(FileData::from_vector(bytes));
  EXPECT_TRUE(r) << (r ? "" : format_finding(r.error(), "fixture"));
  return std::move(r).value();
}

MeshVertex vertex(float x, std::array<unsigned, 4> bones, std::array<float, 3> w) {
  MeshVertex v;
  v.p = {x, 2 * x, -x};
  v.n = {0, 0, 1};
  v.u = 0.25f * x, v.v = 0.5f;
  v.bones = bones;
  v.stored_weights = w;
  return v;
}

ChildSpec skinned_child(int links, std::uint32_t format) {
  ChildSpec s;
  s.format = format;
  s.vertices = {skinned_vertex(links, vertex(1, {1, 2, 3, 0}, {0.5f, 0.25f, 0.125f})),
                skinned_vertex(links, vertex(2, {3, 2, 1, 0}, {0.75f, 0.125f, 0.0625f})),
                skinned_vertex(links, vertex(3, {0, 1, 2, 3}, {1.0f, 0.0f, 0.0f}))};
  s.indices = {0, 1, 2};
  return s;
}

TEST(OgfMesh, DecodesEverySkinnedLayoutUnderBothIds) {
  struct Case {
    int links;
    std::uint32_t id;
    std::uint32_t stride;
  };
  const Case cases[] = {{1, 1, 60}, {1, 0x12071980, 60}, {2, 2, 64}, {2, 0x240E3300, 64},
                        {3, 3, 70}, {3, 0x481C6600, 70}, {4, 4, 76}, {4, 0x5A237F80, 76}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.id);
    const OgfFile f = read(mesh_model({child(skinned_child(c.links, c.id))}));
    ASSERT_EQ(f.children.size(), 1u);
    const auto& ch = f.children[0];
    ASSERT_TRUE(ch.readable) << ch.readable.error().message;
    ASSERT_TRUE(ch.vertices);
    EXPECT_EQ(ch.vertices->links(), c.links);
    EXPECT_EQ(ch.vertices->stride, c.stride);
    EXPECT_EQ(ch.vertices->count, 3u);
    const auto v = xray::decode_vertex(*ch.vertices, 1);
    EXPECT_EQ(v.position, (Vec3{2, 4, -2}));
    EXPECT_EQ(v.normal, (Vec3{0, 0, 1}));
    EXPECT_FLOAT_EQ(v.u, 0.5f);
    EXPECT_FLOAT_EQ(v.v, 0.5f);
    EXPECT_EQ(v.bones[0], 3u);
    // Engine weights: 1-link all on bone 0; 2-link lerp (bone 1 gets w); 3/4-link the last bone
    // gets 1 - sum of the stored ones.
    switch (c.links) {
      case 1: EXPECT_EQ(v.weights, (std::array<float, 4>{1, 0, 0, 0})); break;
      case 2: EXPECT_EQ(v.weights, (std::array<float, 4>{0.25f, 0.75f, 0, 0})); break;
      case 3: EXPECT_EQ(v.weights, (std::array<float, 4>{0.75f, 0.125f, 0.125f, 0})); break;
      case 4: EXPECT_EQ(v.weights, (std::array<float, 4>{0.75f, 0.125f, 0.0625f, 0.0625f})); break;
    }
    for (int k = 1; k < c.links; ++k) EXPECT_EQ(v.bones[static_cast<std::size_t>(k)], 3u - unsigned(k));
    for (int k = c.links; k < 4; ++k) EXPECT_EQ(v.bones[static_cast<std::size_t>(k)], v.bones[0]);
    EXPECT_FALSE(xray::validate_ogf(f).has_errors());
  }
}

TEST(OgfMesh, DecodesTheStaticFvfLayout) {
  ChildSpec s;
  s.type = 0;
  s.format = 0x112;
  s.vertices = {static_vertex(vertex(1, {}, {})), static_vertex(vertex(2, {}, {})), static_vertex(vertex(3, {}, {}))};
  s.indices = {0, 1, 2};
  const OgfFile f = read(mesh_model({child(s)}));
  const auto& ch = f.children.at(0);
  ASSERT_TRUE(ch.readable);
  EXPECT_EQ(ch.vertices->layout, VertexLayout::fvf);
  EXPECT_EQ(ch.vertices->stride, 32u);
  const auto v = xray::decode_vertex(*ch.vertices, 2);
  EXPECT_EQ(v.position, (Vec3{3, 6, -3}));
  EXPECT_EQ(v.normal, (Vec3{0, 0, 1}));
  EXPECT_FLOAT_EQ(v.u, 0.75f);
  EXPECT_EQ(v.links, 0);
}

TEST(OgfMesh, StrideMismatchNamesChildChunkAndSizes) {
  ChildSpec s = skinned_child(2, 2);
  s.drop_vertex_bytes = 4;
  const auto bytes = mesh_model({child(skinned_child(1, 1)), child(s)});
  const OgfFile f = read(bytes);
  ASSERT_EQ(f.children.size(), 2u);
  EXPECT_TRUE(f.children[0].readable);
  ASSERT_FALSE(f.children[1].readable);
  const Finding& e = f.children[1].readable.error();
  EXPECT_EQ(e.path, "0x9/1 0x3 vertices");
  EXPECT_EQ(e.expected, "8 + 3 x 64 = 200 bytes");
  EXPECT_EQ(e.found, "196 bytes");
  // The offset is the first vertex byte of child 1, found independently in the bytes.
  const std::uint64_t child1 = f.children[1].offset;
  EXPECT_GT(e.offset, child1);
  EXPECT_LT(e.offset, bytes.size());
  // The model itself still reads, and the validator reports the child as an error.
  const auto d = xray::validate_ogf(f);
  ASSERT_TRUE(d.has_errors());
  EXPECT_EQ(xray::write_ogf(f), bytes);
}

TEST(OgfMesh, UnknownAndNLinkFormatsAreErrors) {
  ChildSpec unknown = skinned_child(1, 7);
  ChildSpec nlink = skinned_child(1, 0x36154C80);
  const OgfFile f = read(mesh_model({child(unknown), child(nlink)}));
  ASSERT_FALSE(f.children[0].readable);
  EXPECT_EQ(f.children[0].readable.error().path, "0x9/0 0x3 vertex format");
  EXPECT_EQ(f.children[0].readable.error().found, "0x7");
  EXPECT_EQ(f.children[0].readable.error().offset, f.children[0].chunks.find(0x3)->payload_offset());
  ASSERT_FALSE(f.children[1].readable);
  EXPECT_NE(f.children[1].readable.error().message.find("N-link"), std::string::npos);
}

TEST(OgfMesh, HugeCountsFailBeforeAllocating) {
  ChildSpec v = skinned_child(1, 1);
  v.vertex_count_override = 0xFFFFFFFF;
  ChildSpec i = skinned_child(1, 1);
  i.index_count_override = 0x7FFFFFFF;
  const OgfFile f = read(mesh_model({child(v), child(i)}));
  ASSERT_FALSE(f.children[0].readable);
  EXPECT_EQ(f.children[0].readable.error().path, "0x9/0 0x3 vertices");
  ASSERT_FALSE(f.children[1].readable);
  EXPECT_EQ(f.children[1].readable.error().path, "0x9/1 0x4 indices");
  EXPECT_EQ(f.children[1].readable.error().found, std::to_string(0x7FFFFFFF));
}

TEST(OgfMesh, ValidatorFindsBadIndicesBonesUvsAndNormals) {
  ChildSpec not3 = skinned_child(1, 1);
  not3.indices = {0, 1, 2, 0};
  ChildSpec past = skinned_child(1, 1);
  past.indices = {0, 1, 3};
  ChildSpec bone = skinned_child(2, 2);
  bone.vertices[2] = skinned_vertex(2, vertex(3, {0, 9, 0, 0}, {0.5f, 0, 0}));
  ChildSpec repairable = skinned_child(1, 1);
  MeshVertex nan = vertex(1, {}, {});
  nan.u = std::nanf("");
  nan.n = {0, 0, 0};
  repairable.vertices[0] = skinned_vertex(1, nan);
  const OgfFile f = read(mesh_model({child(not3), child(past), child(bone), child(repairable)}));
  Diagnostics d;
  for (const auto& c : f.children) xray::validate_ogf_child(f, c, d);
  auto find = [&](const std::string& path) -> const Finding* {
    for (const auto& x : d.findings())
      if (x.path == path) return &x;
    return nullptr;
  };
  const Finding* a = find("0x9/0 0x4 index count");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->severity, Severity::error);
  EXPECT_EQ(a->found, "4");
  const Finding* b = find("0x9/1 0x4 index 2");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->found, "3");
  EXPECT_EQ(b->offset, f.children[1].indices_offset + 4);
  const Finding* c = find("0x9/2 0x3 vertex 2 bone");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->severity, Severity::error);
  EXPECT_EQ(c->found, "9");
  EXPECT_EQ(c->offset, f.children[2].vertices->offset + 2 * 64);
  const Finding* u = find("0x9/3 0x3 texture coordinates");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->severity, Severity::warning);
  const Finding* n = find("0x9/3 0x3 normals");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->severity, Severity::warning);
  EXPECT_EQ(n->offset, f.children[3].vertices->offset);
  EXPECT_EQ(d.count(Severity::error), 3u);
}

TEST(OgfMesh, ProgressiveChildDrawsSlideWindowZeroOnly) {
  ChildSpec s = skinned_child(4, 4);
  s.type = 4;
  // Coarse LOD (1 triangle) first, full detail (2 triangles) at the end, as the SDK stacks them.
  s.indices = {0, 1, 2, 0, 1, 2, 2, 1, 0};
  s.windows = {{3, 2, 3}, {0, 1, 3}};
  const OgfFile f = read(mesh_model({child(s)}));
  const auto& ch = f.children.at(0);
  ASSERT_TRUE(ch.readable);
  ASSERT_EQ(ch.windows.size(), 2u);
  EXPECT_EQ(ch.full_detail(), (std::pair<std::size_t, std::size_t>{3, 6}));
  EXPECT_FALSE(xray::validate_ogf(f).has_errors());
  // A window 0 past the index buffer is an error.
  s.windows = {{6, 2, 3}};
  const OgfFile g = read(mesh_model({child(s)}));
  Diagnostics d;
  xray::validate_ogf_child(g, g.children[0], d);
  ASSERT_TRUE(d.has_errors());
  EXPECT_EQ(d.findings()[0].path, "0x9/0 0x6 window 0");
}

TEST(OgfMesh, OdditiesSurviveByteExactRewrite) {
  ChildSpec s = skinned_child(2, 0x240E3300);
  s.texture_tail.u8(0xCD).u8(0xAB).u8(0);
  Buf tail;
  for (int i = 0; i < 25; ++i) tail.u8(static_cast<unsigned>(i * 7));
  const auto bytes = mesh_model({child(s), child(skinned_child(1, 1))}, 4, &tail);
  const OgfFile f = read(bytes);
  ASSERT_EQ(f.children.size(), 2u);
  EXPECT_EQ(f.children[0].texture, "act\\act_test");
  EXPECT_EQ(f.children[0].shader, "models\\model");
  EXPECT_EQ(f.children[0].texture_tail.size(), 3u);
  EXPECT_EQ(xray::write_ogf(f), bytes);
}

TEST(OgfMesh, ChildrenAfterAGapAreNotLoaded) {
  Buf kids;
  kids.chunk(0, child(skinned_child(1, 1))).chunk(2, child(skinned_child(1, 1)));
  Buf f;
  f.chunk(0x1, child_header(3)).chunk(0x9, kids);
  const OgfFile m = read(f.b);
  EXPECT_EQ(m.children.size(), 1u);
  bool warned = false;
  for (const auto& x : m.read_findings) warned |= x.path == "0x9" && x.severity == Severity::warning;
  EXPECT_TRUE(warned);
}

// Every real OGF: children parse without errors, layouts are those SOURCES.md lists, slide window
// 0 ends at the end of the index buffer and uses every vertex (notes 9.3), the rewrite is
// byte-exact, and no validator finding is a mesh error.
TEST(OgfMesh, EverySampleModelReadsItsMeshes) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  struct Expect {
    const char* file;
    std::size_t children;
    std::uint32_t format0;
    std::uint32_t vertices0;
  };
  const Expect expect[] = {
      {"cop/cat_weak.ogf", 1, 2, 1857},          {"cop/flush_dead.ogf", 1, 3, 2419},
      {"cop/handflash_hud.ogf", 3, 0x12071980, 1931}, {"cop/headflash_hud.ogf", 1, 0x12071980, 4},
      {"cop/medkit_exo_hud.ogf", 3, 1, 43},       {"cop/protein.ogf", 1, 1, 24},
      {"cs/stalker_lesnik_1.ogf", 1, 4, 6798},    {"soc/rat_1.ogf", 1, 0x12071980, 894},
      {"soc/wpn_binoculars_hud.ogf", 2, 0x12071980, 3822}, {"soc/zombi_1.ogf", 1, 0x240E3300, 1546},
      {"tools/test_fmt_ogf_gl.ogf", 1, 0x240E3300, 56},
  };
  for (const auto& e : expect) {
    SCOPED_TRACE(e.file);
    const auto path = samples_dir() / "xray" / e.file;
    const auto bytes = read_file(path);
    const OgfFile f = read(bytes);
    ASSERT_EQ(f.children.size(), e.children);
    EXPECT_EQ(f.children[0].vertices->format, e.format0);
    EXPECT_EQ(f.children[0].vertices->count, e.vertices0);
    for (const auto& c : f.children) {
      ASSERT_TRUE(c.readable) << c.readable.error().path << ": " << c.readable.error().message;
      EXPECT_EQ(c.chunks.find(0x3)->payload.size(), 8 + std::size_t{c.vertices->count} * c.vertices->stride);
      if (!c.windows.empty()) {
        EXPECT_EQ(c.windows[0].offset + 3u * c.windows[0].triangles, c.index_count);
        EXPECT_EQ(c.windows[0].vertices, c.vertices->count);
      }
    }
    EXPECT_EQ(xray::write_ogf(f), bytes);
    const Diagnostics d = xray::validate_ogf(f);
    for (const auto& x : d.findings())
      EXPECT_FALSE(x.severity == Severity::error && x.path.rfind("0x9", 0) == 0) << x.path << ": " << x.message;
  }
  // Full-detail triangle counts of the progressive samples (notes 9.3).
  const OgfFile zombi = read(read_file(samples_dir() / "xray/soc/zombi_1.ogf"));
  EXPECT_EQ(zombi.children[0].full_detail().second, 3u * 1806);
  const OgfFile lesnik = read(read_file(samples_dir() / "xray/cs/stalker_lesnik_1.ogf"));
  EXPECT_EQ(lesnik.children[0].full_detail().second, 3u * 8180);
}

}  // namespace
}  // namespace boneyard::test
