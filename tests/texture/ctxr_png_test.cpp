// CTXR (hand-built like the Master Collection files SeaLouse and CtxrTool read) and PNG: reading,
// byte-exact rewrites, the .ctxr -> PNG -> .ctxr round trip, and PNG headers that lie.
#include <gtest/gtest.h>

#include <algorithm>

#include "boneyard/core/crc32.h"
#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/ctxr/ctxr_report.h"
#include "boneyard/texture/texture_convert.h"
#include "dds_fixture.h"

namespace boneyard::test {
namespace {

using namespace texture;

bool has(const Diagnostics& d, Severity s, const std::string& text) {
  return std::any_of(d.findings().begin(), d.findings().end(),
                     [&](const Finding& f) { return f.severity == s && f.message.find(text) != std::string::npos; });
}

CtxrFile read_ok(const std::vector<std::uint8_t>& bytes, Diagnostics* notes = nullptr) {
  auto c = read_ctxr(FileData::from_vector(bytes), notes);
  EXPECT_TRUE(c) << (c ? "" : c.error().message);
  return c ? std::move(c).value() : CtxrFile{};
}

const std::vector<std::array<std::uint8_t, 4>> kFill = {{10, 20, 30, 255}, {1, 2, 3, 4}, {5, 6, 7, 8}, {9, 9, 9, 9}};

TEST(Ctxr, ReadsTheToolsLayout) {
  const auto bytes = ctxr_bytes(8, 4, 4, kFill);
  Diagnostics notes;
  const CtxrFile c = read_ok(bytes, &notes);
  EXPECT_EQ(notes.findings().size(), 0u);
  EXPECT_EQ(c.header.version, 7u);
  EXPECT_EQ(c.header.width, 8);
  EXPECT_EQ(c.header.field_12, 0x100);
  ASSERT_EQ(c.levels.size(), 4u);
  EXPECT_EQ(c.levels[0].offset, 0x80u);
  EXPECT_EQ(c.levels[0].stored_size, 128u);
  EXPECT_EQ(c.levels[0].pad.size(), 28u);  // 0x80 + 4 + 128 = 0x104 -> 0x120
  EXPECT_EQ(c.levels[1].offset, 0x120u);
  EXPECT_EQ(c.levels[3].width, 1u);
  EXPECT_EQ(write_ctxr(c), bytes);
  EXPECT_EQ(validate_ctxr(c).findings().size(), 0u);
  auto im = decode_ctxr(c);
  ASSERT_TRUE(im);
  EXPECT_EQ((std::vector<int>{im->rgba[0], im->rgba[1], im->rgba[2], im->rgba[3]}), (std::vector<int>{30, 20, 10, 255}));
  auto l1 = decode_ctxr(c, 1);
  ASSERT_TRUE(l1);
  EXPECT_EQ(l1->width, 4u);
  EXPECT_EQ(l1->rgba[0], 3);  // BGRA 1 2 3 4 -> RGBA 3 2 1 4
  EXPECT_NE(describe_ctxr(c).find("mip levels: 4 declared, 4 stored"), std::string::npos);
}

TEST(Ctxr, BrokenLevelsAreFindings) {
  auto bytes = ctxr_bytes(8, 4, 2, kFill);
  bytes[0x83] = 0x7F;  // level 0 claims 127 bytes instead of 128
  Diagnostics notes;
  CtxrFile c = read_ok(bytes, &notes);
  ASSERT_TRUE(has(notes, Severity::error, "level size is not BGRA8"));
  EXPECT_EQ(notes.findings()[0].offset, 0x80u);
  EXPECT_EQ(notes.findings()[0].found, "127");
  EXPECT_FALSE(decode_ctxr(c));
  EXPECT_EQ(write_ctxr(c), bytes);
  // A size no file holds: truncated, never allocated.
  bytes = ctxr_bytes(8, 4, 2, kFill);
  bytes[0x80] = 0xFF, bytes[0x81] = 0xFF, bytes[0x82] = 0xFF, bytes[0x83] = 0xFF;
  notes = {};
  c = read_ok(bytes, &notes);
  EXPECT_TRUE(has(notes, Severity::error, "truncated level"));
  EXPECT_TRUE(c.levels.empty());
  EXPECT_EQ(write_ctxr(c), bytes);
  // Fewer levels than declared, trailing bytes, absurd sizes.
  bytes = ctxr_bytes(8, 4, 2, kFill);
  bytes[0x26] = 5;
  notes = {};
  read_ok(bytes, &notes);
  EXPECT_TRUE(has(notes, Severity::error, "more mip levels than the size allows"));
  EXPECT_TRUE(has(notes, Severity::error, "mip chain shorter than declared"));
  bytes = ctxr_bytes(8, 4, 1, kFill);
  bytes.insert(bytes.end(), {1, 2, 3});
  notes = {};
  EXPECT_EQ(write_ctxr(read_ok(bytes, &notes)), bytes);
  EXPECT_TRUE(has(notes, Severity::warning, "bytes after the last level"));
  bytes = ctxr_bytes(8, 4, 1, kFill);
  bytes[8] = 0xFF, bytes[9] = 0xFF;  // width 65535
  auto bad = read_ctxr(FileData::from_vector(bytes));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("larger than Direct3D allows"), std::string::npos);
  bytes.resize(100);
  bad = read_ctxr(FileData::from_vector(bytes));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "truncated");
}

