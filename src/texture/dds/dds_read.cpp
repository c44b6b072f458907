// DDS reading: the header, the pixel format and where every level is. Sizes are computed in 64
// bits and compared with the bytes present before anything uses them.
#include <algorithm>
#include <cstdio>

#include "boneyard/texture/dds/dds.h"
#include "boneyard/texture/dds/dds_report.h"
#include "core/byte_reader.h"
#include "dds_internal.h"

namespace boneyard::texture {

namespace {

std::string fourcc_text(std::uint32_t v) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((v >> (8 * i)) & 0xFF);
    if (c >= 0x20 && c < 0x7F) {
      s += c;
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
      s += b;
    }
  }
  return "'" + s + "' (" + hex(v) + ")";
}

constexpr std::uint32_t fourcc(const char (&s)[5]) {
  return std::uint32_t(std::uint8_t(s[0])) | std::uint32_t(std::uint8_t(s[1])) << 8 |
         std::uint32_t(std::uint8_t(s[2])) << 16 | std::uint32_t(std::uint8_t(s[3])) << 24;
}

DdsEncoding bc(DdsCodec codec, std::string name, unsigned block) {
  DdsEncoding e;
  e.codec = codec;
  e.name = std::move(name);
  e.block_bytes = block;
  return e;
}

// A DXGI format of the DX10 header.
DdsEncoding from_dxgi(std::uint32_t f) {
  struct Known {
    std::uint32_t id;
    const char* name;
    DdsCodec codec;
    unsigned block, bits;
    bool srgb;
  };
  static constexpr Known kKnown[] = {
      {70, "BC1_TYPELESS", DdsCodec::bc1, 8, 0, false},   {71, "BC1_UNORM", DdsCodec::bc1, 8, 0, false},
      {72, "BC1_UNORM_SRGB", DdsCodec::bc1, 8, 0, true},  {73, "BC2_TYPELESS", DdsCodec::bc2, 16, 0, false},
      {74, "BC2_UNORM", DdsCodec::bc2, 16, 0, false},     {75, "BC2_UNORM_SRGB", DdsCodec::bc2, 16, 0, true},
      {76, "BC3_TYPELESS", DdsCodec::bc3, 16, 0, false},  {77, "BC3_UNORM", DdsCodec::bc3, 16, 0, false},
      {78, "BC3_UNORM_SRGB", DdsCodec::bc3, 16, 0, true}, {79, "BC4_TYPELESS", DdsCodec::bc4, 8, 0, false},
      {80, "BC4_UNORM", DdsCodec::bc4, 8, 0, false},      {82, "BC5_TYPELESS", DdsCodec::bc5, 16, 0, false},
      {83, "BC5_UNORM", DdsCodec::bc5, 16, 0, false},     {27, "R8G8B8A8_TYPELESS", DdsCodec::masks, 0, 32, false},
      {28, "R8G8B8A8_UNORM", DdsCodec::masks, 0, 32, false}, {29, "R8G8B8A8_UNORM_SRGB", DdsCodec::masks, 0, 32, true},
      {87, "B8G8R8A8_UNORM", DdsCodec::masks, 0, 32, false}, {88, "B8G8R8X8_UNORM", DdsCodec::masks, 0, 32, false},
      {90, "B8G8R8A8_TYPELESS", DdsCodec::masks, 0, 32, false}, {91, "B8G8R8A8_UNORM_SRGB", DdsCodec::masks, 0, 32, true},
      {92, "B8G8R8X8_TYPELESS", DdsCodec::masks, 0, 32, false}, {93, "B8G8R8X8_UNORM_SRGB", DdsCodec::masks, 0, 32, true},
      {61, "R8_UNORM", DdsCodec::masks, 0, 8, false},      {65, "A8_UNORM", DdsCodec::masks, 0, 8, false},
  };
  DdsEncoding e;
  e.name = "DX10 DXGI format " + std::to_string(f);
  for (const auto& k : kKnown) {
    if (k.id != f) continue;
    e.name = std::string("DX10 ") + k.name;
    e.codec = k.codec;
    e.block_bytes = k.block;
    e.bits_per_pixel = k.bits;
    e.srgb = k.srgb;
    if (k.codec == DdsCodec::masks) {
      const bool bgr = f >= 87;
      if (f == 61) e.masks = {0xFF, 0, 0, 0}, e.luminance = true;
      else if (f == 65) e.masks = {0, 0, 0, 0xFF};
      else if (bgr) e.masks = {0xFF0000, 0xFF00, 0xFF, (f == 88 || f == 92 || f == 93) ? 0u : 0xFF000000u};
      else e.masks = {0xFF, 0xFF00, 0xFF0000, 0xFF000000};
    }
    break;
  }
  return e;
}

