// KMS reader, lossless writer, builder and layout conversion against hand-laid fixtures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "boneyard/registry/document.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/mgs2/strips.h"
#include "mgs2_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;
using mgs2fx::kms_bytes;
using mgs2fx::standard_kms;

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) { return load_le<std::uint32_t>(b.data() + at); }

KmsFile must_read(const std::vector<std::uint8_t>& b, std::optional<Layout> force = std::nullopt) {
  auto r = read_kms(FileData::from_view(as_bytes(b), nullptr), force);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "fixture"));
  return r.ok() ? std::move(r).value() : KmsFile{};
}

TEST(Kms, FixtureBytesFollowTheHandLayout) {
  // PS2: header 0x40, 2 units of 0x40 -> packet table at 0xC0, 2 packets of 0x30 -> arrays at 0x120.
  const auto ps2 = kms_bytes(standard_kms(false, false));
  EXPECT_EQ(ps2.size(), 0x1B5U);
  EXPECT_EQ(u32_at(ps2, 0x0C), 0x88D878U);
  EXPECT_EQ(u32_at(ps2, 0x40 + 0x30), 0xC0U);  // unit 0 packs
  EXPECT_EQ(u32_at(ps2, 0x80 + 0x30), 0xF0U);  // unit 1 packs
  EXPECT_EQ(u32_at(ps2, 0xC0 + 0x14), 0x120U);  // packet 0 verts
  EXPECT_EQ(u32_at(ps2, 0xF0 + 0x14), 0x140U);  // packet 1 verts (24 bytes, then padding)
  EXPECT_EQ(u32_at(ps2, 0xC0 + 0x18), 0x160U);  // packet 0 norms
  EXPECT_EQ(u32_at(ps2, 0xC0 + 0x1C), 0x1A0U);  // packet 0 uv0
  EXPECT_EQ(ps2[0x158], 0xCD);                  // alignment filler kept as a gap
  // MC: 2 units of 0x50 -> table at 0xE0, 2 packets of 0x60 -> arrays at 0x1A0.
  const auto mc = kms_bytes(standard_kms(true, false));
  EXPECT_EQ(mc.size(), 0x235U);
  EXPECT_EQ(u32_at(mc, 0x0C), 0U);
  EXPECT_EQ(u32_at(mc, 0x10), 0x88D878U);
  EXPECT_EQ(u32_at(mc, 0x40 + 0x30), 0xE0U);
  EXPECT_EQ(u32_at(mc, 0xE0 + 0x20), 0x1A0U);
}

TEST(Kms, ReadsPs2Norm) {
  const auto b = kms_bytes(standard_kms(false, false));
  const KmsFile m = must_read(b);
  EXPECT_EQ(m.layout, Layout::ps2);
  EXPECT_EQ(detect_kms_layout(as_bytes(b)), Layout::ps2);
  EXPECT_EQ(m.header.data_format, 0x00C81371U);
  EXPECT_EQ(m.format(), kKmsNorm);
  EXPECT_FALSE(m.multitex());
  EXPECT_EQ(m.header.n_models, 1U);
  EXPECT_EQ(m.header.n_x_models, 2U);
  EXPECT_EQ(m.header.texture, 0x88D878U);
  EXPECT_EQ(m.header.pad[0], 0x3FC00000U);  // the float pad at 0x10
  EXPECT_EQ(m.header.bbox_max, (Vec3{11, 12, 1}));
  ASSERT_EQ(m.units.size(), 2U);
  const KmsUnit& u1 = m.units[1];
  EXPECT_EQ(u1.type, 0x4000U);
  EXPECT_EQ(u1.parent, 0);
  EXPECT_EQ(u1.position, (Vec3{0, 10, 0}));
  const KmsPacket& p = m.units[0].packets.at(0);
  EXPECT_EQ(p.file_offset, 0xC0U);
  EXPECT_EQ(p.flag, 0x48U);
  EXPECT_EQ(p.n_verts, 4U);
  EXPECT_EQ(p.tex_id[0], 0xB7E31EU);
  EXPECT_EQ(p.verts.pointer, 0x120U);
  EXPECT_EQ(s16_at(p.verts.data, 3, 0), 10);
  EXPECT_EQ(s16_at(p.verts.data, 3, 3), 2048);  // weight 0.5
  EXPECT_EQ(kick_at(p.norms.data, 0), 0x8FFF);
  EXPECT_TRUE(p.uvs[0].present());
  EXPECT_EQ(load_le<std::int16_t>(p.uvs[0].data.data() + 3 * 4 + 2), 4096);
  EXPECT_FALSE(p.uvs[1].present());
  EXPECT_FALSE(p.uvs[2].present());
  // Strip 0F 1F 2 3: (0, 2, 1) then (1, 2, 3).
  const auto tris = decode_strip(p.norms.data, 4);
  ASSERT_EQ(tris.size(), 2U);
  EXPECT_EQ(tris[0], (Triangle{0, 2, 1}));
  EXPECT_EQ(tris[1], (Triangle{1, 2, 3}));
  // Gaps: the 8 filler bytes after each odd-sized array pair, and the 5 trailing bytes.
  ASSERT_EQ(m.gaps.size(), 3U);
  EXPECT_EQ(m.gaps[0].offset, 0x158U);
  EXPECT_EQ(m.gaps[2].offset, 0x1B0U);
  EXPECT_EQ(m.gaps[2].bytes.size(), 5U);
}

