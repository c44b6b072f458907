// X-Ray .ogf models of format version 3 (builds 1098-1865, up to 2004). A format of its own
// beside v4 (xray/ogf): the header is 4 bytes, the chunk ids differ (bounding boxes, children,
// user data, motions and IK data all live under other ids), the 1-link vertex has no tangent
// frame and is stored in its bone's space, there are three IK record layouts (one with a bind
// pose relative to the model) and two motion layouts. Like every native model this one keeps
// every chunk as stored (an unedited rewrite is byte-exact) and views into the file for vertex,
// index and key arrays. Layout facts and what was decided: docs/xray-ogf-v3.md.
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
#include "boneyard/xray/ogf/ogf.h"

namespace boneyard::xray {

// Chunk ids of v3 (the header is 0x1 as in v4).
inline constexpr std::uint32_t kOgf3Texture = 0x2;       // stringZ texture, stringZ shader
inline constexpr std::uint32_t kOgf3TextureL = 0x3;      // u32 texture, u32 shader (level visuals)
inline constexpr std::uint32_t kOgf3ChildRefs = 0x5;     // u32 n, n x stringZ: children in other files
inline constexpr std::uint32_t kOgf3BBox = 0x6;          // 6 floats: min xyz, max xyz
inline constexpr std::uint32_t kOgf3Vertices = 0x7;      // u32 format, u32 count, vertices
inline constexpr std::uint32_t kOgf3Indices = 0x8;       // u32 count, count x u16
inline constexpr std::uint32_t kOgf3LodData = 0x9;       // progressive mesh (Hoppe): sub-chunks 1, 2, 3
inline constexpr std::uint32_t kOgf3VContainer = 0xA;    // level vertex buffer reference
inline constexpr std::uint32_t kOgf3BSphere = 0xB;       // 4 floats: centre xyz, radius
inline constexpr std::uint32_t kOgf3ChildrenL = 0xC;     // level children (u32 n, n x u32)
inline constexpr std::uint32_t kOgf3BoneNames = 0xD;     // as v4: u32 n, n x (name, parent, Fobb)
inline constexpr std::uint32_t kOgf3Motions = 0xE;       // S_MOTIONS (builds 1469-1580): float translations
inline constexpr std::uint32_t kOgf3DPatch = 0xF;        // detail patch (kept raw)
inline constexpr std::uint32_t kOgf3Lods = 0x10;         // LOD visuals of a PROGRESSIVE2 model (kept raw)
inline constexpr std::uint32_t kOgf3Children = 0x11;     // nested visuals with ids 0, 1, ...
inline constexpr std::uint32_t kOgf3SmParams = 0x12;     // S_SMPARAMS (build 1469)
inline constexpr std::uint32_t kOgf3IContainer = 0x13;   // level index buffer reference
inline constexpr std::uint32_t kOgf3SmParamsNew = 0x14;  // S_SMPARAMS_NEW, versions 1-3 (1472-1865)
inline constexpr std::uint32_t kOgf3LodDef2 = 0x15;      // kept raw
inline constexpr std::uint32_t kOgf3TreeDef2 = 0x16;     // kept raw
inline constexpr std::uint32_t kOgf3IkData0 = 0x17;      // S_IKDATA_0 (1475-1580): bind pose in model space
inline constexpr std::uint32_t kOgf3UserData = 0x18;     // stringZ (ini text)
inline constexpr std::uint32_t kOgf3IkData1 = 0x19;      // S_IKDATA (1616-1844)
inline constexpr std::uint32_t kOgf3MotionsNew = 0x1A;   // S_MOTIONS_NEW (1616-1865): 8-bit translations
inline constexpr std::uint32_t kOgf3Desc = 0x1B;         // as v4 0x12
inline constexpr std::uint32_t kOgf3IkData2 = 0x1C;      // S_IKDATA_2 (1842-1865): u32 version first
inline constexpr std::uint32_t kOgf3MotionRefs = 0x1D;   // S_MOTION_REFS (1842): one comma-separated string

// Model types of v3 (the numbering differs from v4).
enum class Ogf3Type : std::uint8_t {
  normal = 0, hierarchy = 1, progressive = 2, skeleton_geom_pm = 3, skeleton_anim = 4, detail_patch = 6,
  skeleton_geom_st = 7, cached = 8, particle = 9, progressive2 = 0xA, lod = 0xB, tree = 0xC, skeleton_rigid = 0xF,
};
// "SKELETON_ANIM" etc., or "" for a number v3 does not define.
std::string_view ogf3_type_name(std::uint8_t type);

// Vertex format ids of v3.
inline constexpr std::uint32_t kOgf3Fvf = 0x112;          // D3D FVF: position, normal, one UV set (32 bytes)
inline constexpr std::uint32_t kOgf3Vertex1L = 0x12071980;  // P, N, u v, u32 bone (36 bytes, bone space)
inline constexpr std::uint32_t kOgf3Vertex2L = 0x240E3300;  // u16 bone[2], P N T B, w, u v (64 bytes)

struct Ogf3Header {
  std::uint8_t version = 3;
  std::uint8_t type = 0;
  std::uint16_t unused = 0;  // the converter reads it as a texture/shader index; kept as stored
};

enum class Ogf3Layout : std::uint8_t { fvf, link1, link2 };

// Chunk 0x7 of a visual. Not copied: `data` views count x stride file bytes.
struct Ogf3Vertices {
  std::uint64_t offset = 0;  // absolute offset of the first vertex
  std::uint32_t format = 0;
  Ogf3Layout layout = Ogf3Layout::fvf;
  std::uint32_t count = 0;
  std::uint32_t stride = 0;
  Bytes data;
  int fvf_normal = -1, fvf_uv = -1;  // FVF only: byte offsets inside a vertex, -1 when absent
  int links() const { return layout == Ogf3Layout::link1 ? 1 : layout == Ogf3Layout::link2 ? 2 : 0; }
};

// One vertex as stored (X-Ray space). A skinned vertex's position and normal are in the space of
// bones[0] at the bind pose; a static one's in model space.
struct Ogf3Vertex {
  Vec3 position, normal;
  float u = 0, v = 0;
  std::array<std::uint16_t, 2> bones{};  // 1-link: both the stored bone (u32, read as u16 like v4)
  std::array<float, 2> weights{};        // 2-link: bones[1] gets the stored w, bones[0] 1 - w
  std::uint32_t stored_bone = 0;         // 1-link: the u32 as stored
  int links = 0;
};
// `i` must be < vertices.count.
Ogf3Vertex decode_vertex(const Ogf3Vertices& vertices, std::size_t i);

// Chunk 0x9 of a progressive visual (Hoppe's progressive mesh): the stored index buffer is the
// coarsest mesh; vertex split k (vertex min_vertices + k) points `fix_faces` index slots at the
// new vertex. Full detail = every split applied (full_detail_indices).
struct Ogf3LodData {
  std::uint64_t offset = 0;  // the 0x9 chunk header
  std::uint32_t min_vertices = 0, min_indices = 0;
  Bytes vsplits;  // 4 bytes each: u16 vertex, u8 new triangles, u8 fix faces
  std::uint64_t vsplits_offset = 0;
  std::uint32_t fix_face_count = 0;
  Bytes fix_faces;  // fix_face_count x u16 index slots
  std::uint64_t fix_faces_offset = 0;
  std::size_t vsplit_count() const { return vsplits.size() / 4; }
};

// A visual: the model itself, a child (0x11) or a LOD level (0x10), each a chunk list of its own.
struct Ogf3Visual {
  std::string path;          // "" for the model, "0x11/0", "0x11/0/0x11/2", "0x10/1"
  std::uint64_t offset = 0;  // its chunk header (0 for the model)
  ChunkList chunks;
  Ogf3Header header;
  std::optional<std::array<float, 6>> bbox;    // 0x6
  std::optional<std::array<float, 4>> bsphere;  // 0xB
  std::optional<std::string> texture, shader;   // 0x2, raw cp1251
  Bytes texture_tail;                           // bytes after the shader string (kept raw)
  std::optional<Ogf3Vertices> vertices;         // 0x7
  Bytes indices;                                // 0x8: index_count x u16
  std::uint32_t index_count = 0;
  std::uint64_t indices_offset = 0;
  std::optional<Ogf3LodData> lod;               // 0x9
  std::vector<std::string> child_refs;          // 0x5
  std::vector<Ogf3Visual> children;             // 0x11, in id order (reading stops at the first gap)
  std::vector<Ogf3Visual> lods;                 // 0x10, in id order
  Status readable;  // not ok when the visual cannot be read; its siblings still are

