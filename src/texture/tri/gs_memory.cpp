// GS local memory addressing (the "swizzle") for PSMCT32, PSMT8 and PSMT4.
#include "boneyard/texture/tri/gs_memory.h"

#include <array>

namespace boneyard::texture {

namespace {

// Blocks within a page, by block column + row * columns: PSMCT32 and PSMT8 pages are 8 x 4
// blocks, PSMT4 pages 4 x 8.
constexpr std::array<std::uint8_t, 32> kBlock32 = {0, 1,  4,  5,  16, 17, 20, 21, 2,  3,  6,  7,  18, 19, 22, 23,
                                                   8, 9,  12, 13, 24, 25, 28, 29, 10, 11, 14, 15, 26, 27, 30, 31};
constexpr std::array<std::uint8_t, 32> kBlock4 = {0,  2,  8,  10, 1,  3,  9,  11, 4,  6,  12, 14, 5,  7,  13, 15,
                                                  16, 18, 24, 26, 17, 19, 25, 27, 20, 22, 28, 30, 21, 23, 29, 31};
// Words within a column of a PSMCT32 block (8 x 2 pixels), by x + y * 8.
constexpr std::array<std::uint8_t, 16> kColumnWord32 = {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15};

// PSMT8 and PSMT4 columns are 4 rows of 16 (PSMT8) or 32 (PSMT4) pixels. A pixel's word repeats
// kColumnWord32's first row every 8 pixels, +2 on odd rows, with its top and bottom halves of the
// column swapped (xor 8) in rows 2-3 of even columns and rows 0-1 of odd ones; its byte (PSMT8)
// or nibble (PSMT4) is 2 * (x / 8) + row / 2.
std::uint32_t column_word_8_4(std::uint32_t cx, std::uint32_t cy, std::uint32_t column) {
  std::uint32_t w = kColumnWord32[cx % 8];
  if (((cy >> 1) ^ (column & 1)) != 0) w ^= 8;
  return w + (cy & 1) * 2;
}

}  // namespace

bool gs_psm_known(std::uint32_t psm) { return psm == kPsmct32 || psm == kPsmt8 || psm == kPsmt4; }

GsTexel gs_texel(std::uint32_t psm, std::uint32_t base, std::uint32_t width, std::uint32_t x, std::uint32_t y) {
  GsTexel t;
  const std::uint64_t start = std::uint64_t{base} * kGsWordsPerBlock;
  if (psm == kPsmct32) {
    const std::uint64_t page = x / 64 + std::uint64_t{y / 32} * width;
    const std::uint32_t px = x % 64, py = y % 32;
    const std::uint32_t block = kBlock32[px / 8 + (py / 8) * 8];
    const std::uint32_t bx = px % 8, by = py % 8;
    const std::uint32_t column = by / 2;
    t.word = start + page * kGsWordsPerPage + block * 64 + column * 16 + kColumnWord32[bx + (by % 2) * 8];
    return t;
  }
  const std::uint32_t pages_across = width >> 1;
  if (psm == kPsmt8) {
    const std::uint64_t page = x / 128 + std::uint64_t{y / 64} * pages_across;
    const std::uint32_t px = x % 128, py = y % 64;
    const std::uint32_t block = kBlock32[px / 16 + (py / 16) * 8];
    const std::uint32_t bx = px % 16, by = py % 16;
    const std::uint32_t column = by / 4, cy = by % 4;
    t.word = start + page * kGsWordsPerPage + block * 64 + column * 16 + column_word_8_4(bx, cy, column);
    t.shift = ((bx / 8) * 2 + cy / 2) * 8;
    t.bits = 8;
    return t;
  }
  // PSMT4
  const std::uint64_t page = x / 128 + std::uint64_t{y / 128} * pages_across;
  const std::uint32_t px = x % 128, py = y % 128;
  const std::uint32_t block = kBlock4[px / 32 + (py / 16) * 4];
  const std::uint32_t bx = px % 32, by = py % 16;
  const std::uint32_t column = by / 4, cy = by % 4;
  t.word = start + page * kGsWordsPerPage + block * 64 + column * 16 + column_word_8_4(bx, cy, column);
  t.shift = ((bx / 8) * 2 + cy / 2) * 4;
  t.bits = 4;
  return t;
}

GsPixel gs_ct32_row_pixel(std::uint64_t word) {
  // The tables inverted once: block -> its column and row in the page, word -> its pixel.
  static const auto inverse = [] {
    struct Tables {
      std::array<std::uint8_t, 32> block_x{}, block_y{};
      std::array<std::uint8_t, 16> word_x{}, word_y{};
    } t;
    for (std::uint8_t i = 0; i < 32; ++i) t.block_x[kBlock32[i]] = i % 8, t.block_y[kBlock32[i]] = i / 8;
    for (std::uint8_t i = 0; i < 16; ++i) t.word_x[kColumnWord32[i]] = i % 8, t.word_y[kColumnWord32[i]] = i / 8;
    return t;
  }();
  const std::uint64_t page = word / kGsWordsPerPage;
  const std::uint32_t in_page = static_cast<std::uint32_t>(word % kGsWordsPerPage);
  const std::uint32_t block = in_page / 64, column = (in_page / 16) % 4, cw = in_page % 16;
  GsPixel p;
  p.x = inverse.block_x[block] * 8u + inverse.word_x[cw];
  p.y = page * 32 + inverse.block_y[block] * 8u + column * 2 + inverse.word_y[cw];
  return p;
}

std::optional<std::uint32_t> GsMemory::read(std::uint32_t psm, std::uint32_t base, std::uint32_t width, std::uint32_t x,
                                            std::uint32_t y) const {
  const GsTexel t = gs_texel(psm, base, width, x, y);
  if (t.word >= words_.size()) return std::nullopt;
  const std::uint32_t mask = t.bits == 32 ? 0xFFFFFFFFu : (1u << t.bits) - 1;
  return (words_[t.word] >> t.shift) & mask;
}

bool GsMemory::write(std::uint32_t psm, std::uint32_t base, std::uint32_t width, std::uint32_t x, std::uint32_t y,
                     std::uint32_t value) {
  const GsTexel t = gs_texel(psm, base, width, x, y);
  if (t.word >= words_.size()) return false;
  const std::uint32_t mask = (t.bits == 32 ? 0xFFFFFFFFu : (1u << t.bits) - 1) << t.shift;
  words_[t.word] = (words_[t.word] & ~mask) | ((value << t.shift) & mask);
  return true;
}

}  // namespace boneyard::texture
