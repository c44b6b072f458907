// A TRI texture out of the GS memory its blocks hold: the rectangle's indices, the CLUT, the
// colours (docs/textures.md "TRI").
#include <algorithm>
#include <cmath>

#include "boneyard/texture/tri/tri.h"
#include "texture/size_text.h"
#include "texture/tri/tri_internal.h"

namespace boneyard::texture {

namespace {

TriLayout layout_of(const TriEntry& e) { return e.bytes.size() == kTriMcEntrySize ? TriLayout::mc : TriLayout::ps2; }

std::string text_of(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", double(v));
  return b;
}

// The CLUT position (in the 16 x 16 PSMT8 area) of entry k: CSM1 stores 8-colour runs 8-15 and
// 16-23 swapped within every 32 (the GS's arrangement; SeaLouse's unswizzleClut, an involution).
std::uint32_t clut_position(std::uint32_t k, unsigned colours) {
  if (colours != 256) return k;
  const std::uint32_t run = k / 8;
  if (run % 4 == 1) return k + 8;
  if (run % 4 == 2) return k - 8;
  return k;
}

}  // namespace

std::string tri_entry_name(const TriEntry& e) {
  char b[64];
  std::snprintf(b, sizeof b, "entry %u (texture 0x%06X)", e.index, e.id);
  return b;
}

Result<TriRect> tri_rect(const TriEntry& e) {
  const GsTex0 tex = e.fields();
  const TriEntryFields f = tri_entry_fields(layout_of(e));
  if (tex.tw > 10 || tex.th > 10)
    return Finding{Severity::error, e.offset + f.tex0, tri_entry_name(e) + " TEX0 TW/TH",
                   "texture larger than the GS allows (not decoded)", "TW and TH at most 10 (1024 pixels)",
                   "TW " + std::to_string(tex.tw) + ", TH " + std::to_string(tex.th)};
  const float values[4] = {e.u_offset, e.v_offset, e.u_scale, e.v_scale};
  static constexpr const char* kNames[4] = {"uOffset", "vOffset", "uScale", "vScale"};
  for (int k = 0; k < 4; ++k)
    if (!std::isfinite(values[k]) || values[k] < 0.0f || values[k] > 1.0f)
      return Finding{Severity::error, e.offset + 4u * unsigned(k), tri_entry_name(e) + " " + kNames[k],
                     "sub-rectangle outside the texture (not decoded)", "0..1", text_of(values[k])};
  // The float times a power of two is exact in double: floor gives what the game's int cast does.
  const double w = double(1u << tex.tw), h = double(1u << tex.th);
  TriRect r;
  r.x = static_cast<std::uint32_t>(std::floor(double(e.u_offset) * w));
  r.y = static_cast<std::uint32_t>(std::floor(double(e.v_offset) * h));
  r.width = static_cast<std::uint32_t>(std::floor(double(e.u_scale) * w)) + 1;
  r.height = static_cast<std::uint32_t>(std::floor(double(e.v_scale) * h)) + 1;
  return r;
}

Result<TriTexture> tri_texture(const TriEntry& e, TriLayout layout) {
  TriTexture t;
  t.tex = e.fields();
  const std::uint64_t at = e.offset + tri_entry_fields(layout).tex0;
  const std::string path = tri_entry_name(e) + " TEX0";
  if (t.tex.psm != kPsmt8 && t.tex.psm != kPsmt4)
    return Finding{Severity::error, at, path + " PSM", "pixel storage mode not decoded (MGS2 textures are 4- or 8-bit)",
                   "PSMT8 (0x13) or PSMT4 (0x14)", psm_name(t.tex.psm)};
  if (t.tex.cpsm != 0)
    return Finding{Severity::error, at, path + " CPSM", "CLUT colours not stored as 32-bit (not decoded)", "PSMCT32 (0)",
                   psm_name(t.tex.cpsm)};
  if (t.tex.csm != 0)
    return Finding{Severity::error, at, path + " CSM", "CLUT storage mode CSM2 (not decoded)", "CSM1 (0)", "CSM2 (1)"};
  t.colours = t.tex.psm == kPsmt8 ? 256 : 16;
  auto r = tri_rect(e);
  if (!r) return r.error();
  t.rect = r.value();
  return t;
}

Result<std::vector<std::size_t>> tri_clut_words(const TriFile& tri, const TriEntry& e, const TriTexture& t) {
  const std::uint64_t rows = tri.clut.size() / kTriRowBytes;
  const std::uint32_t across = t.colours == 256 ? 16 : 8;
  std::vector<std::size_t> words(t.colours);
  for (std::uint32_t k = 0; k < t.colours; ++k) {
    const std::uint32_t p = clut_position(k, t.colours);
    const std::uint32_t x = t.tex.csax() * 8 + p % across, y = t.tex.csay() * 2 + p / across;
    const GsTexel g = gs_texel(kPsmct32, t.tex.cbp, 1, x, y);
    const auto word = tri_block_word(g.word, rows);
    if (!word)
      return Finding{Severity::error, e.offset + tri_entry_fields(layout_of(e)).tex0, tri_entry_name(e) + " TEX0 CBP/CSA",
                     "the CLUT lies past the CLUT block (not decoded)",
                     "its " + std::to_string(t.colours) + " colours within the " + std::to_string(rows) + " rows the block holds",
                     "colour " + std::to_string(k) + " at GS word " + std::to_string(g.word) + " (CBP " +
                         std::to_string(t.tex.cbp) + ", CSA " + std::to_string(t.tex.csa) + ")"};
    words[k] = *word;
  }
  return words;
}

Finding tri_past_block(const TriEntry& e, const TriTexture& t, std::uint32_t x, std::uint32_t y, std::uint64_t gs_word,
                       std::uint64_t rows) {
  return Finding{Severity::error, e.offset + tri_entry_fields(layout_of(e)).tex0, tri_entry_name(e) + " TEX0 TBP0",
                 "the texture lies past the image block (not decoded)",
                 "its " + size_text(t.rect.width, t.rect.height) + " pixels at (" + std::to_string(t.rect.x) + ", " +
                     std::to_string(t.rect.y) + ") within the " + std::to_string(rows) + " rows the block holds",
                 "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") at GS word " + std::to_string(gs_word) +
                     " (TBP0 " + std::to_string(t.tex.tbp0) + ", TBW " + std::to_string(t.tex.tbw) + ", " +
                     psm_name(t.tex.psm) + ")"};
}

