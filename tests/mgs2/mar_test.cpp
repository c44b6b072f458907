// .mar: reader, lossless writer, key codec, builder and validator, against archives encoded from
// the notes by the test's own encoder (mar_fixture.h), in both layouts, and crafted broken ones.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>

#include "boneyard/mgs2/mar/mar.h"
#include "boneyard/mgs2/mar/mar_report.h"
#include "mar_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;
using marfx::Archive;
using marfx::mar_bytes;
using marfx::standard_mar;

Result<MarFile> read(const std::vector<std::uint8_t>& b, std::optional<Layout> forced = std::nullopt, Diagnostics* notes = nullptr) {
  return read_mar(FileData::from_vector(b), forced, notes);
}
MarFile must_read(const std::vector<std::uint8_t>& b, std::optional<Layout> forced = std::nullopt) {
  auto r = read(b, forced);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "fixture"));
  return r.ok() ? std::move(r).value() : MarFile{};
}
std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
bool has(const Diagnostics& d, Severity s, const std::string& text, const std::string& path = {}) {
  for (const auto& f : d.findings())
    if (f.severity == s && f.message.find(text) != std::string::npos && f.path.find(path) != std::string::npos) return true;
  return false;
}
std::string listing(const Diagnostics& d) {
  std::string s;
  for (const auto& f : d.findings()) s += format_finding(f, "mar") + "\n";
  return s;
}
// Where motion `i`'s MTCM starts in a fixture.
std::size_t mtcm_at(const std::vector<std::uint8_t>& b, bool mc, std::size_t i) {
  return u32_at(b, 12) + u32_at(b, 0x10 + i * (mc ? 16 : 8));
}

// ---- Reading the fixtures: every field and every key the encoder put in ----------------------

class MarLayouts : public ::testing::TestWithParam<bool> {};

TEST_P(MarLayouts, ReadsEveryHeaderFieldAndDetectsTheLayout) {
  const bool mc = GetParam();
  const Archive a = standard_mar(mc);
  const auto bytes = mar_bytes(a);
  Diagnostics notes;
  auto r = read(bytes, std::nullopt, &notes);
  ASSERT_TRUE(r.ok()) << format_finding(r.error(), "fixture");
  const MarFile& m = r.value();
  EXPECT_EQ(m.layout, mc ? Layout::mc : Layout::ps2);
  EXPECT_EQ(m.header.max_joint, 6u);
  ASSERT_EQ(m.motions.size(), a.motions.size());
  EXPECT_EQ(m.header.mtcm_offset, mc ? 0x50u : 0x30u);
  for (std::size_t i = 0; i < a.motions.size(); ++i) {
    const MarMotion& x = m.motions[i];
    const marfx::Motion& want = a.motions[i];
    ASSERT_TRUE(x.readable.ok());
    EXPECT_EQ(x.header.name, strcode(want.name));
    EXPECT_EQ(x.header.flags, want.flags);
    EXPECT_EQ(x.header.base_tick, want.base_tick);
    EXPECT_EQ(x.header.frames, want.frames);
    EXPECT_EQ(x.header.joints, want.rots.size());
    EXPECT_EQ(x.header.archive_offset % 16, 0u);
    EXPECT_EQ(x.entry.size, x.header.archive_offset + x.header.archive_size);
    const std::uint64_t tail_at = std::uint64_t{x.header.root_offset} * 2;
    ASSERT_LE(tail_at, x.archive.size());
    EXPECT_TRUE(same_bytes(x.archive.subspan(tail_at), as_bytes(want.tail)));
    if (want.move_after_root != 0) {
      EXPECT_EQ(x.header.move_offset, x.header.root_offset + want.move_after_root);
    }
  }
  EXPECT_FALSE(has(notes, Severity::info, "forced"));
}

