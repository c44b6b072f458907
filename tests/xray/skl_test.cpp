// .skl, .skls and .anm (xray/skl, xray/anm): files laid out by hand in every version, byte-exact
// rewrites, the engine's reading of bit 31, validation findings, and crafted hostile input
// (truncations at every byte, absurd counts) that must fail cleanly.
#include <cmath>
#include <cstring>

#include "boneyard/core/json_writer.h"
#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/anm/anm_report.h"
#include "boneyard/xray/skl/skl.h"
#include "boneyard/xray/skl/skl_report.h"
#include "sdk_fixtures.h"
#include "test_support.h"

namespace boneyard::xray {
namespace {

using namespace boneyard::test::sdk;

template <class Read>
auto read_bytes(Read read, const std::vector<std::uint8_t>& bytes) {
  return read(FileData::from_vector(bytes));
}

TEST(SklReader, ReadsEveryVersionAndRewritesItByteForByte) {
  for (std::uint16_t version : {std::uint16_t{4}, std::uint16_t{5}, std::uint16_t{6}, std::uint16_t{7}}) {
    const auto file = skls_of({motion_body(version), motion_body(version, 1, false)});
    auto f = read_bytes(read_skls, file);
    ASSERT_TRUE(f.ok()) << "v" << version << ": " << f.error().message << " at " << f.error().path;
    ASSERT_EQ(f->motions.size(), 2u);
    const SklMotion& m = f->motions[0];
    EXPECT_EQ(m.version, version);
    EXPECT_EQ(m.name, "idle");
    EXPECT_EQ(m.frame_end, 30);
    ASSERT_EQ(m.bones.size(), 2u);
    EXPECT_EQ(m.bones[1].name, version >= 5 ? "bip01_spine" : "");
    EXPECT_EQ(m.envelope_layout(), version >= 6 ? EnvelopeLayout::v2 : EnvelopeLayout::v1);
    EXPECT_EQ(m.is_fx(), version == 4);
    EXPECT_EQ((m.flags & kMotionStopAtEnd) != 0, version != 4);
    const auto keys = decode_envelope_keys(m.bones[0].channel(4));  // p
    ASSERT_EQ(keys.size(), 2u);
    EXPECT_EQ(keys[1].value, 4.5f);
    EXPECT_EQ(m.marks.size(), version == 7 ? 1u : 0u);
    if (version == 7) {
      EXPECT_EQ(m.marks[0].name, "Left foot");
      ASSERT_EQ(m.marks[0].intervals.size(), 1u);
      EXPECT_EQ(m.marks[0].intervals[0].end, 0.4f);
    }
    EXPECT_EQ(write_skl(f.value()), file) << "v" << version;
    const Diagnostics d = validate_skl(f.value());
    EXPECT_FALSE(d.has_errors()) << d.findings().front().message;
  }
}

TEST(SklReader, ASklIsTheFirstMotionChunkAndKeepsEverythingElse) {
  auto file = chunk_of(kChunkSkeletonMotion, motion_body(6));
  file.push_back(0xAB);  // a byte after the motion, inside its chunk
  file[4] += 1;
  const auto other = chunk_of(0x42, {1, 2, 3});
  file.insert(file.end(), other.begin(), other.end());
  file.push_back(7);  // trailing byte
  auto f = read_bytes(read_skl, file);
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->container, SklContainer::skl);
  EXPECT_EQ(f->tail.size(), 1u);
  EXPECT_EQ(write_skl(f.value()), file);
  const Diagnostics d = validate_skl(f.value());
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.count(Severity::warning), 2u);  // the byte after the motion, the trailing byte
  EXPECT_EQ(d.count(Severity::info), 1u);     // chunk 0x42 (the motion's own info aside)
}

// Bit 31: read as stored, as the engine does; only a payload that is no motion but unpacks to one
// is read unpacked (blender-xray's reading), with an error. Both rewrite byte for byte, and an
// edit of the unpacked one is packed again.
TEST(SklReader, Bit31IsReadAsTheEngineReadsIt) {
  const auto body = motion_body(7);
  auto plain = chunk_of(kChunkSkeletonMotion | kChunkCompressBit, body);
  auto f = read_bytes(read_skl, plain);
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->motion_unpacked.has_value());
  EXPECT_EQ(write_skl(f.value()), plain);
  Diagnostics d = validate_skl(f.value());
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.findings().front().severity, Severity::warning);

  const auto packed = chunk_of(kChunkSkeletonMotion | kChunkCompressBit, lzhuf_encode(body));
  auto g = read_bytes(read_skl, packed);
  ASSERT_TRUE(g.ok()) << g.error().message;
  ASSERT_TRUE(g->motion_unpacked.has_value());
  EXPECT_EQ(g->motions[0].name, "idle");
  EXPECT_EQ(write_skl(g.value()), packed);
  d = validate_skl(g.value());
  ASSERT_TRUE(d.has_errors());
  EXPECT_NE(d.findings().front().message.find("would not load"), std::string::npos);
  g->motions[0].name = "walk";
  auto edited = read_bytes(read_skl, write_skl(g.value()));
  ASSERT_TRUE(edited.ok());
  EXPECT_TRUE(edited->motion_unpacked.has_value());
  EXPECT_EQ(edited->motions[0].name, "walk");
}

