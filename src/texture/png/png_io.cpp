// PNG through libpng. libpng reports errors by longjmp: every function here that calls into it
// sets its jump point first and keeps no C++ object with a destructor alive across a libpng
// call (what a longjmp would skip), and the callbacks store their messages before jumping.
#include <png.h>

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstring>
#include <optional>

#include "boneyard/texture/texture.h"

namespace boneyard::texture {

namespace {

// ctXr: a .ctxr's bytes beside its top level (ctxr.h); trIa: how a .tri texture's alpha is stored (tri.h).
constexpr std::array<char, 4> kKeptChunks[] = {{'c', 't', 'X', 'r'}, {'t', 'r', 'I', 'a'}};
// Chunks of variable length that boneyard has no use for: libpng skips them unread (no text is
// inflated, no profile kept) instead of storing them.
constexpr png_byte kSkippedChunks[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0eXIf\0pCAL\0sCAL\0hIST\0";
constexpr int kSkippedChunkCount = 9;

struct PngIo {
  // Writing
  ByteSink* sink = nullptr;
  Status status;
  // Reading
  Bytes data;
  std::size_t pos = 0;
  std::vector<PngChunk>* chunks = nullptr;
  std::uint32_t chunks_seen = 0;  // kept chunks met, at most kPngChunkCacheMax of them returned
  // Both
  std::string error;
};

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
  auto* io = static_cast<PngIo*>(png_get_error_ptr(png));
  io->error = message ? message : "libpng error";
  png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}  // libpng would print them: nothing to tell the user

void on_write(png_structp png, png_bytep data, png_size_t length) {
  auto* io = static_cast<PngIo*>(png_get_io_ptr(png));
  if (io->status) io->status = io->sink->write(Bytes(data, length));
  if (!io->status) png_error(png, "write failed");
}

void on_flush(png_structp) {}

void on_read(png_structp png, png_bytep out, png_size_t length) {
  auto* io = static_cast<PngIo*>(png_get_io_ptr(png));
  if (length > io->data.size() - io->pos) png_error(png, "truncated");
  std::memcpy(out, io->data.data() + io->pos, length);
  io->pos += length;
}

int on_unknown_chunk(png_structp png, png_unknown_chunkp chunk) {
  auto* io = static_cast<PngIo*>(png_get_user_chunk_ptr(png));
  for (const auto& type : kKeptChunks)
    if (std::memcmp(chunk->name, type.data(), 4) == 0) {
      if (++io->chunks_seen > kPngChunkCacheMax) return 1;  // dropped: a file needs one
      PngChunk c;
      std::memcpy(c.type.data(), chunk->name, 4);
      c.data.assign(chunk->data, chunk->data + chunk->size);
      io->chunks->push_back(std::move(c));
      return 1;
    }
  // Any other ancillary chunk is dropped here: declined (0), libpng would keep a copy of it in
  // the info struct (its behaviour when a callback declines a chunk). A critical chunk nobody
  // knows is declined, and libpng fails on it.
  return (chunk->name[0] & 0x20) != 0 ? 1 : 0;
}

// The writer's state outside libpng's reach: buffers allocated before the jump point.
struct WriteJob {
  std::uint32_t width, height, strip;
  const RowSource* rows;
  std::vector<std::uint8_t> buffer;
  std::vector<png_bytep> pointers;
  Status rows_status;

  bool fill(std::uint32_t y, std::uint32_t count) {
    rows_status = (*rows)(y, count, buffer.data());
    return rows_status.ok();
  }
};

bool run_write(png_structp png, png_infop info, WriteJob& job, const PngWriteOptions& o) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_IHDR(png, info, job.width, job.height, 8, o.alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, o.compression_level);
  // No row filter: BCn blocks repeat exact colours, which filtering turns into differences that
  // compress worse and slower (docs/textures.md "PNG output").
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_write_info(png, info);
  // Rows arrive as RGBA; for RGB output the 4th byte is dropped (libpng takes this only once the
  // header is written).
  if (!o.alpha) png_set_filler(png, 0, PNG_FILLER_AFTER);
  for (const auto& c : o.chunks)
    png_write_chunk(png, reinterpret_cast<png_const_bytep>(c.type.data()), c.data.data(), c.data.size());
  for (std::uint32_t y = 0; y < job.height; y += job.strip) {
    const std::uint32_t n = std::min(job.strip, job.height - y);
    if (!job.fill(y, n)) return false;
    png_write_rows(png, job.pointers.data(), n);
  }
  png_write_end(png, nullptr);
  return true;
}

}  // namespace