TEST_P(MarLayouts, DecodesEveryKeyAsEncoded) {
  const bool mc = GetParam();
  const Archive a = standard_mar(mc);
  const MarFile m = must_read(mar_bytes(a));
  for (std::size_t i = 0; i < a.motions.size(); ++i) {
    const marfx::Motion& want = a.motions[i];
    std::vector<MarTranslationKey> t;
    ASSERT_TRUE(decode_translation_keys(m.motions[i], i, t).ok());
    ASSERT_EQ(t.size(), want.trans.size() + 1);
    EXPECT_TRUE(t[0].initial);
    EXPECT_EQ(t[0].frame, 0u);
    EXPECT_EQ(t[0].value, want.t0);
    std::uint64_t frame = 0;
    for (std::size_t k = 0; k < want.trans.size(); ++k) {
      frame += want.trans[k].delta;
      EXPECT_EQ(t[k + 1].frame, frame);
      EXPECT_EQ(t[k + 1].delta, want.trans[k].delta);
      EXPECT_EQ(t[k + 1].value, want.trans[k].v);
      EXPECT_EQ(t[k + 1].extra, want.trans[k].extra);
    }
    for (std::size_t j = 0; j < want.rots.size(); ++j) {
      std::vector<MarRotationKey> r;
      ASSERT_TRUE(decode_rotation_keys(m.motions[i], i, j, r).ok()) << "motion " << i << " joint " << j;
      ASSERT_EQ(r.size(), want.rots[j].size());
      frame = 0;
      for (std::size_t k = 0; k < r.size(); ++k) {
        frame += want.rots[j][k].delta;
        EXPECT_EQ(r[k].frame, frame);
        EXPECT_EQ(r[k].value, want.rots[j][k].q);
        EXPECT_EQ(r[k].extra, want.rots[j][k].extra);
      }
    }
  }
}

TEST_P(MarLayouts, RewritesByteForByte) {
  const auto bytes = mar_bytes(standard_mar(GetParam()));
  EXPECT_EQ(write_mar(must_read(bytes)), bytes);
  // Bytes no structure covers (filler before an archive, trailing data) come back too.
  auto odd = bytes;
  const std::size_t at = mtcm_at(odd, GetParam(), 1) + (GetParam() ? 0x30 : 0x2C) + 3 * 4;  // after pose's 3 joint offsets
  odd[at] = 0xAA;
  for (char c : std::string("junk!")) odd.push_back(static_cast<std::uint8_t>(c));
  Diagnostics notes;
  auto r = read(odd, std::nullopt, &notes);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(write_mar(r.value()), odd);
  EXPECT_TRUE(has(notes, Severity::info, "gaps")) << listing(notes);
}

TEST_P(MarLayouts, TheBuilderLaysTheFixturesOutAlike) {
  const bool mc = GetParam();
  const auto bytes = mar_bytes(standard_mar(mc));
  const MarFile m = must_read(bytes);
  std::vector<MtcmContent> from_keys, from_archive;
  for (std::size_t i = 0; i < m.motions.size(); ++i) {
    auto keys = decode_motion_keys(m.motions[i], i);
    ASSERT_TRUE(keys.ok());
    auto encoded = encode_motion(keys.value());
    ASSERT_TRUE(encoded.ok()) << format_finding(encoded.error(), "encode");
    from_keys.push_back(encoded.value());
    from_archive.push_back(motion_content(m.motions[i]));
  }
  auto built = build_mar(m.layout, m.header.max_joint, from_keys);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(built.value(), bytes);
  auto copied = build_mar(m.layout, m.header.max_joint, from_archive);
  ASSERT_TRUE(copied.ok());
  EXPECT_EQ(copied.value(), bytes);
}

TEST_P(MarLayouts, ConvertsToTheOtherLayoutKeepingEveryBitOfTheArchives) {
  const bool mc = GetParam();
  const MarFile m = must_read(mar_bytes(standard_mar(mc)));
  std::vector<MtcmContent> motions;
  for (const auto& x : m.motions) motions.push_back(motion_content(x));
  auto other = build_mar(mc ? Layout::ps2 : Layout::mc, m.header.max_joint, motions);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other.value(), mar_bytes(standard_mar(!mc)));
}

