// X-Ray .ogf models. The file is a flat list of chunks; this model keeps every chunk as stored
// (so a rewrite is byte-exact) and parses what boneyard uses: the header, the skeleton (0xD bone
// names, 0x10 IK data), the motion refs (0x13/0x18), user data (0x11), the description (0x12)
// and the embedded motions (0xE/0xF). Layout facts: ../shared/docs/xray-motions.md section 4.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/chunks.h"
#include "boneyard/diagnostics.h"
#include "boneyard/file_io.h"
#include "boneyard/omf.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kOgfHeader = 0x1;
inline constexpr std::uint32_t kOgfBoneNames = 0xD;    // OGF_S_BONE_NAMES
inline constexpr std::uint32_t kOgfIkData = 0x10;      // OGF_S_IKDATA
inline constexpr std::uint32_t kOgfUserData = 0x11;    // OGF_S_USERDATA (ini text)
inline constexpr std::uint32_t kOgfDesc = 0x12;        // OGF_S_DESC
inline constexpr std::uint32_t kOgfMotionRefs = 0x13;  // OGF_S_MOTION_REFS: one comma-separated string
inline constexpr std::uint32_t kOgfMotionRefs2 = 0x18; // OGF_S_MOTION_REFS2: u32 count + strings
inline constexpr std::size_t kMaxBones = 64;           // VERIFY3(dwCount <= 64) in the engine
inline constexpr std::size_t kBoneShapeBytes = 112;    // SBoneShape, kept raw

// Oriented box of a bone (Fobb): bone-local, advisory (often zeroed in real files).
struct Obb {
  std::array<float, 9> rotate{};  // 3x3, rows are the box axes
  Vec3 translate;
  Vec3 halfsize;
};

struct JointLimit {
  float lo = 0, hi = 0, spring = 0, damping = 0;
};

// SJointIKData as stored after the bone shape.
struct JointData {
  std::uint32_t type = 0;
  std::array<JointLimit, 3> limits{};
  float spring = 0, damping = 0;
  std::uint32_t ik_flags = 0;
  float break_force = 0, break_torque = 0;
  std::optional<float> friction;  // present when (u16)version != 0
};

// One bone's record in chunk 0x10.
struct IkData {
  std::uint64_t offset = 0;
  std::uint32_t version = 0;  // the engine reads it as u16; protected files hold garbage (>= 1)
  std::string game_mtl;       // raw cp1251
  Bytes shape;                // SBoneShape, 112 bytes
  JointData joint;
  Vec3 bind_rotation;  // Euler angles for setXYZi = setHPB(-y, -x, -z), relative to the parent
  Vec3 bind_position;  // relative to the parent
  float mass = 0;
  Vec3 center_of_mass;
};

struct OgfBone {
  std::uint64_t offset = 0;
  std::string name;         // raw cp1251 as stored (the engine lower-cases it on load)
  std::string parent_name;  // empty for a root
  int parent = -1;          // index into OgfFile::bones; -1 for roots and unknown parents
  Obb obb;
  std::optional<IkData> ik;  // set when chunk 0x10 is present
};

// Chunk 0x12 when it parses as the SDK writes it; obfuscated files leave `parsed` false.
struct OgfDescription {
  bool parsed = false;
  std::string source, build, creator, modifier;  // raw cp1251
  std::uint32_t build_time = 0, create_time = 0, modify_time = 0;
};

struct OgfHeader {
  std::uint8_t format_version = 4;
  std::uint8_t type = 3;  // 3 = animated skeleton, 10 = rigid skeleton
  std::uint16_t shader_id = 0;
  std::array<float, 6> bbox{};    // min xyz, max xyz
  std::array<float, 4> sphere{};  // centre xyz, radius
};

struct OgfFile {
  std::shared_ptr<const FileData> source;
  std::uint64_t size = 0;
  ChunkList chunks;  // top level, file order; payloads are views into `source`
  OgfHeader header;
  std::optional<MotionSet> motions;  // embedded 0xE/0xF
  std::vector<OgfBone> bones;        // 0xD order = bone index
  bool has_ik = false;               // chunk 0x10 present (bind pose known)
  // Motion refs (without ".omf", relative to the meshes root), from 0x13 if present, else 0x18.
  std::vector<std::string> motion_refs;
  std::uint32_t motion_refs_chunk = 0;  // 0x13, 0x18 or 0 (none: the embedded motions are used)
  std::optional<std::string> user_data;  // 0x11, raw cp1251 without the final NUL
  std::optional<OgfDescription> description;
  std::vector<Finding> read_findings;    // tolerated oddities met while reading (warnings)

  // The engine's name lookup: OGF names lower-cased, compared exactly. -1 when absent.
  int find_bone(std::string_view engine_name) const;
};

// True when the bytes start with an OGF header chunk (id 1).
bool looks_like_ogf(Bytes bytes);

// Fails clearly on OGF v3 (a 4-byte header) and on files without a header chunk.
Result<OgfFile> read_ogf(std::shared_ptr<const FileData> file);
std::vector<std::uint8_t> write_ogf(const OgfFile& file);

// An .omf holding the model's embedded motions (chunks 0xE and 0xF, ids without bit 31).
Result<std::vector<std::uint8_t>> extract_omf(const OgfFile& file);

Diagnostics validate_ogf(const OgfFile& file);
// Bone tree checks alone (roots, parents, cycles, duplicate names, bone count); used by
// validate_ogf and by the glTF export, which refuses trees it would misplace.
void validate_bone_tree(const OgfFile& file, Diagnostics& out);

// ASCII lower case, as the engine's xr_strlwr does for bone names.
std::string lower_ascii(std::string_view s);

}  // namespace boneyard::xray
