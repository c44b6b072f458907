// Tangent frames the SDK's way (src/xray/ogf/ogf_tangents.h) on hand-computed cases: a quad, a
// mirrored UV seam (split), a smoothed fold, a degenerate mapping (fallback basis) and the
// SDK's integer UV shift with its FLT_MIN quirk.
#include <gtest/gtest.h>

#include <cmath>

#include "xray/ogf/ogf_tangents.h"

namespace boneyard::test {
namespace {

xray::OgfVertex vtx(Vec3 p, float u, float v, Vec3 n = {0, 0, -1}) {
  xray::OgfVertex x;
  x.position = p;
  x.normal = n;
  x.u = u, x.v = v;
  return x;
}

void expect_vec(const Vec3& got, const Vec3& want, const char* what) {
  EXPECT_NEAR(got.x, want.x, 1e-6) << what;
  EXPECT_NEAR(got.y, want.y, 1e-6) << what;
  EXPECT_NEAR(got.z, want.z, 1e-6) << what;
}

TEST(OgfTangents, QuadGetsTheTextureAxes) {
  // u = 2x, v = -y - 2 (D3D v runs down): T = dP/du = (0.5, 0, 0) -> (1, 0, 0), B = dP/dv = (0, -1, 0).
  std::vector<xray::OgfVertex> vs = {vtx({0, 0, 0}, 0, -2), vtx({1, 0, 0}, 2, -2), vtx({0, 1, 0}, 0, -3),
                                     vtx({1, 1, 0}, 2, -3)};
  std::vector<std::uint32_t> idx = {0, 1, 2, 1, 3, 2};
  const auto r = xray::compute_tangents(vs, idx, {});
  ASSERT_EQ(vs.size(), 4u);
  EXPECT_EQ(r.split, 0u);
  for (const auto& v : vs) {
    expect_vec(v.tangent, {1, 0, 0}, "tangent");
    expect_vec(v.binormal, {0, -1, 0}, "binormal");
  }
  // The shift: u in [0, 2] -> floor(1 + 0) = 1. v in [-3, -2], but the SDK's maximum starts at
  // FLT_MIN, so it measures [-3, FLT_MIN]: floor(1.5 - 3) = -2 (not -3).
  EXPECT_EQ(r.shift_u, 1.0f);
  EXPECT_EQ(r.shift_v, -2.0f);
  EXPECT_EQ(vs[0].u, -1.0f);
  EXPECT_EQ(vs[0].v, 0.0f);
  EXPECT_EQ(vs[2].v, -1.0f);
  EXPECT_FALSE(r.uv_tiled);
}

TEST(OgfTangents, MirroredSeamSplitsTheSharedVertices) {
  // Triangles A (v0, v1, v2) and B (v0, v3, v1) share the edge v0-v1; B's u runs the other way:
  // T_A = (1, 0, 0), T_B = (-1, 0, 0) (cosine -1 < 0.5), B = (0, 1, 0) for both.
  std::vector<xray::OgfVertex> vs = {vtx({0, 0, 0}, 0, 0), vtx({0, 1, 0}, 0, 1), vtx({1, 0, 0}, 1, 0),
                                     vtx({-1, 0, 0}, 1, 0)};
  std::vector<std::uint32_t> idx = {0, 1, 2, 0, 3, 1};
  xray::TangentOptions o;
  o.uv_shift = false;
  const auto r = xray::compute_tangents(vs, idx, o);
  EXPECT_EQ(r.split, 2u);
  ASSERT_EQ(vs.size(), 6u);
  for (int t = 0; t < 2; ++t)
    for (int k = 0; k < 3; ++k) {
      const auto& v = vs[idx[std::size_t(t * 3 + k)]];
      expect_vec(v.tangent, {t == 0 ? 1.0f : -1.0f, 0, 0}, "tangent");
      expect_vec(v.binormal, {0, 1, 0}, "binormal");
    }
  EXPECT_NE(idx[0], idx[3]);  // v0 is two vertices now
}

TEST(OgfTangents, TrianglesWithinTheCreaseAreSmoothed) {
  // A (v0, v1, v2): T = (1, 0, 0), B = (0, 1, 0). B (v0, v3, v1) with v3's UV (-1, 1): T = (1, 1, 0)
  // (unnormalised), B = (0, 1, 0). Cosine 0.707 >= 0.5: the shared v0, v1 get the normalised sum
  // of the raw gradients, (2, 1, 0)/sqrt 5; then B' = B - (T'.B) T' = (-1, 2, 0)/sqrt 5. v3 alone:
  // T = (1, 1, 0)/sqrt 2, B' = (-1, 1, 0)/sqrt 2.
  std::vector<xray::OgfVertex> vs = {vtx({0, 0, 0}, 0, 0), vtx({0, 1, 0}, 0, 1), vtx({1, 0, 0}, 1, 0),
                                     vtx({-1, 0, 0}, -1, 1)};
  std::vector<std::uint32_t> idx = {0, 1, 2, 0, 3, 1};
  xray::TangentOptions o;
  o.uv_shift = false;
  const auto r = xray::compute_tangents(vs, idx, o);
  EXPECT_EQ(r.split, 0u);
  ASSERT_EQ(vs.size(), 4u);
  const float s5 = 1 / std::sqrt(5.0f), s2 = 1 / std::sqrt(2.0f);
  for (int i : {0, 1}) {
    expect_vec(vs[std::size_t(i)].tangent, {2 * s5, s5, 0}, "shared tangent");
    expect_vec(vs[std::size_t(i)].binormal, {-s5, 2 * s5, 0}, "shared binormal");
  }
  expect_vec(vs[2].tangent, {1, 0, 0}, "A tangent");
  expect_vec(vs[2].binormal, {0, 1, 0}, "A binormal");
  expect_vec(vs[3].tangent, {s2, s2, 0}, "B tangent");
  expect_vec(vs[3].binormal, {-s2, s2, 0}, "B binormal");
  // With SoC's 75 degrees the same pair is smoothed too; at a crease cosine of 0.8 it is split.
  std::vector<xray::OgfVertex> vs2 = {vtx({0, 0, 0}, 0, 0), vtx({0, 1, 0}, 0, 1), vtx({1, 0, 0}, 1, 0),
                                      vtx({-1, 0, 0}, -1, 1)};
  std::vector<std::uint32_t> idx2 = {0, 1, 2, 0, 3, 1};
  o.crease_cos = 0.8f;
  EXPECT_EQ(xray::compute_tangents(vs2, idx2, o).split, 2u);
}

TEST(OgfTangents, DegenerateMappingFallsBackToABasisFromTheNormal) {
  // All UVs equal: both gradients vanish. The SDK starts from X when X.N < Y.N, else Y (here both
  // are 0: Y); T = N x Y = (-1, 0, 0), B = N x T = (0, -1, 0).
  std::vector<xray::OgfVertex> vs = {vtx({0, 0, 0}, 0.5f, 0.5f, {0, 0, 1}), vtx({1, 0, 0}, 0.5f, 0.5f, {0, 0, 1}),
                                     vtx({0, 1, 0}, 0.5f, 0.5f, {0, 0, 1})};
  std::vector<std::uint32_t> idx = {0, 1, 2};
  xray::compute_tangents(vs, idx, {});
  for (const auto& v : vs) {
    expect_vec(v.tangent, {-1, 0, 0}, "tangent");
    expect_vec(v.binormal, {0, -1, 0}, "binormal");
  }
}

TEST(OgfTangents, UnusedVerticesAreRemoved) {
  std::vector<xray::OgfVertex> vs = {vtx({0, 0, 0}, 0, 0), vtx({9, 9, 9}, 0, 0), vtx({1, 0, 0}, 1, 0),
                                     vtx({0, 1, 0}, 0, 1)};
  std::vector<std::uint32_t> idx = {0, 2, 3};
  const auto r = xray::compute_tangents(vs, idx, {});
  EXPECT_EQ(r.removed, 1u);
  ASSERT_EQ(vs.size(), 3u);
  EXPECT_EQ(idx, (std::vector<std::uint32_t>{0, 1, 2}));
}

}  // namespace
}  // namespace boneyard::test