  std::uint16_t index_at(std::size_t i) const { return load_le<std::uint16_t>(indices.data() + 2 * i); }
  // The child chunk path of a chunk id inside this visual ("0x11/0 0x7").
  std::string where(std::uint32_t id) const;
  bool has_geometry() const { return vertices.has_value() && index_count > 0; }
};

// A bone's IK record in one of the three layouts.
struct Ogf3Ik {
  std::uint64_t offset = 0;
  std::optional<std::uint32_t> version;  // S_IKDATA_2 only (1)
  std::string game_mtl;                  // raw cp1251
  Bytes shape;                           // SBoneShape, 112 bytes, kept raw
  JointData joint;                       // ik_flags and break values 0 for S_IKDATA_0; friction for S_IKDATA_2
  Vec3 bind_rotation;                    // Euler angles for setXYZi
  Vec3 bind_position;
  float mass = 0;
  Vec3 center_of_mass;
};

struct Ogf3Bone {
  std::uint64_t offset = 0;
  std::string name, parent_name;  // raw cp1251
  int parent = -1;                // index, -1 for roots and unknown parents
  Obb obb;
  std::optional<Ogf3Ik> ik;
};

// ---- Motions: parameters (0x12 or 0x14) and keys (0xE or 0x1A).

struct Ogf3PartBone {
  std::uint64_t offset = 0;
  std::string name;                    // params version 2 and 3 (raw cp1251)
  std::optional<std::uint32_t> index;  // 0x12 and versions 1 and 3: the bone id
};

struct Ogf3Part {
  std::uint64_t offset = 0;
  std::string name;
  std::vector<Ogf3PartBone> bones;
};

struct Ogf3MotionParams {
  std::uint64_t offset = 0;
  std::string name;
  std::uint32_t flags = 0;  // 0x14: as stored (the v4 bits: fx 1, stop at end 2, ...); 0x12: derived
  std::uint8_t kind = 0;    // 0x12 only: 0 fx, 1 cycle (stored as u8, or u32 when Ogf3Params::wide_kind)
  bool stop_at_end = false; // 0x12 only
  std::uint16_t bone_or_part = 0;
  std::uint16_t motion_id = 0;  // the motion's slot in the engine's list
  float speed = 1, power = 1, accrue = 2, falloff = 2;
  bool is_fx() const { return (flags & 1u) != 0; }
};

struct Ogf3Params {
  std::uint32_t chunk = 0;  // 0x12 or 0x14
  std::uint64_t offset = 0;
  std::uint16_t version = 0;  // 0x14: 1-3 (how part bones are named); 0 for 0x12
  bool wide_kind = false;     // 0x12 read with a u32 motion kind (blender-xray's reading), not a u8
  std::vector<Ogf3Part> parts;
  std::vector<Ogf3MotionParams> motions;
  Bytes tail;  // bytes after the last entry (kept raw)
  std::uint64_t tail_offset = 0;
};

// One bone's keys in one motion. 0xE: `keys` holds frames x 20 bytes (s16 x 4 rotation, then
// f32 x 3 translation). 0x1A: `keys` holds frames x 8 bytes of rotation (always keyed), then an
// 8-bit translation track when flags != 0, else one constant translation (`init`).
struct Ogf3BoneKeys {
  std::uint64_t offset = 0;
  bool floats = false;  // the 0xE layout
  Bytes keys;
  std::uint8_t flags = 0;  // 0x1A
  std::uint32_t rotation_crc = 0, translation_crc = 0;
  Bytes translation_keys;  // 0x1A with flags != 0: frames x 3 s8
  Vec3 size, init;

