// .evm: MGS2 multi-weight envelope model (Konami EVM_DEF / EVM_SKEL / EVM_PACK), both layouts.
// Lossless native view, like kms.h.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/mgs2/mgs2_layout.h"

namespace boneyard::mgs2 {

inline constexpr std::uint32_t kEvmTypeLarge = 0x1;        // positions 1.15.0, else 1.11.4
inline constexpr std::uint32_t kEvmTypeIndex = 0x2;
inline constexpr std::uint32_t kEvmTypeBlackBump = 0x4;
inline constexpr std::uint32_t kEvmTypeFormatV2 = 0x01000000;  // weights: 4 + 4 palette bytes
inline constexpr std::uint32_t kEvmKnownTypeBits = 0x01000007;
inline constexpr std::size_t kEvmBoneSize = 0x40;
inline constexpr std::uint32_t kEvmPacketVertexLimit = 32;
inline constexpr std::uint32_t kEvmMaxMats = 8;

std::size_t evm_header_size(Layout layout);  // 0x30 / 0x40
std::size_t evm_packet_size(Layout layout);  // 0x40 / 0x70

struct EvmHeader {
  std::uint32_t n_models = 0;
  std::uint32_t n_x_models = 0;  // skeleton entries stored
  Vec3 bbox_min, bbox_max;
  std::uint32_t type = 0;     // PS2 0x20, MC 0x28
  std::uint32_t texture = 0;  // PS2 0x24, MC 0x20
  std::uint32_t n_packs = 0;
  std::uint64_t packet = 0;   // stored pointer to the first EVM_PACK
  std::array<std::uint32_t, 3> mc_pad{};  // MC: 0x24, 0x38, 0x3C
};

struct EvmBone {
  std::uint64_t file_offset = 0;
  std::uint32_t flag = 0;
  std::int32_t parent = -1;
  Vec3 translation;  // from the parent
  Vec3 root_offset;  // from the root: the bind pose is pure translation
  Vec4 box_min, box_max;  // of the vertices weighted to this joint
};

struct EvmPacket {
  std::uint64_t file_offset = 0;
  std::uint32_t flag = 0;
  std::uint32_t flag_pad = 0;  // MC: the dword after flag
  std::array<std::uint32_t, 3> tex_id{};
  std::array<std::uint32_t, 3> tex_pad{};  // MC
  std::uint32_t n_verts = 0;
  std::uint32_t n_mats = 0;
  std::array<std::uint8_t, 8> mat_id{};  // skeleton index per matrix slot, 0xFF = unused
  ArrayRef verts;                 // n x {s16 x, y, z, kick flag}
  ArrayRef norms;                 // n x {s16 x, y, z (1.3.12), pad}
  std::array<ArrayRef, 3> uvs;    // n x {s16 u, v, w, pad}
  ArrayRef weights;               // n x 8 bytes (v1: 8 weights; v2: 4 weights + 4 palette bytes)
  std::uint64_t rgbs = 0;         // unused pointer, kept
  std::uint64_t pad = 0;          // PS2 0x3C (u32); MC 0x68

  std::uint32_t vertex_count() const { return (n_verts >> 16) != 0 ? (n_verts & 0xFFFF) : n_verts; }
};

struct EvmFile {
  std::shared_ptr<const FileData> source;  // the bytes the views point into (null: built in memory)
  Layout layout = Layout::ps2;
  EvmHeader header;
  std::vector<EvmBone> bones;
  std::vector<EvmPacket> packets;
  std::vector<Gap> gaps;
  std::uint64_t file_size = 0;

  bool large() const { return (header.type & kEvmTypeLarge) != 0; }
  bool weights_v2() const { return (header.type & kEvmTypeFormatV2) != 0; }
  float position_scale() const { return large() ? 1.0f : 1.0f / 16.0f; }
};

// EVM has no magic: PS2 when the packet pointer at 0x2C is 0x30 + n_x_models * 0x40, MC when the
// one at 0x30 is 0x40 + n_x_models * 0x40; nullopt when neither holds.
std::optional<Layout> detect_evm_layout(Bytes file);

Result<EvmFile> read_evm(std::shared_ptr<const FileData> file, std::optional<Layout> force = std::nullopt, Diagnostics* notes = nullptr);
std::vector<std::uint8_t> write_evm(const EvmFile& model);
// Fresh layout: header, skeleton, packets, vertices, normals, UV0, UV1, UV2, weights.
Result<std::vector<std::uint8_t>> build_evm(const EvmFile& model, Layout layout);

// What a packet's `n_mats` counts. The spec: the matrices the packet uses (the length of its
// mat_id palette). SeaLouse's EVM importer: the influences it reads per vertex (at most 4, the
// slots of V2 weights), and it fails on a larger value (docs/mgs2.md "n_mats").
enum class NMatsReading { spec, sealouse };
std::optional<NMatsReading> parse_n_mats_reading(std::string_view name);  // "spec", "sealouse"

// n_mats of one packet as `reading` counts: spec = 1 + the last mat_id slot other than 0xFF;
// sealouse = 1 + the last weight slot (0..3) that holds a non-zero weight on any vertex.
std::uint32_t n_mats_for(const EvmFile& model, const EvmPacket& packet, NMatsReading reading);
// Rewrites every packet's n_mats as `reading` counts (packets without weights keep theirs).
// sealouse needs V2 weights (type & 0x01000000): V1 files are an error. Returns the packets changed.
Result<std::size_t> set_n_mats(EvmFile& model, NMatsReading reading);

// One influence of a vertex after resolving the palette: joint = skeleton index (-1 when the
// palette points outside mat_id), weight = stored byte / 128.
struct EvmInfluence {
  int joint = -1;
  float weight = 0;
};
// Influences with a non-zero weight of vertex `v` of `packet` (at most 8).
std::size_t evm_influences(const EvmFile& model, const EvmPacket& packet, std::size_t v,
                           std::array<EvmInfluence, 8>& out);

Diagnostics validate_evm(const EvmFile& model);
// validate_evm without the bounding-box checks (the header's box and each joint's), which can only
// warn: the same errors, for deciding whether a file may be converted, at about 60 % of the cost.
Diagnostics validate_evm_for_conversion(const EvmFile& model);

}  // namespace boneyard::mgs2