// The name D3D9 gives an uncompressed format ("A8R8G8B8"), or a description of its masks.
std::string masks_name(const DdsEncoding& e) {
  struct Named {
    unsigned bits;
    std::array<std::uint32_t, 4> masks;
    const char* name;
  };
  static constexpr Named kNamed[] = {
      {32, {0xFF0000, 0xFF00, 0xFF, 0xFF000000}, "A8R8G8B8"}, {32, {0xFF0000, 0xFF00, 0xFF, 0}, "X8R8G8B8"},
      {32, {0xFF, 0xFF00, 0xFF0000, 0xFF000000}, "A8B8G8R8"}, {32, {0xFF, 0xFF00, 0xFF0000, 0}, "X8B8G8R8"},
      {24, {0xFF0000, 0xFF00, 0xFF, 0}, "R8G8B8"},           {24, {0xFF, 0xFF00, 0xFF0000, 0}, "B8G8R8"},
      {16, {0xF800, 0x7E0, 0x1F, 0}, "R5G6B5"},              {16, {0x7C00, 0x3E0, 0x1F, 0x8000}, "A1R5G5B5"},
      {16, {0x7C00, 0x3E0, 0x1F, 0}, "X1R5G5B5"},            {16, {0xF00, 0xF0, 0xF, 0xF000}, "A4R4G4B4"},
      {8, {0, 0, 0, 0xFF}, "A8"},
  };
  if (e.luminance) return e.masks[3] ? "A" + std::to_string(e.bits_per_pixel / 2) + "L" + std::to_string(e.bits_per_pixel / 2) : "L" + std::to_string(e.bits_per_pixel);
  for (const auto& n : kNamed)
    if (n.bits == e.bits_per_pixel && n.masks == e.masks) return n.name;
  return std::to_string(e.bits_per_pixel) + "-bit masks R " + hex(e.masks[0]) + " G " + hex(e.masks[1]) + " B " +
         hex(e.masks[2]) + " A " + hex(e.masks[3]);
}

