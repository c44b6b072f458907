// Decoded texture pixels and PNG, the interchange format of the texture layer (src/texture): game
// textures (.dds, dds.h; .ctxr, ctxr.h) decode to an Image and are written as PNG; PNG reads back
// into an Image that the encoders turn into game textures. Conventions (channel order, mip filter,
// PNG compression level): docs/textures.md.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/limits.h"

namespace boneyard::texture {

// The largest width or height read or written: Direct3D 11's limit (16384). A header that
// declares more is an error before anything is allocated for it.
inline constexpr std::uint32_t kMaxDimension = 16384;

// Fails when an image of `width` x `height` has more pixels than one decode may make
// (kMaxTexturePixels, limits.h: 8192 x 8192, 256 MiB as RGBA): an error at `offset` in `path`,
// the header field the size comes from. Every decoder calls it before allocating the pixels.
Status check_decoded_pixels(std::uint64_t width, std::uint64_t height, std::uint64_t offset, std::string path);

// 8-bit RGBA, rows top to bottom (the order of DDS, CTXR and PNG alike).
struct Image {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4
};

// What a texture's alpha holds: all 255; only 0 and 255 (a cut-out); anything else (blending).
enum class AlphaKind : std::uint8_t { opaque, binary, graded };
AlphaKind alpha_kind(const Image& image);
// Combines the alpha of two parts of one image (strips decoded one after the other).
AlphaKind combine(AlphaKind a, AlphaKind b);
// The alpha of `pixels` RGBA pixels.
AlphaKind alpha_kind_of(const std::uint8_t* rgba, std::size_t pixels);
std::string_view alpha_kind_name(AlphaKind kind);  // "opaque", "binary", "graded"

// The next mip level: half the size (at least 1), each pixel the box average of the 2x2 (at an
// odd edge 2x1, 1x2 or 1x1) pixels it covers, colour averaged in linear light (sRGB decoded, the
// mean encoded again), alpha averaged as stored.
Image next_mip(const Image& image);
// The number of levels of a full chain down to 1x1: floor(log2(max(width, height))) + 1.
unsigned full_mip_count(std::uint32_t width, std::uint32_t height);

// ---- PNG (libpng) ----

// zlib level of every PNG boneyard writes, with no row filter: chosen so that a 1 GB game texture
// folder becomes PNGs in under a minute on 2 cores (docs/textures.md "PNG output": on decoded
// DXT textures, higher levels and filters cost 1.5-3x the time for a few percent of size, or lose).
inline constexpr int kPngCompressionLevel = 1;

// A PNG chunk that boneyard keeps beside the pixels (e.g. "ctXr", the CTXR fields a PNG cannot
// hold; ctxr.h).
struct PngChunk {
  std::array<char, 4> type{};
  std::vector<std::uint8_t> data;
};

struct PngWriteOptions {
  int compression_level = kPngCompressionLevel;
  bool alpha = true;  // RGBA; false writes RGB (alpha dropped: callers pass false only when opaque)
  std::vector<PngChunk> chunks;  // written before the pixels
};

// Writes a PNG whose rows come from `rows(y, count, out)`: it fills `count` rows starting at row y
// (RGBA, width * 4 bytes each) into `out`, so a decoder can hand its pixels over a strip at a time
// and the whole image is never held. Rows are asked for in order, `strip` at a time (the last
// strip may be shorter). Errors: the sink's, or `rows`'s own.
using RowSource = std::function<Status(std::uint32_t y, std::uint32_t count, std::uint8_t* out)>;
Status write_png_rows(ByteSink& out, std::uint32_t width, std::uint32_t height, std::uint32_t strip,
                      const RowSource& rows, const PngWriteOptions& options);
// A whole image; `options.alpha` is replaced by whether the image has alpha below 255.
Status write_png(ByteSink& out, const Image& image, PngWriteOptions options = {});
Result<std::vector<std::uint8_t>> encode_png(const Image& image, PngWriteOptions options = {});

// The largest PNG chunk read: boneyard's own ctXr chunk (ctxr.h), which holds the levels below
// the top one (a third of its bytes) zlib-compressed, is under 86 MiB at the pixel budget; half
// the budget leaves room. A chunk is never allocated past the file's own size either.
inline constexpr std::uint64_t kPngChunkMax = kMaxTextureBytes / 2;
// Ancillary chunks libpng keeps, and ctXr chunks read_png hands back, per file (libpng's default is 1000).
inline constexpr std::uint32_t kPngChunkCacheMax = 16;

struct PngFile {
  Image image;                    // 8-bit RGBA whatever the file's colour type and depth
  std::vector<PngChunk> chunks;   // the private chunks boneyard reads ("ctXr", "trIa")
  std::uint8_t color_type = 0;    // as stored (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA)
  std::uint8_t bit_depth = 0;
};
// True when the bytes start with the PNG signature.
bool is_png(Bytes bytes);
// Reads any PNG into 8-bit RGBA. The size is checked before pixels are allocated: at most
// kMaxDimension each way and kMaxTexturePixels in all, and no more decoded bytes than zlib could
// inflate from the file (1032 per compressed byte), so a tiny file cannot claim gigabytes.
// libpng's limits are set too: no chunk is allocated past kPngChunkMax or the file's size, at
// most kPngChunkCacheMax ancillary chunks are kept, and the chunks boneyard has no use for (text,
// ICC profiles, ...) are skipped unread. Errors name the offset of the chunk at fault where
// libpng tells it, else the file.
Result<PngFile> read_png(Bytes bytes);

}  // namespace boneyard::texture