  bool translation_keyed() const { return floats || flags != 0; }
  std::size_t frames() const { return keys.size() / (floats ? 20 : 8); }
  QuatKey rotation_key(std::size_t frame) const;
  Quat rotation(std::size_t frame) const;  // stored / 32767, not renormalised
  Vec3 translation(std::size_t frame) const;
  std::uint64_t translation_offset() const;  // the 0x1A translation CRC (or init when constant)
};

struct Ogf3Motion {
  std::uint32_t raw_id = 0;
  std::uint64_t offset = 0;  // sub-chunk header
  std::string name;          // raw cp1251: the engine matches key sets to params by this name
  std::uint32_t frames = 0;
  std::uint64_t frames_offset = 0;
  std::vector<Ogf3BoneKeys> bones;  // one per bone, in 0xD order
  Bytes tail;
  std::uint64_t tail_offset = 0;
  Status readable;  // not ok when the records cannot be parsed (kept raw in the chunk)
};

struct Ogf3Motions {
  std::uint32_t chunk = 0;  // 0xE or 0x1A
  std::uint64_t offset = 0;
  std::optional<std::uint32_t> declared_count;  // sub-chunk 0
  std::vector<Ogf3Motion> motions;              // sub-chunks 1..n in order
  std::vector<Chunk> other;                     // sub-chunks the engine never reads (kept)
  bool floats() const { return chunk == kOgf3Motions; }
};

struct OgfV3File {
  std::shared_ptr<const FileData> source;
  std::uint64_t size = 0;
  Ogf3Visual model;  // the header, boxes, geometry or children of the file itself
  std::vector<Ogf3Bone> bones;  // 0xD
  std::uint32_t ik_chunk = 0;   // 0x1C, 0x19 or 0x17 (the one the engine reads); 0 without IK data
  std::optional<Ogf3Params> params;
  std::optional<Ogf3Motions> motions;
  std::vector<std::string> motion_refs;  // 0x1D, split at commas
  std::optional<std::string> user_data;  // 0x18 without the final NUL
  std::optional<OgfDescription> description;  // 0x1B
  std::vector<Finding> read_findings;