bool is_png(Bytes bytes) { return bytes.size() >= 8 && png_sig_cmp(bytes.data(), 0, 8) == 0; }

Status write_png_rows(ByteSink& out, std::uint32_t width, std::uint32_t height, std::uint32_t strip,
                      const RowSource& rows, const PngWriteOptions& options) {
  if (width == 0 || height == 0 || width > kMaxDimension || height > kMaxDimension)
    return Finding{Severity::error, 0, {}, "cannot write a PNG of this size",
                   "1.." + std::to_string(kMaxDimension) + " each way",
                   std::to_string(width) + "x" + std::to_string(height)};
  WriteJob job{width, height, std::max<std::uint32_t>(1, strip), &rows, {}, {}, {}};
  job.buffer.resize(std::size_t{width} * 4 * job.strip);
  job.pointers.resize(job.strip);
  for (std::uint32_t i = 0; i < job.strip; ++i) job.pointers[i] = job.buffer.data() + std::size_t{width} * 4 * i;
  PngIo io;
  io.sink = &out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &io, on_error, on_warning);
  if (png == nullptr) return Finding{Severity::error, 0, {}, "libpng could not start (out of memory)", {}, {}};
  png_infop info = png_create_info_struct(png);
  bool ok = info != nullptr;
  if (ok) {
    png_set_write_fn(png, &io, on_write, on_flush);
    ok = run_write(png, info, job, options);
  }
  png_destroy_write_struct(&png, &info);
  if (ok) return {};
  if (!job.rows_status) return job.rows_status;
  if (!io.status) return io.status;
  return Finding{Severity::error, 0, {}, "PNG encoding failed: " + io.error, {}, {}};
}

Status write_png(ByteSink& out, const Image& image, PngWriteOptions options) {
  options.alpha = alpha_kind(image) != AlphaKind::opaque;
  const RowSource rows = [&](std::uint32_t y, std::uint32_t count, std::uint8_t* dst) -> Status {
    std::memcpy(dst, image.rgba.data() + std::size_t{y} * image.width * 4, std::size_t{count} * image.width * 4);
    return {};
  };
  return write_png_rows(out, image.width, image.height, 16, rows, options);
}

Result<std::vector<std::uint8_t>> encode_png(const Image& image, PngWriteOptions options) {
  std::vector<std::uint8_t> bytes;
  VectorSink sink(bytes);
  if (auto s = write_png(sink, image, std::move(options)); !s) return s.error();
  return bytes;
}

namespace {

struct ReadJob {
  PngFile* out;
  std::vector<png_bytep> pointers;
  std::optional<Finding> limit;  // set when the header asks for more than may be decoded
};

// libpng's own limits, set before it reads a chunk: the size (kMaxDimension each way), how large
// a chunk may be allocated (kPngChunkMax, and never past the file), how many ancillary chunks it
// keeps; and the chunks boneyard does not read are skipped.
void set_limits(png_structp png, std::size_t file_size) {
  png_set_user_limits(png, kMaxDimension, kMaxDimension);
  // 0 would mean "no limit": a file has at least its 8-byte signature, so the bound is never 0.
  png_set_chunk_malloc_max(png, static_cast<png_alloc_size_t>(std::min<std::uint64_t>(kPngChunkMax, std::max<std::size_t>(file_size, 8))));
  png_set_chunk_cache_max(png, kPngChunkCacheMax);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, kSkippedChunks, kSkippedChunkCount);
}

bool read_header(png_structp png, png_infop info, ReadJob& job, std::size_t file_size) {
  if (setjmp(png_jmpbuf(png))) return false;
  set_limits(png, file_size);
  png_read_info(png, info);
  png_uint_32 w = 0, h = 0;
  int depth = 0, color = 0, interlace = 0;
  png_get_IHDR(png, info, &w, &h, &depth, &color, &interlace, nullptr, nullptr);
  job.out->color_type = static_cast<std::uint8_t>(color);
  job.out->bit_depth = static_cast<std::uint8_t>(depth);
  if (auto ok = check_decoded_pixels(w, h, 16, "IHDR"); !ok) {
    job.limit = ok.error();
    return false;
  }
  // The inflated stream holds one filter byte and the packed samples of every row; zlib cannot
  // give more than 1032 bytes per compressed byte, so a header that needs more lies.
  const int channels = png_get_channels(png, info);
  const std::uint64_t raw = std::uint64_t{h} * (1 + (std::uint64_t{w} * channels * depth + 7) / 8);
  if (raw > std::uint64_t{1032} * file_size + 1024) {
    job.limit = Finding{Severity::error, 16, "IHDR", "image size larger than the file can hold", "a size the data can fill",
                        std::to_string(w) + "x" + std::to_string(h) + " needs " + std::to_string(raw) +
                            " inflated bytes; " + std::to_string(file_size) + " bytes of PNG hold at most " +
                            std::to_string(std::uint64_t{1032} * file_size + 1024)};
    return false;
  }
  job.out->image.width = w;
  job.out->image.height = h;
  png_set_expand(png);  // palette -> RGB, grey below 8 bits -> 8, tRNS -> alpha
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  return true;
}

