// Every validator rule, triggered by a fixture that breaks exactly that rule.
#include "boneyard/xray/omf/omf.h"
#include "omf_fixture.h"
#include "test_support.h"

namespace boneyard::xray {
namespace {

using test::OmfSpec;

Diagnostics check(const std::vector<std::uint8_t>& bytes) {
  auto r = read_omf(FileData::from_vector(bytes));
  if (!r) {
    Diagnostics d;
    d.add(r.error());
    return d;
  }
  return validate_omf(r.value());
}
Diagnostics check(const OmfSpec& s) { return check(test::omf_bytes(s)); }

// The finding with this severity whose message contains `text`, or nullptr.
const Finding* find(const Diagnostics& d, Severity s, const std::string& text) {
  for (const auto& f : d.findings())
    if (f.severity == s && f.message.find(text) != std::string::npos) return &f;
  return nullptr;
}

std::string all(const Diagnostics& d) {
  std::string s;
  for (const auto& f : d.findings()) s += format_finding(f, "t") + "\n";
  return s;
}

TEST(OmfValidator, RichFixtureIsClean) {
  const Diagnostics d = check(test::rich_spec());
  EXPECT_EQ(d.count(Severity::error), 0u) << all(d);
  EXPECT_EQ(d.count(Severity::warning), 0u) << all(d);
  EXPECT_NE(find(d, Severity::info, "16-bit flag without translation keys"), nullptr) << all(d);
}

TEST(OmfValidator, ErrorFrameCountZero) {
  OmfSpec s = test::rich_spec();
  s.keys[0].frames = 0;
  for (auto& b : s.keys[0].bones) {
    if (!(b.flags & 2)) b.rot.clear();
    b.trans.clear();
  }
  const Diagnostics d = check(s);
  const Finding* f = find(d, Severity::error, "no frames");
  ASSERT_NE(f, nullptr) << all(d);
  EXPECT_EQ(f->path, "0xE/1 frame count");
  EXPECT_EQ(f->offset, 8u + 12u + 8u + 5u);  // 0xE header, count sub-chunk, sub-chunk header, "walk\0"
}

TEST(OmfValidator, ErrorIndicesNotAPermutation) {
  OmfSpec s = test::rich_spec();
  s.parts[1].bones[0].second = 1;  // both bones claim index 1
  const Diagnostics d = check(s);
  const Finding* f = find(d, Severity::error, "used twice");
  ASSERT_NE(f, nullptr) << all(d);
  EXPECT_EQ(f->path, "0xF part 1 bone 0 index");
  s.parts[1].bones[0].second = 7;
  ASSERT_NE(find(check(s), Severity::error, "out of range"), nullptr);
}

TEST(OmfValidator, ErrorRecordCountDiffersFromParts) {
  OmfSpec s = test::rich_spec();
  s.keys[1].extra = test::bone_record(s.keys[1].bones[1]);  // one record too many
  const Diagnostics d = check(s);
  const Finding* f = find(d, Severity::error, "more bone records");
  ASSERT_NE(f, nullptr) << all(d);
  EXPECT_EQ(f->expected, "2 records");
  EXPECT_EQ(f->found, "3 records");

  OmfSpec fewer = test::rich_spec();
  fewer.keys[0].bones.pop_back();
  const Diagnostics dg = check(fewer);
  const Finding* g = find(dg, Severity::error, "fewer bone records");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->found, "1 records");
}

TEST(OmfValidator, ErrorMotionCountsDiffer) {
  OmfSpec s = test::rich_spec();
  s.params.pop_back();
  const Diagnostics d = check(s);
  const Finding* f = find(d, Severity::error, "motion counts differ");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->found, "1");

  OmfSpec t = test::rich_spec();
  t.declared_count = 3;
  ASSERT_NE(find(check(t), Severity::error, "motion sub-chunk missing"), nullptr);
}

