// MGS2 .tri: the GS swizzles both ways, fixtures laid out from the notes (tests/support/
// tri_fixture.h) read, decoded, validated and rewritten byte for byte, and edited images
// re-encoded into their entries.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <set>

#include "boneyard/texture/tri/gs_memory.h"
#include "boneyard/texture/tri/tri.h"
#include "boneyard/texture/tri/tri_report.h"
#include "tri_fixture.h"

namespace boneyard::test {
namespace {

using namespace boneyard::texture;
namespace fx = boneyard::test::trifx;

std::shared_ptr<const FileData> data_of(std::vector<std::uint8_t> b) { return FileData::from_vector(std::move(b)); }

TriFile must_read(const std::vector<std::uint8_t>& bytes, Diagnostics* notes = nullptr) {
  auto t = read_tri(data_of(bytes), std::nullopt, notes);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  return std::move(t).value();
}

bool has_finding(const Diagnostics& d, Severity s, const std::string& text) {
  for (const auto& f : d.findings())
    if (f.severity == s && (f.message + " " + f.path + " " + f.expected + " " + f.found).find(text) != std::string::npos) return true;
  return false;
}

std::string all(const Diagnostics& d) {
  std::string s;
  for (const auto& f : d.findings()) s += std::string(severity_name(f.severity)) + " " + f.path + ": " + f.message + " (" + f.expected + " / " + f.found + ")\n";
  return s;
}

// ---- GS memory ----

TEST(GsSwizzle, WriteThenReadIsTheIdentityOnEveryPsm) {
  std::mt19937 rng(7);
  for (std::uint32_t psm : {kPsmct32, kPsmt8, kPsmt4}) {
    const std::uint32_t mask = psm == kPsmct32 ? 0xFFFFFFFFu : psm == kPsmt8 ? 0xFFu : 0xFu;
    // Several bases and widths, rectangles not at the origin and across page borders, each
    // within its buffer's width (a wider one wraps onto the next row of pages, as on the GS).
    for (auto [base, width, x0, y0, w, h] : {std::array<std::uint32_t, 6>{0, 4, 0, 0, 256, 256},
                                              std::array<std::uint32_t, 6>{96, 6, 5, 9, 300, 130},
                                              std::array<std::uint32_t, 6>{1, 2, 0, 0, 64, 70}}) {
      GsMemory mem;
      std::vector<std::uint32_t> values(std::size_t{w} * h);
      for (auto& v : values) v = static_cast<std::uint32_t>(rng()) & mask;
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) ASSERT_TRUE(mem.write(psm, base, width, x0 + x, y0 + y, values[y * w + x]));
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
          const auto v = mem.read(psm, base, width, x0 + x, y0 + y);
          ASSERT_TRUE(v);
          ASSERT_EQ(*v, values[y * w + x]) << psm_name(psm) << " at (" << x0 + x << ", " << y0 + y << ") base " << base;
        }
    }
  }
}

// Every pixel of a page has its own place, and the page's pixels fill its 2048 words exactly.
TEST(GsSwizzle, APageIsABijection) {
  struct Page {
    std::uint32_t psm, w, h;
  };
  for (const Page p : {Page{kPsmct32, 64, 32}, Page{kPsmt8, 128, 64}, Page{kPsmt4, 128, 128}}) {
    std::set<std::pair<std::uint64_t, std::uint32_t>> seen;
    for (std::uint32_t y = 0; y < p.h; ++y)
      for (std::uint32_t x = 0; x < p.w; ++x) {
        const GsTexel t = gs_texel(p.psm, 0, 2, x, y);
        ASSERT_LT(t.word, kGsWordsPerPage);
        ASSERT_TRUE(seen.emplace(t.word, t.shift).second) << psm_name(p.psm) << " (" << x << ", " << y << ")";
      }
    EXPECT_EQ(seen.size(), std::size_t{kGsWordsPerPage} * (32 / (p.psm == kPsmct32 ? 32 : p.psm == kPsmt8 ? 8 : 4)));
  }
}

