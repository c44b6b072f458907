// CTXR reading, writing and the PNG round trip (docs/textures.md "CTXR").
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "boneyard/core/crc32.h"
#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/ctxr/ctxr_report.h"
#include "texture/size_text.h"

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
// The file before the top level's pixels: the header and the top level's size field.
constexpr std::size_t kChunkPrefix = kCtxrHeaderSize + 4;
// Bytes a ctXr chunk may hold beyond what its CTXR header's levels take: the bytes a file keeps
// after its last level (files the tools write have none).
constexpr std::uint64_t kChunkTailSlack = std::uint64_t{64} << 10;

// The bytes of a CTXR with header `h` besides its top level's pixels: the header, each level's
// size field and padding, and the levels below the top (as many as the header declares, at most
// a full chain). Level records start 32-aligned (the header is 128 bytes).
std::uint64_t bytes_beside_top(const CtxrHeader& h) {
  const unsigned mips = std::clamp<unsigned>(h.mip_count, 1, full_mip_count(h.width, h.height));
  std::uint64_t total = kCtxrHeaderSize;
  for (unsigned l = 0; l < mips; ++l) {
    const std::uint64_t bytes = std::uint64_t{std::max(1u, unsigned{h.width} >> l)} * std::max(1u, unsigned{h.height} >> l) * 4;
    total += padded(4 + bytes) - (l == 0 ? bytes : 0);
  }
  return total;
}

// Size field, BGRA8 pixels and zero padding of one level, appended to `out` (which starts
// 32-aligned: the padding is relative to the file).
void append_level(std::vector<std::uint8_t>& out, const Image& im) {
  put_be32(out, static_cast<std::uint32_t>(im.rgba.size()));
  const std::size_t at = out.size();
  out.resize(at + im.rgba.size());
  std::uint8_t* d = out.data() + at;
  for (std::size_t i = 0; i < im.rgba.size(); i += 4) {
    d[i] = im.rgba[i + 2], d[i + 1] = im.rgba[i + 1], d[i + 2] = im.rgba[i], d[i + 3] = im.rgba[i + 3];
  }
  out.resize(padded(out.size()), 0);
}

// CRC-32 of the image's pixels as a CTXR stores them (BGRA), without a copy of them.
std::uint32_t bgra_crc(const Image& im) {
  std::array<std::uint8_t, 1 << 14> strip;
  uLong crc = ::crc32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < im.rgba.size(); at += strip.size()) {
    const std::size_t n = std::min(strip.size(), im.rgba.size() - at);
    const std::uint8_t* p = im.rgba.data() + at;
    for (std::size_t i = 0; i < n; i += 4) strip[i] = p[i + 2], strip[i + 1] = p[i + 1], strip[i + 2] = p[i], strip[i + 3] = p[i + 3];
    crc = ::crc32(crc, strip.data(), static_cast<uInt>(n));
  }
  return static_cast<std::uint32_t>(crc);
}

