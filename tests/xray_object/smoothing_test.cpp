// The SDKs' normal rules on hand-made cases (src/xray/object/object_smoothing.h): two faces folded
// along a shared edge under SoC ids, SoC bit masks and CS/CoP edge flags (with the back-face edge
// remapping), the style detection, and smoothing groups rebuilt from normals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "object_fixture.h"
#include "xray/object/object_smoothing.h"

namespace boneyard::test {
namespace {

namespace sm = xray::object_smoothing;
using xray::SmoothingStyle;

Vec3 unit(Vec3 v) {
  const float l = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  return {v.x / l, v.y / l, v.z / l};
}

void expect_near(const Vec3& a, const Vec3& b, const char* what) {
  EXPECT_NEAR(a.x, b.x, 1e-6) << what;
  EXPECT_NEAR(a.y, b.y, 1e-6) << what;
  EXPECT_NEAR(a.z, b.z, 1e-6) << what;
}

// Face A = (p0, p1, p2) and face B = (p1, p0, p3) share the edge p0-p1 (edge 0 of both).
// A lies in the plane y = 0, B is tilted up: their normals differ.
sm::Geometry fold(std::uint32_t a, std::uint32_t b, bool mask = false) {
  sm::Geometry g;
  g.positions = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {-1, 1, 0}};
  g.corners = {0, 1, 2, 1, 0, 3};
  g.groups = {a, b};
  g.sg_mask = mask;
  return g;
}

// By hand: A's (p1 - p0) x (p2 - p1) = (0,0,1) x (1,0,-1) = (0, 1, 0); B's (p0 - p1) x (p3 - p0)
// = (0,0,-1) x (-1,1,0) = (1, 1, 0), normalised.
const Vec3 kA{0, 1, 0};
const Vec3 kB = unit({1, 1, 0});
const Vec3 kSmooth = unit({kA.x + kB.x, kA.y + kB.y, kA.z + kB.z});

void expect_smooth(const std::vector<Vec3>& n) {
  expect_near(n[0], kSmooth, "A at p0");
  expect_near(n[1], kSmooth, "A at p1");
  expect_near(n[2], kA, "A at p2");
  expect_near(n[3], kSmooth, "B at p1");
  expect_near(n[4], kSmooth, "B at p0");
  expect_near(n[5], kB, "B at p3");
}

void expect_flat(const std::vector<Vec3>& n) {
  for (int k = 0; k < 3; ++k) expect_near(n[std::size_t(k)], kA, "A");
  for (int k = 3; k < 6; ++k) expect_near(n[std::size_t(k)], kB, "B");
}

TEST(Smoothing, FaceNormalIsTheSdksCrossProduct) {
  expect_near(sm::face_normal({0, 0, 0}, {0, 0, 1}, {1, 0, 0}), kA, "A");
  expect_near(sm::face_normal({0, 0, 1}, {0, 0, 0}, {-1, 1, 0}), kB, "B");
  // A degenerate face keeps its zero normal (normalize_safe).
  expect_near(sm::face_normal({1, 1, 1}, {1, 1, 1}, {2, 2, 2}), {0, 0, 0}, "degenerate");
}

TEST(Smoothing, SocIdsSmoothEqualIdsAndMinusOneIsFlat) {
  expect_smooth(sm::corner_normals(fold(7, 7), SmoothingStyle::soc));
  expect_flat(sm::corner_normals(fold(7, 8), SmoothingStyle::soc));
  expect_flat(sm::corner_normals(fold(0xFFFFFFFFu, 0xFFFFFFFFu), SmoothingStyle::soc));
}

TEST(Smoothing, SocMasksSmoothWhenTheyShareABitAndZeroIsFlat) {
  expect_smooth(sm::corner_normals(fold(1, 3, true), SmoothingStyle::soc));
  expect_flat(sm::corner_normals(fold(1, 2, true), SmoothingStyle::soc));
  expect_flat(sm::corner_normals(fold(0, 0, true), SmoothingStyle::soc));
}

TEST(Smoothing, CopEdgeFlagsAndBackFaces) {
  expect_smooth(sm::corner_normals(fold(0, 0), SmoothingStyle::cscop));
  expect_flat(sm::corner_normals(fold(1, 0), SmoothingStyle::cscop));  // A's edge 0 hard
  expect_flat(sm::corner_normals(fold(0, 8), SmoothingStyle::cscop));  // a front face and a back face
  // On a back face edge e is bit (4 - e) % 3: edge 0 is bit 1.
  expect_smooth(sm::corner_normals(fold(8, 8 | 1), SmoothingStyle::cscop));
  expect_flat(sm::corner_normals(fold(8, 8 | 2), SmoothingStyle::cscop));
  EXPECT_TRUE(sm::cop_soft_edge(8 | 1, 0));
  EXPECT_FALSE(sm::cop_soft_edge(8 | 2, 0));
  EXPECT_FALSE(sm::cop_soft_edge(2, 1));
}

TEST(Smoothing, GroupsFromNormalsGiveTheNormalsBack) {
  for (const auto style : {SmoothingStyle::soc, SmoothingStyle::cscop}) {
    const auto smooth = sm::corner_normals(fold(0, 0), style);
    std::size_t conflicts = 9;
    const auto g1 = sm::groups_from_normals(fold(0, 0), smooth, style, 1e-4f, &conflicts);
    EXPECT_EQ(conflicts, 0u);
    EXPECT_EQ(g1[0], g1[1]);
    const auto flat = sm::corner_normals(fold(0, 1), SmoothingStyle::soc);
    const auto g2 = sm::groups_from_normals(fold(0, 0), flat, style, 1e-4f, &conflicts);
    EXPECT_EQ(conflicts, 0u);
    if (style == SmoothingStyle::cscop) {
      EXPECT_EQ(g2[0] & 1u, 1u);  // edge 0 hard on both
      EXPECT_EQ(g2[1] & 1u, 1u);
    } else {
      EXPECT_EQ(g2[0], 0xFFFFFFFFu);  // flat faces
      EXPECT_EQ(g2[1], 0xFFFFFFFFu);
    }
  }
}

TEST(Smoothing, StyleDetection) {
  auto style_of = [](std::vector<std::uint32_t> groups, bool* decided) {
    ObjFile o;
    ObjMesh m = quad_mesh();
    m.groups = std::move(groups);
    o.meshes = {m};
    auto f = xray::read_object(FileData::from_vector(obj_bytes(o)));
    EXPECT_TRUE(f);
    return xray::detect_smoothing(f.value(), decided);
  };
  bool decided = true;
  EXPECT_EQ(style_of({0, 0}, &decided), SmoothingStyle::cscop);
  EXPECT_FALSE(decided);  // all zero: both styles smooth everything
  EXPECT_EQ(style_of({17, 3}, &decided), SmoothingStyle::soc);
  EXPECT_TRUE(decided);  // ids above 15
  // The quad's faces share edge p1-p2: edge 1 of face 0 (2 -> 1) and edge 0 of face 1 (1 -> 2).
  EXPECT_EQ(style_of({2, 1}, &decided), SmoothingStyle::cscop);  // both sides hard: consistent flags
  EXPECT_TRUE(decided);
  EXPECT_EQ(style_of({2, 0}, &decided), SmoothingStyle::soc);  // one side hard only: ids
  EXPECT_TRUE(decided);
}

// SoC ids take one pass over the corners; the point-list walk is the SDK's order. Both must give
// the same bits on meshes with shared points, flat faces, faces on a point twice (degenerate),
// zero-area faces and points of many ids (past the one-pass limit: the walk takes over).
TEST(Smoothing, SocIdsInOnePassEqualThePointListWalkBitForBit) {
  std::mt19937 engine(39);
  const auto rng = [&] { return static_cast<std::uint32_t>(engine()); };
  for (int round = 0; round < 200; ++round) {
    sm::Geometry g;
    const std::uint32_t points = 3 + rng() % 40, faces = 1 + rng() % 120, ids = 1 + rng() % (round % 4 == 0 ? 40 : 4);
    std::uniform_real_distribution<float> coord(-1.0f, 1.0f);
    for (std::uint32_t i = 0; i < points; ++i) g.positions.push_back({coord(engine), coord(engine), coord(engine)});
    if (round % 5 == 0) g.positions[1] = g.positions[0];  // zero-area faces
    for (std::uint32_t f = 0; f < faces; ++f) {
      // A few points carry most faces (round % 4 == 0: a point with more than 16 ids).
      for (int k = 0; k < 3; ++k) g.corners.push_back(rng() % 3 == 0 ? rng() % 3 : rng() % points);
      g.groups.push_back(rng() % 6 == 0 ? 0xFFFFFFFFu : rng() % ids);
    }
    const auto fast = sm::corner_normals(g, SmoothingStyle::soc);
    const auto walk = sm::corner_normals_by_point_lists(g, SmoothingStyle::soc);
    ASSERT_EQ(fast.size(), walk.size());
    for (std::size_t c = 0; c < fast.size(); ++c)
      ASSERT_EQ(std::memcmp(&fast[c], &walk[c], sizeof(Vec3)), 0) << "round " << round << " corner " << c;
  }
}

}  // namespace
}  // namespace boneyard::test
