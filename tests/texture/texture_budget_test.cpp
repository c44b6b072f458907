// The decoded-size budget (kMaxTexturePixels, limits.h) on every image path: PNG, DDS and CTXR
// decoding, the encoders, the ctXr chunk bounded by its CTXR header, PNG chunk lengths and the
// chunks libpng skips, and DecodeBudget (docs/safety.md "Memory").
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "boneyard/core/crc32.h"
#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/texture_convert.h"
#include "dds_fixture.h"

namespace boneyard::test {
namespace {

using namespace texture;

bool has(const Diagnostics& d, Severity s, const std::string& text) {
  return std::any_of(d.findings().begin(), d.findings().end(),
                     [&](const Finding& f) { return f.severity == s && f.message.find(text) != std::string::npos; });
}

void put_be32(std::vector<std::uint8_t>& o, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) o.push_back(std::uint8_t(v >> s));
}

std::vector<std::uint8_t> deflate(const std::vector<std::uint8_t>& raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::uint8_t> out(size);
  EXPECT_EQ(compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 9), Z_OK);
  out.resize(size);
  return out;
}

void chunk(std::vector<std::uint8_t>& png, const char* type, const std::vector<std::uint8_t>& body,
           std::optional<std::uint32_t> length = std::nullopt) {
  put_be32(png, length.value_or(static_cast<std::uint32_t>(body.size())));
  std::vector<std::uint8_t> typed(type, type + 4);
  typed.insert(typed.end(), body.begin(), body.end());
  png.insert(png.end(), typed.begin(), typed.end());
  put_be32(png, crc32(typed));
}

// A 1-bit grey PNG of zeros, `w` x `h`: a few kilobytes that zlib could really fill (the 1032:1
// check lets it through), so only the pixel budget stands in its way. `extra` chunks go before IDAT.
std::vector<std::uint8_t> gray1_png(std::uint32_t w, std::uint32_t h,
                                    const std::vector<std::pair<const char*, std::vector<std::uint8_t>>>& extra = {}) {
  std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  std::vector<std::uint8_t> ihdr;
  put_be32(ihdr, w);
  put_be32(ihdr, h);
  ihdr.insert(ihdr.end(), {1, 0, 0, 0, 0});
  chunk(png, "IHDR", ihdr);
  for (const auto& [type, body] : extra) chunk(png, type, body);
  chunk(png, "IDAT", deflate(std::vector<std::uint8_t>(std::size_t{1 + (w + 7) / 8} * h, 0)));
  chunk(png, "IEND", {});
  return png;
}

TEST(TextureBudget, PixelsAtTheLimitPassOnePastFails) {
  EXPECT_EQ(kMaxTexturePixels, 8192u * 8192u);
  EXPECT_EQ(kMaxTextureBytes, 256u << 20);
  EXPECT_TRUE(check_decoded_pixels(8192, 8192, 0, {}));
  EXPECT_TRUE(check_decoded_pixels(16384, 4096, 0, {}));
  EXPECT_TRUE(check_decoded_pixels(0, 0xFFFFFFFF, 0, {}));
  const auto past = check_decoded_pixels(8193, 8192, 12, "level 0");
  ASSERT_FALSE(past);
  EXPECT_EQ(past.error().offset, 12u);
  EXPECT_EQ(past.error().path, "level 0");
  EXPECT_EQ(past.error().message, "too many pixels to decode");
  EXPECT_EQ(past.error().expected, "at most 67108864 pixels (8192x8192, 256 MiB as RGBA)");
  EXPECT_EQ(past.error().found, "8193x8192 = 67117056 pixels");
  EXPECT_FALSE(check_decoded_pixels(16384, 4097, 0, {}));
  EXPECT_FALSE(check_decoded_pixels(0xFFFFFFFF, 0xFFFFFFFF, 0, {}));  // no overflow
}

