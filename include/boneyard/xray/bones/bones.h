// The SDK's bone data: a bone's chunks as CBone::Save and SaveData write them (the BONES2 entries of
// an .object), the old 0x913 records, bone parts (0x923, and the old 0x919 with indices), and the
// `.bones` file the Actor Editor saves (one chunk of SaveData per bone, then 0x923). Every bone
// keeps its chunks as stored, so a rewrite is byte-exact; the values are parsed beside them.
// Layouts: ../shared/docs/sdk-formats.md section 1.2; conventions: docs/xray-object.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/chunks.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/math.h"

namespace boneyard::xray {

// Sub-chunks of one bone (Bone.cpp's BONE_CHUNK_*).
inline constexpr std::uint32_t kBoneVersion = 0x1;     // u16: 2 (1: rotate.x and .y swapped on load)
inline constexpr std::uint32_t kBoneDef = 0x2;         // name, parent, wmap (Save); name alone (SaveData)
inline constexpr std::uint32_t kBoneBindPose = 0x3;    // v3 rest offset, v3 rest rotate (XYZ), f32 length
inline constexpr std::uint32_t kBoneMaterial = 0x4;    // game material stringZ
inline constexpr std::uint32_t kBoneShape = 0x5;       // SBoneShape, 112 bytes
inline constexpr std::uint32_t kBoneIkJoint = 0x6;     // u32 type, 3 x (v2 limit, spring, damping), spring, damping
inline constexpr std::uint32_t kBoneMass = 0x7;        // f32 mass, v3 centre of mass
inline constexpr std::uint32_t kBoneFlags = 0x8;       // u32 ik flags (breakable = 1)
inline constexpr std::uint32_t kBoneBreak = 0x9;       // f32 force, f32 torque
inline constexpr std::uint32_t kBoneFriction = 0x10;   // f32
inline constexpr std::uint32_t kBonePartsChunk = 0x923;     // EOBJ_CHUNK_BONEPARTS2 (names)
inline constexpr std::uint32_t kBonePartsOldChunk = 0x919;  // EOBJ_CHUNK_BONEPARTS (indices)

inline constexpr std::size_t kBoneShapeSize = 112;
inline constexpr std::size_t kBoneJointSize = 60;
inline constexpr std::uint16_t kBoneCurrentVersion = 2;

// SBoneShape: type none 0, box 1, sphere 2, cylinder 3; flags NoPickable 1, RemoveAfterBreak 2,
// NoPhysics 4, NoFogCollider 8.
struct BoneShape {
  std::uint16_t type = 0, flags = 0;
  std::array<float, 9> box_rotate{1, 0, 0, 0, 1, 0, 0, 0, 1};  // Fobb: rows are the box axes
  Vec3 box_translate, box_halfsize;
  Vec3 sphere_center;
  float sphere_radius = 0;
  Vec3 cylinder_center, cylinder_direction;
  float cylinder_height = 0, cylinder_radius = 0;
};

struct BoneLimit {
  float lo = 0, hi = 0, spring = 1, damping = 1;
};

// SJointIKData as the IK_JOINT chunk stores it. Types: rigid 0, cloth 1, joint 2, wheel 3, none 4,
// slider 5.
struct BoneJoint {
  std::uint32_t type = 0;
  std::array<BoneLimit, 3> limits{};
  float spring = 1, damping = 1;
};

// One bone. A BONES2 entry or a `.bones` record keeps its chunks (views into the file); a 0x913
// record has none and only the values it stores. Names are raw cp1251 as stored (the SDK
// lower-cases them on load). Missing chunks leave their values empty.
struct BoneData {
  std::uint64_t offset = 0;  // the bone's chunk (or record) header in the file
  std::string path;          // "0x921/3", "0x913 bone 3", ".bones 0x3": where findings point
  ChunkList chunks;          // as stored; empty for a 0x913 record
  std::optional<std::uint16_t> version;
  std::string name, parent, wmap;
  std::size_t def_chunks = 0;  // DEF chunks seen: CBone::Save writes two (Save's, SaveData's)
  bool def_has_links = false;  // the first DEF holds parent and wmap (an .object's; not a .bones file's)
  bool has_bind_pose = false;
  Vec3 rest_offset, rest_rotate;  // parent-relative; rotate for setXYZi, as stored (version 1 swaps x and y)
  float rest_length = 0;
  std::optional<std::string> game_mtl;
  std::optional<BoneShape> shape;
  std::optional<std::uint32_t> ik_flags;
  std::optional<BoneJoint> joint;
  std::optional<std::array<float, 2>> break_limits;  // force, torque
  std::optional<float> friction;
  std::optional<float> mass;
  Vec3 center_of_mass;

