// DDS pixels both ways. Block-compressed levels go through libsquish (Debian's libsquish-dev);
// uncompressed ones are unpacked by their channel masks.
#include <squish.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "boneyard/texture/dds/dds.h"
#include "dds_internal.h"

namespace boneyard::texture {

namespace {

// Debian's libsquish 1.15 declares kBc4/kBc5 but decodes such blocks as DXT1 (measured: a BC4
// block of constant 200 comes out as colours). A BC4 block has exactly the layout of the alpha
// half of a DXT5 block, so each one is decoded as the alpha of a DXT5 block whose colour half is 0.
void decode_bc4_block(const std::uint8_t* block, std::uint8_t out[16]) {
  std::uint8_t dxt5[16] = {};
  std::memcpy(dxt5, block, 8);
  std::uint8_t rgba[64];
  squish::Decompress(rgba, dxt5, squish::kDxt5);
  for (int i = 0; i < 16; ++i) out[i] = rgba[i * 4 + 3];

}

void decode_bc45(const DdsEncoding& e, const DdsLevel& l, Image& im) {
  const bool two = e.codec == DdsCodec::bc5;
  const std::uint32_t bw = (l.width + 3) / 4, bh = (l.height + 3) / 4;
  for (std::uint32_t by = 0; by < bh; ++by)
    for (std::uint32_t bx = 0; bx < bw; ++bx) {
      const std::uint8_t* block = l.data.data() + (std::size_t{by} * bw + bx) * e.block_bytes;
      std::uint8_t r[16], g[16] = {};
      decode_bc4_block(block, r);
      if (two) decode_bc4_block(block + 8, g);
      for (int py = 0; py < 4; ++py)
        for (int px = 0; px < 4; ++px) {
          const std::uint32_t x = bx * 4 + static_cast<std::uint32_t>(px), y = by * 4 + static_cast<std::uint32_t>(py);
          if (x >= l.width || y >= l.height) continue;
          std::uint8_t* p = &im.rgba[(std::size_t{y} * l.width + x) * 4];
          const int i = py * 4 + px;
          p[0] = r[i];
          p[1] = two ? g[i] : r[i];
          p[2] = two ? 0 : r[i];
          p[3] = 255;
        }
    }
}

// One channel by its mask, scaled to 8 bits (rounded); `none` when the mask is empty.
std::uint8_t channel(std::uint32_t v, std::uint32_t mask, std::uint8_t none) {
  if (mask == 0) return none;
  const int shift = std::countr_zero(mask);
  const std::uint64_t max = mask >> shift;
  const std::uint64_t value = (v & mask) >> shift;
  return static_cast<std::uint8_t>((value * 255 + max / 2) / max);
}

void decode_masks(const DdsEncoding& e, const DdsLevel& l, Image& im) {
  const unsigned bpp = e.bits_per_pixel / 8;
  const std::size_t pitch = (std::size_t{l.width} * e.bits_per_pixel + 7) / 8;
  for (std::uint32_t y = 0; y < l.height; ++y) {
    const std::uint8_t* row = l.data.data() + pitch * y;
    std::uint8_t* out = &im.rgba[std::size_t{y} * l.width * 4];
    for (std::uint32_t x = 0; x < l.width; ++x, row += bpp, out += 4) {
      std::uint32_t v = 0;
      for (unsigned k = 0; k < bpp; ++k) v |= std::uint32_t{row[k]} << (8 * k);
      if (e.luminance) {
        out[0] = out[1] = out[2] = channel(v, e.masks[0], 0);
      } else {
        out[0] = channel(v, e.masks[0], 0);
        out[1] = channel(v, e.masks[1], 0);
        out[2] = channel(v, e.masks[2], 0);
      }
      out[3] = channel(v, e.masks[3], 255);
    }
  }
}

}  // namespace

Status check_decodable(const DdsFile& dds, unsigned face, unsigned level) {
  const DdsEncoding& e = dds.encoding;
  if (e.codec == DdsCodec::unsupported)
    return Finding{Severity::error, 84, "pixel format", "cannot decode this pixel format",
                   "DXT1-DXT5, ATI1/BC4, ATI2/BC5 or uncompressed 8-32 bit", e.name};
  const DdsLevel* l = dds.level(face, level);
  const std::string where = (dds.cube ? "face " + std::string(kCubeFaceNames[std::min(face, 5u)]) + " " : std::string()) +
                            "level " + std::to_string(level);
  if (l == nullptr)
    return Finding{Severity::error, dds.data_offset, where, "level not stored (or truncated)",
                   "one of " + std::to_string(dds.faces) + " face(s) x " + std::to_string(dds.declared_mips) + " level(s)",
                   std::to_string(dds.levels.size()) + " complete level(s)"};
  // The size comes from the header's height and width (offsets 12 and 16).
  return check_decoded_pixels(l->width, l->height, 12, where);
}

Result<Image> decode_dds(const DdsFile& dds, unsigned face, unsigned level) {
  if (auto ok = check_decodable(dds, face, level); !ok) return ok.error();
  const DdsEncoding& e = dds.encoding;
  const DdsLevel* l = dds.level(face, level);
  Image im;
  im.width = l->width;
  im.height = l->height;
  im.rgba.resize(std::size_t{im.width} * im.height * 4);
  switch (e.codec) {
    case DdsCodec::bc1:
    case DdsCodec::bc2:
    case DdsCodec::bc3: {
      const int flags = e.codec == DdsCodec::bc1 ? squish::kDxt1 : e.codec == DdsCodec::bc2 ? squish::kDxt3 : squish::kDxt5;
      squish::DecompressImage(im.rgba.data(), static_cast<int>(im.width), static_cast<int>(im.height), l->data.data(), flags);
      break;
    }
    case DdsCodec::bc4:
    case DdsCodec::bc5: decode_bc45(e, *l, im); break;
    case DdsCodec::masks: decode_masks(e, *l, im); break;
    case DdsCodec::unsupported: break;
  }
  return im;
}

std::optional<DdsOutputFormat> parse_dds_output_format(std::string_view name) {
  if (name == "dxt1") return DdsOutputFormat::dxt1;
  if (name == "dxt5") return DdsOutputFormat::dxt5;
  if (name == "rgba") return DdsOutputFormat::rgba;
  return std::nullopt;
}

Result<std::vector<std::uint8_t>> build_dds(const Image& image, const DdsBuildOptions& o) {
  // The size before the pixels: an image may not hold more than one decode makes.
  if (auto ok = check_decoded_pixels(image.width, image.height, 0, {}); !ok) return ok.error();
  if (image.width == 0 || image.height == 0 || image.width > kMaxDimension || image.height > kMaxDimension ||
      image.rgba.size() != std::size_t{image.width} * image.height * 4)
    return Finding{Severity::error, 0, {}, "cannot write a DDS of this size",
                   "1.." + std::to_string(kMaxDimension) + " each way",
                   std::to_string(image.width) + "x" + std::to_string(image.height)};
  DdsOutputFormat format = o.format;
  if (format == DdsOutputFormat::automatic)
    format = alpha_kind(image) == AlphaKind::opaque ? DdsOutputFormat::dxt1 : DdsOutputFormat::dxt5;
  DdsEncoding e;
  if (format == DdsOutputFormat::rgba) {
    e.codec = DdsCodec::masks;
    e.bits_per_pixel = 32;
  } else {
    e.codec = format == DdsOutputFormat::dxt1 ? DdsCodec::bc1 : DdsCodec::bc3;
    e.block_bytes = format == DdsOutputFormat::dxt1 ? 8 : 16;
  }
  const unsigned mips = o.mips ? full_mip_count(image.width, image.height) : 1;
  const bool compressed = e.block_bytes != 0;

  // The whole file's size first, so that it is allocated once (no doubling while it grows).
  std::uint64_t size = kDdsHeaderSize;
  for (unsigned l = 0; l < mips; ++l) size += level_bytes(e, std::max(1u, image.width >> l), std::max(1u, image.height >> l));
  std::vector<std::uint8_t> out;
  out.reserve(size);
  ByteWriter w(out);
  w.u32(kDdsMagic);
  w.u32(124);
  w.u32(kDdsdCaps | kDdsdHeight | kDdsdWidth | kDdsdPixelFormat | kDdsdMipMapCount | (compressed ? kDdsdLinearSize : kDdsdPitch));
  w.u32(image.height);
  w.u32(image.width);
  w.u32(static_cast<std::uint32_t>(compressed ? level_bytes(e, image.width, image.height) : std::uint64_t{image.width} * 4));
  w.u32(0);  // depth
  w.u32(mips);
  w.zeros(44);
  w.u32(32);
  if (compressed) {
    w.u32(kDdpfFourCC);
    w.bytes(std::string_view(format == DdsOutputFormat::dxt1 ? "DXT1" : "DXT5"));
    w.zeros(20);
  } else {
    w.u32(kDdpfRgb | kDdpfAlphaPixels);
    w.u32(0);
    w.u32(32);
    w.u32(0x00FF0000), w.u32(0x0000FF00), w.u32(0x000000FF), w.u32(0xFF000000);
  }
  w.u32(kDdsCapsTexture | (mips > 1 ? kDdsCapsComplex | kDdsCapsMipMap : 0));
  w.zeros(16);  // caps2, caps3, caps4, reserved2

  // Each level from the one above, the top one being the image itself: at most two levels besides
  // the image are held.
  Image mip;
  for (unsigned i = 0; i < mips; ++i) {
    if (i > 0) mip = next_mip(i == 1 ? image : mip);
    const Image& level = i == 0 ? image : mip;
    const std::size_t at = out.size();
    out.resize(at + level_bytes(e, level.width, level.height));
    if (compressed) {
      const int flags = (format == DdsOutputFormat::dxt1 ? squish::kDxt1 : squish::kDxt5) | squish::kColourClusterFit;
      squish::CompressImage(level.rgba.data(), static_cast<int>(level.width), static_cast<int>(level.height),
                            out.data() + at, flags);
    } else {
      std::uint8_t* d = out.data() + at;
      for (std::size_t p = 0; p < level.rgba.size(); p += 4) {
        d[p] = level.rgba[p + 2], d[p + 1] = level.rgba[p + 1], d[p + 2] = level.rgba[p], d[p + 3] = level.rgba[p + 3];
      }
    }
  }
  return out;
}

}  // namespace boneyard::texture