TEST_P(MarLayouts, ValidatesCleanWithInfoOnlyWhereTheFixtureGoesPastTheEnd) {
  const MarFile m = must_read(mar_bytes(standard_mar(GetParam())));
  const Diagnostics d = validate_mar(m);
  EXPECT_EQ(d.count(Severity::error), 0u) << listing(d);
  EXPECT_EQ(d.count(Severity::warning), 0u) << listing(d);
  // The third motion's translation ends at frame 50 of 45: the readers stop there; an info.
  EXPECT_TRUE(has(d, Severity::info, "past the motion's frame count", "motion 2")) << listing(d);
}

INSTANTIATE_TEST_SUITE_P(Mar, MarLayouts, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? std::string("Mc") : std::string("Ps2"); });

// ---- The bit order, pinned by hand -----------------------------------------------------------

// One joint, one frame: translation (1.0, 0, 0) then a record at frame 1 with (2.0, 0, 0); one
// rotation record at frame 1 with (1, 2, 3, 2047) and a second quaternion (0, 0, 0, -1). The bytes
// below are the notes' LSB-first order worked out by hand (a value's first bit is its lowest).
TEST(MarBits, LsbFirstRecordsAsWorkedOutByHand) {
  Archive a;
  marfx::Motion m;
  m.name = "bits";
  m.frames = 1;
  m.t0 = {0x3C00, 0, 0};
  m.trans = {{1, {0x4000, 0, 0}, {}}};
  m.rots = {{{1, {1, 2, 3, 2047}, {0, 0, 0, -1}}}};
  a.max_joint = 1;
  a.motions = {m};
  const auto bytes = mar_bytes(a);
  const MarFile f = must_read(bytes);
  const std::vector<std::uint8_t> translation = {0x00, 0x3C, 0, 0, 0, 0, 0x01, 0x00, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<std::uint8_t> rotation = {0x01, 0x01, 0x20, 0x00, 0x03, 0xF0, 0x7F, 0, 0, 0, 0, 0xF0, 0xFF, 0x00};
  std::vector<std::uint8_t> archive = translation;
  archive.insert(archive.end(), rotation.begin(), rotation.end());
  ASSERT_EQ(f.motions.size(), 1u);
  EXPECT_TRUE(same_bytes(f.motions[0].archive, as_bytes(archive)));
  EXPECT_EQ(f.motions[0].joint_offset(0), 10u);
  EXPECT_EQ(f.motions[0].header.root_offset, 17u);
  std::vector<MarRotationKey> r;
  ASSERT_TRUE(decode_rotation_keys(f.motions[0], 0, 0, r).ok());
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].value, (std::array<std::int16_t, 4>{1, 2, 3, 2047}));
  EXPECT_EQ(r[0].extra, (std::array<std::int16_t, 4>{0, 0, 0, -1}));
  std::vector<MarTranslationKey> t;
  ASSERT_TRUE(decode_translation_keys(f.motions[0], 0, t).ok());
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(translation_key_value(t[0].value), (std::array<float, 3>{128.0f, 0, 0}));
  EXPECT_EQ(translation_key_value(t[1].value), (std::array<float, 3>{256.0f, 0, 0}));
  // The library's encoder writes the same bits.
  auto keys = decode_motion_keys(f.motions[0], 0);
  ASSERT_TRUE(keys.ok());
  auto encoded = encode_motion(keys.value());
  ASSERT_TRUE(encoded.ok());
  EXPECT_EQ(encoded.value().archive, archive);
}