// A zlib stream inflated piece by piece into buffers the caller sized, so that nothing is
// allocated for what the stream claims before that claim is checked.
class Inflater {
 public:
  explicit Inflater(Bytes packed) {
    z_.next_in = const_cast<Bytef*>(packed.data());
    z_.avail_in = static_cast<uInt>(packed.size());
    ok_ = started_ = packed.size() <= std::numeric_limits<uInt>::max() && inflateInit(&z_) == Z_OK;
  }
  ~Inflater() {
    if (started_) inflateEnd(&z_);  // also after a broken stream (ok_ false)
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // Exactly the next `n` bytes into `out`; false when the stream ends before them or is broken.
  bool read(std::uint8_t* out, std::uint64_t n) {
    while (ok_ && n > 0) {
      if (ended_) return false;
      const uInt step = static_cast<uInt>(std::min<std::uint64_t>(n, std::uint64_t{1} << 30));
      z_.next_out = out;
      z_.avail_out = step;
      const int r = inflate(&z_, Z_NO_FLUSH);
      const uInt got = step - z_.avail_out;
      out += got, n -= got;
      if (r == Z_STREAM_END) ended_ = true;
      else if (r != Z_OK) ok_ = false;
    }
    return ok_ && n == 0;
  }
  // True when the stream ends here: nothing more inflates from it.
  bool at_end() {
    if (!ok_ || ended_) return ok_;
    std::uint8_t extra = 0;
    z_.next_out = &extra;
    z_.avail_out = 1;
    return inflate(&z_, Z_NO_FLUSH) == Z_STREAM_END && z_.avail_out == 1;
  }

 private:
  z_stream z_{};
  bool started_ = false, ok_ = false, ended_ = false;
};

// The original file from the PNG's ctXr chunk, when the image is the one the chunk was made
// with. Sets `h` to the chunk's CTXR header when the image was edited (its fields are kept);
// a chunk that is not used leaves `h` alone. What the chunk claims is checked against its own CTXR header before
// anything is allocated for it: the levels that header describes, plus kChunkTailSlack.
std::optional<std::vector<std::uint8_t>> rebuild_from_chunk(const PngChunk& c, const Image& image, CtxrHeader& h,
                                                            Diagnostics* notes) {
  const auto ignored = [&](const std::string& why) -> std::optional<std::vector<std::uint8_t>> {
    if (notes) notes->add(Severity::warning, 0, "ctXr chunk", "the PNG's ctXr chunk is not used: " + why + "; the CTXR is made anew");
    return std::nullopt;
  };
  const auto edited = [&]() -> std::optional<std::vector<std::uint8_t>> {
    if (notes)
      notes->add(Severity::info, 0, {}, "the image differs from the one the PNG's ctXr chunk was made with: header fields kept, levels made anew");
    return std::nullopt;
  };
  if (c.data.size() < kChunkFixed || c.data[0] != kChunkVersion) return ignored("not a version 1 ctXr chunk");
  const std::uint32_t crc = be32(&c.data[1]), prefix = be32(&c.data[5]), total = be32(&c.data[9]);
  const Bytes packed(c.data.data() + kChunkFixed, c.data.size() - kChunkFixed);
  if (prefix != kChunkPrefix || total < prefix)
    return ignored("its lengths are not a CTXR's (prefix " + std::to_string(prefix) + ", total " + std::to_string(total) + ")");
  // zlib inflates at most 1032 bytes per compressed byte: a larger claim is not this chunk.
  if (total > std::uint64_t{packed.size()} * 1032 + 64)
    return ignored("it claims " + std::to_string(total) + " bytes, more than its " + std::to_string(packed.size()) +
                   " compressed bytes can hold");
  Inflater z(packed);
  std::array<std::uint8_t, kChunkPrefix> head{};
  if (!z.read(head.data(), head.size()) || std::memcmp(head.data(), "TXTR", 4) != 0)
    return ignored("its data does not start with a CTXR header");
  const CtxrHeader kept = parse_header(Bytes(head.data(), kCtxrHeaderSize));
  const std::uint64_t top = image.rgba.size();
  if (kept.width != image.width || kept.height != image.height || be32(&head[kCtxrHeaderSize]) != top ||
      bgra_crc(image) != crc) {
    h = kept;
    return edited();
  }
  const std::uint64_t bound = bytes_beside_top(kept) + kChunkTailSlack;
  if (total > bound)
    return ignored("it claims " + std::to_string(total) + " bytes, more than the " + size_text(kept.width, kept.height) +
                   ", " + std::to_string(kept.mip_count) + "-level CTXR its header describes takes (at most " +
                   std::to_string(bound) + ")");
  // At most the top level and a third of it more (the levels below), plus the slack.
  std::vector<std::uint8_t> out(total + top);
  std::copy(head.begin(), head.end(), out.begin());
  std::uint8_t* pixels = out.data() + prefix;
  for (std::size_t i = 0; i < top; i += 4)
    pixels[i] = image.rgba[i + 2], pixels[i + 1] = image.rgba[i + 1], pixels[i + 2] = image.rgba[i], pixels[i + 3] = image.rgba[i + 3];
  if (!z.read(pixels + top, total - prefix))
    return ignored("its data ends before the " + std::to_string(total) + " bytes it claims, or does not inflate");
  if (!z.at_end()) return ignored("its data inflates past the " + std::to_string(total) + " bytes it claims");
  h = kept;
  if (notes) notes->add(Severity::info, 0, {}, "unedited image: the original CTXR rebuilt byte for byte from the PNG's ctXr chunk");
  return out;
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
  // The size before the pixels: an image may not hold more than one decode makes.
  if (auto ok = check_decoded_pixels(image.width, image.height, 0, {}); !ok) return ok.error();
  if (image.width == 0 || image.height == 0 || image.width > kMaxDimension || image.height > kMaxDimension ||
      image.rgba.size() != std::size_t{image.width} * image.height * 4)
    return Finding{Severity::error, 0, {}, "cannot write a CTXR of this size", "1.." + std::to_string(kMaxDimension) + " each way",
                   std::to_string(image.width) + "x" + std::to_string(image.height)};
  CtxrHeader h;
  // Tool-made defaults (SeaLouse and CtxrTool agree): 0xFF in header bytes 0x17..0x20.
  std::fill(h.params.begin() + 3, h.params.begin() + 13, std::uint8_t{0xFF});
  const PngChunk* chunk = nullptr;  // the last ctXr chunk, as a reader of PNG chunks keeps it
  for (const auto& c : chunks)
    if (c.type == std::array<char, 4>{'c', 't', 'X', 'r'}) chunk = &c;
  if (chunk)
    if (auto exact = rebuild_from_chunk(*chunk, image, h, notes)) {
      // The original comes back whole, its levels included: --no-mips cannot be honoured.
      if (!o.mips && h.mip_count > 1)
        return usage_error_finding("--no-mips cannot apply: the PNG carries its original CTXR (" + std::to_string(h.mip_count) +
                                   " levels), rebuilt byte for byte; drop --no-mips, or remove the PNG's ctXr chunk to "
                                   "make a new CTXR");
      return std::move(*exact);
    }
  h.width = static_cast<std::uint16_t>(image.width);
  h.height = static_cast<std::uint16_t>(image.height);
  const unsigned mips = o.mips ? full_mip_count(image.width, image.height) : 1;
  h.mip_count = static_cast<std::uint8_t>(mips);
  // The whole file's size first, so that it is allocated once (no doubling while it grows).
  std::uint64_t size = kCtxrHeaderSize;
  for (unsigned l = 0; l < mips; ++l)
    size += padded(4 + std::uint64_t{std::max(1u, image.width >> l)} * std::max(1u, image.height >> l) * 4);
  std::vector<std::uint8_t> out = header_bytes(h);
  out.reserve(size);
  append_level(out, image);
  // Each level from the one above: at most two levels besides the image are held.
  Image level;
  for (unsigned i = 1; i < mips; ++i) {
    level = next_mip(i == 1 ? image : level);
    append_level(out, level);
  }
  return out;
}

}  // namespace boneyard::texture