// The encoding a header describes; unsupported ones carry a name and a finding.
DdsEncoding encoding_of(const DdsHeader& h, Diagnostics& notes) {
  const DdsPixelFormat& pf = h.format;
  if (pf.flags & kDdpfFourCC) {
    switch (pf.fourcc) {
      case fourcc("DXT1"): return bc(DdsCodec::bc1, "DXT1", 8);
      case fourcc("DXT2"): { auto e = bc(DdsCodec::bc2, "DXT2", 16); e.premultiplied = true; return e; }
      case fourcc("DXT3"): return bc(DdsCodec::bc2, "DXT3", 16);
      case fourcc("DXT4"): { auto e = bc(DdsCodec::bc3, "DXT4", 16); e.premultiplied = true; return e; }
      case fourcc("DXT5"): return bc(DdsCodec::bc3, "DXT5", 16);
      case fourcc("ATI1"): return bc(DdsCodec::bc4, "ATI1", 8);
      case fourcc("BC4U"): return bc(DdsCodec::bc4, "BC4U", 8);
      case fourcc("ATI2"): return bc(DdsCodec::bc5, "ATI2", 16);
      case fourcc("BC5U"): return bc(DdsCodec::bc5, "BC5U", 16);
      case fourcc("DX10"): {
        DdsEncoding e = from_dxgi(h.dx10 ? h.dx10->dxgi_format : 0);
        if (e.codec == DdsCodec::unsupported)
          notes.add(Severity::error, 128, "DX10 header dxgiFormat", "DXGI format not supported (not decoded)",
                    "BC1-BC5 or 8-bit RGBA/BGRA/R/A", std::to_string(h.dx10 ? h.dx10->dxgi_format : 0));
        return e;
      }
      default: break;
    }
    DdsEncoding e;
    e.name = "FourCC " + fourcc_text(pf.fourcc);
    notes.add(Severity::error, 84, "pixel format FourCC", "unknown FourCC (not decoded)",
              "DXT1-DXT5, ATI1, ATI2, BC4U, BC5U or DX10", fourcc_text(pf.fourcc));
    return e;
  }
  if (pf.flags & (kDdpfRgb | kDdpfLuminance | kDdpfAlpha)) {
    DdsEncoding e;
    e.codec = DdsCodec::masks;
    e.bits_per_pixel = pf.bit_count;
    e.luminance = (pf.flags & kDdpfLuminance) != 0;
    e.masks = pf.masks;
    if (!(pf.flags & (kDdpfAlphaPixels | kDdpfAlpha))) e.masks[3] = 0;  // the alpha mask is read only when flagged
    if (pf.flags & kDdpfAlpha && !(pf.flags & (kDdpfRgb | kDdpfLuminance))) e.masks[0] = e.masks[1] = e.masks[2] = 0;
    const bool bits_ok = pf.bit_count == 8 || pf.bit_count == 16 || pf.bit_count == 24 || pf.bit_count == 32;
    bool masks_ok = bits_ok;
    if (bits_ok) {
      const std::uint64_t limit = pf.bit_count == 32 ? 0xFFFFFFFFull : (std::uint64_t{1} << pf.bit_count) - 1;
      for (auto m : e.masks) masks_ok &= m <= limit;
      masks_ok &= (e.masks[0] | e.masks[1] | e.masks[2] | e.masks[3]) != 0;
    }
    if (!masks_ok) {
      notes.add(Severity::error, 88, "pixel format RGBBitCount", "uncompressed format not decodable",
                "8, 16, 24 or 32 bits with channel masks inside them", std::to_string(pf.bit_count) + " bits");
      e.codec = DdsCodec::unsupported;
    }
    e.name = masks_name(e);
    return e;
  }
  DdsEncoding e;
  e.name = "pixel format flags " + hex(pf.flags);
  notes.add(Severity::error, 80, "pixel format flags", "no FourCC, RGB, luminance or alpha flag: format unknown",
            "DDPF_FOURCC, DDPF_RGB, DDPF_LUMINANCE or DDPF_ALPHA", hex(pf.flags));
  return e;
}

DdsHeader parse_header(ByteReader& r) {
  DdsHeader h;
  r.u32("magic");
  h.size = r.u32("header size");
  h.flags = r.u32("flags");
  h.height = r.u32("height");
  h.width = r.u32("width");
  h.pitch_or_linear_size = r.u32("pitchOrLinearSize");
  h.depth = r.u32("depth");
  h.mip_map_count = r.u32("mipMapCount");
  for (auto& v : h.reserved1) v = r.u32("reserved");
  h.format.size = r.u32("pixel format size");
  h.format.flags = r.u32("pixel format flags");
  h.format.fourcc = r.u32("pixel format FourCC");
  h.format.bit_count = r.u32("pixel format RGBBitCount");
  for (auto& m : h.format.masks) m = r.u32("pixel format mask");
  h.caps = r.u32("caps");
  h.caps2 = r.u32("caps2");
  h.caps3 = r.u32("caps3");
  h.caps4 = r.u32("caps4");
  h.reserved2 = r.u32("reserved2");
  return h;
}

