// Every validator check, each triggered by a crafted fixture.
#include <gtest/gtest.h>

#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/evm/evm.h"
#include "mgs2_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;
using namespace boneyard::test::mgs2fx;

Diagnostics check(const std::vector<std::uint8_t>& b) {
  Diagnostics d;
  auto m = read_kms(FileData::from_view(as_bytes(b), nullptr));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : format_finding(m.error(), "fixture"));
  if (m.ok()) d.append(validate_kms(m.value()));
  return d;
}
Diagnostics check(const KFile& f) { return check(kms_bytes(f)); }
Diagnostics check_evm(const std::vector<std::uint8_t>& b) {
  Diagnostics d;
  auto m = read_evm(FileData::from_view(as_bytes(b), nullptr));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : format_finding(m.error(), "fixture"));
  if (!m.ok()) return d;
  d.append(validate_evm(m.value()));
  // What a conversion checks: the same findings, less the bounding-box warnings it leaves out.
  std::vector<std::string> expected, conversion;
  for (const auto& f : d.findings())
    if (f.path.find("bbox") == std::string::npos) expected.push_back(format_finding(f, "fixture"));
  const Diagnostics for_conversion = validate_evm_for_conversion(m.value());
  for (const auto& f : for_conversion.findings()) conversion.push_back(format_finding(f, "fixture"));
  EXPECT_EQ(conversion, expected);
  return d;
}
Diagnostics check(const EFile& f) { return check_evm(evm_bytes(f)); }

// Exactly one finding matching, with this severity; returns it.
Finding one(const Diagnostics& d, Severity s, const std::string& path, const std::string& msg) {
  const auto f = find(d, path, msg);
  EXPECT_EQ(f.size(), 1U) << "looking for '" << path << "' / '" << msg << "' in:\n" << dump_findings(d);
  if (f.empty()) return {};
  EXPECT_EQ(f[0].severity, s) << dump_findings(d);
  return f[0];
}

void put16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v) { std::memcpy(b.data() + at, &v, 2); }
void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

TEST(ValidateKms, StandardFixturesAreClean) {
  for (bool mc : {false, true}) {
    for (bool mt : {false, true}) {
      const Diagnostics d = check(standard_kms(mc, mt));
      EXPECT_EQ(d.count(Severity::error) + d.count(Severity::warning), 0U) << dump_findings(d);
    }
  }
}

TEST(ValidateKms, DataFormat) {
  auto f = standard_kms(false, false);
  f.data_format = 0x00123456;
  EXPECT_EQ(one(check(f), Severity::error, "header data_format", "unknown data format").offset, 0U);
  f.data_format = 0x01C81371;
  one(check(f), Severity::info, "header data_format", "flag byte 0x01");
  f.data_format = 0x05C81371;
  one(check(f), Severity::warning, "header data_format", "unknown flag byte");
}

TEST(ValidateKms, UnitCountsAndExtendedOrder) {
  auto f = standard_kms(false, false);
  f.n_models = 3;
  one(check(f), Severity::error, "header n_models", "more regular units");
  f.n_models = 2;  // unit 1 is extended but now counted as regular
  const Finding e = one(check(f), Severity::error, "unit 1 type", "extended unit");
  EXPECT_EQ(e.offset, 0x80U);
  f = standard_kms(false, false);
  f.units[1].type = 0;
  one(check(f), Severity::warning, "unit 1 type", "without the extended flag");
}

TEST(ValidateKms, Parents) {
  auto f = standard_kms(false, false);
  f.units[1].parent = 5;
  const Finding e = one(check(f), Severity::error, "unit 1 parent", "out of range");
  EXPECT_EQ(e.offset, 0x80U + 0x2C);
  f.units[1].parent = 0;
  f.units[0].parent = 1;
  one(check(f), Severity::error, "parent", "parent cycle");
  f.units[0].parent = 0;
  f.units[1].parent = -1;
  one(check(f), Severity::error, "unit 0 parent", "parent cycle");
}

TEST(ValidateKms, PacketLimits) {
  auto f = standard_kms(false, false);
  KPacket big = f.units[0].packets[0];
  big.verts.assign(65, {0, 0, 0, 4096});
  big.norms.assign(65, {0, 0, 4096, 0x0FFF});
  big.norms[0][3] = big.norms[1][3] = -28673;
  big.uvs[0].assign(65, {0, 0});
  f.units[0].packets[0] = big;
  f.bmax = {100, 100, 100};
  one(check(f), Severity::error, "unit 0 packet 0 n_verts", "too many vertices");
  big.verts.resize(33);
  big.norms.resize(33);
  big.uvs[0].resize(33);
  f.units[0].packets[0] = big;
  EXPECT_TRUE(find(check(f), "n_verts", "too many").empty());
  f.data_format = 0x00B253A3;  // multi-texture: 32 at most
  one(check(f), Severity::error, "unit 0 packet 0 n_verts", "too many vertices");
  f = standard_kms(true, false);
  f.units[1].packets[0].n_verts_high = 1;
  one(check(f), Severity::warning, "unit 1 packet 0 n_verts", "high half");
}