TEST(MarBits, QuaternionsAreScaledBy2047AndNormalised) {
  const auto q = rotation_key_value({0, 1448, 0, 1448});
  EXPECT_NEAR(q[1], std::sqrt(0.5f), 1e-6);
  EXPECT_NEAR(q[3], std::sqrt(0.5f), 1e-6);
  const auto zero = rotation_key_value({0, 0, 0, 0});
  EXPECT_EQ(zero, (std::array<float, 4>{0, 0, 0, 0}));
  const auto extreme = rotation_key_value({-2048, 0, 0, 0});
  EXPECT_FLOAT_EQ(extreme[0], -1.0f);
}

// ---- Broken archives --------------------------------------------------------------------------

std::vector<std::uint8_t> ps2() { return mar_bytes(standard_mar(false)); }

Diagnostics validated(const std::vector<std::uint8_t>& b, std::optional<Layout> forced = std::nullopt) {
  auto r = read(b, forced);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "crafted"));
  return r.ok() ? validate_mar(r.value()) : Diagnostics{};
}

TEST(MarBroken, NotAMotionArchive) {
  auto b = ps2();
  b[3] = 'b';
  auto r = read(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not a .mar"), std::string::npos);
  EXPECT_FALSE(read(std::vector<std::uint8_t>{'M', 'A', 'R', 'a', 1, 0}).ok());
}

TEST(MarBroken, ATableLongerThanTheFileIsRefusedBeforeAnythingIsRead) {
  auto b = ps2();
  marfx::le32(b, 8, 0x10000);
  auto r = read(b, Layout::ps2);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "motion table");
  marfx::le32(b, 8, 0xFFFFFFFF);
  auto huge = read(b, Layout::ps2);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().message.find("more motions"), std::string::npos);
}

TEST(MarBroken, AnMtcmPastTheEndLeavesTheOthersReadable) {
  auto b = ps2();
  marfx::le32(b, 0x10 + 8, 0x00FFFFF0);  // motion 1's offset
  auto r = read(b, Layout::ps2);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value().motions[1].readable.ok());
  EXPECT_TRUE(r.value().motions[2].readable.ok());
  const Diagnostics d = validate_mar(r.value());
  EXPECT_TRUE(has(d, Severity::error, "MTCM past the end", "motion 1")) << listing(d);
  EXPECT_EQ(write_mar(r.value()), b);  // its bytes are kept as gaps
}

TEST(MarBroken, AStreamThatRunsOutBeforeTheLastFrameIsAnOverrun) {
  auto b = ps2();
  marfx::le32(b, mtcm_at(b, false, 0) + 0x0C, 1000);  // frames
  const Diagnostics d = validated(b);
  EXPECT_TRUE(has(d, Severity::error, "stream ends before", "motion 0 joint 0 translation keys")) << listing(d);
  EXPECT_TRUE(has(d, Severity::error, "stream ends before", "motion 0 joint 5 rotation keys")) << listing(d);
  const MarFile m = must_read(b);
  std::vector<MarRotationKey> r;
  auto decoded = decode_rotation_keys(m.motions[0], 0, 2, r);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().found.find("bits left"), std::string::npos);
}

TEST(MarBroken, OffsetsPastTheArchive) {
  auto b = ps2();
  const std::size_t at = mtcm_at(b, false, 0);
  const std::uint32_t size = u32_at(b, at + 0x14);
  marfx::le32(b, at + 0x1C, size / 2 + 10);  // root offset
  Diagnostics d = validated(b);
  EXPECT_TRUE(has(d, Severity::error, "root offset past the archive")) << listing(d);
  EXPECT_TRUE(has(d, Severity::error, "runs past the archive", "motion 0 joint 5 offset")) << listing(d);
  b = ps2();
  marfx::le32(b, at + 0x2C, size);  // joint 0's stream starts at 2x the archive's size
  d = validated(b);
  EXPECT_TRUE(has(d, Severity::error, "starts past the archive", "motion 0 joint 0 offset")) << listing(d);
}

