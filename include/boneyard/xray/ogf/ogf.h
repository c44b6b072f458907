// X-Ray .ogf models. The file is a flat list of chunks; this model keeps every chunk as stored
// (so a rewrite is byte-exact) and parses what boneyard uses: the header, the skeleton (0xD bone
// names, 0x10 IK data), the motion refs (0x13/0x18), user data (0x11), the description (0x12)
// and the embedded motions (0xE/0xF), and the meshes (0x9 children: texture, vertices, indices,
// slide windows), whose vertex arrays stay views into the file and are decoded on demand.
// Layout facts: ../shared/docs/xray-motions.md sections 4 and 9.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "boneyard/core/chunks.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/xray/omf/omf.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kOgfHeader = 0x1;
inline constexpr std::uint32_t kOgfBoneNames = 0xD;    // OGF_S_BONE_NAMES
inline constexpr std::uint32_t kOgfIkData = 0x10;      // OGF_S_IKDATA
inline constexpr std::uint32_t kOgfUserData = 0x11;    // OGF_S_USERDATA (ini text)
inline constexpr std::uint32_t kOgfDesc = 0x12;        // OGF_S_DESC
inline constexpr std::uint32_t kOgfMotionRefs = 0x13;  // OGF_S_MOTION_REFS: one comma-separated string
inline constexpr std::uint32_t kOgfMotionRefs2 = 0x18; // OGF_S_MOTION_REFS2: u32 count + strings
inline constexpr std::uint32_t kOgfTexture = 0x2;     // OGF_TEXTURE: stringZ texture, stringZ shader
inline constexpr std::uint32_t kOgfVertices = 0x3;    // OGF_VERTICES: u32 format, u32 count, vertices
inline constexpr std::uint32_t kOgfIndices = 0x4;     // OGF_INDICES: u32 count, count x u16
inline constexpr std::uint32_t kOgfSwiData = 0x6;     // OGF_SWIDATA: progressive slide windows
inline constexpr std::uint32_t kOgfChildren = 0x9;    // OGF_CHILDREN: nested models with ids 0, 1, ...
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

// ---- Meshes (0x9 children) ----

// Vertex layouts: skinned with 1-4 links (SkeletonX), or a raw D3D FVF vertex (static models).
enum class VertexLayout : std::uint8_t { skinned1, skinned2, skinned3, skinned4, fvf };

// Chunk 0x3 of a child. The vertices are not copied: `data` views count x stride file bytes.
struct OgfVertices {
  std::uint64_t offset = 0;  // absolute offset of the first vertex
  std::uint32_t format = 0;  // as stored: 1-4, the old magic ids, or an FVF code
  VertexLayout layout = VertexLayout::skinned1;
  std::uint32_t count = 0;
  std::uint32_t stride = 0;
  Bytes data;
  // FVF only: byte offsets inside a vertex of the normal and of the first texture coordinates
  // (-1 when absent).
  int fvf_normal = -1, fvf_uv = -1;
  int links() const;  // 1-4 for skinned layouts, 0 for FVF
};

// One vertex as stored (X-Ray space, model space in bind pose).
struct OgfVertex {
  Vec3 position, normal, tangent, binormal;
  float u = 0, v = 0;
  std::array<std::uint16_t, 4> bones{};  // 0xD indices; unused slots repeat bones[0]
  // The engine's weights, the implied last one included (1 - sum of the stored ones, which real
  // files make slightly negative); unused slots 0.
  std::array<float, 4> weights{};
  int links = 0;  // 0: a static vertex without bones
};
// `i` must be < vertices.count.
OgfVertex decode_vertex(const OgfVertices& vertices, std::size_t i);

// FSlideWindow of a progressive child: `triangles` triangles from index `offset`.
struct SlideWindow {
  std::uint32_t offset = 0;
  std::uint16_t triangles = 0;
  std::uint16_t vertices = 0;
};