TEST(ValidateKms, AlignmentAndOverlaps) {
  auto b = kms_bytes(standard_kms(false, false));
  // Packet 1 normals (0x180, 24 bytes) moved to 0x178: misaligned and into packet 0's normals.
  put32(b, 0xF0 + 0x18, 0x178);
  Diagnostics d = check(b);
  EXPECT_EQ(one(d, Severity::error, "unit 1 packet 0 normals", "not 16-byte aligned").offset, 0xF0U + 0x18);
  one(d, Severity::error, "unit 1 packet 0 normals", "overlaps");
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0xF0 + 0x14, 0x120);  // packet 1 vertices = packet 0 vertices
  one(check(b), Severity::error, "unit 1 packet 0 vertices", "overlaps unit 0 packet 0 vertices");
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0xC0 + 0x1C, 0x30);  // uv0 inside the header
  one(check(b), Severity::error, "unit 0 packet 0 uv0", "overlaps header");
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0x80 + 0x30, 0xC0);  // unit 1 reuses unit 0's packet table
  one(check(b), Severity::error, "unit 1 packet table", "overlaps unit 0 packet table");
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0xC0 + 0x18, 0);  // normals absent
  one(check(b), Severity::error, "unit 0 packet 0 normals", "absent");
}

TEST(ValidateKms, KickFlags) {
  auto b = kms_bytes(standard_kms(false, false));
  put16(b, 0x160 + 6, 0x0FFF);  // vertex 0 of packet 0 marked drawing
  const Finding w = one(check(b), Severity::warning, "unit 0 packet 0 normals vertex 0 kick flag", "first two vertices");
  EXPECT_EQ(w.offset, 0x166U);
  EXPECT_EQ(w.found, "0xFFF");
  b = kms_bytes(standard_kms(false, false));
  put16(b, 0x160 + 3 * 8 + 6, 0x4FFF);
  put16(b, 0x160 + 2 * 8 + 6, 0x4FFF);
  const Finding r = one(check(b), Severity::warning, "unit 0 packet 0 normals vertex 2 kick flag", "reserved bit 0x4000");
  EXPECT_NE(r.message.find("on 2 vertices"), std::string::npos);
}

TEST(ValidateKms, BoundingBoxes) {
  auto f = standard_kms(false, false);
  f.units[0].bmax = {5, 5, 0};
  one(check(f), Severity::warning, "unit 0 bbox", "does not contain");
  // Unit 1's box in model coordinates (its unit sits at (0, 10, 0)): accepted.
  f = standard_kms(false, false);
  f.units[1].bmin = {0, 10, 0};
  f.units[1].bmax = {1, 11, 0};
  EXPECT_TRUE(find(check(f), "bbox", "").empty());
  f.units[1].bmin = {0, 20, 0};
  f.units[1].bmax = {1, 21, 0};
  one(check(f), Severity::warning, "unit 1 bbox", "does not contain");
  f = standard_kms(false, false);
  f.bmax = {11, 5, 1};
  one(check(f), Severity::warning, "header bbox", "does not contain");
}

TEST(ValidateEvm, StandardFixturesAreClean) {
  for (bool mc : {false, true})
    for (bool large : {false, true})
      for (bool v1 : {false, true}) {
        const Diagnostics d = check(standard_evm(mc, large, v1));
        EXPECT_EQ(d.count(Severity::error) + d.count(Severity::warning), 0U) << dump_findings(d);
      }
}

TEST(ValidateEvm, HeaderAndSkeleton) {
  auto f = standard_evm(false, false, false);
  f.n_models = 4;
  one(check(f), Severity::error, "header n_models", "more regular joints");
  f = standard_evm(false, false, false);
  f.type |= 0x100;
  EXPECT_EQ(one(check(f), Severity::warning, "header type", "unknown type bits").offset, 0x20U);
  f = standard_evm(false, false, false);
  f.bones[0].parent = 2;
  one(check(f), Severity::error, "parent", "parent cycle");
  f.bones[0].parent = -7;
  EXPECT_EQ(one(check(f), Severity::error, "bone 0 parent", "out of range").offset, 0x30U + 4);
}