TEST(OmfValidator, ErrorTooManyParts) {
  OmfSpec s = test::rich_spec();
  for (int i = 0; i < 3; ++i) s.parts.push_back({"empty" + std::to_string(i), {}});
  EXPECT_NE(find(check(s), Severity::error, "too many bone parts"), nullptr);
}

TEST(OmfValidator, ErrorMissingChunks) {
  OmfSpec s = test::rich_spec();
  test::Buf only_params;
  only_params.chunk(0xF, test::params_payload(s));
  EXPECT_NE(find(check(only_params.b), Severity::error, "missing chunk 0xE"), nullptr);
  test::Buf only_keys;
  only_keys.chunk(0xE, test::motions_payload(s));
  EXPECT_NE(find(check(only_keys.b), Severity::error, "missing chunk 0xF"), nullptr);
}

TEST(OmfValidator, ErrorTruncationAndSizePastData) {
  auto bytes = test::omf_bytes(test::rich_spec());
  bytes.resize(bytes.size() - 5);  // 0xF now claims more than remains
  const Diagnostics d = check(bytes);
  const Finding* f = find(d, Severity::error, "chunk truncated");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->path, "0xF");
}

TEST(OmfValidator, WarningCrcMismatchAndZero) {
  OmfSpec s = test::rich_spec();
  s.keys[0].bones[0].rot_crc_override = 0x12345678;
  s.keys[1].bones[0].trans_crc_override = 0;
  const Diagnostics d = check(s);
  const Finding* mismatch = find(d, Severity::warning, "CRC mismatch");
  ASSERT_NE(mismatch, nullptr) << all(d);
  EXPECT_EQ(mismatch->path, "0xE/1 bone 0 rotation CRC");
  EXPECT_EQ(mismatch->offset, 8u + 12u + 8u + 5u + 4u + 1u);
  const Finding* zero = find(d, Severity::warning, "stored CRC is 0");
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero->path, "0xE/2 bone 0 translation CRC");
  EXPECT_FALSE(d.has_errors());
}

TEST(OmfValidator, WarningLongNames) {
  OmfSpec s = test::rich_spec();
  s.params[0].name = std::string(128, 'a');
  const Diagnostics d = check(s);
  const Finding* f = find(d, Severity::warning, "name too long");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->found, "128 bytes");
}

TEST(OmfValidator, WarningMarks) {
  OmfSpec s = test::rich_spec();
  s.params[0].marks[0].intervals.assign(10, {0.1f, 0.2f});  // count 10 = LF in its low byte
  s.params[0].marks[1].name = "";
  s.params[0].marks[1].intervals = {{0.5f, 0.4f}, {0.1f, 0.2f}};
  const Diagnostics d = check(s);
  EXPECT_NE(find(d, Severity::warning, "low byte is CR/LF"), nullptr) << all(d);
  EXPECT_NE(find(d, Severity::warning, "empty mark name"), nullptr);
  EXPECT_NE(find(d, Severity::warning, "starts after it ends"), nullptr);
  EXPECT_NE(find(d, Severity::warning, "not sorted"), nullptr);
}

TEST(OmfValidator, InfoFalloffNotBelowAccrueOnCycles) {
  OmfSpec s = test::rich_spec();
  s.params[0].falloff = 2.0f;
  const Diagnostics d = check(s);
  const Finding* f = find(d, Severity::info, "falloff >= accrue");
  ASSERT_NE(f, nullptr) << all(d);
  EXPECT_EQ(d.count(Severity::warning), 0u);
  s.params[1].falloff = 9.0f;  // FX: no clamp
  EXPECT_NE(find(check(s), Severity::info, "1 cycle(s)"), nullptr);
}

TEST(OmfValidator, WarningDuplicateNamesIgnoringCase) {
  OmfSpec s = test::rich_spec();
  s.params[1].flags = 0;  // make both cycles
  s.params[1].bone_or_part = 0xFFFF;
  s.params[1].name = "WALK";
  EXPECT_NE(find(check(s), Severity::warning, "duplicate motion name"), nullptr);
  s.params[1].flags = kMotionFx;  // FX and cycles live in separate maps
  EXPECT_EQ(find(check(s), Severity::warning, "duplicate motion name"), nullptr);
}