// The library's tables against the fixture builder's bit formulas, pixel by pixel.
TEST(GsSwizzle, AgreesWithTheFixtureBuildersFormulas) {
  for (std::uint32_t psm : {kPsmct32, kPsmt8, kPsmt4})
    for (std::uint32_t width : {1u, 2u, 4u, 6u})
      for (std::uint32_t y = 0; y < 260; y += 3)
        for (std::uint32_t x = 0; x < 400; x += 1) {
          const GsTexel a = gs_texel(psm, 5, width, x, y);
          const fx::Spot b = fx::spot(psm, 5, width, x, y);
          ASSERT_EQ(a.word, b.word) << psm_name(psm) << " (" << x << ", " << y << ") width " << width;
          ASSERT_EQ(a.shift, b.shift);
          ASSERT_EQ(a.bits, b.bits);
        }
}

TEST(GsSwizzle, RowPixelIsTheInverseOfThePsmct32Swizzle) {
  for (std::uint32_t y = 0; y < 96; ++y)
    for (std::uint32_t x = 0; x < 64; ++x) {
      const GsPixel p = gs_ct32_row_pixel(gs_texel(kPsmct32, 0, 1, x, y).word);
      ASSERT_EQ(p.x, x);
      ASSERT_EQ(p.y, y);
    }
}

TEST(GsSwizzle, ReadAndWritePastTheMemoryFail) {
  GsMemory mem(2048);
  EXPECT_TRUE(mem.write(kPsmt8, 0, 2, 127, 63, 1));
  EXPECT_FALSE(mem.write(kPsmt8, 0, 2, 0, 64, 1));
  EXPECT_FALSE(mem.read(kPsmct32, 32, 1, 0, 0));
}

TEST(GsTex0, FieldsRoundTripAndSplitCsa) {
  GsTex0 t;
  t.tbp0 = 0x3FFF, t.tbw = 2, t.psm = kPsmt4, t.tw = 5, t.th = 10, t.tcc = 1, t.tfx = 2, t.cbp = 0x1234, t.cpsm = 0, t.csm = 0;
  t.csa = 0b10101, t.cld = 4;
  const std::uint64_t raw = encode_tex0(t);
  const GsTex0 u = decode_tex0(raw);
  EXPECT_EQ(encode_tex0(u), raw);
  EXPECT_EQ(u.csax(), 1u);
  EXPECT_EQ(u.csay(), 0b1010u);
  EXPECT_EQ((raw >> 56) & 1, 1u);         // CSAX: bit 56
  EXPECT_EQ((raw >> 57) & 0xF, 0b1010u);  // CSAY: bits 57-60
}

// ---- reading and decoding ----

class TriFixture : public ::testing::TestWithParam<bool> {};

TEST_P(TriFixture, DecodesEveryTextureAsBuilt) {
  const bool mc = GetParam();
  const fx::File f = fx::standard(mc);
  const auto bytes = fx::build(f);
  Diagnostics notes;
  const TriFile t = must_read(bytes, &notes);
  EXPECT_EQ(t.layout, mc ? TriLayout::mc : TriLayout::ps2);
  EXPECT_TRUE(t.layout_tagged);
  ASSERT_EQ(t.entries.size(), f.textures.size());
  for (std::size_t i = 0; i < f.textures.size(); ++i) {
    const fx::Texture& x = f.textures[i];
    const TriEntry& e = t.entries[i];
    EXPECT_EQ(e.offset, 0x20 + i * (mc ? 0xC0 : 0xA0));
    EXPECT_EQ(e.id, x.id);
    EXPECT_EQ(e.tex_type, x.tex_type);
    EXPECT_TRUE(e.tagged());
    const GsTex0 g = e.fields();
    EXPECT_EQ(g.psm, x.psm);
    EXPECT_EQ(g.csa, x.csa);
    auto r = tri_rect(e);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->x, x.x);
    EXPECT_EQ(r->y, x.y);
    EXPECT_EQ(r->width, x.width);
    EXPECT_EQ(r->height, x.height);
    auto im = decode_tri(t, i);
    ASSERT_TRUE(im) << im.error().message;
    EXPECT_EQ(im->width, x.width);
    EXPECT_EQ(im->height, x.height);
    EXPECT_EQ(im->rgba, fx::expected_rgba(x)) << "texture " << i;
    // Scaled alpha: 0x80 -> 255, 0 -> 0, above 0x80 clipped.
    auto scaled = decode_tri(t, i, TriAlpha::scaled);
    ASSERT_TRUE(scaled);
    for (std::size_t p = 0; p < im->rgba.size(); p += 4) {
      ASSERT_EQ(scaled->rgba[p + 3], scale_ps2_alpha(im->rgba[p + 3]));
      ASSERT_EQ(scaled->rgba[p], im->rgba[p]);
    }
  }
  EXPECT_EQ(write_tri(t), bytes);
}

