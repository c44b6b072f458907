// What `info`, `dump` and `validate` show of a DDS (docs/textures.md "Checks").
#include <string>

#include "boneyard/texture/dds/dds.h"
#include "boneyard/texture/dds/dds_report.h"
#include "dds_internal.h"
#include "texture/size_text.h"

namespace boneyard::texture {

namespace {

std::string codec_name(DdsCodec c) {
  switch (c) {
    case DdsCodec::bc1: return "bc1";
    case DdsCodec::bc2: return "bc2";
    case DdsCodec::bc3: return "bc3";
    case DdsCodec::bc4: return "bc4";
    case DdsCodec::bc5: return "bc5";
    case DdsCodec::masks: return "uncompressed";
    case DdsCodec::unsupported: return "unsupported";
  }
  return "?";
}

void header_checks(const DdsFile& dds, Diagnostics& d) {
  const DdsHeader& h = dds.header;
  const std::uint32_t required = kDdsdCaps | kDdsdHeight | kDdsdWidth | kDdsdPixelFormat;
  if ((h.flags & required) != required)
    d.add(Severity::info, 8, "flags", "required header flags missing (DDSD_CAPS, HEIGHT, WIDTH, PIXELFORMAT; readers ignore them)",
          hex(h.flags | required), hex(h.flags));
  if (h.format.size != 32)
    d.add(Severity::warning, 76, "pixel format size", "DDS_PIXELFORMAT size is not 32", "32", std::to_string(h.format.size));
  if (h.mip_map_count > 1 && !(h.flags & kDdsdMipMapCount))
    d.add(Severity::info, 8, "flags", "mipMapCount is set without DDSD_MIPMAPCOUNT (readers use the count anyway)",
          hex(h.flags | kDdsdMipMapCount), hex(h.flags));
  if (!(h.caps & kDdsCapsTexture))
    d.add(Severity::info, 108, "caps", "DDSCAPS_TEXTURE not set", hex(h.caps | kDdsCapsTexture), hex(h.caps));
  if (dds.encoding.codec == DdsCodec::unsupported) return;
  const std::uint64_t top = level_bytes(dds.encoding, h.width, h.height);
  if (dds.encoding.block_bytes && (h.flags & kDdsdLinearSize) && h.pitch_or_linear_size != top)
    d.add(Severity::info, 20, "pitchOrLinearSize", "linear size differs from the top level's size (readers compute it)",
          std::to_string(top), std::to_string(h.pitch_or_linear_size));
  const std::uint64_t pitch = (std::uint64_t{h.width} * dds.encoding.bits_per_pixel + 7) / 8;
  if (!dds.encoding.block_bytes && (h.flags & kDdsdPitch) && h.pitch_or_linear_size != pitch)
    d.add(Severity::info, 20, "pitchOrLinearSize", "pitch differs from the packed row size (rows are read packed)",
          std::to_string(pitch), std::to_string(h.pitch_or_linear_size));
  if (dds.encoding.block_bytes && (h.width % 4 != 0 || h.height % 4 != 0))
    d.add(Severity::info, 12, "width x height", "block-compressed size not a multiple of 4 (Direct3D 9 refuses it)",
          "multiples of 4", size_text(h.width, h.height));
}

}  // namespace

Diagnostics validate_dds(const DdsFile& dds) {
  Diagnostics d;
  (void)read_dds(dds.file, &d);
  header_checks(dds, d);
  if (!check_decoded_pixels(dds.header.width, dds.header.height, 12, {}))
    d.add(Severity::warning, 12, "width x height", "too many pixels to decode: read, checked and rewritten, not converted",
          "at most " + std::to_string(kMaxTexturePixels) + " pixels",
          std::to_string(dds.header.width) + "x" + std::to_string(dds.header.height));
  d.sort_by_offset();
  return d;
}

std::string describe_dds(const DdsFile& dds) {
  const DdsHeader& h = dds.header;
  const DdsEncoding& e = dds.encoding;
  std::string s = "format: DDS, " + e.name;
  if (e.block_bytes) s += " (block-compressed, " + std::to_string(e.block_bytes) + " bytes per 4x4 block)";
  else if (e.codec == DdsCodec::masks) s += " (uncompressed, " + std::to_string(e.bits_per_pixel) + " bits per pixel)";
  else s += " (not decodable)";
  if (e.premultiplied) s += ", premultiplied alpha";
  if (e.srgb) s += ", sRGB";
  s += "\nsize: " + size_text(h.width, h.height) + "\n";
  s += "mip levels: " + std::to_string(dds.declared_mips) + " declared, " + std::to_string(dds.mips) + " stored";
  if (dds.mips > 0) {
    const DdsLevel* last = dds.level(0, dds.mips - 1);
    s += " (" + size_text(h.width, h.height) + (last && dds.mips > 1 ? " .. " + size_text(last->width, last->height) : "") + ")";
  }
  s += "\n";
  if (dds.cube) s += "cube map: " + std::to_string(dds.faces) + " face(s)\n";
  if (h.dx10)
    s += "DX10 header: dxgiFormat " + std::to_string(h.dx10->dxgi_format) + ", dimension " +
         std::to_string(h.dx10->dimension) + ", miscFlag " + hex(h.dx10->misc_flag) + ", arraySize " +
         std::to_string(h.dx10->array_size) + "\n";
  s += "header: flags " + hex(h.flags) + ", caps " + hex(h.caps) + ", caps2 " + hex(h.caps2) + ", pitchOrLinearSize " +
       std::to_string(h.pitch_or_linear_size) + "\n";
  std::uint64_t data = 0;
  for (const auto& l : dds.levels) data += l.data.size();
  s += "data: " + std::to_string(data) + " bytes in " + std::to_string(dds.levels.size()) + " level(s) from byte " +
       std::to_string(dds.data_offset);
  if (!dds.tail.empty()) s += ", " + std::to_string(dds.tail.size()) + " bytes after them";
  s += "\n";
  return s;
}

void dump_dds(JsonWriter& w, const DdsFile& dds, bool raw) {
  const DdsHeader& h = dds.header;
  const DdsEncoding& e = dds.encoding;
  w.begin_object();
  w.field("format", "dds");
  w.field("width", h.width);
  w.field("height", h.height);
  w.field("encoding", e.name);
  w.field("codec", codec_name(e.codec));
  if (e.codec == DdsCodec::masks) {
    w.field("bits_per_pixel", e.bits_per_pixel);
    w.key("masks").begin_array();
    for (auto m : e.masks) w.value(m);
    w.end_array();
  }
  w.field("premultiplied", e.premultiplied);
  w.field("srgb", e.srgb);
  w.field("cube", dds.cube);
  w.field("faces", dds.faces);
  w.field("mips_declared", dds.declared_mips);
  w.field("mips_stored", dds.mips);
  w.key("levels").begin_array();
  for (const auto& l : dds.levels) {
    w.begin_object();
    w.field("face", l.face);
    w.field("level", l.level);
    w.field("width", l.width);
    w.field("height", l.height);
    w.field("offset", l.offset);
    w.field("bytes", static_cast<std::uint64_t>(l.data.size()));
    w.end_object();
  }
  w.end_array();
  w.field("trailing_bytes", static_cast<std::uint64_t>(dds.tail.size()));
  if (raw) {
    w.key("header").begin_object();
    w.field("size", h.size);
    w.field("flags", h.flags);
    w.field("pitch_or_linear_size", h.pitch_or_linear_size);
    w.field("depth", h.depth);
    w.field("mip_map_count", h.mip_map_count);
    w.key("reserved1").begin_array();
    for (auto v : h.reserved1) w.value(v);
    w.end_array();
    w.key("pixel_format").begin_object();
    w.field("size", h.format.size);
    w.field("flags", h.format.flags);
    w.field("fourcc", h.format.fourcc);
    w.field("bit_count", h.format.bit_count);
    w.key("masks").begin_array();
    for (auto m : h.format.masks) w.value(m);
    w.end_array();
    w.end_object();
    w.field("caps", h.caps);
    w.field("caps2", h.caps2);
    w.field("caps3", h.caps3);
    w.field("caps4", h.caps4);
    w.field("reserved2", h.reserved2);
    if (h.dx10) {
      w.key("dx10").begin_object();
      w.field("dxgi_format", h.dx10->dxgi_format);
      w.field("resource_dimension", h.dx10->dimension);
      w.field("misc_flag", h.dx10->misc_flag);
      w.field("array_size", h.dx10->array_size);
      w.field("misc_flags2", h.dx10->misc_flags2);
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
}

}  // namespace boneyard::texture