TEST(OmfValidator, WarningBit31AndTrailingBytes) {
  OmfSpec s = test::rich_spec();
  s.params_id = 0x8000000F;
  auto bytes = test::omf_bytes(s);
  bytes.push_back(0);
  const Diagnostics d = check(bytes);
  EXPECT_NE(find(d, Severity::warning, "bit 31"), nullptr) << all(d);
  EXPECT_NE(find(d, Severity::warning, "trailing bytes"), nullptr);
  EXPECT_FALSE(d.has_errors());
}

TEST(OmfValidator, InfoSixteenBitKeysInVersion3) {
  OmfSpec s = test::rich_spec();
  s.version = 3;
  EXPECT_NE(find(check(s), Severity::info, "SoC engines cannot read them"), nullptr);
  s.version = 4;
  EXPECT_EQ(find(check(s), Severity::info, "SoC engines cannot read them"), nullptr);
}

TEST(OmfValidator, InfoGarbageIdsAndScrambledNames) {
  OmfSpec s = test::rich_spec();
  s.params[1].motion_id = 999;
  s.keys[0].name = "x\x0Ay";
  const Diagnostics d = check(s);
  EXPECT_NE(find(d, Severity::info, "motion id(s) differ"), nullptr);
  EXPECT_NE(find(d, Severity::info, "0xE name(s) differ"), nullptr);
  EXPECT_EQ(d.count(Severity::warning), 0u) << all(d);
}

TEST(OmfValidator, WarningQuaternionFarFromUnitLength) {
  // Bad keys at every position: first, inside a pair, and in an odd tail.
  for (std::size_t bad : {0u, 1u, 2u}) {
    OmfSpec s = test::rich_spec();
    s.keys[0].bones[0].rot[bad] = {1000, 0, 0, 0};
    const Diagnostics d = check(s);
    const Finding* f = find(d, Severity::warning, "far from unit length");
    ASSERT_NE(f, nullptr) << "key " << bad;
    EXPECT_EQ(f->path, "0xE/1 bone 0 rotation key " + std::to_string(bad));
    EXPECT_EQ(f->offset, 8u + 12u + 8u + 5u + 4u + 1u + 4u + 8u * bad);
  }
  OmfSpec s = test::rich_spec();
  s.keys[0].bones[0].rot[1] = {0, 0, 0, 32440};  // 0.99 of unit length: within tolerance
  EXPECT_EQ(find(check(s), Severity::warning, "far from unit length"), nullptr);
}

TEST(OmfValidator, WarningAbsurdTranslationStillReads) {
  OmfSpec s = test::rich_spec();
  s.keys[0].bones[0].size = {0.0f, 0.0f, 0.0f};
  s.keys[0].bones[0].init = {4.7e19f, 0.0f, 0.0f};
  const Diagnostics d = check(s);
  EXPECT_NE(find(d, Severity::warning, "absurd"), nullptr);
  EXPECT_FALSE(d.has_errors());
}

TEST(OmfValidator, ErrorNamelessSdkPart) {
  // Version 3 with the SDK's "default" part that stores u32 indices only.
  test::Buf p;
  p.u16(3).u16(1).str("default").u16(2).u32(0).u32(1).u16(0);
  test::Buf f;
  f.chunk(0xE, test::Buf().chunk(0, test::Buf().u32(0))).chunk(0xF, p);
  const Diagnostics d = check(f.b);
  EXPECT_NE(find(d, Severity::error, "indices only"), nullptr) << all(d);
  auto r = read_omf(FileData::from_vector(f.b));
  ASSERT_TRUE(r);
  EXPECT_EQ(write_omf(r.value()), f.b);
}

}  // namespace
}  // namespace boneyard::xray