TEST_P(TriFixture, ValidatesWithOnlyTheAlphaAboveTheGsRange) {
  const auto bytes = fx::build(fx::standard(GetParam()));
  const TriFile t = must_read(bytes);
  const Diagnostics d = validate_tri(t);
  EXPECT_EQ(d.count(Severity::error), 0u) << all(d);
  EXPECT_EQ(d.count(Severity::warning), 1u) << all(d);
  EXPECT_TRUE(has_finding(d, Severity::warning, "alpha above 0x80")) << all(d);
  EXPECT_TRUE(has_finding(d, Severity::warning, "up to 0xFF")) << all(d);
  EXPECT_TRUE(has_finding(d, Severity::warning, "texture 0x0A1B2C")) << all(d);
}

TEST_P(TriFixture, ReportsAndSniffs) {
  const auto bytes = fx::build(fx::standard(GetParam()));
  const TriFile t = must_read(bytes);
  const std::string info = describe_tri(t);
  EXPECT_NE(info.find(GetParam() ? "Master Collection layout" : "PS2 layout"), std::string::npos) << info;
  EXPECT_NE(info.find("texture 0xb7e31e: PSMT8 72x32 at (0, 0) of 128x32"), std::string::npos) << info;
  EXPECT_NE(info.find("CSA 5 (CSAX 1, CSAY 2)"), std::string::npos) << info;
  JsonWriter w;
  dump_tri(w, t, true, [](std::uint32_t id) -> const std::string* {
    static const std::string name = "null_msk.bmp";
    return id == 0xB7E31E ? &name : nullptr;
  });
  EXPECT_NE(w.str().find("\"name\":\"null_msk.bmp\""), std::string::npos) << w.str();
  EXPECT_NE(w.str().find("\"csay\":2"), std::string::npos);
  EXPECT_EQ(sniff_tri(bytes, ".tri"), 90);
  EXPECT_EQ(sniff_tri(bytes, ""), 70);
  EXPECT_EQ(sniff_tri(std::vector<std::uint8_t>(64, 0xFF), ""), 0);
}

INSTANTIATE_TEST_SUITE_P(Layouts, TriFixture, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? "MasterCollection" : "Ps2"; });

TEST(Tri, ForcedLayoutAndLayoutByOffsets) {
  auto bytes = fx::build(fx::standard(false));
  // Without the tags, the image block right after 0xA0-byte entries still says PS2.
  for (std::size_t e = 0; e < 4; ++e) bytes[0x20 + e * 0xA0 + 0x20] = 0;
  Diagnostics notes;
  const TriFile t = must_read(bytes, &notes);
  EXPECT_EQ(t.layout, TriLayout::ps2);
  EXPECT_FALSE(t.layout_tagged);
  EXPECT_EQ(notes.count(Severity::warning), 0u) << all(notes);
  auto dec = decode_tri(t, 0);
  ASSERT_TRUE(dec);
  // --layout mc on a PS2 file: read as asked, and said.
  const auto tagged = fx::build(fx::standard(false));
  Diagnostics forced_notes;
  auto forced = read_tri(data_of(tagged), TriLayout::mc, &forced_notes);
  ASSERT_TRUE(forced);
  EXPECT_EQ(forced->layout, TriLayout::mc);
  EXPECT_TRUE(has_finding(forced_notes, Severity::warning, "contradicts the entries' tag")) << all(forced_notes);
}