std::uint64_t tri_pixel_budget(const TriFile& tri) {
  return std::max<std::uint64_t>(std::uint64_t{1} << 20, std::uint64_t{tri.image.size()} * 2 * 16);
}

std::uint64_t tri_rect_pixels(const TriEntry& e) {
  const auto r = tri_rect(e);
  return r ? std::uint64_t{r->width} * r->height : 0;
}

std::uint8_t scale_ps2_alpha(std::uint8_t a) { return static_cast<std::uint8_t>(std::min(255, (a * 255 + 64) / 128)); }
std::uint8_t unscale_ps2_alpha(std::uint8_t a) { return static_cast<std::uint8_t>((a * 128 + 127) / 255); }

Result<Image> decode_tri(const TriFile& tri, std::size_t index, TriAlpha alpha) {
  if (index >= tri.entries.size())
    return Finding{Severity::error, 0x10, "texture count", "no such entry", "an entry below " + std::to_string(tri.entries.size()),
                   std::to_string(index)};
  const TriEntry& e = tri.entries[index];
  auto t = tri_texture(e, tri.layout);
  if (!t) return t.error();
  if (auto ok = check_decoded_pixels(t->rect.width, t->rect.height, e.offset, tri_entry_name(e)); !ok) return ok.error();
  auto words = tri_clut_words(tri, e, t.value());
  if (!words) return words.error();
  std::array<std::uint32_t, 256> clut{};
  for (std::size_t k = 0; k < words->size(); ++k) clut[k] = block_word_at(tri.clut, (*words)[k]);
  Image im;
  im.width = t->rect.width;
  im.height = t->rect.height;
  im.rgba.resize(std::size_t{im.width} * im.height * 4);
  const std::uint32_t mask = t->colours - 1;
  if (auto ok = for_each_texel(tri, e, t.value(), [&](std::size_t i, std::size_t word, std::uint32_t shift) {
        const std::uint32_t c = clut[(block_word_at(tri.image, word) >> shift) & mask];
        std::uint8_t* p = im.rgba.data() + i * 4;
        p[0] = std::uint8_t(c), p[1] = std::uint8_t(c >> 8), p[2] = std::uint8_t(c >> 16);
        p[3] = alpha == TriAlpha::scaled ? scale_ps2_alpha(std::uint8_t(c >> 24)) : std::uint8_t(c >> 24);
      });
      !ok)
    return ok.error();
  return im;
}

std::uint64_t tri_decoded_bytes(const TriFile& tri, std::size_t index) {
  if (index >= tri.entries.size()) return 0;
  auto t = tri_texture(tri.entries[index], tri.layout);
  return t ? std::uint64_t{t->rect.width} * t->rect.height * 4 : 0;
}

PngChunk tri_png_chunk(const TriEntry& e, TriAlpha alpha) {
  PngChunk c;
  c.type = {'t', 'r', 'I', 'a'};
  c.data = {1, std::uint8_t(alpha == TriAlpha::scaled ? 1 : 0)};
  for (int s = 24; s >= 0; s -= 8) c.data.push_back(std::uint8_t(e.id >> s));
  return c;
}

std::optional<TriAlpha> tri_png_alpha(const std::vector<PngChunk>& chunks) {
  std::optional<TriAlpha> out;
  for (const auto& c : chunks)
    if (c.type == std::array<char, 4>{'t', 'r', 'I', 'a'} && c.data.size() >= 2 && c.data[0] == 1 && c.data[1] <= 1)
      out = c.data[1] == 1 ? TriAlpha::scaled : TriAlpha::raw;
  return out;
}

}  // namespace boneyard::texture