TEST(TextureBudget, PngPastTheBudgetIsRefusedFromItsHeader) {
  // 16384x16384 at 1 bit fits in ~33 KB of zlib: the 1032:1 check alone let it decode to 1 GiB.
  auto r = read_png(gray1_png(16384, 16384));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "too many pixels to decode");
  EXPECT_EQ(r.error().offset, 16u);
  EXPECT_EQ(r.error().path, "IHDR");
  r = read_png(gray1_png(8193, 8192));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().found, "8193x8192 = 67117056 pixels");
  // Exactly at the limit: read (256 MiB of RGBA).
  auto at = read_png(gray1_png(16384, 4096));
  ASSERT_TRUE(at) << at.error().message;
  EXPECT_EQ(at->image.rgba.size(), kMaxTextureBytes);
  EXPECT_EQ(at->image.rgba[kMaxTextureBytes - 1], 255);
}

TEST(TextureBudget, PngChunksThatClaimMoreThanTheFileAreErrors) {
  auto png = gray1_png(2, 2);
  const std::size_t iend = png.size() - 12;
  std::vector<std::uint8_t> claim(png.begin(), png.begin() + 33);  // signature + IHDR
  put_be32(claim, 0x7FFFFFF0);
  claim.insert(claim.end(), {'t', 'E', 'X', 't', 'a', 0, 'b', 'c', 'd', 'e', 'f'});
  auto r = read_png(claim);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, 33u);
  EXPECT_EQ(r.error().path, "tEXt");
  EXPECT_EQ(r.error().message, "chunk runs past the end of the file (truncated file)");
  EXPECT_EQ(r.error().expected, "at most 3 bytes");
  EXPECT_EQ(r.error().found, "2147483632 bytes");
  // A chunk header cut short, after IDAT: also before libpng reads anything.
  std::vector<std::uint8_t> cut(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(iend) + 5);
  r = read_png(cut);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, iend);
  EXPECT_EQ(r.error().message, "truncated chunk (truncated file)");
  // Bytes after IEND are not chunks.
  png.insert(png.end(), {0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
  EXPECT_TRUE(read_png(png));
}

TEST(TextureBudget, PngChunksBoneyardDoesNotReadAreSkipped) {
  // Text and a profile that inflate to 64 MiB each: skipped unread (libpng would inflate them).
  std::vector<std::uint8_t> ztxt = {'k', 0, 0}, iccp = {'p', 0, 0};
  const auto bomb = deflate(std::vector<std::uint8_t>(64u << 20, 0));
  ztxt.insert(ztxt.end(), bomb.begin(), bomb.end());
  iccp.insert(iccp.end(), bomb.begin(), bomb.end());
  std::vector<std::pair<const char*, std::vector<std::uint8_t>>> extra = {{"zTXt", ztxt}, {"iCCP", iccp}};
  for (int i = 0; i < 100; ++i) extra.push_back({"tEXt", {'k', 0, 'v'}});
  // More ctXr chunks than anyone needs: the first kPngChunkCacheMax are handed back.
  for (int i = 0; i < 40; ++i) extra.push_back({"ctXr", {1, 2, 3}});
  extra.push_back({"prVt", std::vector<std::uint8_t>(1000, 7)});  // unknown, ancillary: dropped
  auto r = read_png(gray1_png(4, 4, extra));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image.width, 4u);
  EXPECT_EQ(r->chunks.size(), kPngChunkCacheMax);
  // An unknown critical chunk still fails the file, as PNG requires.
  r = read_png(gray1_png(4, 4, {{"PRVT", {1, 2, 3}}}));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("unhandled critical chunk"), std::string::npos) << r.error().message;
}

