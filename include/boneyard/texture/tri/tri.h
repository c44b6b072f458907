// TRI: the textures of a Metal Gear Solid 2 model or stage (PS2, and kept beside the Master
// Collection's .ctxr). A dump of the GS video memory the textures were uploaded to: a 0x20-byte
// header, one entry per texture (0xA0 bytes on PS2, 0xC0 in the Master Collection) with the
// texture's id (StrCode24 of its bitmap name), its GS TEX0 register and its sub-rectangle, then an
// image block and a CLUT block, each rows of 64 PSMCT32 words as the GS holds them. A texture is
// 4- or 8-bit indices (PSMT4, PSMT8) into a CSM1 CLUT of 32-bit colours whose alpha runs 0..0x80
// (0x80 opaque). docs/textures.md "TRI"; the facts and their sources: ../shared/docs/mgs2-next.md §1.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/texture/texture.h"

namespace boneyard::texture {

inline constexpr std::size_t kTriHeaderSize = 0x20;
inline constexpr std::size_t kTriPs2EntrySize = 0xA0;
inline constexpr std::size_t kTriMcEntrySize = 0xC0;
inline constexpr std::uint32_t kTriRowBytes = 64 * 4;  // one row of a block: 64 PSMCT32 words
// The first 10 bytes of every entry's third quadword (entry + 0x20 on PS2, + 0x40 in the Master
// Collection), which tell the two layouts apart (what SeaLouse compares; probably a GIF tag).
inline constexpr std::array<std::uint8_t, 10> kTriEntryTag = {0x01, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x70, 0xEE, 0xEE};

enum class TriLayout : std::uint8_t { ps2, mc };
std::size_t tri_entry_size(TriLayout layout);

// The GS TEX0 register, field by field (GS User's Manual; the CLUT offset CSA split as the GS
// reads a CSM1 CLUT: bit 0 selects the half of the 16-pixel-wide CLUT area, bits 1-4 the pair of
// rows).
struct GsTex0 {
  std::uint32_t tbp0 = 0, tbw = 0, psm = 0, tw = 0, th = 0, tcc = 0, tfx = 0, cbp = 0, cpsm = 0, csm = 0, csa = 0, cld = 0;
  std::uint32_t csax() const { return csa & 1; }
  std::uint32_t csay() const { return csa >> 1; }
};
GsTex0 decode_tex0(std::uint64_t raw);
std::uint64_t encode_tex0(const GsTex0& t);
// "PSMT8", "PSMT4", "PSMCT32", "PSMCT16", ..., else the number.
std::string psm_name(std::uint32_t psm);

struct TriHeader {                 // little-endian
  std::uint32_t pad = 0;           // 0x00
  std::int32_t width = 0;          // 0x04: read by no decoder (shown)
  std::int32_t height = 0;         // 0x08: rows of the image block
  std::int32_t clut_height = 0;    // 0x0C: rows of the CLUT block
  std::int32_t count = 0;          // 0x10: entries
  std::uint32_t pad1 = 0;          // 0x14
  std::int32_t image_offset = 0;   // 0x18
  std::int32_t clut_offset = 0;    // 0x1C
};

struct TriEntry {
  unsigned index = 0;
  std::uint64_t offset = 0;         // in the file
  float u_offset = 0, v_offset = 0, u_scale = 0, v_scale = 0;  // the sub-rectangle in the 2^TW x 2^TH texture
  std::uint32_t id = 0;             // +0x10: StrCode24 of the bitmap name, what model packets name
  std::uint64_t tex0_first = 0;     // the first TEX0-like quadword (+0x40 PS2): shown, not used
  std::uint64_t tex0 = 0;           // the TEX0 the texture is read with (+0x50 PS2, +0x70 MC)
  std::uint32_t tex_type = 0;       // +0x60 PS2 (SeaLouse writes 68 colour, 66 specular, 88 environment)
  Bytes bytes;                      // the whole entry as stored: every other field is kept from it
  GsTex0 fields() const { return decode_tex0(tex0); }
  bool tagged() const;              // the entry carries kTriEntryTag
};

struct TriFile {
  std::shared_ptr<const FileData> file;
  TriHeader header;
  TriLayout layout = TriLayout::ps2;
  bool layout_tagged = false;  // told by the entries' tag (else by the offsets, --layout, or assumed)
  bool layout_forced = false;  // --layout said it
  std::vector<TriEntry> entries;
  Bytes image;  // header.height rows of 64 words at header.image_offset
  Bytes clut;   // header.clut_height rows at header.clut_offset
};

// Reads the header, the entries and the two blocks. Fails when the header or the entry table is
// unusable (short, negative counts or sizes, a block outside the file); what is odd but readable
// (no tag, bytes between the parts, overlapping blocks) goes into `notes`. `layout` forces the
// entry size (else: the entries' tag, then the image block's offset, then Master Collection).
Result<TriFile> read_tri(std::shared_ptr<const FileData> file, std::optional<TriLayout> layout = std::nullopt,
                         Diagnostics* notes = nullptr);
// Every finding: the reader's, then each entry's (TEX0 fields, PSMs other than PSMT4/PSMT8, CLUT
// storage, sub-rectangle, memory past the blocks, alpha above 0x80, duplicate ids).
Diagnostics validate_tri(const TriFile& tri);
// The file, rebuilt from the header, the entries and the blocks: the bytes as read.
std::vector<std::uint8_t> write_tri(const TriFile& tri);
// The same with other image and CLUT blocks of the same sizes (a re-encoded texture).
std::vector<std::uint8_t> write_tri(const TriFile& tri, Bytes image, Bytes clut);

// A texture's rectangle in GS pixels: x = floor(uOffset * 2^TW), w = floor(uScale * 2^TW) + 1,
// the same for y and h (what the game and every decoder use).
struct TriRect {
  std::uint32_t x = 0, y = 0, width = 0, height = 0;
};
// The rectangle, or why the entry cannot be decoded (TW/TH past the GS's 1024, offsets and scales
// outside 0..1 or not numbers).
Result<TriRect> tri_rect(const TriEntry& entry);

// How a PNG holds the PS2 alpha: as stored (0..0x80, 0x80 opaque), or scaled to 0..255
// (a * 255 / 128 rounded, values above 0x80 clipped to 255; back: a * 128 / 255 rounded).
enum class TriAlpha : std::uint8_t { raw, scaled };
std::uint8_t scale_ps2_alpha(std::uint8_t a);
std::uint8_t unscale_ps2_alpha(std::uint8_t a);

// Entry `index` as RGBA (colours from its CLUT, alpha as `alpha` says). Errors name the entry:
// an unknown PSM or CLUT storage, a rectangle or CLUT past its block.
Result<Image> decode_tri(const TriFile& tri, std::size_t index, TriAlpha alpha = TriAlpha::raw);
// The bytes decode_tri would make of entry `index` (0 when it cannot be decoded).
std::uint64_t tri_decoded_bytes(const TriFile& tri, std::size_t index);
// Pixels all textures of `tri` may decode to together: the image block's 4-bit pixels 16 times
// over (textures rarely share memory), at least 2^20 (1024x1024). A file whose rectangles claim more (the same
// memory read as thousands of large textures) is an error past it, not gigabytes of output.
std::uint64_t tri_pixel_budget(const TriFile& tri);

// The PNG chunk "trIa" a texture's PNG carries: how its alpha is stored (and the texture's id), so
// that the way back reads it the same way whatever --alpha says then.
PngChunk tri_png_chunk(const TriEntry& entry, TriAlpha alpha);
// The alpha a PNG's "trIa" chunk records; nullopt without one.
std::optional<TriAlpha> tri_png_alpha(const std::vector<PngChunk>& chunks);

// One texture to put back: an entry of the template and its new image (its alpha as `alpha`
// says). `label` names it in messages ("b7e31e.png (texture 0xB7E31E)").
struct TriEdit {
  std::size_t entry = 0;
  Image image;
  TriAlpha alpha = TriAlpha::raw;
  std::string label;
};
// The template with each edit's image re-encoded into its entry: same TBP/CBP/PSM and CLUT slot,
// the colours the image keeps at their CLUT index, new ones into CLUT entries no other texture
// sharing the CLUT uses. Refused, naming the texture, when the image does not fit: another size,
// more colours than the CLUT holds (16 or 256), not enough free CLUT entries, an edit that would
// change another texture (shared memory) or that the blocks cannot hold. An image equal to the
// entry's decoding changes nothing, so that unedited textures give the template's bytes. The
// result is read back, validated and decoded again: each edited texture is its image, every
// other one unchanged. `notes` receives what was done per texture.
Result<std::vector<std::uint8_t>> build_tri(const TriFile& tri, const std::vector<TriEdit>& edits,
                                            Diagnostics* notes = nullptr);

}  // namespace boneyard::texture
