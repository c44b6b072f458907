// The PlayStation 2 Graphics Synthesizer's local memory, as far as MGS2's `.tri` textures need it:
// where a pixel of a PSMCT32, PSMT8 or PSMT4 buffer lies (the GS "swizzle": pages, blocks,
// columns, and the byte or nibble in a 32-bit word), and a memory of 32-bit words that pixels are
// written into and read from both ways. The tables are the GS's (Sony's GS User's Manual, as
// every PS2 texture tool reproduces them; docs/textures.md "TRI").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace boneyard::texture {

// Pixel storage modes (TEX0.PSM) boneyard knows.
inline constexpr std::uint32_t kPsmct32 = 0x00;
inline constexpr std::uint32_t kPsmt8 = 0x13;
inline constexpr std::uint32_t kPsmt4 = 0x14;

inline constexpr std::uint32_t kGsWordsPerBlock = 64;    // a block: 256 bytes; base pointers count in blocks
inline constexpr std::uint32_t kGsWordsPerPage = 2048;   // a page: 32 blocks, 8 KiB
inline constexpr std::uint32_t kGsMemoryWords = 1u << 20;  // 4 MiB of local memory

// Where one pixel lies: the word, and the bits of it that hold the pixel (32 at bit 0 for
// PSMCT32, 8 at a multiple of 8 for PSMT8, 4 at a multiple of 4 for PSMT4).
struct GsTexel {
  std::uint64_t word = 0;
  std::uint32_t shift = 0;
  std::uint32_t bits = 32;
};

// True for the modes gs_texel knows (PSMCT32, PSMT8, PSMT4).
bool gs_psm_known(std::uint32_t psm);
// Pixel (x, y) of a buffer in mode `psm` that starts at block `base` (TEX0.TBP0 / CBP) and is
// `width` x 64 pixels wide (TEX0.TBW; for PSMT8 and PSMT4 pages are 128 pixels wide, so a row of
// pages holds width / 2 of them, rounded down as the GS and every decoder do). `psm` must be known.
GsTexel gs_texel(std::uint32_t psm, std::uint32_t base, std::uint32_t width, std::uint32_t x, std::uint32_t y);

// The inverse for a PSMCT32 buffer at base 0, one page (64 pixels) wide: the pixel (x, y) whose
// word is `word`. This is how a `.tri` stores video memory: its blocks are rows of 64 words,
// written to the GS as such a buffer.
struct GsPixel {
  std::uint32_t x = 0;
  std::uint64_t y = 0;
};
GsPixel gs_ct32_row_pixel(std::uint64_t word);

// Local memory: words in GS address order, zero until written.
class GsMemory {
 public:
  explicit GsMemory(std::size_t words = kGsMemoryWords) : words_(words, 0) {}
  std::size_t size() const { return words_.size(); }
  const std::vector<std::uint32_t>& words() const { return words_; }

  // The pixel at (x, y) (a 32-bit colour, an 8-bit or a 4-bit index); nullopt when its word lies
  // past the memory.
  std::optional<std::uint32_t> read(std::uint32_t psm, std::uint32_t base, std::uint32_t width, std::uint32_t x,
                                    std::uint32_t y) const;
  // Stores the low bits of `value` at (x, y), leaving the other pixels of the word; false when
  // the word lies past the memory.
  bool write(std::uint32_t psm, std::uint32_t base, std::uint32_t width, std::uint32_t x, std::uint32_t y,
             std::uint32_t value);

 private:
  std::vector<std::uint32_t> words_;
};

}  // namespace boneyard::texture