TEST(MarBroken, JointOffsetsOutOfOrderAreReadAsTheReadersReadThem) {
  auto b = ps2();
  const std::size_t at = mtcm_at(b, false, 0) + 0x2C;
  const std::uint32_t j1 = u32_at(b, at + 4), j2 = u32_at(b, at + 8);
  marfx::le32(b, at + 4, j2);
  marfx::le32(b, at + 8, j1);
  const Diagnostics d = validated(b);
  EXPECT_TRUE(has(d, Severity::warning, "does not start after", "motion 0 joint 2 offset")) << listing(d);
  // Joint 1 reads from old joint 2 up to the root offset (its next offset is not after its own).
  const MarFile m = must_read(b);
  const MarStream s = rotation_stream(m.motions[0], 1);
  EXPECT_EQ(s.declared, (std::uint64_t{m.motions[0].header.root_offset} - j2) * 2);
}

TEST(MarBroken, AnArchiveInsideTheJointOffsets) {
  auto b = ps2();
  marfx::le32(b, mtcm_at(b, false, 0) + 0x10, 0x2C);
  const Diagnostics d = validated(b, Layout::ps2);
  EXPECT_TRUE(has(d, Severity::error, "archive starts inside", "motion 0 archive offset")) << listing(d);
}

TEST(MarBroken, OddKeysAreWarnedAndShown) {
  Archive a;
  a.max_joint = 1;
  marfx::Motion m;
  m.name = "odd";
  m.frames = 5;
  m.rots = {{{0, {0, 0, 0, 2047}, {}}, {0, {0, 0, 0, 0}, {}}, {5, {0, 0, 0, 2047}, {}}}};
  m.trans = {{5, {0x7C00, 0, 0}, {}}};  // +infinity
  a.motions = {m, m};
  a.motions[1].name = "odd2";
  const Diagnostics d = validated(mar_bytes(a));
  EXPECT_TRUE(has(d, Severity::warning, "delta 0", "motion 0 keys")) << listing(d);
  EXPECT_TRUE(has(d, Severity::warning, "zero quaternion", "motion 0 rotation keys")) << listing(d);
  EXPECT_TRUE(has(d, Severity::warning, "infinite or NaN", "motion 0 translation keys")) << listing(d);
}

TEST(MarBroken, TableAndHeaderOddities) {
  auto b = ps2();
  marfx::le32(b, 4, 2);  // max_joint below the motions' 6 joints
  marfx::le32(b, 0x10 + 16, u32_at(b, 0x10));  // motion 2 names motion 0's MTCM
  const Diagnostics d = validated(b);
  EXPECT_TRUE(has(d, Severity::warning, "more joints than the header's max_joint", "motion 0 joints")) << listing(d);
  EXPECT_TRUE(has(d, Severity::info, "shares its MTCM with motion 0", "motion 2")) << listing(d);
  auto mc = mar_bytes(standard_mar(true));
  marfx::le32(mc, 0x10 + 4, 7);  // an MC table pad
  const Diagnostics p = validated(mc, Layout::mc);
  EXPECT_TRUE(has(p, Severity::info, "pad dwords are not 0", "motion 0 pads")) << listing(p);
  // Detection still finds the MC layout when nothing else reads.
  auto detected = read(mc);
  ASSERT_TRUE(detected.ok());
  EXPECT_EQ(detected.value().layout, Layout::mc);
}