  // rest_rotate as the SDK uses it: version 1 (and the old 0x913 records) swap x and y on load.
  Vec3 bind_rotation() const;
};

// A bone part (motion channel group). 0x923 names its bones; 0x919 gives indices into the bones.
struct BoneGroup {
  std::string name;                    // raw cp1251
  std::vector<std::string> bones;      // 0x923: as stored; 0x919: empty
  std::vector<std::uint32_t> indices;  // 0x919 only
};
struct BoneParts {
  std::uint32_t chunk = kBonePartsChunk;
  std::uint64_t offset = 0;  // payload offset
  std::vector<BoneGroup> parts;
};

// The values of a bone's data chunks, parsed from `chunks` (BONES2 entry or .bones record);
// `path` prefixes findings. Truncated or short chunks fail with their offset and path; a chunk
// longer than its layout is read and reported in `notes` (its bytes are kept).
BoneData parse_bone_chunks(const Chunk& bone, std::string path, std::vector<Finding>& notes);
// 0x913: u32 count + records (name, parent, wmap, offset, rotate, length); `base` the payload offset.
std::vector<BoneData> parse_old_bones(const Chunk& chunk, std::vector<Finding>& notes);
// 0x923 or 0x919.
BoneParts parse_bone_parts(const Chunk& chunk);

// The chunks CBone::Save writes (VERSION 2, DEF with parent and wmap, BIND_POSE, then SaveData)
// when `full`, else SaveData alone (a .bones record). Missing values get CBone::ResetData's.
std::vector<std::uint8_t> bone_payload(const BoneData& bone, bool full);
std::vector<std::uint8_t> bone_parts_payload(const BoneParts& parts);
// The defaults of a new bone (CBone::ResetData): game material default_object, no shape, a
// rigid joint, mass 10.
BoneData default_bone_data();

// A `.bones` file.
struct BonesFile {
  std::shared_ptr<const FileData> source;
  std::uint64_t size = 0;
  ChunkList chunks;              // top level, as stored
  std::vector<BoneData> bones;   // chunks 0, 1, ... (the SDK stops at the first missing id)
  std::optional<BoneParts> parts;
  std::vector<Finding> read_findings;
};

// True when the bytes look like a .bones file: chunk 0 holding bone data chunks, or 0x923 alone.
bool looks_like_bones(Bytes bytes);
Result<BonesFile> read_bones(std::shared_ptr<const FileData> file);
std::vector<std::uint8_t> write_bones(const BonesFile& file);  // lossless
// A new .bones file from bone data and parts (what the Actor Editor saves: Bones > File > Save).
std::vector<std::uint8_t> make_bones(const std::vector<BoneData>& bones, const BoneParts& parts);
// `bytes` when they read back and validate without errors beyond the inherited ones (one output
// error let through per inherited error with the same message); else the first new problem.
Result<std::vector<std::uint8_t>> checked_bones_bytes(std::vector<std::uint8_t> bytes,
                                                      const Diagnostics* inherited = nullptr);
// write_bones checked against the file's own findings.
Result<std::vector<std::uint8_t>> rewrite_bones(const BonesFile& file);

Diagnostics validate_bones(const BonesFile& file);
// The checks of one bone's data shared with the .object validator: required chunks, shape and
// joint types the SDK knows, non-finite values.
void validate_bone_data(const BoneData& bone, bool object_bone, Diagnostics& out);
// Parts against the bone names (lower-cased, as the SDK compares them): unknown bones, bones in two
// parts, bones in no part.
void validate_bone_parts(const BoneParts& parts, const std::vector<BoneData>& bones, std::string_view path,
                         Diagnostics& out);

// The engine's lower-cased name of a bone (xr_strlwr).
std::string bone_key(std::string_view raw_name);

}  // namespace boneyard::xray
