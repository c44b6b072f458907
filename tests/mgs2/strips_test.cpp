// Kick-flag strips: the decoding convention and the encoder.
#include <gtest/gtest.h>

#include <set>

#include "boneyard/mgs2/strips.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;

// 8-byte records with only the kick flag (4th s16) set.
std::vector<std::uint8_t> records(const std::vector<std::uint16_t>& kicks) {
  std::vector<std::uint8_t> b(kicks.size() * 8, 0);
  for (std::size_t i = 0; i < kicks.size(); ++i) std::memcpy(b.data() + i * 8 + 6, &kicks[i], 2);
  return b;
}
std::vector<Triangle> decode(const std::vector<std::uint16_t>& kicks) {
  const auto b = records(kicks);
  return decode_strip(Bytes(b.data(), b.size()), kicks.size());
}

constexpr std::uint16_t F = 0x8FFF;  // non-drawing
constexpr std::uint16_t D = 0x0FFF;  // drawing

TEST(Strips, AlternatesWindingFromTheRestartedOrder) {
  EXPECT_EQ(decode({F, F, D, D, D, D}),
            (std::vector<Triangle>{{0, 2, 1}, {1, 2, 3}, {2, 4, 3}, {3, 4, 5}}));
}

TEST(Strips, FlaggedVertexRestartsTheAlternation) {
  // Vertex 3 draws nothing; vertex 4 starts again with the (i-2, i, i-1) order.
  EXPECT_EQ(decode({F, F, D, F, D, D}), (std::vector<Triangle>{{0, 2, 1}, {2, 4, 3}, {3, 4, 5}}));
  // Two flagged vertices: a fresh strip.
  EXPECT_EQ(decode({F, F, D, D, F, F, D}), (std::vector<Triangle>{{0, 2, 1}, {1, 2, 3}, {4, 6, 5}}));
}

TEST(Strips, FirstTwoVerticesNeverCloseATriangle) {
  EXPECT_EQ(decode({D, D, D}), (std::vector<Triangle>{{0, 2, 1}}));
  EXPECT_TRUE(decode({D, D}).empty());
  EXPECT_TRUE(decode({}).empty());
}

TEST(Strips, OnlyBit15Matters) {
  // Low bits (culling hints 0x0020 / 0x0000) and the reserved bit do not change the triangles.
  EXPECT_EQ(decode({0x8000, 0xC000, 0x0020, 0x4000}), (std::vector<Triangle>{{0, 2, 1}, {1, 2, 3}}));
}

std::vector<std::uint16_t> kicks_of(const std::vector<StripVertex>& s) {
  std::vector<std::uint16_t> k;
  for (const auto& v : s) k.push_back(v.kick);
  return k;
}

TEST(Strips, ReencodingUnchangedDataKeepsEveryFlag) {
  const std::vector<std::uint16_t> stored = {0x8FFF, 0x8FFF, 0x0020, 0x0000, 0x8020, 0x0FFF, 0x0020};
  const auto b = records(stored);
  const auto tris = decode_strip(Bytes(b.data(), b.size()), stored.size());
  StripEncodeOptions o;
  o.source_kicks = stored;
  const auto packets = encode_strips(tris, o);
  ASSERT_EQ(packets.size(), 1U);
  EXPECT_EQ(kicks_of(packets[0]), stored);
  for (std::size_t i = 0; i < packets[0].size(); ++i) EXPECT_EQ(packets[0][i].source, i);
}

// The same triangle with the same winding, whatever vertex it starts from.
Triangle canonical(Triangle t) {
  while (t[0] > t[1] || t[0] > t[2]) t = {t[1], t[2], t[0]};
  return t;
}

// Decoding each encoded packet gives back the input triangles, in order and winding.
void expect_round_trip(const std::vector<Triangle>& tris, std::size_t limit) {
  StripEncodeOptions o;
  o.max_vertices = limit;
  const auto packets = encode_strips(tris, o);
  std::vector<Triangle> back;
  for (const auto& p : packets) {
    EXPECT_LE(p.size(), limit);
    std::vector<std::uint16_t> kicks = kicks_of(p);
    EXPECT_NE(kicks[0] & 0x8000, 0);
    EXPECT_NE(kicks[1] & 0x8000, 0);
    const auto b = records(kicks);
    for (const auto& t : decode_strip(Bytes(b.data(), b.size()), p.size())) {
      back.push_back(canonical({p[t[0]].source, p[t[1]].source, p[t[2]].source}));
    }
  }
  std::vector<Triangle> want;
  for (const auto& t : tris) want.push_back(canonical(t));
  EXPECT_EQ(back, want);
}

TEST(Strips, EncoderRoundTripsAndSplitsAtTheLimit) {
  // A grid of quads, two triangles each, rows as strips.
  std::vector<Triangle> grid;
  for (std::uint32_t r = 0; r < 6; ++r) {
    for (std::uint32_t c = 0; c < 10; ++c) {
      const std::uint32_t a = r * 11 + c, b = a + 1, d = a + 11, e = d + 1;
      grid.push_back({a, d, b});
      grid.push_back({b, d, e});
    }
  }
  expect_round_trip(grid, 64);
  expect_round_trip(grid, 32);
  expect_round_trip(grid, 3);
  expect_round_trip({{0, 1, 2}, {5, 6, 7}, {7, 6, 8}, {2, 9, 10}}, 32);
  expect_round_trip({}, 32);
  StripEncodeOptions o;
  o.max_vertices = 32;
  std::size_t total = 0;
  for (const auto& p : encode_strips(grid, o)) total += p.size();
  EXPECT_LT(total, grid.size() * 3);  // strips share vertices
}

TEST(Strips, DefaultFlagsAreTheSpecDefault) {
  const std::vector<Triangle> one = {{4, 5, 6}};
  const auto p = encode_strips(one, {});
  ASSERT_EQ(p.size(), 1U);
  EXPECT_EQ(p[0], (std::vector<StripVertex>{{4, 0x8FFF}, {6, 0x8FFF}, {5, 0x0FFF}}));
}

TEST(Strips, OrderForStripsKeepsTrianglesAndShortensStrips) {
  // A 6 x 6 grid of quads, each as (a, b, d), (a, d, c), listed quad by quad row-major.
  std::vector<Triangle> tris;
  for (std::uint32_t r = 0; r < 6; ++r)
    for (std::uint32_t c = 0; c < 6; ++c) {
      const std::uint32_t a = r * 7 + c, b = a + 1, cc = a + 7, d = cc + 1;
      tris.push_back({a, b, d});
      tris.push_back({a, d, cc});
    }
  const auto ordered = order_for_strips(tris);
  auto canon = [](std::vector<Triangle> v) {
    for (auto& t : v) std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(canon(ordered), canon(tris));  // same triangles, same windings
  StripEncodeOptions o;
  o.max_vertices = 1000;
  auto count = [&](const std::vector<Triangle>& t) {
    std::size_t n = 0;
    for (const auto& packet : encode_strips(t, o)) n += packet.size();
    return n;
  };
  EXPECT_LT(count(ordered), count(tris));
  EXPECT_LE(count(ordered), tris.size() * 3 / 2);  // uniform diagonals: strips zigzag, ~1.33 per triangle
  std::printf("grid strip vertices: %zu in input order, %zu ordered\n", count(tris), count(ordered));
}

}  // namespace
}  // namespace boneyard::test
