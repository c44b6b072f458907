// CTXR reading, writing and the PNG round trip (docs/textures.md "CTXR").
#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "boneyard/crc32.h"
#include "boneyard/ctxr.h"

namespace boneyard::texture {

namespace {

std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t be32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}
void put_be16(std::vector<std::uint8_t>& o, std::uint16_t v) { o.push_back(std::uint8_t(v >> 8)), o.push_back(std::uint8_t(v)); }
void put_be32(std::vector<std::uint8_t>& o, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) o.push_back(std::uint8_t(v >> s));
}

std::uint64_t padded(std::uint64_t offset) { return (offset + kCtxrAlignment - 1) / kCtxrAlignment * kCtxrAlignment; }

std::string level_name(unsigned l) { return "level " + std::to_string(l); }

CtxrHeader parse_header(Bytes b) {
  CtxrHeader h;
  h.version = be32(&b[4]);
  h.width = be16(&b[8]);
  h.height = be16(&b[10]);
  h.depth = be16(&b[12]);
  h.field_0e = be16(&b[14]);
  h.field_10 = be16(&b[16]);
  h.field_12 = be16(&b[18]);
  std::memcpy(h.params.data(), &b[0x14], h.params.size());
  h.mip_count = b[0x26];
  h.pad = b[0x27];
  std::memcpy(h.padding.data(), &b[0x28], h.padding.size());
  return h;
}

std::vector<std::uint8_t> header_bytes(const CtxrHeader& h) {
  std::vector<std::uint8_t> o{'T', 'X', 'T', 'R'};
  put_be32(o, h.version);
  for (auto v : {h.width, h.height, h.depth, h.field_0e, h.field_10, h.field_12}) put_be16(o, v);
  o.insert(o.end(), h.params.begin(), h.params.end());
  o.push_back(h.mip_count);
  o.push_back(h.pad);
  o.insert(o.end(), h.padding.begin(), h.padding.end());
  return o;
}

}  // namespace