  // The bind pose the IK data gives, relative to each bone's parent (S_IKDATA_0 stores it
  // relative to the model: bind_locals converts it). False without IK data: there is none.
  bool has_bind_pose() const { return ik_chunk != 0; }
  bool bind_in_model_space() const { return ik_chunk == kOgf3IkData0; }
};

// True when the bytes start with an OGF header chunk holding a v3 header (4 bytes, version 3).
bool looks_like_ogf_v3(Bytes bytes);

Result<OgfV3File> read_ogf_v3(std::shared_ptr<const FileData> file);
// The stored chunks, as read (nothing in the model is edited in place), and trailing bytes.
std::vector<std::uint8_t> write_ogf_v3(const OgfV3File& file);
// write_ogf_v3, read back and validated: no error the input did not already have.
Result<std::vector<std::uint8_t>> rewrite_ogf_v3(const OgfV3File& file);

// The embedded 0x1A motions as an .omf: each stored record becomes the .omf record with the same
// keys, CRCs, size and init (flags != 0: "translation keyed"; rotations keyed), the parameters
// params version 3 with the bones' lower-cased names and 0xD indices (see ogf3::motion_set_of),
// motions in parameter order; checked by the .omf validator. Errors: no embedded motions, 0xE key
// sets (float translations have no exact .omf form), a written file that does not validate.
Result<std::vector<std::uint8_t>> extract_omf_v3(const OgfV3File& file);

Diagnostics validate_ogf_v3(const OgfV3File& file);

// Each bone's bind pose relative to its parent, X-Ray space (bind rotation as setXYZi Euler
// angles, position): as stored, or for S_IKDATA_0 converted from model space through the parent
// (local = inverse(parent world) x world, row-vector order). Empty without IK data.
struct Ogf3BindLocal {
  Vec3 rotation, position;
};
std::vector<Ogf3BindLocal> bind_locals(const OgfV3File& file);

// The skeleton as the v4 model's bones (names, parents, boxes, and IK data with the bind pose of
// bind_locals; friction only where S_IKDATA_2 stores it), the refs, and an empty motion set when
// the model has motions: what the v4 bone-tree check and the motion export look at.
OgfFile skeleton_as_v4(const OgfV3File& file);

}  // namespace boneyard::xray