struct Variant {
  bool mc;
  bool multitex;
};

class KmsVariants : public ::testing::TestWithParam<Variant> {};

TEST_P(KmsVariants, ReadsRewritesByteExactAndRebuilds) {
  const Variant v = GetParam();
  const auto b = kms_bytes(standard_kms(v.mc, v.multitex));
  const KmsFile m = must_read(b);
  EXPECT_EQ(m.layout, v.mc ? Layout::mc : Layout::ps2);
  EXPECT_EQ(m.multitex(), v.multitex);
  EXPECT_EQ(m.header.texture, 0x88D878U);
  EXPECT_EQ(m.header.pad[0], 0x3FC00000U);
  const KmsPacket& p = m.units[0].packets.at(0);
  EXPECT_EQ(p.uvs[1].present(), v.multitex);
  if (v.multitex) {
    EXPECT_EQ(load_le<std::int16_t>(p.uvs[1].data.data() + 2 * 4 + 2), -1024);
  }
  EXPECT_EQ(m.units[1].packets.at(0).vertex_count(), 3U);

  // Lossless rewrite.
  EXPECT_EQ(write_kms(m), b);

  // Builder in the same layout: same content, spec order, and stable under a second build.
  auto built = build_kms(m, m.layout);
  ASSERT_TRUE(built.ok());
  const KmsFile m2 = must_read(built.value());
  expect_same_content(m, m2);
  auto again = build_kms(m2, m2.layout);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value(), built.value());
  EXPECT_EQ(write_kms(m2), built.value());

  // The other layout and back.
  const Layout other = v.mc ? Layout::ps2 : Layout::mc;
  auto converted = build_kms(m, other);
  ASSERT_TRUE(converted.ok());
  const KmsFile m3 = must_read(converted.value());
  EXPECT_EQ(m3.layout, other);
  expect_same_content(m, m3);
  auto back = build_kms(m3, m.layout);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), built.value());
}