// ---- findings ----

struct Broken {
  const char* name;
  std::function<void(fx::File&)> change;
  Severity severity;
  const char* text;
};

TEST(Tri, ValidationFindsWhatIsWrongWithEachEntry) {
  const std::vector<Broken> cases = {
      {"psmct16", [](fx::File& f) { f.textures[0].psm = 0x02; }, Severity::error, "PSMCT16"},
      {"tw 11", [](fx::File& f) { f.textures[3].tw = 11; }, Severity::error, "texture larger than the GS allows"},
      {"odd tbw", [](fx::File& f) { f.textures[0].tbw = 3; }, Severity::warning, "even width"},
      {"csa on 8-bit", [](fx::File& f) { f.textures[3].csa = 2; }, Severity::info, "CLUT offset with an 8-bit texture"},
      {"duplicate id", [](fx::File& f) { f.textures[2].id = f.textures[1].id; }, Severity::warning, "another entry has this id"},
      {"id 0", [](fx::File& f) { f.textures[2].id = 0; }, Severity::warning, "not a StrCode24 id"},
      {"past the image block", [](fx::File& f) { f.textures[3].tbp0 = 96; f.textures[3].write_pixels = false; },
       Severity::error, "lies past the image block"},
      {"CLUT past its block", [](fx::File& f) { f.textures[3].cbp = 32; f.textures[3].write_clut = false; },
       Severity::error, "the CLUT lies past the CLUT block"},
      {"zero CLUT", [](fx::File& f) { f.textures[3].cbp = 12; f.textures[3].write_clut = false; }, Severity::warning,
       "every colour of the texture's CLUT is zero"},
      {"past the texture", [](fx::File& f) { f.textures[0].x = 64; f.textures[0].width = 72; f.textures[0].indices = fx::pattern(72, 32, 256, 1); f.textures[0].tw = 7; },
       Severity::warning, "reaches past the 2^TW x 2^TH texture"},
      {"trailing", [](fx::File& f) { f.trailing = {1, 2, 3}; }, Severity::warning, "bytes after the last block"},
      {"gap", [](fx::File& f) { f.gap = std::vector<std::uint8_t>(16, 0xAB); }, Severity::info, "belong to no part"},
  };
  for (const auto& c : cases) {
    fx::File f = fx::standard(false);
    c.change(f);
    const auto bytes = fx::build(f);
    auto t = read_tri(data_of(bytes));
    ASSERT_TRUE(t) << c.name << ": " << t.error().message;
    const Diagnostics d = validate_tri(t.value());
    EXPECT_TRUE(has_finding(d, c.severity, c.text)) << c.name << "\n" << all(d);
    EXPECT_EQ(write_tri(t.value()), bytes) << c.name;
  }
}

