// EVM reader, lossless writer, builder, scale and weights against hand-laid fixtures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "boneyard/registry/document.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/strips.h"
#include "mgs2_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;
using mgs2fx::evm_bytes;
using mgs2fx::standard_evm;

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) { return load_le<std::uint32_t>(b.data() + at); }

EvmFile must_read(const std::vector<std::uint8_t>& b, std::optional<Layout> force = std::nullopt) {
  auto r = read_evm(FileData::from_view(as_bytes(b), nullptr), force);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "fixture"));
  return r.ok() ? std::move(r).value() : EvmFile{};
}

TEST(Evm, FixtureBytesFollowTheHandLayout) {
  // PS2: header 0x30, 3 joints of 0x40 -> packets at 0xF0; 1 packet of 0x40 -> arrays at 0x130.
  const auto ps2 = evm_bytes(standard_evm(false, false, false));
  EXPECT_EQ(u32_at(ps2, 0x20), 0x01000000U);  // type
  EXPECT_EQ(u32_at(ps2, 0x24), 0x88D878U);    // texture
  EXPECT_EQ(u32_at(ps2, 0x2C), 0xF0U);
  EXPECT_EQ(u32_at(ps2, 0xF0 + 0x20), 0x130U);  // verts: 5 x 8 = 40 bytes
  EXPECT_EQ(u32_at(ps2, 0xF0 + 0x24), 0x160U);  // norms after 8 filler bytes
  EXPECT_EQ(u32_at(ps2, 0xF0 + 0x28), 0x190U);  // uv0
  EXPECT_EQ(u32_at(ps2, 0xF0 + 0x34), 0x1C0U);  // weights
  EXPECT_EQ(ps2.size(), 0x1E8U + 3);
  // MC: header 0x40 -> packets at 0x100 (= 0x40 + 3 x 0x40), packet 0x70 -> arrays at 0x170.
  const auto mc = evm_bytes(standard_evm(true, false, false));
  EXPECT_EQ(u32_at(mc, 0x20), 0x88D878U);
  EXPECT_EQ(u32_at(mc, 0x28), 0x01000000U);
  EXPECT_EQ(u32_at(mc, 0x30), 0x100U);
  EXPECT_EQ(u32_at(mc, 0x100 + 0x30), 0x170U);
}

TEST(Evm, ReadsPs2SmallScaleV2) {
  const auto b = evm_bytes(standard_evm(false, false, false));
  const EvmFile m = must_read(b);
  EXPECT_EQ(m.layout, Layout::ps2);
  EXPECT_EQ(m.header.n_models, 2U);
  EXPECT_EQ(m.header.n_x_models, 3U);
  EXPECT_FALSE(m.large());
  EXPECT_TRUE(m.weights_v2());
  EXPECT_FLOAT_EQ(m.position_scale(), 1.0f / 16.0f);
  ASSERT_EQ(m.bones.size(), 3U);
  EXPECT_EQ(m.bones[2].parent, 1);
  EXPECT_EQ(m.bones[2].root_offset, (Vec3{4, 16, 0}));
  EXPECT_EQ(m.bones[1].box_max, (Vec4{10, 10, 1, 0}));
  ASSERT_EQ(m.packets.size(), 1U);
  const EvmPacket& p = m.packets[0];
  EXPECT_EQ(p.n_mats, 2U);
  EXPECT_EQ(p.mat_id[1], 1);
  EXPECT_EQ(p.mat_id[2], 0xFF);
  EXPECT_EQ(s16_at(p.verts.data, 2, 2), 16);
  // Strip 0F 1F 2 3F 4: (0, 2, 1); vertex 3 restarts; (2, 4, 3).
  const auto tris = decode_strip(p.verts.data, 5);
  ASSERT_EQ(tris.size(), 2U);
  EXPECT_EQ(tris[0], (Triangle{0, 2, 1}));
  EXPECT_EQ(tris[1], (Triangle{2, 4, 3}));
  // V2: vertex 3 = 96/128 to palette 4 -> slot 1 -> joint 1, 32/128 to slot 0 -> joint 0.
  std::array<EvmInfluence, 8> inf;
  ASSERT_EQ(evm_influences(m, p, 3, inf), 2U);
  EXPECT_EQ(inf[0].joint, 1);
  EXPECT_FLOAT_EQ(inf[0].weight, 0.75f);
  EXPECT_EQ(inf[1].joint, 0);
  EXPECT_FLOAT_EQ(inf[1].weight, 0.25f);
  EXPECT_EQ(write_evm(m), b);
}

TEST(Evm, V1WeightsOnePerMatrixSlot) {
  const auto m_bytes = evm_bytes(standard_evm(false, true, true));
  const EvmFile m = must_read(m_bytes);
  EXPECT_FALSE(m.weights_v2());
  EXPECT_TRUE(m.large());
  std::array<EvmInfluence, 8> inf;
  ASSERT_EQ(evm_influences(m, m.packets[0], 3, inf), 2U);
  EXPECT_EQ(inf[0].joint, 0);
  EXPECT_FLOAT_EQ(inf[0].weight, 0.25f);
  EXPECT_EQ(inf[1].joint, 1);
  EXPECT_FLOAT_EQ(inf[1].weight, 0.75f);
}

struct Variant {
  bool mc, large, v1;
};
class EvmVariants : public ::testing::TestWithParam<Variant> {};