Result<CtxrFile> read_ctxr(std::shared_ptr<const FileData> file, Diagnostics* notes_out) {
  Diagnostics scratch;
  Diagnostics& notes = notes_out ? *notes_out : scratch;
  CtxrFile c;
  c.file = std::move(file);
  const Bytes b = c.file->bytes();
  if (b.size() < 4 || std::memcmp(b.data(), "TXTR", 4) != 0)
    return Finding{Severity::error, 0, "magic", "not a CTXR file", "'TXTR'", b.size() < 4 ? "fewer than 4 bytes" : "other bytes"};
  if (b.size() < kCtxrHeaderSize)
    return Finding{Severity::error, 0, "header", "truncated", std::to_string(kCtxrHeaderSize) + " bytes",
                   std::to_string(b.size()) + " bytes"};
  c.header = parse_header(b);
  const CtxrHeader& h = c.header;
  if (h.width == 0 || h.height == 0)
    return Finding{Severity::error, h.width == 0 ? 8u : 10u, h.width == 0 ? "width" : "height", "empty texture",
                   "1.." + std::to_string(kMaxDimension), "0"};
  if (h.width > kMaxDimension || h.height > kMaxDimension)
    return Finding{Severity::error, 8, "width x height", "texture larger than Direct3D allows",
                   "at most " + std::to_string(kMaxDimension) + " each way",
                   std::to_string(h.width) + "x" + std::to_string(h.height)};
  if (h.mip_count == 0) notes.add(Severity::error, 0x26, "mip count", "no levels", "1 or more", "0");
  const unsigned max_mips = full_mip_count(h.width, h.height);
  if (h.mip_count > max_mips)
    notes.add(Severity::error, 0x26, "mip count", "more mip levels than the size allows down to 1x1",
              "at most " + std::to_string(max_mips), std::to_string(h.mip_count));
  std::uint64_t pos = kCtxrHeaderSize;
  const unsigned mips = std::min<unsigned>(h.mip_count, max_mips);
  for (unsigned l = 0; l < mips; ++l) {
    const std::uint32_t w = std::max(1u, unsigned{h.width} >> l), hh = std::max(1u, unsigned{h.height} >> l);
    const std::uint64_t expected = std::uint64_t{w} * hh * 4;
    if (b.size() - pos < 4) {
      notes.add(Severity::error, pos, level_name(l),
                b.size() == pos ? "mip chain shorter than declared: the data ends before this level" : "truncated level size",
                std::to_string(h.mip_count) + " levels", std::to_string(l));
      break;
    }
    CtxrLevel lv;
    lv.level = l;
    lv.width = w;
    lv.height = hh;
    lv.offset = pos;
    lv.stored_size = be32(&b[pos]);
    if (lv.stored_size != expected)
      notes.add(Severity::error, pos, level_name(l) + " size", "level size is not BGRA8 of its width x height (not decoded)",
                std::to_string(expected) + " bytes (" + std::to_string(w) + "x" + std::to_string(hh) + " x 4)",
                std::to_string(lv.stored_size));
    if (lv.stored_size > b.size() - pos - 4) {
      notes.add(Severity::error, pos + 4, level_name(l), "truncated level", std::to_string(lv.stored_size) + " bytes",
                std::to_string(b.size() - pos - 4) + " bytes");
      break;
    }
    lv.data = b.subspan(pos + 4, lv.stored_size);
    const std::uint64_t end = pos + 4 + lv.stored_size;
    const std::uint64_t pad_end = std::min<std::uint64_t>(padded(end), b.size());
    lv.pad = b.subspan(end, pad_end - end);
    if (std::any_of(lv.pad.begin(), lv.pad.end(), [](std::uint8_t x) { return x != 0; }))
      notes.add(Severity::info, end, level_name(l) + " padding", "padding bytes are not zero (kept)", "zeros", "other bytes");
    pos = pad_end;
    c.levels.push_back(lv);
  }
  c.tail = b.subspan(pos);
  if (!c.tail.empty() && c.levels.size() == mips)
    notes.add(Severity::warning, pos, "after the last level", "bytes after the last level (kept on rewrite)", "0 bytes",
              std::to_string(c.tail.size()) + " bytes");
  return c;
}

Diagnostics validate_ctxr(const CtxrFile& c) {
  Diagnostics d;
  (void)read_ctxr(c.file, &d);
  const CtxrHeader& h = c.header;
  if (h.version != 7) d.add(Severity::warning, 4, "version", "unknown version", "7", std::to_string(h.version));
  if (h.depth != 1) d.add(Severity::warning, 12, "depth", "depth is not 1 (volume textures are not known in MGS2)", "1",
                          std::to_string(h.depth));
  if (!check_decoded_pixels(h.width, h.height, 8, {}))
    d.add(Severity::warning, 8, "width x height", "too many pixels to decode: read, checked and rewritten, not converted",
          "at most " + std::to_string(kMaxTexturePixels) + " pixels", std::to_string(h.width) + "x" + std::to_string(h.height));
  if (h.pad != 0) d.add(Severity::info, 0x27, "header byte 0x27", "not zero (kept)", "0", std::to_string(h.pad));
  if (std::any_of(h.padding.begin(), h.padding.end(), [](std::uint8_t x) { return x != 0; }))
    d.add(Severity::info, 0x28, "header padding 0x28..0x7F", "not zero (kept)", "zeros", "other bytes");
  d.sort_by_offset();
  return d;
}

std::vector<std::uint8_t> write_ctxr(const CtxrFile& c) {
  const Bytes b = c.file->bytes();
  std::vector<std::uint8_t> out(b.begin(), b.begin() + kCtxrHeaderSize);
  for (const auto& l : c.levels) {
    const Bytes size = b.subspan(l.offset, 4);
    out.insert(out.end(), size.begin(), size.end());
    out.insert(out.end(), l.data.begin(), l.data.end());
    out.insert(out.end(), l.pad.begin(), l.pad.end());
  }
  out.insert(out.end(), c.tail.begin(), c.tail.end());
  return out;
}

