// TRI checks: the reader's findings, then each entry's TEX0, rectangle, memory and colours.
#include <algorithm>
#include <map>

#include "boneyard/texture/tri/tri.h"
#include "texture/size_text.h"
#include "texture/tri/tri_internal.h"

namespace boneyard::texture {

namespace {

char hex_digit(unsigned v) { return "0123456789ABCDEF"[v & 15]; }
std::string hex_byte(std::uint32_t v) { return std::string("0x") + hex_digit(v >> 4) + hex_digit(v); }

// The colours entry `e` uses: alpha above 0x80 and an all-zero CLUT are said; a texture or CLUT
// past its block is the decoder's error.
void check_pixels(const TriFile& tri, const TriEntry& e, const TriTexture& t, Diagnostics& d) {
  const std::uint64_t at = e.offset + tri_entry_fields(tri.layout).tex0;
  auto words = tri_clut_words(tri, e, t);
  if (!words) {
    d.add(words.error());
    return;
  }
  std::array<std::uint32_t, 256> clut{};
  bool all_zero = true;
  for (std::size_t k = 0; k < words->size(); ++k) {
    clut[k] = block_word_at(tri.clut, (*words)[k]);
    all_zero = all_zero && clut[k] == 0;
  }
  if (all_zero)
    d.add(Severity::warning, at, tri_entry_name(e) + " CLUT",
          "every colour of the texture's CLUT is zero (decoded as stored: transparent black; SeaLouse reads CBP 0, CSA 0 "
          "instead)", "colours", "zeros at CBP " + std::to_string(t.tex.cbp) + ", CSA " + std::to_string(t.tex.csa));
  std::uint64_t above = 0;
  std::uint32_t largest = 0;
  const std::uint32_t mask = t.colours - 1;
  auto ok = for_each_texel(tri, e, t, [&](std::size_t, std::size_t word, std::uint32_t shift) {
    const std::uint32_t a = clut[(block_word_at(tri.image, word) >> shift) & mask] >> 24;
    if (a > 0x80) ++above, largest = std::max(largest, a);
  });
  if (!ok) {
    d.add(ok.error());
    return;
  }
  if (above > 0)
    d.add(Severity::warning, at, tri_entry_name(e) + " CLUT",
          "alpha above 0x80 (0x80 is opaque on the PS2): kept as stored; --alpha scaled clips it to 255",
          "0..0x80", std::to_string(above) + " pixel(s), up to " + hex_byte(largest));
}

}  // namespace

Diagnostics validate_tri(const TriFile& tri) {
  Diagnostics d;
  (void)read_tri(tri.file, tri.layout_forced ? std::optional<TriLayout>(tri.layout) : std::nullopt, &d);
  const TriHeader& h = tri.header;
  if (h.pad != 0) d.add(Severity::info, 0x00, "header pad", "not zero (kept)", "0", hex(h.pad));
  if (h.pad1 != 0) d.add(Severity::info, 0x14, "header pad", "not zero (kept)", "0", hex(h.pad1));
  const TriEntryFields f = tri_entry_fields(tri.layout);
  std::map<std::uint32_t, unsigned> first_with_id;
  std::uint64_t pixels = 0;
  bool over_budget = false;
  for (const auto& e : tri.entries) {
    const std::string name = tri_entry_name(e);
    if (e.id == 0 || e.id > 0xFFFFFF)
      d.add(Severity::warning, e.offset + 0x10, name + " id", "not a StrCode24 id (1..0xFFFFFF): no model can name it",
            "1..0xFFFFFF", hex(e.id));
    if (auto [it, added] = first_with_id.try_emplace(e.id, e.index); !added)
      d.add(Severity::warning, e.offset + 0x10, name + " id", "another entry has this id (a model's packets name the first)",
            "ids used once", "entry " + std::to_string(it->second) + " too");
    auto t = tri_texture(e, tri.layout);
    if (!t) {
      d.add(t.error());
      continue;
    }
    const GsTex0& x = t->tex;
    if (x.tbw < 2 || x.tbw % 2 != 0)
      d.add(Severity::warning, e.offset + f.tex0, name + " TEX0 TBW",
            "4- and 8-bit buffers are 128 pixels per page: the GS needs an even width (read with TBW / 2 pages per row, "
            "as the GS and every decoder do)", "2, 4, 6, ...", std::to_string(x.tbw));
    if (x.psm == kPsmt8 && x.csa != 0)
      d.add(Severity::info, e.offset + f.tex0, name + " TEX0 CSA",
            "CLUT offset with an 8-bit texture (read at the offset, as SeaLouse does)", "0", std::to_string(x.csa));
    const std::uint32_t w = 1u << x.tw, hh = 1u << x.th;
    if (std::uint64_t{t->rect.x} + t->rect.width > w || std::uint64_t{t->rect.y} + t->rect.height > hh)
      d.add(Severity::warning, e.offset, name + " sub-rectangle",
            "the sub-rectangle reaches past the 2^TW x 2^TH texture (decoded from the memory there)",
            "within " + size_text(w, hh),
            size_text(t->rect.width, t->rect.height) + " at (" + std::to_string(t->rect.x) + ", " + std::to_string(t->rect.y) + ")");
    pixels += std::uint64_t{t->rect.width} * t->rect.height;
    if (pixels > tri_pixel_budget(tri)) {
      if (!over_budget)
        d.add(Severity::error, e.offset, name,
              "the textures together are larger than the image block holds 16 times over (overlapping rectangles): not "
              "decoded from here on",
              "at most " + std::to_string(tri_pixel_budget(tri)) + " pixels", std::to_string(pixels) + " pixels so far");
      over_budget = true;
      continue;
    }
    check_pixels(tri, e, t.value(), d);
  }
  d.sort_by_offset();
  return d;
}

}  // namespace boneyard::texture
