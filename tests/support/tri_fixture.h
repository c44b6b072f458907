// Byte-exact MGS2 .tri fixtures laid out from the notes (../shared/docs/mgs2-next.md §1): header,
// entries (PS2 0xA0 or Master Collection 0xC0 bytes, with the layout tag), and image and CLUT
// blocks made by writing each texture's indices and CLUT into a GS memory with the GS's write
// swizzles and reading the memory back as rows of 64 PSMCT32 words. The swizzle here is this
// file's own (bit formulas, not the library's tables), so that the library's reading of these
// files checks the one against the other, and SeaLouse's tri.py checks both.
#pragma once

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace boneyard::test::trifx {

inline constexpr std::uint32_t kPsmt8 = 0x13, kPsmt4 = 0x14;

struct Texture {
  std::uint32_t id = 0;
  std::uint32_t psm = kPsmt8;
  std::uint32_t tw = 7, th = 5;                   // the texture is 2^tw x 2^th
  std::uint32_t x = 0, y = 0, width = 0, height = 0;  // its sub-rectangle
  std::uint32_t tbp0 = 0, tbw = 2, cbp = 0, csa = 0;
  std::uint32_t tex_type = 68;
  std::vector<std::uint8_t> indices;   // width * height, row-major
  std::vector<std::uint32_t> clut;     // 16 or 256 colours: r | g << 8 | b << 16 | a << 24
  bool write_pixels = true;            // false: the entry points at memory another entry wrote
  bool write_clut = true;
};

struct File {
  bool mc = false;
  std::uint32_t image_rows = 64, clut_rows = 32;
  std::vector<Texture> textures;
  std::int32_t header_width = 64;
  std::vector<std::uint8_t> gap;       // bytes between the entries and the image block
  std::vector<std::uint8_t> trailing;  // after the CLUT block
};

// ---- the GS write swizzle, from the bit patterns of the GS tables ----

// Block within a page: PSMCT32/PSMT8 pages are 8 x 4 blocks, PSMT4 pages 4 x 8.
inline std::uint32_t block_8x4(std::uint32_t bx, std::uint32_t by) {
  return (bx & 1) | (by & 1) << 1 | (bx & 2) << 1 | (by & 2) << 2 | (bx & 4) << 2;
}
inline std::uint32_t block_4x8(std::uint32_t bx, std::uint32_t by) {
  return (by & 1) | (bx & 1) << 1 | (by & 2) << 1 | (bx & 2) << 2 | (by & 4) << 2;
}
inline std::uint32_t word_ct32(std::uint32_t cx, std::uint32_t cy) { return (cx & 1) | cy << 1 | (cx >> 1) << 2; }
inline std::uint32_t word_8_4(std::uint32_t cx, std::uint32_t cy, std::uint32_t column) {
  const std::uint32_t w = (cx & 1) | (cy & 1) << 1 | ((cx >> 1) & 3) << 2;
  return w ^ ((((cy >> 1) ^ column) & 1) << 3);
}

struct Spot {
  std::uint64_t word;
  std::uint32_t shift, bits;
};
inline Spot spot(std::uint32_t psm, std::uint32_t base, std::uint32_t width, std::uint32_t x, std::uint32_t y) {
  const std::uint64_t start = std::uint64_t{base} * 64;
  if (psm == 0) {
    const std::uint64_t page = x / 64 + std::uint64_t{y / 32} * width;
    const std::uint32_t px = x % 64, py = y % 32;
    return {start + page * 2048 + block_8x4(px / 8, py / 8) * 64 + (py % 8) / 2 * 16 + word_ct32(px % 8, py % 2), 0, 32};
  }
  const std::uint32_t across = width / 2;
  if (psm == kPsmt8) {
    const std::uint64_t page = x / 128 + std::uint64_t{y / 64} * across;
    const std::uint32_t px = x % 128, py = y % 64, bx = px % 16, by = py % 16, column = by / 4, cy = by % 4;
    return {start + page * 2048 + block_8x4(px / 16, py / 16) * 64 + column * 16 + word_8_4(bx % 8, cy, column),
            ((bx / 8) * 2 + cy / 2) * 8, 8};
  }
  const std::uint64_t page = x / 128 + std::uint64_t{y / 128} * across;
  const std::uint32_t px = x % 128, py = y % 128, bx = px % 32, by = py % 16, column = by / 4, cy = by % 4;
  return {start + page * 2048 + block_4x8(px / 32, py / 16) * 64 + column * 16 + word_8_4(bx % 8, cy, column),
          ((bx / 8) * 2 + cy / 2) * 4, 4};
}

inline void poke(std::vector<std::uint32_t>& mem, const Spot& s, std::uint32_t v) {
  assert(s.word < mem.size());
  const std::uint32_t mask = (s.bits == 32 ? 0xFFFFFFFFu : (1u << s.bits) - 1) << s.shift;
  mem[s.word] = (mem[s.word] & ~mask) | ((v << s.shift) & mask);
}

// Where CLUT colour k sits in the CLUT area (16 x 16 for PSMT8, where CSM1 keeps runs 8-15 and
// 16-23 of every 32 swapped; 8 x 2 for PSMT4), before the CSA offset.
inline void clut_xy(std::uint32_t psm, std::uint32_t k, std::uint32_t& x, std::uint32_t& y) {
  if (psm == kPsmt4) {
    x = k % 8, y = k / 8;
    return;
  }
  std::uint32_t p = k;
  if ((k / 8) % 4 == 1) p = k + 8;
  else if ((k / 8) % 4 == 2) p = k - 8;
  x = p % 16, y = p / 16;
}

inline std::uint32_t pages_words(std::uint32_t rows) { return (rows + 31) / 32 * 2048; }

// Rows of 64 PSMCT32 words from a memory written at base 0, one page wide.
inline std::vector<std::uint8_t> block_of(const std::vector<std::uint32_t>& mem, std::uint32_t rows) {
  std::vector<std::uint8_t> out(std::size_t{rows} * 256);
  for (std::uint32_t r = 0; r < rows; ++r)
    for (std::uint32_t c = 0; c < 64; ++c) {
      const std::uint32_t v = static_cast<std::uint32_t>(mem[spot(0, 0, 1, c, r).word]);
      std::memcpy(out.data() + (std::size_t{r} * 64 + c) * 4, &v, 4);
    }
  return out;
}

// ---- the file ----

inline std::uint64_t tex0(const Texture& t, std::uint32_t psm, std::uint32_t cld) {
  std::uint64_t v = 0;
  auto set = [&](std::uint64_t x, unsigned at) { v |= x << at; };
  set(t.tbp0, 0), set(t.tbw, 14), set(psm, 20), set(t.tw, 26), set(t.th, 30), set(1, 34), set(0, 35);
  set(t.cbp, 37), set(0, 51), set(0, 55), set(t.csa, 56), set(cld, 61);
  return v;
}

template <class T>
void put(std::vector<std::uint8_t>& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

inline std::vector<std::uint8_t> build(const File& f) {
  std::vector<std::uint32_t> image(pages_words(f.image_rows)), clut(pages_words(f.clut_rows));
  for (const Texture& t : f.textures) {
    assert(t.indices.size() == std::size_t{t.width} * t.height);
    if (t.write_pixels)
      for (std::uint32_t j = 0; j < t.height; ++j)
        for (std::uint32_t i = 0; i < t.width; ++i)
          poke(image, spot(t.psm, t.tbp0, t.tbw, t.x + i, t.y + j), t.indices[std::size_t{j} * t.width + i]);
    if (t.write_clut)
      for (std::uint32_t k = 0; k < t.clut.size(); ++k) {
        std::uint32_t x = 0, y = 0;
        clut_xy(t.psm, k, x, y);
        poke(clut, spot(0, t.cbp, 1, (t.csa & 1) * 8 + x, (t.csa >> 1) * 2 + y), t.clut[k]);
      }
  }
  const std::size_t entry = f.mc ? 0xC0 : 0xA0, mc = f.mc ? 0x20 : 0;
  const std::size_t image_at = 0x20 + entry * f.textures.size() + f.gap.size();
  const std::size_t clut_at = image_at + std::size_t{f.image_rows} * 256;
  std::vector<std::uint8_t> b(clut_at + std::size_t{f.clut_rows} * 256, 0);
  put<std::uint32_t>(b, 0x00, 0);
  put<std::int32_t>(b, 0x04, f.header_width);
  put<std::int32_t>(b, 0x08, static_cast<std::int32_t>(f.image_rows));
  put<std::int32_t>(b, 0x0C, static_cast<std::int32_t>(f.clut_rows));
  put<std::int32_t>(b, 0x10, static_cast<std::int32_t>(f.textures.size()));
  put<std::uint32_t>(b, 0x14, 0);
  put<std::int32_t>(b, 0x18, static_cast<std::int32_t>(image_at));
  put<std::int32_t>(b, 0x1C, static_cast<std::int32_t>(clut_at));
  for (std::size_t n = 0; n < f.textures.size(); ++n) {
    const Texture& t = f.textures[n];
    const std::size_t at = 0x20 + n * entry;
    const float w = float(1u << t.tw), h = float(1u << t.th);
    put(b, at + 0x00, float(t.x) / w), put(b, at + 0x04, float(t.y) / h);
    put(b, at + 0x08, float(t.width - 1) / w), put(b, at + 0x0C, float(t.height - 1) / h);
    put(b, at + 0x10, t.id);
    static const std::uint8_t kTag[16] = {0x01, 0x80, 0, 0, 0, 0, 0, 0x70, 0xEE, 0xEE, 0xEE, 0x0E, 0, 0, 0, 0};
    std::memcpy(b.data() + at + 0x20 + mc, kTag, sizeof kTag);
    // The first TEX0-like quadword differs from the one the decoders use (PSMCT32, CLD 1): a
    // reader that took it would decode nothing.
    put(b, at + 0x40 + mc, tex0(t, 0, 1));
    put<std::uint32_t>(b, at + 0x48 + mc, 0x06);
    put(b, at + 0x50 + mc, tex0(t, t.psm, 4));
    put<std::uint32_t>(b, at + 0x58 + mc, 0x14);
    put(b, at + 0x60 + mc, t.tex_type);
  }
  std::copy(f.gap.begin(), f.gap.end(), b.begin() + static_cast<std::ptrdiff_t>(0x20 + entry * f.textures.size()));
  const auto ib = block_of(image, f.image_rows), cb = block_of(clut, f.clut_rows);
  std::copy(ib.begin(), ib.end(), b.begin() + static_cast<std::ptrdiff_t>(image_at));
  std::copy(cb.begin(), cb.end(), b.begin() + static_cast<std::ptrdiff_t>(clut_at));
  b.insert(b.end(), f.trailing.begin(), f.trailing.end());
  return b;
}

// The RGBA a decoder must give for texture `t` (alpha as stored).
inline std::vector<std::uint8_t> expected_rgba(const Texture& t) {
  std::vector<std::uint8_t> out;
  for (std::uint8_t i : t.indices) {
    const std::uint32_t c = t.clut[i];
    out.insert(out.end(), {std::uint8_t(c), std::uint8_t(c >> 8), std::uint8_t(c >> 16), std::uint8_t(c >> 24)});
  }
  return out;
}

inline std::uint32_t rgba(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  return std::uint32_t{r} | std::uint32_t{g} << 8 | std::uint32_t{b} << 16 | std::uint32_t{a} << 24;
}

// A deterministic pattern: indices that use every colour and differ across the rectangle.
inline std::vector<std::uint8_t> pattern(std::uint32_t w, std::uint32_t h, std::uint32_t colours, std::uint32_t seed) {
  std::vector<std::uint8_t> out(std::size_t{w} * h);
  std::uint32_t s = seed * 2654435761u + 1;
  for (std::size_t i = 0; i < out.size(); ++i) {
    s = s * 1103515245u + 12345u;
    out[i] = static_cast<std::uint8_t>((i < colours ? i : (s >> 16)) % colours);
  }
  return out;
}
inline std::vector<std::uint32_t> palette(std::uint32_t colours, std::uint32_t seed, std::uint8_t max_alpha = 0x80) {
  std::vector<std::uint32_t> out(colours);
  for (std::uint32_t k = 0; k < colours; ++k) {
    const std::uint32_t v = (k + seed) * 2654435761u;
    // Alpha spans 0..max_alpha, 0x80 (opaque) and 0 included.
    const std::uint8_t a = k == 0 ? 0 : k == 1 ? max_alpha : static_cast<std::uint8_t>((v >> 24) % (max_alpha + 1u));
    out[k] = rgba(std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(k * 7 + seed), a);
  }
  return out;
}

// The standard fixture of the tests, in either layout: an 8-bit 72x32 texture (NPOT) in a
// 128x32 one, a 4-bit 24x24 in a 32x32 at (8, 4) whose CLUT has CSAX 1 and CSAY 2, a second
// 4-bit texture sharing that CLUT, and an 8-bit 16x16 whose alpha reaches 0xFF (above 0x80).
inline File standard(bool mc) {
  File f;
  f.mc = mc;
  f.image_rows = 96;  // 3 pages
  f.clut_rows = 32;
  Texture a;  // null_msk.bmp
  a.id = 0xB7E31E;
  a.psm = kPsmt8, a.tw = 7, a.th = 5, a.width = 72, a.height = 32;
  a.tbp0 = 0, a.tbw = 2, a.cbp = 0, a.csa = 0;
  a.indices = pattern(72, 32, 256, 1);
  a.clut = palette(256, 3);
  Texture b;  // 4-bit, sub-rectangle not at the origin
  b.id = 0x123456;
  b.psm = kPsmt4, b.tw = 5, b.th = 5, b.x = 8, b.y = 4, b.width = 24, b.height = 24;
  b.tbp0 = 32, b.tbw = 2, b.cbp = 4, b.csa = 1 | (2 << 1);  // CSAX 1, CSAY 2
  b.indices = pattern(24, 24, 16, 2);
  b.clut = palette(16, 5);
  b.tex_type = 66;
  Texture c = b;  // another 4-bit texture reading the same CLUT
  c.id = 0x654321;
  c.x = 0, c.y = 0, c.width = 16, c.height = 16, c.tw = 4, c.th = 4;
  c.tbp0 = 32 + 16;  // the same page, lower half (4-bit pages are 128x128)
  c.indices = pattern(16, 16, 16, 3);
  c.write_clut = false;
  c.tex_type = 88;
  Texture d;  // 8-bit, alpha above 0x80
  d.id = 0x0A1B2C;
  d.psm = kPsmt8, d.tw = 4, d.th = 4, d.width = 16, d.height = 16;
  d.tbp0 = 64, d.tbw = 2, d.cbp = 8, d.csa = 0;
  d.indices = pattern(16, 16, 256, 4);
  d.clut = palette(256, 9, 0xFF);
  f.textures = {a, b, c, d};
  return f;
}

}  // namespace boneyard::test::trifx