TEST(Tri, ClutModesAndScalesOutsideTheTextureAreNotDecoded) {
  auto bytes = fx::build(fx::standard(true));
  const std::size_t tex0 = 0x20 + 0x70;  // entry 0's TEX0 (MC)
  auto with = [&](std::uint64_t bits_set, std::size_t entry_field = 0, float value = 0) {
    auto b = bytes;
    std::uint64_t v;
    std::memcpy(&v, b.data() + tex0, 8);
    v |= bits_set;
    std::memcpy(b.data() + tex0, &v, 8);
    if (entry_field != 0) std::memcpy(b.data() + 0x20 + entry_field, &value, 4);
    return b;
  };
  struct Case {
    std::vector<std::uint8_t> bytes;
    const char* text;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const Case& c : {Case{with(std::uint64_t{2} << 51), "CLUT colours not stored as 32-bit"},
                        Case{with(std::uint64_t{1} << 55), "CSM2"},
                        Case{with(0, 0x08, 2.0f), "sub-rectangle outside the texture"},
                        Case{with(0, 0x04, nan), "sub-rectangle outside the texture"},
                        Case{with(0, 0x0C, -0.5f), "sub-rectangle outside the texture"}}) {
    const TriFile t = must_read(c.bytes);
    EXPECT_TRUE(has_finding(validate_tri(t), Severity::error, c.text)) << c.text;
    auto im = decode_tri(t, 0);
    ASSERT_FALSE(im);
    EXPECT_NE(im.error().message.find(c.text), std::string::npos) << im.error().message;
    EXPECT_NE(im.error().path.find("entry 0 (texture 0xB7E31E)"), std::string::npos) << im.error().path;
    EXPECT_EQ(write_tri(t), c.bytes);
  }
}

TEST(Tri, UnusableHeadersAreOneError) {
  const auto good = fx::build(fx::standard(false));
  auto with_i32 = [&](std::size_t at, std::int32_t v) {
    auto b = good;
    std::memcpy(b.data() + at, &v, 4);
    return b;
  };
  struct Case {
    std::vector<std::uint8_t> bytes;
    std::uint64_t offset;
    const char* text;
  };
  for (const Case& c : {Case{std::vector<std::uint8_t>(good.begin(), good.begin() + 20), 0, "truncated"},
                        Case{with_i32(0x10, -1), 0x10, "negative texture count"},
                        Case{with_i32(0x10, 0x7FFFFFFF), 0x10, "entry table runs past the end"},
                        Case{with_i32(0x08, 0x7FFFFFFF), 0x18, "past the end of the file"},
                        Case{with_i32(0x1C, -5), 0x1C, "negative offset"},
                        Case{std::vector<std::uint8_t>(good.begin(), good.end() - 1), 0x1C, "past the end of the file"}}) {
    auto t = read_tri(data_of(c.bytes));
    ASSERT_FALSE(t) << c.text;
    EXPECT_EQ(t.error().offset, c.offset) << c.text;
    EXPECT_NE(t.error().message.find(c.text), std::string::npos) << t.error().message;
  }
  // Blocks over the entry table: read, an error.
  Diagnostics notes;
  auto t = read_tri(data_of(with_i32(0x1C, 0x20)), std::nullopt, &notes);
  ASSERT_TRUE(t);
  EXPECT_TRUE(has_finding(notes, Severity::error, "overlaps the entry table")) << all(notes);
}

// Rectangles that read the same memory thousands of times over are refused past a budget.
TEST(Tri, OverlappingRectanglesStopAtTheBudget) {
  fx::File f;
  f.image_rows = 32;
  f.clut_rows = 32;
  fx::Texture x;
  x.id = 1, x.psm = fx::kPsmt4, x.tw = 7, x.th = 7, x.width = 128, x.height = 128, x.tbw = 2;
  x.indices = fx::pattern(128, 128, 16, 1);
  x.clut = fx::palette(16, 1);
  f.textures.push_back(x);
  x.write_pixels = x.write_clut = false;
  for (int i = 0; i < 300; ++i) f.textures.push_back(x);  // 301 x 16384 pixels > 2^22 > the budget (2^20)
  const TriFile t = must_read(fx::build(f));
  EXPECT_GT(std::uint64_t{16384} * 301, tri_pixel_budget(t));
  const Diagnostics d = validate_tri(t);
  EXPECT_TRUE(has_finding(d, Severity::error, "16 times over")) << all(d);
}

// ---- PNG chunk, alpha ----

TEST(Tri, AlphaScalingRoundTripsTheGsRange) {
  for (unsigned a = 0; a <= 0x80; ++a) EXPECT_EQ(unscale_ps2_alpha(scale_ps2_alpha(std::uint8_t(a))), a);
  EXPECT_EQ(scale_ps2_alpha(0x80), 255);
  EXPECT_EQ(scale_ps2_alpha(0x40), 128);
  EXPECT_EQ(scale_ps2_alpha(0xFF), 255);
  EXPECT_EQ(unscale_ps2_alpha(255), 0x80);
}