TEST(Ctxr, UneditedPngComesBackByteForByte) {
  auto bytes = ctxr_bytes(8, 4, 4, kFill);
  bytes[0x15] = 0x42;                  // header bytes no tool explains
  bytes.push_back(0xEE);               // and a trailing byte
  const CtxrFile c = read_ok(bytes);
  PngWriteOptions o;
  o.chunks = {ctxr_png_chunk(c)};
  const auto png = encode_png(decode_ctxr(c).value(), o).value();
  auto read = read_png(png);
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->chunks.size(), 1u);
  Diagnostics notes;
  auto rebuilt = build_ctxr(read->image, read->chunks, {}, &notes);
  ASSERT_TRUE(rebuilt);
  EXPECT_EQ(rebuilt.value(), bytes);
  EXPECT_TRUE(has(notes, Severity::info, "byte for byte"));
  // An edited pixel: the header's own bytes stay, the levels are made anew (full chain).
  Image edited = read->image;
  edited.rgba[0] = 0;
  notes = {};
  auto fresh = build_ctxr(edited, read->chunks, {}, &notes);
  ASSERT_TRUE(fresh);
  EXPECT_TRUE(has(notes, Severity::info, "levels made anew"));
  const CtxrFile f = read_ok(fresh.value());
  EXPECT_EQ(f.header.params[1], 0x42);
  EXPECT_EQ(f.levels.size(), 4u);
  EXPECT_EQ(decode_ctxr(f).value().rgba, edited.rgba);
  EXPECT_TRUE(f.tail.empty());
  // No chunk: the tools' defaults; --no-mips: one level.
  auto plain = build_ctxr(edited, {}, CtxrBuildOptions{false});
  const CtxrFile p = read_ok(plain.value());
  EXPECT_EQ(p.header.version, 7u);
  EXPECT_EQ(p.header.params[3], 0xFF);
  EXPECT_EQ(p.header.params[12], 0xFF);
  EXPECT_EQ(p.header.params[13], 0);
  EXPECT_EQ(p.levels.size(), 1u);
  EXPECT_EQ(validate_ctxr(p).findings().size(), 0u);
}

TEST(Png, RoundTripsRgbAndRgbaAndKeepsOurChunk) {
  Image rgba{3, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}};
  auto png = read_png(encode_png(rgba).value());
  ASSERT_TRUE(png);
  EXPECT_EQ(png->color_type, 6);
  EXPECT_EQ(png->image.rgba, rgba.rgba);
  Image rgb = rgba;
  for (std::size_t i = 3; i < rgb.rgba.size(); i += 4) rgb.rgba[i] = 255;
  png = read_png(encode_png(rgb).value());
  ASSERT_TRUE(png);
  EXPECT_EQ(png->color_type, 2);  // opaque: written as RGB
  EXPECT_EQ(png->image.rgba, rgb.rgba);
  EXPECT_EQ(alpha_kind(rgb), AlphaKind::opaque);
  EXPECT_EQ(alpha_kind(rgba), AlphaKind::graded);
}

// A 1x1 PNG whose IHDR then claims `w` x `h` (its CRC fixed, so only the size lies).
std::vector<std::uint8_t> lying_png(std::uint32_t w, std::uint32_t h) {
  Image one{1, 1, {1, 2, 3, 255}};
  auto png = encode_png(one).value();
  for (int i = 0; i < 4; ++i) {
    png[16 + i] = std::uint8_t(w >> (24 - 8 * i));
    png[20 + i] = std::uint8_t(h >> (24 - 8 * i));
  }
  const std::uint32_t crc = crc32(Bytes(png.data() + 12, 17));
  for (int i = 0; i < 4; ++i) png[29 + i] = std::uint8_t(crc >> (24 - 8 * i));
  return png;
}

TEST(Png, HeadersThatLieAreErrorsBeforeAllocating) {
  auto r = read_png(lying_png(8192, 8192));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "image size larger than the file can hold");
  EXPECT_EQ(r.error().offset, 16u);
  r = read_png(lying_png(kMaxDimension, kMaxDimension));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "too many pixels to decode");
  r = read_png(lying_png(kMaxDimension + 1, 1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "image too large");
  auto cut = encode_png(Image{2, 2, std::vector<std::uint8_t>(16, 7)}).value();
  cut.resize(cut.size() - 20);
  r = read_png(cut);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "chunk runs past the end of the file (truncated file)");
  EXPECT_EQ(r.error().path, "IDAT");
}

TEST(TextureConvert, GameTexturesAsPngForModels) {
  const auto ctxr = ctxr_bytes(4, 4, 1, kFill);
  auto png = texture_as_png(ctxr, ".ctxr");
  ASSERT_TRUE(png) << png.error().message;
  EXPECT_EQ(png->source, TextureKind::ctxr);
  EXPECT_EQ(png->width, 4u);
  EXPECT_EQ(png->alpha, AlphaKind::opaque);
  DdsSpec s;
  s.caps2 = 0xFE00;
  s.data = repeat(dxt1_block(0, 0, 0), 6);
  const auto cube = dds_bytes(s);
  auto refused = texture_as_png(cube, ".dds");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("cube map"), std::string::npos);
  EXPECT_FALSE(texture_as_png(std::vector<std::uint8_t>{1, 2, 3}, ".dds"));
}

}  // namespace
}  // namespace boneyard::test