bool read_pixels(png_structp png, png_infop info, ReadJob& job) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, job.pointers.data());
  png_read_end(png, info);
  return true;
}

std::uint32_t be32_at(Bytes b, std::uint64_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}

// A chunk type for messages: its four letters, or their hex when they are not letters.
std::string chunk_type_text(Bytes b, std::uint64_t at) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const unsigned char c = b[at + i];
    if (!std::isalpha(c)) return "chunk type " + hex(be32_at(b, at));
    s += static_cast<char>(c);
  }
  return s;
}

// Every chunk's length against the bytes that follow it, up to IEND, before libpng allocates
// anything for one: a chunk that claims more than the file holds is the error, with its sizes.
Status check_chunk_lengths(Bytes b) {
  for (std::uint64_t at = 8; at < b.size();) {
    const std::uint64_t left = b.size() - at;
    if (left < 12)
      return Finding{Severity::error, at, "chunk", "truncated chunk (truncated file)", "12 bytes of length, type and CRC",
                     std::to_string(left) + " bytes"};
    const std::uint64_t length = be32_at(b, at);
    const std::string type = chunk_type_text(b, at + 4);
    if (length > left - 12)
      return Finding{Severity::error, at, type, "chunk runs past the end of the file (truncated file)",
                     "at most " + std::to_string(left - 12) + " bytes", std::to_string(length) + " bytes"};
    if (std::memcmp(b.data() + at + 4, "IEND", 4) == 0) break;
    at += 12 + length;
  }
  return {};
}

}  // namespace

Result<PngFile> read_png(Bytes bytes) {
  if (!is_png(bytes))
    return Finding{Severity::error, 0, {}, "not a PNG file", "the PNG signature 89 50 4E 47 0D 0A 1A 0A", "other bytes"};
  // The size first, from the IHDR bytes themselves (libpng reports it only as "Invalid IHDR data").
  if (bytes.size() >= 24 && std::memcmp(bytes.data() + 12, "IHDR", 4) == 0) {
    auto be32 = [&](std::size_t at) {
      return std::uint32_t{bytes[at]} << 24 | std::uint32_t{bytes[at + 1]} << 16 | std::uint32_t{bytes[at + 2]} << 8 | bytes[at + 3];
    };
    const std::uint32_t w = be32(16), h = be32(20);
    if (w > kMaxDimension || h > kMaxDimension)
      return Finding{Severity::error, 16, "IHDR", "image too large", "at most " + std::to_string(kMaxDimension) + " each way",
                     std::to_string(w) + "x" + std::to_string(h)};
    if (auto ok = check_decoded_pixels(w, h, 16, "IHDR"); !ok) return ok.error();
  }
  if (auto ok = check_chunk_lengths(bytes); !ok) return ok.error();
  PngFile file;
  PngIo io;
  io.data = bytes;
  io.chunks = &file.chunks;
  ReadJob job{&file, {}, {}};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &io, on_error, on_warning);
  if (png == nullptr) return Finding{Severity::error, 0, {}, "libpng could not start (out of memory)", {}, {}};
  png_infop info = png_create_info_struct(png);
  bool ok = info != nullptr;
  if (ok) {
    png_set_read_fn(png, &io, on_read);
    png_set_read_user_chunk_fn(png, &io, on_unknown_chunk);
    ok = read_header(png, info, job, bytes.size());
  }
  if (ok) {
    // Outside libpng's jump scope: the buffer's allocation may throw like any other.
    const Image& im = file.image;
    file.image.rgba.resize(std::size_t{im.width} * im.height * 4);
    job.pointers.resize(im.height);
    for (std::uint32_t y = 0; y < im.height; ++y) job.pointers[y] = file.image.rgba.data() + std::size_t{y} * im.width * 4;
    ok = read_pixels(png, info, job);
  }
  png_destroy_read_struct(&png, &info, nullptr);
  if (job.limit) return *job.limit;
  if (!ok) return Finding{Severity::error, io.pos, {}, "not a readable PNG: " + io.error, {}, {}};
  return file;
}

}  // namespace boneyard::texture
