// Hand-built DDS and CTXR files for the texture tests: every field set explicitly, so that a test
// states the bytes it reads.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"

namespace boneyard::test {

struct DdsSpec {
  std::uint32_t width = 4, height = 4, mips = 1;
  std::uint32_t flags = 0x1 | 0x2 | 0x4 | 0x1000;  // CAPS HEIGHT WIDTH PIXELFORMAT
  std::uint32_t pitch = 0;
  std::uint32_t pf_flags = 0x4;  // FOURCC
  std::string fourcc = "DXT1";
  std::uint32_t bits = 0;
  std::array<std::uint32_t, 4> masks{};
  std::uint32_t caps = 0x1000, caps2 = 0;
  bool dx10 = false;
  std::uint32_t dxgi = 0, dimension = 3, misc = 0, array_size = 1;
  std::vector<std::uint8_t> data;  // everything after the header(s)
};

inline std::vector<std::uint8_t> dds_bytes(const DdsSpec& s) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  w.u32(0x20534444);  // "DDS "
  w.u32(124);
  w.u32(s.flags | (s.mips > 1 ? 0x20000u : 0u));
  w.u32(s.height);
  w.u32(s.width);
  w.u32(s.pitch);
  w.u32(0);
  w.u32(s.mips);
  w.zeros(44);
  w.u32(32);
  w.u32(s.pf_flags);
  std::uint32_t cc = 0;
  for (std::size_t i = 0; i < 4 && i < s.fourcc.size(); ++i) cc |= std::uint32_t(std::uint8_t(s.fourcc[i])) << (8 * i);
  w.u32(s.pf_flags & 0x4 ? cc : 0);
  w.u32(s.bits);
  for (auto m : s.masks) w.u32(m);
  w.u32(s.caps);
  w.u32(s.caps2);
  w.zeros(12);
  if (s.dx10) {
    w.u32(s.dxgi);
    w.u32(s.dimension);
    w.u32(s.misc);
    w.u32(s.array_size);
    w.u32(0);
  }
  w.bytes(Bytes(s.data.data(), s.data.size()));
  return out;
}

// A DXT1 block of two RGB565 colours and 2-bit indices (row 0 in the low byte).
inline std::vector<std::uint8_t> dxt1_block(std::uint16_t c0, std::uint16_t c1, std::uint32_t indices) {
  std::vector<std::uint8_t> b;
  ByteWriter w(b);
  w.u16(c0);
  w.u16(c1);
  w.u32(indices);
  return b;
}

// A BC4 (= DXT5 alpha) block: two endpoints and 3-bit indices (48 bits, little-endian).
inline std::vector<std::uint8_t> bc4_block(std::uint8_t a0, std::uint8_t a1, std::uint64_t indices) {
  std::vector<std::uint8_t> b = {a0, a1};
  for (int i = 0; i < 6; ++i) b.push_back(std::uint8_t(indices >> (8 * i)));
  return b;
}

inline std::vector<std::uint8_t> repeat(const std::vector<std::uint8_t>& part, std::size_t n) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < n; ++i) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// A CTXR: header as the tools write it, then levels of `w` x `h` halving, pixels given as BGRA
// bytes (level i filled with `bgra[i % 4]`), each padded to 32 bytes.
inline std::vector<std::uint8_t> ctxr_bytes(std::uint16_t w, std::uint16_t h, std::uint8_t mips,
                                            const std::vector<std::array<std::uint8_t, 4>>& fill) {
  std::vector<std::uint8_t> o = {'T', 'X', 'T', 'R', 0, 0, 0, 7};
  auto be16 = [&](std::uint16_t v) { o.push_back(std::uint8_t(v >> 8)), o.push_back(std::uint8_t(v)); };
  be16(w), be16(h), be16(1), be16(0), be16(0), be16(0x100);
  for (int i = 0; i < 18; ++i) o.push_back(i >= 3 && i < 13 ? 0xFF : 0);
  o.push_back(mips);
  o.push_back(0);
  o.resize(0x80, 0);
  for (unsigned l = 0; l < mips; ++l) {
    const std::uint32_t lw = std::max(1u, unsigned{w} >> l), lh = std::max(1u, unsigned{h} >> l);
    const std::uint32_t size = lw * lh * 4;
    for (int s = 24; s >= 0; s -= 8) o.push_back(std::uint8_t(size >> s));
    for (std::uint32_t p = 0; p < lw * lh; ++p) {
      const auto& c = fill[l % fill.size()];
      o.insert(o.end(), c.begin(), c.end());
    }
    while (o.size() % 32 != 0) o.push_back(0);
  }
  return o;
}

}  // namespace boneyard::test