TEST_P(EvmVariants, ReadsRewritesByteExactAndRebuilds) {
  const Variant v = GetParam();
  const auto b = evm_bytes(standard_evm(v.mc, v.large, v.v1));
  EXPECT_EQ(detect_evm_layout(as_bytes(b)), v.mc ? Layout::mc : Layout::ps2);
  const EvmFile m = must_read(b);
  EXPECT_EQ(m.large(), v.large);
  EXPECT_EQ(m.weights_v2(), !v.v1);
  EXPECT_EQ(write_evm(m), b);
  auto built = build_evm(m, m.layout);
  ASSERT_TRUE(built.ok());
  const EvmFile m2 = must_read(built.value());
  expect_same_content(m, m2);
  EXPECT_EQ(build_evm(m2, m2.layout).value(), built.value());
  const Layout other = v.mc ? Layout::ps2 : Layout::mc;
  auto converted = build_evm(m, other);
  ASSERT_TRUE(converted.ok());
  const EvmFile m3 = must_read(converted.value());
  EXPECT_EQ(m3.layout, other);
  expect_same_content(m, m3);
  EXPECT_EQ(build_evm(m3, m.layout).value(), built.value());
}

INSTANTIATE_TEST_SUITE_P(All, EvmVariants,
                         ::testing::Values(Variant{false, false, false}, Variant{false, true, false},
                                           Variant{true, false, false}, Variant{true, true, true},
                                           Variant{false, false, true}, Variant{true, true, false}));

TEST(Evm, BuilderPutsWeightsLast) {
  const auto m_bytes = evm_bytes(standard_evm(false, false, false));
  const EvmFile m = must_read(m_bytes);
  const auto b = build_evm(m, Layout::ps2).value();
  // Same as the hand layout: verts 0x130, norms 0x160, uv0 0x190, weights 0x1C0, size 0x1F0.
  EXPECT_EQ(u32_at(b, 0xF0 + 0x20), 0x130U);
  EXPECT_EQ(u32_at(b, 0xF0 + 0x24), 0x160U);
  EXPECT_EQ(u32_at(b, 0xF0 + 0x28), 0x190U);
  EXPECT_EQ(u32_at(b, 0xF0 + 0x2C), 0U);
  EXPECT_EQ(u32_at(b, 0xF0 + 0x34), 0x1C0U);
  EXPECT_EQ(b.size(), 0x1F0U);
}

TEST(Evm, UndetectableLayoutNeedsForcing) {
  auto b = evm_bytes(standard_evm(false, false, false));
  b[0x2C] = 0x00;  // packet pointer no longer follows the skeleton
  b[0x2D] = 0x01;  // 0x100
  auto r = read_evm(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().expected.find("--layout"), std::string::npos);
  EXPECT_FALSE(detect_evm_layout(as_bytes(b)).has_value());
}

nlohmann::json dump_json(const std::vector<std::uint8_t>& b, bool raw) {
  auto doc = open_document(FileData::from_vector(b), "x.evm", {});
  EXPECT_TRUE(doc.ok());
  JsonWriter w;
  DumpOptions d;
  d.raw = raw;
  doc.value()->dump(w, d);
  return nlohmann::json::parse(w.str());
}

TEST(Evm, DumpFollowsTheSchema) {
  const auto j = dump_json(evm_bytes(standard_evm(false, false, false)), false);
  EXPECT_EQ(j["format"], "evm");
  EXPECT_EQ(j["layout"], "ps2");
  EXPECT_EQ(j["n_models"], 2);
  EXPECT_EQ(j["n_x_models"], 3);
  EXPECT_EQ(j["type"], 0x01000000);
  EXPECT_EQ(j["texture"], 0x88D878);
  EXPECT_EQ(j["bones"][2]["offset"], nlohmann::json({4.0, 0.0, 0.0}));
  EXPECT_EQ(j["bones"][2]["root_offset"], nlohmann::json({4.0, 16.0, 0.0}));
  EXPECT_EQ(j["bones"][1]["bbox_max"], nlohmann::json({10.0, 10.0, 1.0, 0.0}));
  const auto& p = j["packets"][0];
  EXPECT_EQ(p["n_mats"], 2);
  EXPECT_EQ(p["mat_ids"], nlohmann::json({0, 1, 255, 255, 255, 255, 255, 255}));
  EXPECT_EQ(p["vertices"][2], nlohmann::json({0.0, 10.0, 1.0}));  // (0, 160, 16) / 16
  EXPECT_EQ(p["normals"][4], nlohmann::json({0.0, 1.0, 0.0}));
  EXPECT_EQ(p["uvs"][0][4], nlohmann::json({0.5, 0.5}));
  EXPECT_TRUE(p["uvs"][1].is_null());
  EXPECT_EQ(p["weights"][1], nlohmann::json({{0, 0.5}, {1, 0.5}}));
  EXPECT_EQ(p["weights"][2], nlohmann::json({{1, 1.0}}));
  EXPECT_EQ(p["triangles"], nlohmann::json({{0, 2, 1}, {2, 4, 3}}));
  const auto r = dump_json(evm_bytes(standard_evm(false, false, false)), true);
  const auto& rp = r["packets"][0];
  EXPECT_EQ(rp["vertices"][2], nlohmann::json({0, 160, 16, 0x0FFF}));
  EXPECT_EQ(rp["uvs"][0][1], nlohmann::json({4096, 0, 4096, 0}));
  EXPECT_EQ(rp["weights"][1], nlohmann::json({64, 64, 0, 0, 0, 4, 0, 0}));
  // Large scale: raw positions.
  const auto big = dump_json(evm_bytes(standard_evm(true, true, false)), false);
  EXPECT_EQ(big["layout"], "mc");
  EXPECT_EQ(big["packets"][0]["vertices"][2], nlohmann::json({0.0, 160.0, 16.0}));
}

}  // namespace
}  // namespace boneyard::test