TEST(SklReader, AbsurdCountsFailBeforeAllocating) {
  std::vector<std::uint8_t> motions = {0xFF, 0xFF, 0xFF, 0xFF};
  auto f = read_bytes(read_skls, motions);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().message.find("count past the data"), std::string::npos);
  auto body = motion_body(5);
  // v5's u32 bone count at: name 5 + frames/fps 12 + version 2 + flags 4 + part 4 + params 16.
  const std::size_t count_at = 5 + 12 + 2 + 8 + 16;
  std::memset(body.data() + count_at, 0xFF, 4);
  auto g = read_bytes(read_skls, skls_of({body}));
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().path, "motion 0 bones");
  EXPECT_EQ(g.error().offset, 4 + count_at + 4);
}

TEST(SklReader, EveryTruncationIsAnErrorNeverACrash) {
  for (std::uint16_t version : {std::uint16_t{4}, std::uint16_t{5}, std::uint16_t{6}, std::uint16_t{7}}) {
    const auto file = skls_of({motion_body(version)});
    for (std::size_t n = 0; n < file.size(); ++n) {
      const std::vector<std::uint8_t> cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(n));
      auto f = read_bytes(read_skls, cut);
      EXPECT_FALSE(f.ok()) << "v" << version << " cut at " << n;
      auto chunk = chunk_of(kChunkSkeletonMotion, std::vector<std::uint8_t>(file.begin() + 4, file.end()));
      chunk.resize(std::min(chunk.size(), n));
      auto g = read_bytes(read_skl, chunk);
      EXPECT_FALSE(g.ok());
    }
  }
}

TEST(SklReader, UnknownVersionsAreRefusedByName) {
  auto body = motion_body(6);
  body[5 + 12] = 8;
  auto f = read_bytes(read_skls, skls_of({body}));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message, "unsupported motion version");
  EXPECT_EQ(f.error().path, "motion 0 version");
  EXPECT_EQ(f.error().offset, 4u + 5 + 12);
  EXPECT_EQ(f.error().found, "8");
}

TEST(SklValidator, FindsWhatTheEngineWouldMisread) {
  auto body = motion_body(7);
  // NaN as the fps, a negative speed, post-behaviour 9 on bone 0's x.
  const std::size_t fps_at = 5 + 8;
  const float nan = std::nanf("");
  std::memcpy(body.data() + fps_at, &nan, 4);
  const std::size_t speed_at = 5 + 12 + 2 + 3;
  const float negative = -1.0f;
  std::memcpy(body.data() + speed_at, &negative, 4);
  const std::size_t bone0 = speed_at + 16 + 2;
  const std::size_t post_at = bone0 + 6 + 1 + 1;  // "bip01\0", flags, pre
  body[post_at] = 9;
  const auto file = skls_of({body});
  auto f = read_bytes(read_skls, file);
  ASSERT_TRUE(f.ok());
  const Diagnostics d = validate_skl(f.value());
  auto has = [&](std::string_view path, std::uint64_t offset) {
    for (const auto& x : d.findings())
      if (x.severity == Severity::error && x.path == path && x.offset == offset) return true;
    return false;
  };
  EXPECT_TRUE(has("motion 0 \"idle\" fps", 4 + fps_at));
  EXPECT_TRUE(has("motion 0 \"idle\" speed", 4 + speed_at));
  EXPECT_TRUE(has("motion 0 \"idle\" bone 0 \"bip01\" x post-behaviour", 4 + post_at));
  EXPECT_EQ(write_skl(f.value()), file);  // still rewritten as it was
}