TEST(MarBroken, ALayoutThatReadsBothWaysMustBeGiven) {
  // One motion, an MTCM of zeros except its archive offset (0x30): a PS2 and an MC header alike,
  // in an area where neither layout's table ends.
  std::vector<std::uint8_t> b(0x80, 0);
  marfx::le32(b, 0, 0x6152414D);
  marfx::le32(b, 8, 1);
  marfx::le32(b, 12, 0x40);
  marfx::le32(b, 0x40 + 0x10, 0x30);
  auto r = read(b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--input-layout"), std::string::npos);
  EXPECT_TRUE(read(b, Layout::ps2).ok());
  EXPECT_TRUE(read(b, Layout::mc).ok());
}

TEST(MarBroken, SharedStreamsCannotMultiplyTheWork) {
  // 200,000 joints whose offsets all name one stream of 10,000 records: decoding every joint
  // would be 2e9 keys from a 1 MB file. The budget stops it, in well under a second.
  constexpr std::uint32_t kJoints = 200000, kRecords = 10000;
  std::vector<std::uint8_t> b(0x20, 0);
  marfx::le32(b, 0, 0x6152414D);
  marfx::le32(b, 4, kJoints);
  marfx::le32(b, 8, 1);
  marfx::le32(b, 12, 0x20);
  const std::size_t mtcm = 0x20, archive_offset = marfx::up16(0x2C + kJoints * 4);
  marfx::Packer p;
  for (int i = 0; i < 3; ++i) p.put(0, 16);
  p.end_stream();
  const std::uint32_t stream = static_cast<std::uint32_t>(p.bytes().size() / 2);
  for (std::uint32_t k = 0; k < kRecords; ++k) {
    p.put(1, 8);
    for (int c = 0; c < 8; ++c) p.put(c == 3 ? 2047 : 0, 12);
  }
  p.end_stream();
  const auto& archive = p.bytes();
  b.resize(mtcm + archive_offset + archive.size(), 0);
  marfx::le32(b, mtcm + 0x0C, kRecords);              // frames
  marfx::le32(b, mtcm + 0x10, static_cast<std::uint32_t>(archive_offset));
  marfx::le32(b, mtcm + 0x14, static_cast<std::uint32_t>(archive.size()));
  marfx::le32(b, mtcm + 0x18, kJoints);
  marfx::le32(b, mtcm + 0x1C, static_cast<std::uint32_t>(archive.size() / 2));  // root
  for (std::uint32_t j = 0; j < kJoints; ++j) marfx::le32(b, mtcm + 0x2C + j * 4, stream);
  std::memcpy(b.data() + mtcm + archive_offset, archive.data(), archive.size());
  const auto start = std::chrono::steady_clock::now();
  const Diagnostics d = validated(b, Layout::ps2);
  EXPECT_TRUE(has(d, Severity::error, "share key streams")) << listing(d).substr(0, 2000);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
}

TEST(MarSkeleton, JointsBeyondTheSkeletonAreErrors) {
  const MarFile m = must_read(ps2());
  Diagnostics ok;
  check_mar_skeleton(m, 6, ok);
  EXPECT_EQ(ok.findings().size(), 0u) << listing(ok);
  Diagnostics d;
  check_mar_skeleton(m, 4, d);
  EXPECT_TRUE(has(d, Severity::warning, "max_joint exceeds")) << listing(d);
  EXPECT_TRUE(has(d, Severity::error, "joints the skeleton does not have", "motion 0 joints")) << listing(d);
  EXPECT_FALSE(has(d, Severity::error, "joints the skeleton does not have", "motion 1"));
}

TEST(MarReport, InfoAndDumpShowTheUnknownFields) {
  const MarFile m = must_read(ps2());
  const std::string info = describe_mar(m, nullptr);
  EXPECT_NE(info.find("layout ps2"), std::string::npos) << info;
  EXPECT_NE(info.find(mar_motion_name(strcode("rai_walk"), nullptr)), std::string::npos) << info;
  EXPECT_NE(info.find("0x00000010"), std::string::npos) << info;  // walk's flags
  TextureNames names;
  names.load_text(marfx::standard_motion_names());
  EXPECT_NE(describe_mar(m, &names).find("rai_walk"), std::string::npos);
  EXPECT_EQ(sniff_mar(as_bytes(ps2()), ".mar"), 90);
  EXPECT_EQ(sniff_mar(as_bytes(std::vector<std::uint8_t>{1, 2, 3, 4}), ".mar"), 0);
}

}  // namespace
}  // namespace boneyard::test