TEST(TextureBudget, DdsAndCtxrLevelsPastTheBudgetAreNotDecoded) {
  DdsSpec s;
  s.data = dxt1_block(0, 0, 0);
  auto dds = read_dds(FileData::from_vector(dds_bytes(s)));
  ASSERT_TRUE(dds);
  DdsFile big = dds.value();
  big.levels[0].width = 8196, big.levels[0].height = 8192;  // as a 33 MB file would say
  auto r = decode_dds(big);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "too many pixels to decode");
  EXPECT_EQ(r.error().offset, 12u);
  EXPECT_EQ(r.error().path, "level 0");
  EXPECT_FALSE(check_decodable(big));
  EXPECT_TRUE(check_decodable(dds.value()));
  // validate says it of the header (a warning: the file is fine, boneyard does not decode it).
  s.width = s.height = 16384;
  s.data.clear();
  auto header_only = read_dds(FileData::from_vector(dds_bytes(s)));
  ASSERT_TRUE(header_only);
  EXPECT_TRUE(has(validate_dds(header_only.value()), Severity::warning, "too many pixels to decode"));

  auto c = read_ctxr(FileData::from_vector(ctxr_bytes(4, 4, 1, {{1, 2, 3, 4}})));
  ASSERT_TRUE(c);
  CtxrFile cbig = c.value();
  cbig.levels[0].width = 16384, cbig.levels[0].height = 8192;
  auto cr = decode_ctxr(cbig);
  ASSERT_FALSE(cr);
  EXPECT_EQ(cr.error().message, "too many pixels to decode");
  EXPECT_EQ(cr.error().offset, 8u);
  auto ch = ctxr_bytes(4, 4, 1, {{1, 2, 3, 4}});
  ch[8] = 0x40, ch[9] = 0, ch[10] = 0x40, ch[11] = 0;  // 16384x16384, level 0 then truncated
  auto cfile = read_ctxr(FileData::from_vector(ch));
  ASSERT_TRUE(cfile);
  EXPECT_TRUE(has(validate_ctxr(cfile.value()), Severity::warning, "too many pixels to decode"));
}

TEST(TextureBudget, EncodersRefuseImagesPastTheBudgetBeforeTouchingPixels) {
  const Image past{8193, 8192, {}};  // no pixels: the size alone is refused
  auto d = build_dds(past);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message, "too many pixels to decode");
  auto c = build_ctxr(past, {});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message, "too many pixels to decode");
}

// The levels a CTXR or DDS is made of, without copies, are the ones next_mip gives.
TEST(TextureBudget, EncodedMipChainsAreTheFilterOfTheLevelAbove) {
  Image im{6, 5, {}};
  for (std::size_t i = 0; i < 6 * 5 * 4; ++i) im.rgba.push_back(std::uint8_t(i * 37 + 11));
  auto bytes = build_ctxr(im, {});
  ASSERT_TRUE(bytes);
  auto c = read_ctxr(FileData::from_vector(bytes.value()));
  ASSERT_TRUE(c);
  ASSERT_EQ(c->levels.size(), 3u);
  EXPECT_TRUE(validate_ctxr(c.value()).findings().empty());
  Image level = im;
  for (unsigned l = 0; l < 3; ++l) {
    if (l > 0) level = next_mip(level);
    EXPECT_EQ(decode_ctxr(c.value(), l).value().rgba, level.rgba) << "level " << l;
  }
  auto rgba = build_dds(im, DdsBuildOptions{DdsOutputFormat::rgba, true});
  ASSERT_TRUE(rgba);
  auto dds = read_dds(FileData::from_vector(rgba.value()));
  ASSERT_TRUE(dds);
  level = im;
  for (unsigned l = 0; l < 3; ++l) {
    if (l > 0) level = next_mip(level);
    EXPECT_EQ(decode_dds(dds.value(), 0, l).value().rgba, level.rgba) << "level " << l;
  }
}

// A ctXr chunk as boneyard writes it, for a 4x4 one-level CTXR of `bgra` pixels; `rest` replaces
// what follows the header and size field when given, `total` the length it claims.
struct Forged {
  std::vector<std::uint8_t> file;  // the CTXR
  PngChunk chunk;
};
Forged forge(std::optional<std::vector<std::uint8_t>> rest = std::nullopt, std::optional<std::uint32_t> total = std::nullopt) {
  Forged f;
  f.file = ctxr_bytes(4, 4, 1, {{9, 8, 7, 255}});
  std::vector<std::uint8_t> all(f.file.begin(), f.file.begin() + 132);
  if (rest) all.insert(all.end(), rest->begin(), rest->end());
  else all.insert(all.end(), f.file.begin() + 132 + 64, f.file.end());
  f.chunk.type = {'c', 't', 'X', 'r'};
  f.chunk.data.push_back(1);
  put_be32(f.chunk.data, crc32(Bytes(f.file.data() + 132, 64)));
  put_be32(f.chunk.data, 132);
  put_be32(f.chunk.data, total.value_or(static_cast<std::uint32_t>(all.size())));
  const auto packed = deflate(all);
  f.chunk.data.insert(f.chunk.data.end(), packed.begin(), packed.end());
  return f;
}

