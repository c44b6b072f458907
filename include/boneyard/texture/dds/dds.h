// DirectDraw Surface (.dds): the textures of X-Ray (gamedata/textures/**.dds) and of most D3D
// games. A lossless model (header fields as stored, levels as views into the file, bytes after
// the last level kept), its checks, its report, and the codecs: BCn through libsquish, uncompressed
// formats by their channel masks. Layout, formats and findings: docs/textures.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/texture/texture.h"

namespace boneyard::texture {

inline constexpr std::uint32_t kDdsMagic = 0x20534444;  // "DDS "
inline constexpr std::size_t kDdsHeaderSize = 128;      // magic + the 124-byte DDS_HEADER
inline constexpr std::size_t kDdsDx10HeaderSize = 20;

// DDS_HEADER flags, DDS_PIXELFORMAT flags and caps bits that boneyard reads or writes.
inline constexpr std::uint32_t kDdsdCaps = 0x1, kDdsdHeight = 0x2, kDdsdWidth = 0x4, kDdsdPitch = 0x8,
                               kDdsdPixelFormat = 0x1000, kDdsdMipMapCount = 0x20000, kDdsdLinearSize = 0x80000,
                               kDdsdDepth = 0x800000;
inline constexpr std::uint32_t kDdpfAlphaPixels = 0x1, kDdpfAlpha = 0x2, kDdpfFourCC = 0x4, kDdpfRgb = 0x40,
                               kDdpfLuminance = 0x20000;
inline constexpr std::uint32_t kDdsCapsComplex = 0x8, kDdsCapsTexture = 0x1000, kDdsCapsMipMap = 0x400000;
inline constexpr std::uint32_t kDdsCaps2Cubemap = 0x200, kDdsCaps2AllFaces = 0xFC00, kDdsCaps2Volume = 0x200000;

struct DdsPixelFormat {
  std::uint32_t size = 32, flags = 0, fourcc = 0, bit_count = 0;
  std::array<std::uint32_t, 4> masks{};  // R, G, B, A
};

// The DX10 extension header (FourCC "DX10").
struct DdsDx10 {
  std::uint32_t dxgi_format = 0, dimension = 0, misc_flag = 0, array_size = 0, misc_flags2 = 0;
};

struct DdsHeader {
  std::uint32_t size = 124, flags = 0, height = 0, width = 0, pitch_or_linear_size = 0, depth = 0, mip_map_count = 0;
  std::array<std::uint32_t, 11> reserved1{};
  DdsPixelFormat format;
  std::uint32_t caps = 0, caps2 = 0, caps3 = 0, caps4 = 0, reserved2 = 0;
  std::optional<DdsDx10> dx10;
};

// How the pixels are stored.
enum class DdsCodec : std::uint8_t {
  unsupported,  // a FourCC or DXGI format boneyard cannot decode (BC6H, BC7, floats, ...): read, not decoded
  bc1,          // DXT1
  bc2,          // DXT3 (DXT2: premultiplied)
  bc3,          // DXT5 (DXT4: premultiplied)
  bc4,          // ATI1 / BC4U: one channel, shown as grey
  bc5,          // ATI2 / BC5U: two channels, shown as red and green (blue 0)
  masks,        // uncompressed: 8 to 32 bits per pixel, channels given by masks
};

struct DdsEncoding {
  DdsCodec codec = DdsCodec::unsupported;
  std::string name;                      // "DXT1", "DXT5", "ATI2", "A8R8G8B8", "R8G8B8", "DX10 BC3_UNORM", ...
  unsigned block_bytes = 0;              // BCn: bytes per 4x4 block
  unsigned bits_per_pixel = 0;           // masks
  std::array<std::uint32_t, 4> masks{};  // masks: R, G, B, A (luminance in R)
  bool luminance = false;                // masks: R is luminance (R = G = B)
  bool premultiplied = false;            // DXT2/DXT4: decoded as stored
  bool srgb = false;                     // a DXGI *_SRGB format
};

// One stored image: level `level` of face `face` (face 0 for a plain texture; cube maps store
// +X, -X, +Y, -Y, +Z, -Z, each with its whole mip chain, in that order).
struct DdsLevel {
  unsigned face = 0, level = 0;
  std::uint32_t width = 0, height = 0;
  std::uint64_t offset = 0;  // in the file
  Bytes data;
};

struct DdsFile {
  std::shared_ptr<const FileData> file;  // the views below point into it
  DdsHeader header;
  DdsEncoding encoding;
  bool cube = false;
  unsigned faces = 1;           // faces stored (6 for a full cube map)
  unsigned declared_mips = 1;   // levels per face the header declares (mipMapCount, 0 read as 1)
  unsigned mips = 0;            // levels per face whose data is complete (every face)
  std::vector<DdsLevel> levels; // complete levels, face by face
  std::uint64_t data_offset = kDdsHeaderSize;  // where the first level starts (148 with DX10)
  Bytes tail;                   // bytes after the last declared level (or all data, when not decodable)

  const DdsLevel* level(unsigned face, unsigned level) const;
  std::uint64_t size() const;
};

// Faces of a cube map by index, as named in file names ("_posx" ... "_negz").
inline constexpr std::array<std::string_view, 6> kCubeFaceNames = {"posx", "negx", "posy", "negy", "posz", "negz"};

// Reads the header and finds every level. Fails only when the header itself is unusable (too
// short, wrong magic, zero or too large size); anything else (unknown FourCC, a mip chain shorter
// than declared, a truncated level, trailing bytes) is a finding in `notes` and the model keeps
// what there is. Every size is checked against the bytes present before it is used.
Result<DdsFile> read_dds(std::shared_ptr<const FileData> file, Diagnostics* notes = nullptr);
// Findings of read_dds again, plus the header's consistency (flags, pitch, caps).
Diagnostics validate_dds(const DdsFile& dds);
// The file's bytes from the model: the header and every byte after it as stored.
std::vector<std::uint8_t> write_dds(const DdsFile& dds);


// Level `level` of face `face` as RGBA. Errors: a level that is not stored (or truncated), a
// codec boneyard cannot decode, more pixels than one decode may make (check_decoded_pixels).
Result<Image> decode_dds(const DdsFile& dds, unsigned face = 0, unsigned level = 0);
// The errors decode_dds would give, without decoding (nothing is allocated).
Status check_decodable(const DdsFile& dds, unsigned face = 0, unsigned level = 0);

enum class DdsOutputFormat : std::uint8_t { automatic, dxt1, dxt5, rgba };
struct DdsBuildOptions {
  DdsOutputFormat format = DdsOutputFormat::automatic;  // automatic: DXT1 when opaque, else DXT5
  bool mips = true;                                     // the full chain (next_mip), else one level
};
// A new .dds of `image`: DXT1/DXT5 through libsquish (cluster fit), or "rgba" as A8R8G8B8 (BGRA
// bytes); the header as texconv writes it (docs/textures.md).
Result<std::vector<std::uint8_t>> build_dds(const Image& image, const DdsBuildOptions& options = {});
std::optional<DdsOutputFormat> parse_dds_output_format(std::string_view name);  // "dxt1", "dxt5", "rgba"

}  // namespace boneyard::texture