TEST(Tri, PngChunkRecordsTheAlpha) {
  const TriFile t = must_read(fx::build(fx::standard(false)));
  EXPECT_EQ(tri_png_alpha({tri_png_chunk(t.entries[0], TriAlpha::scaled)}), TriAlpha::scaled);
  EXPECT_EQ(tri_png_alpha({tri_png_chunk(t.entries[0], TriAlpha::raw)}), TriAlpha::raw);
  EXPECT_FALSE(tri_png_alpha({}));
  PngChunk bad = tri_png_chunk(t.entries[0], TriAlpha::raw);
  bad.data[0] = 9;
  EXPECT_FALSE(tri_png_alpha({bad}));
}

// ---- re-encoding ----

Image image_of(const fx::Texture& x, TriAlpha alpha = TriAlpha::raw) {
  Image im{x.width, x.height, fx::expected_rgba(x)};
  if (alpha == TriAlpha::scaled)
    for (std::size_t p = 3; p < im.rgba.size(); p += 4) im.rgba[p] = scale_ps2_alpha(im.rgba[p]);
  return im;
}

TEST(TriEncode, UnchangedImagesGiveTheTemplateBack) {
  for (bool mc : {false, true}) {
    const fx::File f = fx::standard(mc);
    const auto bytes = fx::build(f);
    const TriFile t = must_read(bytes);
    std::vector<TriEdit> edits;
    for (std::size_t i = 0; i < f.textures.size(); ++i) edits.push_back({i, image_of(f.textures[i], TriAlpha::scaled), TriAlpha::scaled, "t" + std::to_string(i)});
    edits[3].image = image_of(f.textures[3]);  // alpha above 0x80 does not survive scaling: raw
    edits[3].alpha = TriAlpha::raw;
    Diagnostics notes;
    auto out = build_tri(t, edits, &notes);
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(out.value(), bytes);
    EXPECT_EQ(notes.findings().size(), 4u);
    EXPECT_TRUE(has_finding(notes, Severity::info, "t1: unchanged"));
  }
}

// An edit re-encodes only its texture: known colours keep their index, new ones take CLUT
// entries no texture sharing the CLUT uses; the texture that shares it is left as it was.
TEST(TriEncode, EditsGoIntoTheirEntryAndLeaveTheOthers) {
  fx::File f = fx::standard(false);
  // Texture c (sharing b's CLUT) uses colours 0..7 only; b uses all 16.
  f.textures[2].indices = fx::pattern(16, 16, 8, 3);
  const auto bytes = fx::build(f);
  const TriFile t = must_read(bytes);
  Image edited = image_of(f.textures[1]);
  // Three new colours and a pixel moved to an existing colour.
  auto set = [&](std::size_t px, std::uint32_t c) {
    for (int k = 0; k < 4; ++k) edited.rgba[px * 4 + k] = std::uint8_t(c >> (8 * k));
  };
  set(0, fx::rgba(1, 2, 3, 0x80));
  set(1, fx::rgba(4, 5, 6, 0x40));
  set(2, fx::rgba(7, 8, 9, 0));
  set(3, f.textures[1].clut[12]);
  // The three new colours need CLUT entries that neither b's kept pixels nor c use: b stops
  // using colours 8..10 (c uses 0..7).
  for (std::size_t px = 4; px < std::size_t{24} * 24; ++px) {
    const std::uint8_t i = f.textures[1].indices[px];
    if (i >= 8 && i <= 10) set(px, f.textures[1].clut[12]);
  }
  Diagnostics notes;
  auto out = build_tri(t, {{1, edited, TriAlpha::raw, "b.png"}}, &notes);
  ASSERT_TRUE(out) << out.error().path << ": " << out.error().message << " " << out.error().expected << " " << out.error().found;
  const TriFile back = must_read(out.value());
  auto b = decode_tri(back, 1);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->rgba, edited.rgba);
  for (std::size_t i : {0u, 2u, 3u}) {
    auto other = decode_tri(back, i);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->rgba, fx::expected_rgba(f.textures[i])) << i;
  }
  EXPECT_TRUE(has_finding(notes, Severity::info, "b.png: re-encoded (")) << all(notes);
  // Only the image and CLUT blocks changed.
  const std::size_t image_at = 0x20 + 4 * 0xA0;
  for (std::size_t k = 0; k < image_at; ++k) ASSERT_EQ(out.value()[k], bytes[k]) << k;
}