TEST(ValidateEvm, PacketLimitsAndMatIds) {
  auto f = standard_evm(false, false, false);
  auto& p = f.packets[0];
  p.n_mats = 9;
  p.mat[2] = 7;  // 3 joints only
  Diagnostics d = check(f);
  one(d, Severity::error, "packet 0 n_mats", "too many matrices");
  EXPECT_EQ(one(d, Severity::error, "packet 0 mat_id 2", "past the skeleton").offset, 0xF0U + 0x18 + 2);
  f = standard_evm(true, false, false);
  f.packets[0].verts.resize(33, {0, 0, 0, 0x0FFF});
  f.packets[0].norms.resize(33);
  f.packets[0].uvs[0].resize(33);
  f.packets[0].weights.resize(33, {{128, 0, 0, 0, 0, 0, 0, 0}});
  one(check(f), Severity::error, "packet 0 n_verts", "too many vertices");
}

TEST(ValidateEvm, Weights) {
  auto f = standard_evm(false, false, false);
  f.packets[0].weights[0] = {{128, 0, 0, 0, 32, 0, 0, 0}};  // palette 32 -> slot 8
  one(check(f), Severity::error, "packet 0 vertex 0 weight 0", "past mat_id[8]");
  f = standard_evm(false, false, false);
  f.packets[0].weights[0] = {{128, 0, 0, 0, 8, 0, 0, 0}};  // slot 2 = 0xFF
  one(check(f), Severity::error, "packet 0 vertex 0 weight 0", "unused matrix slot");
  f = standard_evm(false, false, false);
  f.packets[0].n_mats = 1;  // slot 1 still used: ambiguous n_mats, info only
  Diagnostics d = check(f);
  one(d, Severity::info, "packet 0 vertex 1 weights", "at or past n_mats");
  EXPECT_EQ(d.count(Severity::error), 0U) << dump_findings(d);
  f = standard_evm(false, false, false);
  f.packets[0].weights[2] = {{100, 0, 0, 0, 4, 0, 0, 0}};
  f.packets[0].weights[4] = {{127, 0, 0, 0, 0, 0, 0, 0}};  // within +/- 2
  const Finding s = one(check(f), Severity::warning, "packet 0 vertex 2 weights", "do not sum to 128");
  EXPECT_EQ(s.found, "100");
  EXPECT_NE(s.message.find("on 1 vertices"), std::string::npos);
  f = standard_evm(false, false, true);  // v1: weight 2 on slot 2 = 0xFF
  f.packets[0].weights[0] = {{120, 0, 8, 0, 0, 0, 0, 0}};
  one(check(f), Severity::error, "packet 0 vertex 0 weight 2", "unused matrix slot");
  f = standard_evm(false, false, false);
  f.packets[0].weights.clear();
  one(check(f), Severity::warning, "packet 0 weights", "absent");
}

TEST(ValidateEvm, KicksAlignmentOverlaps) {
  auto b = evm_bytes(standard_evm(false, false, false));
  put16(b, 0x130 + 8 + 6, 0x0FFF);  // vertex 1 drawing
  one(check_evm(b), Severity::warning, "packet 0 vertices vertex 1 kick flag", "first two vertices");
  b = evm_bytes(standard_evm(false, false, false));
  put32(b, 0xF0 + 0x34, 0x168);  // weights into the normals, misaligned
  Diagnostics d = check_evm(b);
  one(d, Severity::error, "packet 0 weights", "not 16-byte aligned");
  one(d, Severity::error, "packet 0 weights", "overlaps packet 0 normals");
  b = evm_bytes(standard_evm(false, false, false));
  put32(b, 0xF0 + 0x28, 0x40);  // uv0 inside the skeleton
  one(check_evm(b), Severity::error, "packet 0 uv0", "overlaps header and skeleton");
}

TEST(ValidateEvm, BoundingBoxes) {
  auto f = standard_evm(false, false, false);
  f.bones[1].bmax = {1, 1, 1, 0};
  one(check(f), Severity::warning, "bone 1 bbox", "does not contain");
  // Child box given relative to its bind position (root offset (0, 16, 0) = (0, 1, 0) after
  // scaling by the model units): also accepted.
  f = standard_evm(false, true, false);
  f.bones[1].bmin = {0, -16, 0, 0};
  f.bones[1].bmax = {160, 144, 16, 0};
  EXPECT_TRUE(find(check(f), "bbox", "").empty()) << dump_findings(check(f));
  f = standard_evm(false, false, false);
  f.bmax = {10, 10, 0.5f};
  one(check(f), Severity::warning, "header bbox", "does not contain");
}

}  // namespace
}  // namespace boneyard::test
