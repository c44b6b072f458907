// Image helpers: alpha classification and the mip filter (docs/textures.md "Mip levels").
#include <algorithm>
#include <array>
#include <cmath>

#include "boneyard/texture/texture.h"

namespace boneyard::texture {

namespace {

// sRGB transfer function (IEC 61966-2-1) both ways.
const std::array<float, 256>& srgb_to_linear_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) {
      const double c = i / 255.0;
      t[static_cast<std::size_t>(i)] = static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
    }
    return t;
  }();
  return table;
}

std::uint8_t linear_to_srgb(double l) {
  l = std::clamp(l, 0.0, 1.0);
  const double c = l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
  return static_cast<std::uint8_t>(std::lround(c * 255.0));
}

}  // namespace

Status check_decoded_pixels(std::uint64_t width, std::uint64_t height, std::uint64_t offset, std::string path) {
  if (width == 0 || height <= kMaxTexturePixels / width) return {};
  return Finding{Severity::error, offset, std::move(path), "too many pixels to decode",
                 "at most " + std::to_string(kMaxTexturePixels) + " pixels (8192x8192, " +
                     std::to_string(kMaxTextureBytes >> 20) + " MiB as RGBA)",
                 std::to_string(width) + "x" + std::to_string(height) +
                     (width >> 32 || height >> 32 ? std::string() : " = " + std::to_string(width * height) + " pixels")};
}

AlphaKind alpha_kind_of(const std::uint8_t* rgba, std::size_t pixels) {
  AlphaKind kind = AlphaKind::opaque;
  for (std::size_t i = 0; i < pixels; ++i) {
    const std::uint8_t a = rgba[i * 4 + 3];
    if (a == 255) continue;
    if (a != 0) return AlphaKind::graded;
    kind = AlphaKind::binary;
  }
  return kind;
}

AlphaKind alpha_kind(const Image& image) { return alpha_kind_of(image.rgba.data(), image.rgba.size() / 4); }

AlphaKind combine(AlphaKind a, AlphaKind b) { return std::max(a, b); }

std::string_view alpha_kind_name(AlphaKind kind) {
  switch (kind) {
    case AlphaKind::opaque: return "opaque";
    case AlphaKind::binary: return "binary";
    case AlphaKind::graded: return "graded";
  }
  return "?";
}

unsigned full_mip_count(std::uint32_t width, std::uint32_t height) {
  std::uint32_t m = std::max(width, height);
  unsigned n = 1;
  while (m > 1) m >>= 1, ++n;
  return n;
}

Image next_mip(const Image& src) {
  Image dst;
  dst.width = std::max<std::uint32_t>(1, src.width / 2);
  dst.height = std::max<std::uint32_t>(1, src.height / 2);
  dst.rgba.resize(std::size_t{dst.width} * dst.height * 4);
  const auto& lin = srgb_to_linear_table();
  for (std::uint32_t y = 0; y < dst.height; ++y) {
    const std::uint32_t y0 = std::min(y * 2, src.height - 1), y1 = std::min(y * 2 + 1, src.height - 1);
    for (std::uint32_t x = 0; x < dst.width; ++x) {
      const std::uint32_t x0 = std::min(x * 2, src.width - 1), x1 = std::min(x * 2 + 1, src.width - 1);
      // A 1-pixel-wide source covers each texel once: the pairs collapse to the same pixel.
      const std::uint32_t xs[2] = {x0, x1}, ys[2] = {y0, y1};
      const int nx = x1 != x0 ? 2 : 1, ny = y1 != y0 ? 2 : 1;
      double c[3] = {0, 0, 0};
      unsigned a = 0;
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          const std::uint8_t* p = &src.rgba[(std::size_t{ys[j]} * src.width + xs[i]) * 4];
          for (int k = 0; k < 3; ++k) c[k] += lin[p[k]];
          a += p[3];
        }
      const int n = nx * ny;
      std::uint8_t* q = &dst.rgba[(std::size_t{y} * dst.width + x) * 4];
      for (int k = 0; k < 3; ++k) q[k] = linear_to_srgb(c[k] / n);
      q[3] = static_cast<std::uint8_t>((a + static_cast<unsigned>(n) / 2) / static_cast<unsigned>(n));
    }
  }
  return dst;
}

}  // namespace boneyard::texture
