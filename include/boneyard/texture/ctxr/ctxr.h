// CTXR: the textures of the Metal Gear Solid 2 Master Collection (2023), `<name>.ctxr` beside the
// models whose packets name StrCode24("<name>.bmp"). A big-endian 128-byte header ("TXTR"), then
// each mip level as a big-endian u32 byte count, BGRA8 pixels and zeros up to the next multiple
// of 32 bytes in the file. The layout agrees with SeaLouse (ctxr/ctxr.py) and Jayveer's CtxrTool
// (image/ctxr); the header bytes neither tool explains are kept as stored. docs/textures.md "CTXR".
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/texture/texture.h"

namespace boneyard::texture {

inline constexpr std::size_t kCtxrHeaderSize = 0x80;
inline constexpr std::size_t kCtxrAlignment = 0x20;

struct CtxrHeader {                        // big-endian fields
  std::uint32_t version = 7;               // 0x04
  std::uint16_t width = 0, height = 0;     // 0x08, 0x0A
  std::uint16_t depth = 1;                 // 0x0C
  std::uint16_t field_0e = 0, field_10 = 0, field_12 = 0x100;  // unknown; 0x100 at 0x12 in tool-made files
  std::array<std::uint8_t, 18> params{};   // 0x14..0x25: unknown (CtxrTool edits 13 of them as "params")
  std::uint8_t mip_count = 1;              // 0x26: levels stored, the top level included
  std::uint8_t pad = 0;                    // 0x27
  std::array<std::uint8_t, 88> padding{};  // 0x28..0x7F
};

struct CtxrLevel {
  unsigned level = 0;
  std::uint32_t width = 0, height = 0;
  std::uint64_t offset = 0;     // of the size field
  std::uint32_t stored_size = 0;
  Bytes data;                   // stored_size bytes
  Bytes pad;                    // up to the next multiple of 32 in the file (shorter at the end of a file)
};

struct CtxrFile {
  std::shared_ptr<const FileData> file;
  CtxrHeader header;
  std::vector<CtxrLevel> levels;  // complete levels
  Bytes tail;                     // bytes after the last level (or from where reading stopped)
};

// Reads the header and the levels. Fails only when the header is unusable (short, no "TXTR", a
// zero size); a level whose size is not width x height x 4, a truncated or missing level and
// trailing bytes are findings in `notes`.
Result<CtxrFile> read_ctxr(std::shared_ptr<const FileData> file, Diagnostics* notes = nullptr);
Diagnostics validate_ctxr(const CtxrFile& ctxr);
std::vector<std::uint8_t> write_ctxr(const CtxrFile& ctxr);  // the bytes as read

// Level `level` as RGBA (the stored BGRA reordered).
Result<Image> decode_ctxr(const CtxrFile& ctxr, unsigned level = 0);

// The PNG chunk "ctXr" that carries what a PNG of the top level cannot: the header, the size
// field and padding of the top level, the other levels and trailing bytes (zlib-compressed), and
// a CRC-32 of the top level's pixels. build_ctxr puts the file back byte for byte from a PNG whose
// pixels still match; an edited image keeps the header fields and gets new mip levels.
PngChunk ctxr_png_chunk(const CtxrFile& ctxr);

struct CtxrBuildOptions {
  bool mips = true;  // a full chain (next_mip); false: one level. An unedited image with a "ctXr"
                     // chunk is rebuilt exactly, whatever this says.
};
// A .ctxr of `image`; `chunks` are the PNG's kept chunks (read_png). `notes` receives how it was
// built (exact rebuild, or new levels because the pixels changed).
Result<std::vector<std::uint8_t>> build_ctxr(const Image& image, const std::vector<PngChunk>& chunks,
                                             const CtxrBuildOptions& options = {}, Diagnostics* notes = nullptr);

}  // namespace boneyard::texture