TEST(SklReport, DumpAndInfoNameWhatIsStored) {
  auto f = read_bytes(read_skls, skls_of({motion_body(7)}));
  ASSERT_TRUE(f.ok());
  JsonWriter json;
  dump_skl(json, f.value(), true);
  const std::string& s = json.str();
  EXPECT_NE(s.find("\"format\":\"skls\""), std::string::npos);
  EXPECT_NE(s.find("\"name\":\"bip01_spine\""), std::string::npos);
  EXPECT_NE(s.find("\"shape\":\"tcb\""), std::string::npos);
  EXPECT_NE(s.find("\"q16\":[32768,"), std::string::npos);
  EXPECT_NE(s.find("\"marks\":[{\"name\":\"Left foot\",\"intervals\":[[0.1,0.4]]}]"), std::string::npos);
  const std::string info = describe_skl(f.value());
  EXPECT_NE(info.find("24 keys: 12 tcb, 12 stepped"), std::string::npos) << info;
  EXPECT_NE(info.find("Left foot 0.1-0.4s"), std::string::npos) << info;
  EXPECT_EQ(sniff_skls(skls_of({motion_body(6)}), ".skls"), 90);
  EXPECT_GT(sniff_skl(chunk_of(kChunkSkeletonMotion, motion_body(6)), ".bin"), 0);
  EXPECT_EQ(sniff_skls(std::vector<std::uint8_t>{0x0E, 0, 0, 0, 0x20, 0, 0, 0}, ".omf"), 0);
}

TEST(AnmReader, ReadsEveryVersionWithV4sSwappedRotation) {
  for (std::uint16_t version : {std::uint16_t{3}, std::uint16_t{4}, std::uint16_t{5}}) {
    const auto file = chunk_of(kChunkObjectMotion, anm_body(version));
    auto f = read_bytes(read_anm, file);
    ASSERT_TRUE(f.ok()) << "v" << version << ": " << f.error().message;
    EXPECT_EQ(f->motion.version, version);
    EXPECT_EQ(f->motion.envelope_layout(), version == 3 ? EnvelopeLayout::v1 : EnvelopeLayout::v2);
    for (std::size_t c = 0; c < kMotionChannels; ++c) {
      const auto keys = decode_envelope_keys(f->motion.channel(static_cast<MotionChannel>(c)));
      ASSERT_EQ(keys.size(), 2u);
      EXPECT_EQ(keys[0].value, float(c + 1)) << "v" << version << " channel " << c;
    }
    EXPECT_EQ(write_anm(f.value()), file);
    EXPECT_FALSE(validate_anm(f.value()).has_errors());
    JsonWriter json;
    dump_anm(json, f.value(), false);
    EXPECT_NE(json.str().find("\"h\":{\"pre\":\"constant\",\"post\":\"constant\",\"keys\":[{\"time\":0,\"value\":4,"),
              std::string::npos)
        << json.str();
  }
}

TEST(AnmReader, EveryTruncationIsAnErrorNeverACrash) {
  for (std::uint16_t version : {std::uint16_t{3}, std::uint16_t{4}, std::uint16_t{5}}) {
    const auto file = chunk_of(kChunkObjectMotion, anm_body(version));
    for (std::size_t n = 0; n < file.size(); ++n) {
      const std::vector<std::uint8_t> cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(n));
      EXPECT_FALSE(read_bytes(read_anm, cut).ok()) << "v" << version << " cut at " << n;
    }
  }
}

TEST(AnmValidator, NanTimesAndUnorderedKeysAreErrorsWithPlaces) {
  std::vector<std::uint8_t> body;
  ByteWriter w(body);
  w.stringz("cam");
  w.s32(0);
  w.s32(10);
  w.f32(30.0f);
  w.u16(5);
  put_envelope(w, EnvelopeLayout::v2, 1, 1, {{0.0f, 1.0f}, {std::nanf(""), 2.0f}}, EnvelopeShape::tcb);
  for (int c = 1; c < 6; ++c) put_envelope(w, EnvelopeLayout::v2, 1, 7, {{1.0f, 0.0f}, {0.5f, 0.0f}}, EnvelopeShape::tcb);
  auto f = read_bytes(read_anm, chunk_of(kChunkObjectMotion, body));
  ASSERT_TRUE(f.ok());
  const Diagnostics d = validate_anm(f.value());
  std::size_t errors = 0;
  for (const auto& x : d.findings()) {
    if (x.severity != Severity::error) continue;
    ++errors;
    if (x.message.find("not a finite") != std::string::npos) {
      EXPECT_EQ(x.path, "0x1100 x");
      EXPECT_EQ(x.offset, 8u + 4 + 12 + 2 + 4 + 23 + 4);
    }
    if (x.message.find("out of time order") != std::string::npos) {
      EXPECT_EQ(x.path, "0x1100 y");
      EXPECT_NE(x.message.find("(and 4 more in this motion)"), std::string::npos);
    }
  }
  EXPECT_EQ(errors, 3u);  // NaN time, order, post-behaviour 7
}

}  // namespace
}  // namespace boneyard::xray