// Faces the header stores: 1, or the cube faces its caps2 bits name (DX10: 6 per array element).
unsigned face_count(const DdsHeader& h, bool& cube) {
  cube = false;
  if (h.dx10) {
    cube = (h.dx10->misc_flag & 0x4) != 0;
    return cube ? 6 : 1;
  }
  if (!(h.caps2 & kDdsCaps2Cubemap)) return 1;
  cube = true;
  unsigned n = 0;
  for (unsigned bit = 0x400; bit <= 0x8000; bit <<= 1) n += (h.caps2 & bit) ? 1 : 0;
  return n;
}

}  // namespace

std::uint64_t level_bytes(const DdsEncoding& e, std::uint32_t w, std::uint32_t h) {
  if (e.block_bytes) return std::uint64_t{(w + 3) / 4} * ((h + 3) / 4) * e.block_bytes;
  return (std::uint64_t{w} * e.bits_per_pixel + 7) / 8 * h;
}

const DdsLevel* DdsFile::level(unsigned face, unsigned lv) const {
  for (const auto& l : levels)
    if (l.face == face && l.level == lv) return &l;
  return nullptr;
}

std::uint64_t DdsFile::size() const { return file ? file->bytes().size() : 0; }

Result<DdsFile> read_dds(std::shared_ptr<const FileData> file, Diagnostics* notes_out) {
  Diagnostics scratch;
  Diagnostics& notes = notes_out ? *notes_out : scratch;
  DdsFile dds;
  dds.file = std::move(file);
  const Bytes bytes = dds.file->bytes();
  auto parsed = catch_parse_errors([&]() -> DdsHeader {
    ByteReader r(bytes, 0);
    if (bytes.size() >= 4 && load_le<std::uint32_t>(bytes.data()) != kDdsMagic)
      fail(0, "magic", "not a DDS file", "'DDS '", fourcc_text(load_le<std::uint32_t>(bytes.data())));
    DdsHeader h = parse_header(r);
    if (h.format.flags & kDdpfFourCC && h.format.fourcc == fourcc("DX10")) {
      DdsDx10 x;
      x.dxgi_format = r.u32("DX10 header dxgiFormat");
      x.dimension = r.u32("DX10 header resourceDimension");
      x.misc_flag = r.u32("DX10 header miscFlag");
      x.array_size = r.u32("DX10 header arraySize");
      x.misc_flags2 = r.u32("DX10 header miscFlags2");
      h.dx10 = x;
    }
    return h;
  });
  if (!parsed) return parsed.error();
  DdsHeader& h = parsed.value();
  dds.header = h;
  dds.data_offset = kDdsHeaderSize + (h.dx10 ? kDdsDx10HeaderSize : 0);
  if (h.width == 0 || h.height == 0)
    return Finding{Severity::error, h.width == 0 ? 16u : 12u, h.width == 0 ? "width" : "height", "empty texture",
                   "1.." + std::to_string(kMaxDimension), "0"};
  if (h.width > kMaxDimension || h.height > kMaxDimension)
    return Finding{Severity::error, h.width > kMaxDimension ? 16u : 12u, "width x height",
                   "texture larger than Direct3D allows",
                   "at most " + std::to_string(kMaxDimension) + " each way",
                   std::to_string(h.width) + "x" + std::to_string(h.height)};
  if (h.size != 124)
    notes.add(Severity::error, 4, "header size", "DDS_HEADER size is not 124 (readers reject the file)", "124",
              std::to_string(h.size));
  dds.encoding = encoding_of(h, notes);
  dds.faces = face_count(h, dds.cube);
  dds.declared_mips = std::max<std::uint32_t>(1, h.mip_map_count);
  const Bytes data = bytes.subspan(std::min<std::size_t>(bytes.size(), dds.data_offset));
  dds.tail = data;

  const bool volume = (h.caps2 & kDdsCaps2Volume) != 0 || (h.dx10 && h.dx10->dimension == 4) ||
                      ((h.flags & kDdsdDepth) != 0 && h.depth > 1);
  if (volume) {
    notes.add(Severity::error, 112, "caps2", "volume texture: not supported (kept, not decoded)", "a 2-D texture or cube map",
              "depth " + std::to_string(h.depth));
    return dds;
  }
  if (h.dx10 && h.dx10->array_size > 1) {
    notes.add(Severity::error, 140, "DX10 header arraySize", "texture array: not supported (kept, not decoded)", "1",
              std::to_string(h.dx10->array_size));
    return dds;
  }
  if (dds.cube && dds.faces != 6)
    notes.add(Severity::warning, 112, "caps2", "cube map without all six faces (D3D9 refuses it; the faces present are read)",
              "faces 0xFC00", hex(h.caps2 & kDdsCaps2AllFaces));
  if (dds.faces == 0) return dds;
  if (dds.encoding.codec == DdsCodec::unsupported) return dds;

  const unsigned max_mips = full_mip_count(h.width, h.height);
  unsigned mips = dds.declared_mips;
  if (mips > max_mips) {
    notes.add(Severity::error, 28, "mipMapCount", "more mip levels than the size allows down to 1x1",
              "at most " + std::to_string(max_mips), std::to_string(mips));
    mips = max_mips;
  }
  std::uint64_t pos = 0;  // within data
  dds.mips = mips;
  for (unsigned f = 0; f < dds.faces; ++f) {
    for (unsigned l = 0; l < mips; ++l) {
      const std::uint32_t w = std::max<std::uint32_t>(1, h.width >> l), hh = std::max<std::uint32_t>(1, h.height >> l);
      const std::uint64_t need = level_bytes(dds.encoding, w, hh);
      const std::uint64_t left = data.size() - pos;
      const std::string where = (dds.cube ? "face " + std::string(kCubeFaceNames[std::min(f, 5u)]) + " " : std::string()) +
                                "level " + std::to_string(l);
      if (left < need) {
        if (left == 0)
          notes.add(Severity::error, dds.data_offset + pos, where,
                    l == 0 ? "no data for the level" : "mip chain shorter than declared: the data ends before this level",
                    std::to_string(mips) + " levels per face" + (dds.cube ? " (6 faces)" : ""),
                    std::to_string(l) + (dds.cube ? " on face " + std::to_string(f) : std::string()));
        else
          notes.add(Severity::error, dds.data_offset + pos, where, "truncated level",
                    std::to_string(need) + " bytes (" + std::to_string(w) + "x" + std::to_string(hh) + " " +
                        dds.encoding.name + ")",
                    std::to_string(left) + " bytes");
        // Levels complete on every face: a later face that is missing entirely has none.
        dds.mips = f + 1 == dds.faces ? std::min(dds.mips, l) : 0;
        dds.tail = data.subspan(pos);
        return dds;
      }
      dds.levels.push_back({f, l, w, hh, dds.data_offset + pos, data.subspan(pos, need)});
      pos += need;
    }
  }
  dds.tail = data.subspan(pos);
  if (!dds.tail.empty())
    notes.add(Severity::warning, dds.data_offset + pos, "after the last level",
              "bytes after the last level (kept on rewrite, never read by the game)", "0 bytes",
              std::to_string(dds.tail.size()) + " bytes");
  return dds;
}

std::vector<std::uint8_t> write_dds(const DdsFile& dds) {
  const Bytes all = dds.file->bytes();
  std::vector<std::uint8_t> out;
  out.reserve(all.size());
  const std::size_t head = std::min<std::size_t>(all.size(), dds.data_offset);
  out.insert(out.end(), all.begin(), all.begin() + static_cast<std::ptrdiff_t>(head));
  for (const auto& l : dds.levels) out.insert(out.end(), l.data.begin(), l.data.end());
  out.insert(out.end(), dds.tail.begin(), dds.tail.end());
  return out;
}

int sniff_dds(Bytes bytes, std::string_view extension) {
  if (bytes.size() < 4 || load_le<std::uint32_t>(bytes.data()) != kDdsMagic) return 0;
  return extension == ".dds" ? 90 : 80;
}

}  // namespace boneyard::texture