struct OgfChild {
  std::uint32_t index = 0;   // chunk id inside 0x9 (= glTF primitive order)
  std::uint64_t offset = 0;  // absolute offset of its chunk header
  ChunkList chunks;          // its own chunks, views into the file
  OgfHeader header;
  std::string texture, shader;  // raw cp1251 (no extension, backslashes)
  Bytes texture_tail;           // junk after the shader string (real files have some; kept raw)
  std::optional<OgfVertices> vertices;
  Bytes indices;  // index_count x u16
  std::uint32_t index_count = 0;
  std::uint64_t indices_offset = 0;  // absolute offset of the first index
  std::vector<SlideWindow> windows;  // 0x6; window 0 is the full-detail mesh
  std::uint64_t windows_offset = 0;  // absolute offset of window 0
  // Not ok when the child cannot be read; the rest of the model (and the other children) still is.
  Status readable;

  std::string path() const;  // "0x9/3"
  std::uint16_t index_at(std::size_t i) const { return load_le<std::uint16_t>(indices.data() + 2 * i); }
  // [first, first + count) of the indices drawn at full detail: slide window 0 of a progressive
  // child (the rest of its buffer stacks coarser LODs), else the whole buffer. Clamped to it.
  std::pair<std::size_t, std::size_t> full_detail() const;
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
  std::vector<OgfChild> children;        // 0x9, in id order (the engine stops at the first gap)
  std::vector<Finding> read_findings;    // tolerated oddities met while reading (warnings)

  // The engine's name lookup: OGF names lower-cased, compared exactly. -1 when absent. Linear in
  // the number of bones: code that looks up every bone uses a BoneLookup instead.
  int find_bone(std::string_view engine_name) const;
};

// The engine's name lookup for many names at once: built in one pass over the bones, then each
// lookup takes constant time (a model may have tens of thousands of bones). Same answers as
// OgfFile::find_bone: the first bone whose lower-cased name equals `engine_name`, else -1.
class BoneLookup {
 public:
  explicit BoneLookup(const std::vector<OgfBone>& bones);
  int find(std::string_view engine_name) const;

 private:
  std::unordered_map<std::string, int> first_by_lower_name_;
};

// True when the bytes start with an OGF header chunk (id 1).
bool looks_like_ogf(Bytes bytes);

// Fails clearly on OGF v3 (a 4-byte header) and on files without a header chunk.
Result<OgfFile> read_ogf(std::shared_ptr<const FileData> file);
std::vector<std::uint8_t> write_ogf(const OgfFile& file);

// `bytes` (a written .ogf) when they read back and validate without errors beyond the inherited
// ones; else the first new problem, its path prefixed with "written .ogf". Every .ogf writer
// (the glTF import, the edits) checks its output with it. `inherited`: the input's findings (a
// rewrite or an edit of a model that already had errors); each of their errors lets one output
// error with the same message through (paths and offsets move when children change).
Result<std::vector<std::uint8_t>> checked_ogf_bytes(std::vector<std::uint8_t> bytes,
                                                    const Diagnostics* inherited = nullptr);
// The lossless rewrite, checked: write_ogf(file) through checked_ogf_bytes with the file's own
// findings inherited (what `convert model.ogf -o copy.ogf` should call).
Result<std::vector<std::uint8_t>> rewrite_ogf(const OgfFile& file);

// An .omf holding the model's embedded motions (chunks 0xE and 0xF, ids without bit 31).
Result<std::vector<std::uint8_t>> extract_omf(const OgfFile& file);

Diagnostics validate_ogf(const OgfFile& file);
// Bone tree checks alone (roots, parents, cycles, duplicate names, bone count); used by
// validate_ogf and by the glTF export, which refuses trees it would misplace.
void validate_bone_tree(const OgfFile& file, Diagnostics& out);

// Mesh findings for one child (validate_ogf reports them for every child): the read error, or
// errors for an index count that is not a multiple of 3, an index past the vertex count, a bone
// index past the skeleton, a slide window past the buffers; warnings for NaN texture
// coordinates and zero or non-finite normals (the glTF export repairs those).
void validate_ogf_child(const OgfFile& file, const OgfChild& child, Diagnostics& out);

// The validation errors that stop a conversion of the model: all of them, except the mesh
// children's (path "0x9/N ...") when the glTF export leaves broken children out (--keep-going).
std::vector<Finding> ogf_conversion_blockers(const OgfFile& file, bool gltf_keep_going);

}  // namespace boneyard::xray