TEST(Kms, LayoutConversionToMcDropsThePs2PadAt0x18WithAWarning) {
  const auto b = kms_bytes(standard_kms(false, false));  // the model keeps views into these bytes
  KmsFile m = must_read(b);
  m.header.pad[0] = 0x3FC00000;  // has a place in MC (0x14)
  m.header.pad[2] = 0xDEADBEEF;  // would land at 0x0C
  EXPECT_FALSE(build_kms(m, Layout::mc).ok());  // the plain builder still refuses it
  Diagnostics warnings;
  auto mc = convert_kms_layout(m, Layout::mc, &warnings);
  ASSERT_TRUE(mc.ok()) << format_finding(mc.error(), "fixture");
  ASSERT_EQ(warnings.findings().size(), 1u);
  EXPECT_EQ(warnings.findings()[0].offset, 0x18u);
  EXPECT_EQ(warnings.findings()[0].found, "0xDEADBEEF");
  EXPECT_EQ(u32_at(mc.value(), 0x0C), 0u);
  EXPECT_EQ(u32_at(mc.value(), 0x14), 0x3FC00000u);
  const KmsFile back = must_read(mc.value());
  EXPECT_EQ(back.layout, Layout::mc);
  auto ps2 = convert_kms_layout(back, Layout::ps2, &warnings);
  ASSERT_TRUE(ps2.ok());
  EXPECT_EQ(u32_at(ps2.value(), 0x18), 0u);  // restores nothing
  EXPECT_EQ(warnings.findings().size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(All, KmsVariants,
                         ::testing::Values(Variant{false, false}, Variant{false, true}, Variant{true, false},
                                           Variant{true, true}));

TEST(Kms, BuilderLaysOutTheSpecOrder) {
  const auto m_bytes = kms_bytes(standard_kms(false, true));
  const KmsFile m = must_read(m_bytes);
  auto built = build_kms(m, Layout::ps2);
  ASSERT_TRUE(built.ok());
  const auto& b = built.value();
  // Same sizes as the hand layout: arrays from 0x120, verts 0x120/0x140, norms 0x160/0x180,
  // uv0 0x1A0, uv1 0x1B0; file padded to 16.
  EXPECT_EQ(u32_at(b, 0xC0 + 0x14), 0x120U);
  EXPECT_EQ(u32_at(b, 0xF0 + 0x14), 0x140U);
  EXPECT_EQ(u32_at(b, 0xC0 + 0x18), 0x160U);
  EXPECT_EQ(u32_at(b, 0xF0 + 0x18), 0x180U);
  EXPECT_EQ(u32_at(b, 0xC0 + 0x1C), 0x1A0U);
  EXPECT_EQ(u32_at(b, 0xC0 + 0x20), 0x1B0U);
  EXPECT_EQ(u32_at(b, 0xF0 + 0x1C), 0U);
  EXPECT_EQ(b.size(), 0x1C0U);
  EXPECT_EQ(b[0x158], 0);  // builder pads with zeros
}

TEST(Kms, FollowsOffsetsInOtherArrayOrders) {
  auto f = standard_kms(false, true);
  f.sealouse_order = true;
  const auto b = kms_bytes(f);
  const KmsFile m = must_read(b);
  const auto ref_bytes = kms_bytes(standard_kms(false, true));
  const KmsFile ref = must_read(ref_bytes);
  expect_same_content(ref, m);
  EXPECT_EQ(write_kms(m), b);
}

TEST(Kms, Ps2WithTextureZeroIsStillDetected) {
  auto f = standard_kms(false, false);
  f.texture = 0;
  const auto b = kms_bytes(f);
  EXPECT_EQ(detect_kms_layout(as_bytes(b)), Layout::ps2);
  EXPECT_EQ(must_read(b).header.texture, 0U);
}

TEST(Kms, ForcedLayoutIsUsed) {
  const auto b = kms_bytes(standard_kms(false, false));
  EXPECT_EQ(must_read(b, Layout::ps2).layout, Layout::ps2);
  // Read as MC, the PS2 bytes make no sense: the reader must fail cleanly or read something else.
  auto r = read_kms(FileData::from_view(as_bytes(b), nullptr), Layout::mc);
  if (r.ok()) {
    EXPECT_EQ(r.value().layout, Layout::mc);
  }
}

TEST(Kms, HighHalfOfNVertsIsNotTheCount) {
  auto f = standard_kms(true, false);
  f.units[0].packets[0].n_verts_high = 6;  // Xbox-era index count
  const auto b = kms_bytes(f);
  const KmsFile m = must_read(b);
  EXPECT_EQ(m.units[0].packets[0].n_verts, 0x60004U);
  EXPECT_EQ(m.units[0].packets[0].vertex_count(), 4U);
  EXPECT_EQ(write_kms(m), b);
}

nlohmann::json dump_json(const std::vector<std::uint8_t>& b, bool raw, const TextureNames* names = nullptr) {
  OpenOptions o;
  o.names = names;
  auto doc = open_document(FileData::from_vector(b), "x.kms", o);
  EXPECT_TRUE(doc.ok());
  JsonWriter w;
  DumpOptions d;
  d.raw = raw;
  doc.value()->dump(w, d);
  return nlohmann::json::parse(w.str());
}

TEST(Kms, DumpFollowsTheSchema) {
  const auto j = dump_json(kms_bytes(standard_kms(false, false)), false);
  EXPECT_EQ(j["format"], "kms");
  EXPECT_EQ(j["layout"], "ps2");
  EXPECT_EQ(j["data_format"], 13112177);
  EXPECT_EQ(j["n_models"], 1);
  EXPECT_EQ(j["n_x_models"], 2);
  EXPECT_EQ(j["texture"], 0x88D878);
  EXPECT_EQ(j["bbox_max"], nlohmann::json({11.0, 12.0, 1.0}));
  EXPECT_EQ(j["position"], nlohmann::json({0.0, 0.0, 0.0}));
  const auto& u1 = j["units"][1];
  EXPECT_EQ(u1["type"], 0x4000);
  EXPECT_EQ(u1["parent"], 0);
  EXPECT_EQ(u1["position"], nlohmann::json({0.0, 10.0, 0.0}));
  const auto& p = j["units"][0]["packets"][0];
  EXPECT_EQ(p["flag"], 0x48);
  EXPECT_EQ(p["tex_ids"], nlohmann::json({0xB7E31E, 0, 0}));
  EXPECT_EQ(p["vertices"][3], nlohmann::json({10.0, 10.0, 0.0, 0.5}));
  EXPECT_EQ(p["normals"][3], nlohmann::json({0.0, 0.0, -1.0}));
  EXPECT_EQ(p["uvs"][0][3], nlohmann::json({1.0, 1.0}));
  EXPECT_TRUE(p["uvs"][1].is_null());
  EXPECT_TRUE(p["uvs"][2].is_null());
  EXPECT_EQ(p["triangles"], nlohmann::json({{0, 2, 1}, {1, 2, 3}}));

  const auto r = dump_json(kms_bytes(standard_kms(false, false)), true);
  const auto& rp = r["units"][0]["packets"][0];
  EXPECT_EQ(rp["vertices"][3], nlohmann::json({10, 10, 0, 2048}));
  EXPECT_EQ(rp["normals"][0], nlohmann::json({0, 0, 4096, -28673}));
  EXPECT_EQ(rp["uvs"][0][1], nlohmann::json({4096, 0}));
  EXPECT_EQ(rp["triangles"], nlohmann::json({{0, 2, 1}, {1, 2, 3}}));

  TextureNames names;
  names.add("null_msk.bmp");
  names.add("w03b1");
  const auto n = dump_json(kms_bytes(standard_kms(false, false)), false, &names);
  EXPECT_EQ(n["texture"], "w03b1");
  EXPECT_EQ(n["units"][0]["packets"][0]["tex_ids"], nlohmann::json({"null_msk.bmp", 0, 0}));
}

TEST(Kms, DocumentConvertsBetweenLayouts) {
  const auto b = kms_bytes(standard_kms(false, false));
  auto doc = open_document(FileData::from_vector(b), "a.kms", {});
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc.value()->format(), "kms");
  auto same = convert_in_memory(*doc.value(), ".kms", {});
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same.value().main, b);
  EXPECT_TRUE(same.value().side_files.empty());
  boneyard::ConvertOptions mc;
  mc.settings.layout = "mc";
  auto converted = convert_in_memory(*doc.value(), ".kms", mc);
  ASSERT_TRUE(converted.ok());
  expect_same_content(must_read(b), must_read(converted.value().main));
  const auto refused = convert_in_memory(*doc.value(), ".evm", {});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "unsupported conversion");
  const std::string info = doc.value()->info();
  EXPECT_NE(info.find("layout ps2"), std::string::npos) << info;
  EXPECT_NE(info.find("NORM"), std::string::npos);
  EXPECT_NE(info.find("triangles: 3"), std::string::npos) << info;
}

}  // namespace
}  // namespace boneyard::test