TEST(TriEncode, RefusalsNameTheTexture) {
  const fx::File f = fx::standard(false);
  const TriFile t = must_read(fx::build(f));
  // Another size.
  auto r = build_tri(t, {{0, Image{10, 10, std::vector<std::uint8_t>(400, 1)}, TriAlpha::raw, "b7e31e.png (texture 0xB7E31E)"}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("b7e31e.png (texture 0xB7E31E): the image is not the size"), std::string::npos);
  EXPECT_EQ(r.error().expected, "72x32");
  EXPECT_EQ(r.error().found, "10x10");
  // 17 colours into a 4-bit texture.
  Image many = image_of(f.textures[1]);
  for (std::size_t px = 0; px < 17; ++px) many.rgba[px * 4] = std::uint8_t(200 + px), many.rgba[px * 4 + 1] = 77;
  r = build_tri(t, {{1, many, TriAlpha::raw, "123456.png"}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("123456.png: the image has more colours than its PSMT4 texture's CLUT holds"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(r.error().expected, "at most 16 colours");
  // A new colour when every CLUT entry is used by b or by c, which shares the CLUT.
  Image one_new = image_of(f.textures[1]);
  const std::uint8_t first = f.textures[1].indices[0];
  for (std::size_t px = 0; px < f.textures[1].indices.size(); ++px)
    if (f.textures[1].indices[px] == first) one_new.rgba[px * 4] = 1, one_new.rgba[px * 4 + 1] = 254, one_new.rgba[px * 4 + 2] = 3;
  r = build_tri(t, {{1, one_new, TriAlpha::raw, "123456.png"}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not enough free CLUT entries"), std::string::npos) << r.error().message;
  // Two images for one entry.
  r = build_tri(t, {{0, image_of(f.textures[0]), TriAlpha::raw, "a.png"}, {0, image_of(f.textures[0]), TriAlpha::raw, "b.png"}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("another image is for the same texture: a.png"), std::string::npos);
}

// Two textures drawn from overlapping memory: an edit of one that would change the other is refused.
TEST(TriEncode, AnEditThatWouldChangeAnotherTextureIsRefused) {
  fx::File f = fx::standard(false);
  fx::Texture alias = f.textures[1];  // the same pixels and CLUT as b, under another id
  alias.id = 0x777777;
  alias.write_pixels = alias.write_clut = false;
  f.textures.push_back(alias);
  const TriFile t = must_read(fx::build(f));
  Image edited = image_of(f.textures[1]);
  std::swap_ranges(edited.rgba.begin(), edited.rgba.begin() + 4, edited.rgba.begin() + 4 * 30);
  if (edited.rgba == image_of(f.textures[1]).rgba) GTEST_SKIP() << "pixels 0 and 30 have one colour";
  auto r = build_tri(t, {{1, edited, TriAlpha::raw, "123456.png"}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("shares video memory"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().path.find("texture 0x777777"), std::string::npos) << r.error().path;
  // Edited together so that they agree, they go through.
  auto ok = build_tri(t, {{1, edited, TriAlpha::raw, "123456.png"}, {4, edited, TriAlpha::raw, "777777.png"}});
  ASSERT_TRUE(ok) << ok.error().message;
}

}  // namespace
}  // namespace boneyard::test
