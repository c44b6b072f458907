// What the TRI reader, validator, decoder and encoder share: field offsets within an entry, the
// blocks as GS memory, and a texture's pixels and CLUT located in them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/texture/tri/gs_memory.h"
#include "boneyard/texture/tri/tri.h"

namespace boneyard::texture {

// Offsets within an entry of the fields past the common first 0x14 bytes (the Master
// Collection's entries have 0x20 more pad bytes before them).
struct TriEntryFields {
  std::size_t tag = 0, tex0_first = 0, tex0 = 0, tex_type = 0, uv = 0;
};
TriEntryFields tri_entry_fields(TriLayout layout);

// A block (rows of 64 PSMCT32 words, as the file stores it) seen as the GS memory it was written
// to: a GS word maps to the block's word at the pixel the PSMCT32 swizzle gives it; words of
// rows the block does not have are past it.
inline std::optional<std::size_t> tri_block_word(std::uint64_t gs_word, std::uint64_t rows) {
  const GsPixel p = gs_ct32_row_pixel(gs_word);
  if (p.y >= rows) return std::nullopt;
  return static_cast<std::size_t>(p.y * 64 + p.x);
}

// An entry that boneyard can decode: its TEX0, rectangle and palette size.
struct TriTexture {
  GsTex0 tex;
  TriRect rect;
  unsigned colours = 0;  // 16 (PSMT4) or 256 (PSMT8)
};
// Why an entry cannot be decoded (its TEX0 fields, rectangle), as a Finding at the field.
Result<TriTexture> tri_texture(const TriEntry& entry, TriLayout layout);

// The block words that hold CLUT entries 0..colours-1 (the PSMT8 CSM1 arrangement undone), or the
// first entry past the CLUT block.
Result<std::vector<std::size_t>> tri_clut_words(const TriFile& tri, const TriEntry& entry, const TriTexture& t);
// Calls fn(i, word, shift) for each pixel i (row-major in the rectangle) with the image block word
// and the bit shift of its index; stops at the first pixel past the block, whose error it returns.
Finding tri_past_block(const TriEntry& entry, const TriTexture& t, std::uint32_t x, std::uint32_t y, std::uint64_t gs_word,
                       std::uint64_t rows);
template <class Fn>
Status for_each_texel(const TriFile& tri, const TriEntry& entry, const TriTexture& t, Fn&& fn) {
  const std::uint64_t rows = tri.image.size() / kTriRowBytes;
  std::size_t i = 0;
  for (std::uint32_t y = t.rect.y; y < t.rect.y + t.rect.height; ++y)
    for (std::uint32_t x = t.rect.x; x < t.rect.x + t.rect.width; ++x, ++i) {
      const GsTexel g = gs_texel(t.tex.psm, t.tex.tbp0, t.tex.tbw, x, y);
      const auto word = tri_block_word(g.word, rows);
      if (!word) return tri_past_block(entry, t, x, y, g.word, rows);
      fn(i, *word, g.shift);
    }
  return {};
}

inline std::uint32_t block_word_at(Bytes block, std::size_t word) { return load_le<std::uint32_t>(block.data() + word * 4); }

std::uint64_t tri_rect_pixels(const TriEntry& entry);  // 0 when the rectangle is invalid

std::string tri_entry_name(const TriEntry& entry);  // "entry 3 (texture 0xB7E31E)"

}  // namespace boneyard::texture