Image image_of(const std::vector<std::uint8_t>& ctxr) { return decode_ctxr(read_ctxr(FileData::from_vector(ctxr)).value()).value(); }

TEST(TextureBudget, CtxrChunkIsBoundedByItsCtxrHeader) {
  // The honest chunk rebuilds the file.
  Forged ok = forge();
  Diagnostics notes;
  auto exact = build_ctxr(image_of(ok.file), {ok.chunk}, {}, &notes);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact.value(), ok.file);
  EXPECT_TRUE(has(notes, Severity::info, "byte for byte"));
  // 16 MiB of zeros after the levels: more than the 4x4 header describes (160 bytes) + 64 KiB.
  std::vector<std::uint8_t> rest(ok.file.begin() + 132 + 64, ok.file.end());
  rest.resize(rest.size() + (16u << 20), 0);
  Forged big = forge(rest);
  notes = {};
  auto fresh = build_ctxr(image_of(big.file), {big.chunk}, {}, &notes);
  ASSERT_TRUE(fresh);
  EXPECT_NE(fresh.value(), big.file);
  EXPECT_TRUE(has(notes, Severity::warning, "more than the 4x4, 1-level CTXR its header describes takes (at most 65696)"));
  // Up to the slack it is kept (bytes a file has after its last level).
  rest.resize(28 + 65536);
  Forged tail = forge(rest);
  tail.file.insert(tail.file.end(), 65536, 0);
  notes = {};
  auto kept = build_ctxr(image_of(tail.file), {tail.chunk}, {}, &notes);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept.value(), tail.file);
  // Data past the claim, data short of it.
  Forged past = forge(std::vector<std::uint8_t>(1000, 0), 160);
  notes = {};
  ASSERT_TRUE(build_ctxr(image_of(ok.file), {past.chunk}, {}, &notes));
  EXPECT_TRUE(has(notes, Severity::warning, "inflates past the 160 bytes it claims"));
  Forged short_of = forge(std::nullopt, 1000);
  notes = {};
  ASSERT_TRUE(build_ctxr(image_of(ok.file), {short_of.chunk}, {}, &notes));
  EXPECT_TRUE(has(notes, Severity::warning, "ends before the 1000 bytes it claims"));
  // No CTXR header in it.
  Forged none = forge();
  none.chunk.data[13] ^= 0xFF;  // the zlib stream's first byte
  notes = {};
  ASSERT_TRUE(build_ctxr(image_of(ok.file), {none.chunk}, {}, &notes));
  EXPECT_TRUE(has(notes, Severity::warning, "ctXr chunk is not used"));
}

TEST(TextureBudget, TextureDecodedBytesFromTheHeaderAlone) {
  DdsSpec s;
  s.width = 8192, s.height = 4096;
  EXPECT_EQ(texture_decoded_bytes(dds_bytes(s), ".dds"), 8192u * 4096 * 4);
  EXPECT_EQ(texture_decoded_bytes(ctxr_bytes(16, 8, 1, {{1, 2, 3, 4}}), ".ctxr"), 16u * 8 * 4);
  EXPECT_EQ(texture_decoded_bytes(gray1_png(16384, 16384), ".png"), std::uint64_t{16384} * 16384 * 4);
  s.width = 65535;
  EXPECT_EQ(texture_decoded_bytes(dds_bytes(s), ".dds"), 0u);  // refused before decoding
  EXPECT_EQ(texture_decoded_bytes(std::vector<std::uint8_t>{1, 2, 3}, ".dds"), 0u);
}

TEST(TextureBudget, DecodeBudgetWaitsForRoom) {
  DecodeBudget budget(100);
  std::atomic<int> stage{0};
  std::optional<DecodeBudget::Hold> first(budget.acquire(60));
  std::thread other([&] {
    stage = 1;
    auto hold = budget.acquire(60);  // 120 > 100: waits for the first
    stage = 2;
  });
  while (stage == 0) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(stage.load(), 1);
  first.reset();
  other.join();
  EXPECT_EQ(stage.load(), 2);
  // A request larger than the whole budget is served when nothing else is held.
  auto huge = budget.acquire(1000);
  auto small = std::thread([&] { auto h = budget.acquire(0); });  // nothing asked: never waits
  small.join();
}

}  // namespace
}  // namespace boneyard::test
