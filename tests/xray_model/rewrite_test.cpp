// Lossless .ogf writes, checked: every sample and fixture rewrites byte for byte through
// rewrite_ogf (written, read back, validated), and checked_ogf_bytes refuses a new error while
// letting the input's own errors through.
#include "model_support.h"
#include "ogf_fixture.h"
#include "ogf_mesh_fixture.h"

namespace boneyard::test {
namespace {

TEST(OgfRewrite, EverySampleRewritesIdenticallyAndChecked) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const auto files = sample_ogfs();
  ASSERT_GE(files.size(), 11u);
  std::size_t v3 = 0;
  for (const auto& p : files) {
    const auto original = read_file(p);
    if (is_ogf_v3(p)) {  // OGF v3: its own model and writer, checked the same way
      auto out = xray::rewrite_ogf_v3(load_ogf_v3(p));
      ASSERT_TRUE(out) << p << ": " << out.error().path << ": " << out.error().message;
      EXPECT_EQ(out.value(), original) << p;
      ++v3;
      continue;
    }
    const xray::OgfFile f = load_ogf(p);
    auto out = xray::rewrite_ogf(f);
    ASSERT_TRUE(out) << p << ": " << out.error().path << ": " << out.error().message;
    EXPECT_EQ(out.value(), original) << p;
  }
  EXPECT_GE(v3, 1u);  // sdk/blender-xray/test_fmt_ogf_v3.ogf
}

TEST(OgfRewrite, ExampleAndFixturesRewriteIdentically) {
  std::vector<std::vector<std::uint8_t>> inputs;
  inputs.push_back(read_file(source_dir() / "examples/wave_arm.ogf"));
  ASSERT_FALSE(inputs.back().empty());
  // Every skinned layout under both ids, a progressive child and a static (FVF) model.
  for (std::uint32_t format : {1u, 2u, 3u, 4u, 0x12071980u, 0x240E3300u, 0x481C6600u, 0x5A237F80u}) {
    const int links = format <= 4 ? int(format) : format == 0x12071980u ? 1 : format == 0x240E3300u ? 2 : format == 0x481C6600u ? 3 : 4;
    ChildSpec s;
    s.format = format;
    MeshVertex v;
    v.bones = {0, 1, 0, 1};
    v.stored_weights = {0.25f, 0.25f, 0.25f};
    for (int i = 0; i < 3; ++i) {
      v.p = {float(i), float(i % 2), 0.5f};
      s.vertices.push_back(skinned_vertex(links, v));
    }
    s.indices = {0, 1, 2};
    if (format == 2) s.type = 4, s.windows = {{0, 1, 3}};
    Buf f;
    f.b = model({{"root", ""}, {"spine", "root"}});
    f.chunk(0x9, children({child(s)}));
    inputs.push_back(f.b);
  }
  ChildSpec st;
  st.type = 0;
  st.format = 0x112;
  for (int i = 0; i < 3; ++i) {
    MeshVertex v;
    v.p = {float(i), 0, float(i % 2)};
    st.vertices.push_back(static_vertex(v));
  }
  st.indices = {0, 2, 1};
  Buf s;
  s.chunk(0x1, child_header(1)).chunk(0x9, children({child(st)}));
  inputs.push_back(s.b);
  for (const auto& bytes : inputs) {
    const xray::OgfFile f = ogf_from(bytes);
    auto out = xray::rewrite_ogf(f);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(out.value(), bytes);
  }
}

TEST(OgfRewrite, InputErrorsAreInheritedNewOnesRefused) {
  // A child whose index points past its vertices: the input's error, so its rewrite passes.
  ChildSpec bad;
  MeshVertex v;
  bad.vertices = {skinned_vertex(1, v), skinned_vertex(1, v), skinned_vertex(1, v)};
  bad.indices = {0, 1, 7};
  Buf f;
  f.b = model({{"root", ""}});
  f.chunk(0x9, children({child(bad)}));
  const xray::OgfFile broken = ogf_from(f.b);
  ASSERT_TRUE(xray::validate_ogf(broken).has_errors());
  auto same = xray::rewrite_ogf(broken);
  ASSERT_TRUE(same) << same.error().message;
  EXPECT_EQ(same.value(), f.b);
  // The same bytes checked without inheriting the input's findings: refused, naming the place.
  auto refused = xray::checked_ogf_bytes(f.b);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().path.rfind("written .ogf 0x9/0 0x4", 0), 0u) << refused.error().path;
  EXPECT_EQ(refused.error().message, "index past the vertex count");
  // Bytes that do not even read: refused with the reader's error.
  auto unreadable = xray::checked_ogf_bytes({1, 0, 0, 0, 44, 0, 0, 0});
  ASSERT_FALSE(unreadable);
  EXPECT_EQ(unreadable.error().path.rfind("written .ogf", 0), 0u);
}

}  // namespace
}  // namespace boneyard::test