int sniff_ctxr(Bytes bytes, std::string_view extension) {
  if (bytes.size() < 4 || std::memcmp(bytes.data(), "TXTR", 4) != 0) return 0;
  return extension == ".ctxr" ? 90 : 80;
}

Result<Image> decode_ctxr(const CtxrFile& c, unsigned level) {
  if (level >= c.levels.size())
    return Finding{Severity::error, kCtxrHeaderSize, level_name(level), "level not stored (or truncated)",
                   "one of " + std::to_string(c.header.mip_count) + " level(s)",
                   std::to_string(c.levels.size()) + " complete level(s)"};
  const CtxrLevel& l = c.levels[level];
  if (auto ok = check_decoded_pixels(l.width, l.height, 8, level_name(level)); !ok) return ok.error();
  if (l.data.size() != std::uint64_t{l.width} * l.height * 4)
    return Finding{Severity::error, l.offset, level_name(level) + " size", "level size is not BGRA8 of its width x height",
                   std::to_string(std::uint64_t{l.width} * l.height * 4), std::to_string(l.data.size())};
  Image im;
  im.width = l.width;
  im.height = l.height;
  im.rgba.resize(l.data.size());
  for (std::size_t i = 0; i < l.data.size(); i += 4) {
    im.rgba[i] = l.data[i + 2];
    im.rgba[i + 1] = l.data[i + 1];
    im.rgba[i + 2] = l.data[i];
    im.rgba[i + 3] = l.data[i + 3];
  }
  return im;
}

// ---- the PNG round trip ----

namespace {

constexpr std::uint8_t kChunkVersion = 1;
constexpr std::size_t kChunkFixed = 13;  // version, CRC, prefix length, rest length

std::vector<std::uint8_t> to_bgra(const Image& im) {
  std::vector<std::uint8_t> out(im.rgba.size());
  for (std::size_t i = 0; i < out.size(); i += 4) {
    out[i] = im.rgba[i + 2], out[i + 1] = im.rgba[i + 1], out[i + 2] = im.rgba[i], out[i + 3] = im.rgba[i + 3];
  }
  return out;
}

struct ChunkContent {
  std::uint32_t crc = 0;
  std::vector<std::uint8_t> prefix, suffix;  // the file before and after the top level's pixels
};

std::optional<ChunkContent> parse_chunk(const PngChunk& c) {
  if (c.data.size() < kChunkFixed || c.data[0] != kChunkVersion) return std::nullopt;
  ChunkContent out;
  out.crc = be32(&c.data[1]);
  const std::uint32_t prefix = be32(&c.data[5]), total = be32(&c.data[9]);
  const std::size_t packed = c.data.size() - kChunkFixed;
  // zlib inflates at most 1032 bytes per compressed byte: a larger claim is not this chunk.
  if (prefix < kCtxrHeaderSize + 4 || prefix > total || total > std::uint64_t{packed} * 1032 + 64) return std::nullopt;
  std::vector<std::uint8_t> all(total);
  uLongf size = total;
  if (uncompress(all.data(), &size, c.data.data() + kChunkFixed, static_cast<uLong>(packed)) != Z_OK || size != total)
    return std::nullopt;
  out.prefix.assign(all.begin(), all.begin() + prefix);
  out.suffix.assign(all.begin() + prefix, all.end());
  return out;
}

std::vector<std::uint8_t> level_record(const Image& im) {
  std::vector<std::uint8_t> o;
  put_be32(o, static_cast<std::uint32_t>(im.rgba.size()));
  const auto bgra = to_bgra(im);
  o.insert(o.end(), bgra.begin(), bgra.end());
  return o;
}

}  // namespace

