// Laying out .ogf chunks from values: the writer side of ogf_read/ogf_mesh/ogf_skeleton, shared
// by the glTF import (xray_ogf_import*.cpp) and the edits (ogf_edit.cpp). Layouts and the SDK's
// choices: ../shared/docs/ogf-write-notes.md sections 1, 2 and 6; docs/ogf-write.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/xray/ogf/ogf.h"

namespace boneyard::xray::ogf_build {

// The "magic" vertex ids the SoC SDK writes (the only ones SoC loads); CS/CoP write 1-4.
inline constexpr std::uint32_t kMagic1Link = 0x12071980;
inline constexpr std::uint32_t kMagic2Link = 0x240E3300;
inline constexpr std::uint32_t kMagic3Link = 0x481C6600;
inline constexpr std::uint32_t kMagic4Link = 0x5A237F80;
inline constexpr std::uint32_t kFvfStatic = 0x112;  // D3DFVF_XYZ | NORMAL | TEX1: P N u v, 32 bytes
// Indices are u16 (the SDK: VERIFY(P < u16(-1))): at most 65535 vertices per child.
inline constexpr std::size_t kMaxChildVertices = 65535;
// Texture, shader and bone names are read into string256 buffers (255 bytes and the NUL).
inline constexpr std::size_t kMaxNameBytes = 255;

// Model types (enum MT of the engine) the writer produces.
inline constexpr std::uint8_t kTypeNormal = 0;           // MT_NORMAL: a static visual (FVF)
inline constexpr std::uint8_t kTypeHierarchy = 1;        // MT_HIERRARHY: static children in 0x9
inline constexpr std::uint8_t kTypeSkeletonAnim = 3;     // MT_SKELETON_ANIM: motions (refs or 0xE/0xF)
inline constexpr std::uint8_t kTypeSkinnedProgressive = 4;  // MT_SKELETON_GEOMDEF_PM: needs 0x6
inline constexpr std::uint8_t kTypeSkinned = 5;          // MT_SKELETON_GEOMDEF_ST
inline constexpr std::uint8_t kTypeSkeletonRigid = 10;   // MT_SKELETON_RIGID: no motions

std::uint32_t skinned_format(int links, bool magic);
bool is_magic_format(std::uint32_t format);

// An axis-aligned box grown point by point (X-Ray space).
struct Box {
  Vec3 min{}, max{};
  bool empty = true;
  void add(const Vec3& p);
  void add(const Box& b);
};
// The header's box and sphere: Fbox::getsphere gives centre = box centre, R = |max - centre|.
std::array<float, 6> box_floats(const Box& b);
std::array<float, 4> sphere_floats(const Box& b);
Box box_of(const OgfHeader& h);  // the stored box (as a Box, for merging)

// 0x1 payload: format version 4, type, shader id, box, sphere.
std::vector<std::uint8_t> header_payload(std::uint8_t type, std::uint16_t shader_id, const Box& box);

// A child to lay out. Vertices are in X-Ray model space (bind pose); a skinned vertex holds
// `links` influences (1-4) in bones/weights, heaviest first, weights summing to 1.
struct ChildGeometry {
  std::uint8_t type = kTypeSkinned;  // kTypeSkinned, or kTypeNormal for FVF children
  std::uint32_t format = 1;          // the 0x3 id: skinned_format(...) or kFvfStatic
  int links = 1;                     // 0 for FVF
  std::string texture, shader;       // raw cp1251
  std::vector<OgfVertex> vertices;
  std::vector<std::uint16_t> indices;  // X-Ray winding (clockwise front faces)
};
Box bounds(const std::vector<OgfVertex>& vertices);
// The child's payload (0x1, 0x2, 0x3, 0x4: the SDK's SSplit::Save order, no 0x6).
std::vector<std::uint8_t> child_payload(const ChildGeometry& child);
// One vertex as the layout stores it (appended to `w`).
void write_vertex(ByteWriter& w, const OgfVertex& v, int links);

// 0xD/0x10 records for bones the writer makes (template-less import).
struct BoneRecord {
  std::string name, parent;  // raw cp1251
  Obb obb;
  std::string game_mtl = "default_object";
  std::uint32_t joint_type = 0;  // jtRigid
  Vec3 bind_rotation, bind_position;
  float mass = 10;
  Vec3 center_of_mass;
};
std::vector<std::uint8_t> bone_names_payload(const std::vector<BoneRecord>& bones);
// IK data with the SDK's defaults for everything boneyard has no value for (notes section 6):
// version 1, shape stNone (identity box rotation, zero sizes), limits 0 with spring/damping 1,
// spring and damping 1, no flags, no break force or torque, friction 0.
std::vector<std::uint8_t> ik_data_payload(const std::vector<BoneRecord>& bones);
// 0x12 as ogf_desc::Save writes it (4-byte times).
std::vector<std::uint8_t> description_payload(const std::string& source, const std::string& creator);

// Motion refs as chunk 0x13 (one comma-separated stringZ) or 0x18 (u32 count, stringZ each).
std::vector<std::uint8_t> motion_refs_payload(const std::vector<std::string>& refs, std::uint32_t chunk);

// A stock engine's limit on a count (docs/ogf-write.md "Limits"), given what the model is
// rebuilt from already holds: within the limit; beyond it, but no further than the source model
// (a modded engine's file: refusing to rebuild what the input already is helps no one), which is
// a warning; or further, which stays an error.
enum class Beyond : std::uint8_t { within, as_source, further };
inline Beyond beyond_stock(std::size_t limit, std::size_t count, std::size_t source) {
  return count <= limit ? Beyond::within : count <= source ? Beyond::as_source : Beyond::further;
}
// The warning for Beyond::as_source: "53 motion refs, more than the stock CS/CoP engine reads (48);
// kept as in the source model (a modded engine reads them)".
std::string beyond_stock_warning(const std::string& what, std::size_t count, const std::string& engine,
                                 std::size_t limit);
// "at most 48" and, when the source went further, "(or the source model's 53)".
std::string stock_limit_text(std::size_t limit, std::size_t source);

// Appends a chunk holding `payload`.
void put_chunk(std::vector<std::uint8_t>& out, std::uint32_t raw_id, Bytes payload);

}  // namespace boneyard::xray::ogf_build
