// .kms: MGS2 hierarchical model (Konami DG_DEF / DG_MDL / DG_MDLPACK), both layouts.
// The model is a lossless native view: every stored field (pads and the unused rgbs pointer
// included), the arrays as views into the file, and the uncovered bytes (gaps).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/mgs2/mgs2_layout.h"

namespace boneyard::mgs2 {

// data_format ids (after masking the high flag byte).
inline constexpr std::uint32_t kKmsNorm = 13112177;       // 0x00C81371
inline constexpr std::uint32_t kKmsMultitex = 11686819;   // 0x00B253A3
inline constexpr std::uint32_t kKmsNormA = 5100225;       // packed variants seen inside ZAR packs
inline constexpr std::uint32_t kKmsMultitexA = 5151458;
inline constexpr std::uint32_t kDataFormatMask = 0x00FFFFFF;
inline constexpr std::uint32_t kDataFormatIndexFlag = 0x01000000;  // Xbox-era indexed data

inline constexpr std::uint32_t kUnitExtend = 0x4000;  // DG_TYPE_EXTEND
inline constexpr std::uint32_t kPackEnvelope = 0x0001;

inline constexpr std::size_t kKmsHeaderSize = 0x40;
std::size_t kms_unit_size(Layout layout);    // 0x40 / 0x50
std::size_t kms_packet_size(Layout layout);  // 0x30 / 0x60

struct KmsHeader {
  std::uint32_t data_format = 0;  // as stored, flag byte included
  std::uint32_t n_models = 0;
  std::uint32_t n_x_models = 0;
  std::uint32_t texture = 0;  // StrCode24 of the .tri basename
  // The three other dwords of 0x0C..0x1C, those after `texture` first: PS2 0x10, 0x14, 0x18;
  // MC 0x14, 0x18, 0x0C (0x0C must stay 0 in MC: it is how the layout is recognised).
  std::array<std::uint32_t, 3> pad{};
  Vec3 bbox_min, bbox_max, position;
};

struct KmsPacket {
  std::uint64_t file_offset = 0;  // where this DG_MDLPACK was read (lossless writer target)
  std::uint32_t flag = 0;
  std::uint32_t n_verts = 0;  // as stored; see vertex_count()
  std::array<std::uint32_t, 3> tex_id{};
  std::array<std::uint32_t, 3> tex_pad{};  // MC: the dword after each id
  ArrayRef verts;                          // n x {s16 x, y, z, w (weight 1.3.12)}
  ArrayRef norms;                          // n x {s16 x, y, z (1.3.12), kick flag}
  std::array<ArrayRef, 3> uvs;             // n x {s16 u, v (1.3.12)}; absent when pointer 0
  std::uint64_t rgbs = 0;                  // unused pointer, kept as stored
  std::uint64_t pad = 0;                   // PS2 0x2C (u32); MC 0x50
  std::uint64_t pad2 = 0;                  // MC 0x58

  // Xbox-era files split n_verts into u16 count + u16 index count; the low half is the count.
  std::uint32_t vertex_count() const { return (n_verts >> 16) != 0 ? (n_verts & 0xFFFF) : n_verts; }
};

struct KmsUnit {
  std::uint64_t file_offset = 0;
  std::uint32_t type = 0;
  std::uint32_t n_packs = 0;
  Vec3 bbox_min, bbox_max;
  Vec3 position;  // relative to the parent unit
  std::int32_t parent = -1;
  std::uint64_t packs = 0;                 // stored pointer to the first DG_MDLPACK
  std::array<std::uint64_t, 3> pad{};      // pad0..pad2 (MC: 8 bytes each)
  std::vector<KmsPacket> packets;
};

struct KmsFile {
  std::shared_ptr<const FileData> source;  // the bytes the views point into (null: built in memory)
  Layout layout = Layout::ps2;
  KmsHeader header;
  std::vector<KmsUnit> units;  // n_x_models: regular units, then extended ones
  std::vector<Gap> gaps;
  std::uint64_t file_size = 0;

  std::uint32_t format() const { return header.data_format & kDataFormatMask; }
  std::uint8_t format_flags() const { return static_cast<std::uint8_t>(header.data_format >> 24); }
  bool multitex() const { return format() == kKmsMultitex || format() == kKmsMultitexA; }
  std::uint32_t packet_vertex_limit() const { return multitex() ? 32 : 64; }
};

// KMS layout from the bytes: dword 0x0C non-zero (the PS2 texture id) means PS2; otherwise MC,
// unless the first unit's packet pointer sits where a PS2 packet table would (texture id 0).
Layout detect_kms_layout(Bytes file);

// Parses a whole file. `force` overrides detection. Findings met while reading (none fatal) go
// to `notes` when given. Errors: truncation, offsets past the end, counts past the data.
Result<KmsFile> read_kms(std::shared_ptr<const FileData> file, std::optional<Layout> force = std::nullopt, Diagnostics* notes = nullptr);

// Rewrites the model at its stored offsets, gaps included: byte-exact for an unedited model.
std::vector<std::uint8_t> write_kms(const KmsFile& model);

// Lays out a fresh file in `layout`: header, units, packet tables, then all vertices, all
// normals, UV0, UV1, UV2, each array 16-byte aligned. Counts (n_x_models, n_packs) follow the
// vectors; pointers are recomputed and rgbs written as 0. Errors: packet limits, array sizes that
// do not match the vertex count, a value the target layout cannot hold.
Result<std::vector<std::uint8_t>> build_kms(const KmsFile& model, Layout layout);
// build_kms for a layout conversion (`convert --layout`): header pads the target layout has no
// place for are written as 0 and reported to `warnings` with their values, instead of failing.
// PS2 -> MC: the pad at 0x18 (it would land at 0x0C, which must be 0 in MC). Converting back
// restores nothing.
Result<std::vector<std::uint8_t>> convert_kms_layout(const KmsFile& model, Layout layout, Diagnostics* warnings);

Diagnostics validate_kms(const KmsFile& model);

}  // namespace boneyard::mgs2