PngChunk ctxr_png_chunk(const CtxrFile& c) {
  const Bytes b = c.file->bytes();
  PngChunk chunk;
  chunk.type = {'c', 't', 'X', 'r'};
  std::uint64_t data_at = kCtxrHeaderSize, data_end = kCtxrHeaderSize;
  std::uint32_t crc = 0;
  if (!c.levels.empty()) {
    data_at = c.levels[0].offset + 4;
    data_end = data_at + c.levels[0].data.size();
    crc = crc32(c.levels[0].data);
  }
  std::vector<std::uint8_t> all(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(data_at));
  all.insert(all.end(), b.begin() + static_cast<std::ptrdiff_t>(data_end), b.end());
  uLongf packed_size = compressBound(static_cast<uLong>(all.size()));
  std::vector<std::uint8_t> packed(packed_size);
  compress2(packed.data(), &packed_size, all.data(), static_cast<uLong>(all.size()), 6);
  chunk.data.push_back(kChunkVersion);
  put_be32(chunk.data, crc);
  put_be32(chunk.data, static_cast<std::uint32_t>(data_at));
  put_be32(chunk.data, static_cast<std::uint32_t>(all.size()));
  chunk.data.insert(chunk.data.end(), packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(packed_size));
  return chunk;
}

Result<std::vector<std::uint8_t>> build_ctxr(const Image& image, const std::vector<PngChunk>& chunks,
                                             const CtxrBuildOptions& o, Diagnostics* notes) {
  if (image.width == 0 || image.height == 0 || image.width > kMaxDimension || image.height > kMaxDimension ||
      image.rgba.size() != std::size_t{image.width} * image.height * 4)
    return Finding{Severity::error, 0, {}, "cannot write a CTXR of this size", "1.." + std::to_string(kMaxDimension) + " each way",
                   std::to_string(image.width) + "x" + std::to_string(image.height)};
  std::optional<ChunkContent> kept;
  for (const auto& c : chunks)
    if (c.type == std::array<char, 4>{'c', 't', 'X', 'r'}) kept = parse_chunk(c);
  CtxrHeader h;
  // Tool-made defaults (SeaLouse and CtxrTool agree): 0xFF in header bytes 0x17..0x20.
  std::fill(h.params.begin() + 3, h.params.begin() + 13, std::uint8_t{0xFF});
  if (kept) {
    h = parse_header(Bytes(kept->prefix.data(), kCtxrHeaderSize));
    const bool same_size = h.width == image.width && h.height == image.height;
    const auto bgra = to_bgra(image);
    const std::uint32_t stored = be32(&kept->prefix[kept->prefix.size() - 4]);
    if (same_size && stored == bgra.size() && crc32(bgra) == kept->crc) {
      std::vector<std::uint8_t> out = kept->prefix;
      out.insert(out.end(), bgra.begin(), bgra.end());
      out.insert(out.end(), kept->suffix.begin(), kept->suffix.end());
      if (notes) notes->add(Severity::info, 0, {}, "unedited image: the original CTXR rebuilt byte for byte from the PNG's ctXr chunk");
      return out;
    }
    if (notes)
      notes->add(Severity::info, 0, {}, "the image differs from the one the PNG's ctXr chunk was made with: header fields kept, levels made anew");
  }
  h.width = static_cast<std::uint16_t>(image.width);
  h.height = static_cast<std::uint16_t>(image.height);
  const unsigned mips = o.mips ? full_mip_count(image.width, image.height) : 1;
  h.mip_count = static_cast<std::uint8_t>(mips);
  std::vector<std::uint8_t> out = header_bytes(h);
  Image level = image;
  for (unsigned i = 0; i < mips; ++i) {
    if (i > 0) level = next_mip(level);
    const auto record = level_record(level);
    out.insert(out.end(), record.begin(), record.end());
    out.resize(padded(out.size()), 0);
  }
  return out;
}

}  // namespace boneyard::texture
