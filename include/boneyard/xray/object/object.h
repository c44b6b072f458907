// The SDK's editable object (`.object`): one body chunk 0x7777 (LZHuf-compressed when bit 31 of its
// id is set) holding the object's chunks: version, flags, surfaces, meshes (points, faces,
// smoothing groups, vertex maps and their per-corner references), bones, bone parts, motion refs or
// embedded motions, description. The model keeps every chunk as stored, so a rewrite is
// byte-exact; what boneyard uses is parsed beside them, and the mesh arrays stay views into the
// file. Layouts: ../shared/docs/sdk-formats.md section 1.1; conventions: docs/xray-object.md.
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
#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kObjectBody = 0x7777;  // EOBJ_CHUNK_OBJECT_BODY
// Body chunks (EditObject.h EOBJ_CHUNK_*).
inline constexpr std::uint32_t kObjVersion = 0x900;
inline constexpr std::uint32_t kObjFlags = 0x903;
inline constexpr std::uint32_t kObjSurfaces = 0x905;      // old: name, shader, u8 two-sided, fvf, tc, texture, vmap
inline constexpr std::uint32_t kObjSurfaces2 = 0x906;     // 0x907 without the game material
inline constexpr std::uint32_t kObjSurfaces3 = 0x907;
inline constexpr std::uint32_t kObjMeshes = 0x910;
inline constexpr std::uint32_t kObjLibVersion = 0x911;    // obsolete
inline constexpr std::uint32_t kObjClassScript = 0x912;   // user data (stringZ)
inline constexpr std::uint32_t kObjBonesOld = 0x913;
inline constexpr std::uint32_t kObjObjectMotions = 0x914;  // old object motions (kept, not read)
inline constexpr std::uint32_t kObjMotions = 0x916;        // SMOTIONS: u32 count + CSMotion bodies
inline constexpr std::uint32_t kObjSurfacesXrlc = 0x918;   // compiler shaders of 0x905 surfaces
inline constexpr std::uint32_t kObjActorTransform = 0x920;
inline constexpr std::uint32_t kObjBones = 0x921;         // BONES2: one chunk per bone
inline constexpr std::uint32_t kObjDescription = 0x922;
inline constexpr std::uint32_t kObjMotionRefsSoc = 0x924;  // SMOTIONS2: one comma-separated string
inline constexpr std::uint32_t kObjLodRef = 0x925;
inline constexpr std::uint32_t kObjMotionRefs = 0x926;     // SMOTIONS3: u32 count + strings (CS/CoP)
inline constexpr std::uint16_t kObjectVersion = 0x10;

// Mesh chunks (EditMeshIO.cpp EMESH_CHUNK_*).
inline constexpr std::uint32_t kMeshVersion = 0x1000;
inline constexpr std::uint32_t kMeshName = 0x1001;
inline constexpr std::uint32_t kMeshFlags = 0x1002;     // u8: visible 1, locked 2, SG mask 4
inline constexpr std::uint32_t kMeshBbox = 0x1004;
inline constexpr std::uint32_t kMeshPoints = 0x1005;
inline constexpr std::uint32_t kMeshFaces = 0x1006;
inline constexpr std::uint32_t kMeshVmaps0 = 0x1007;    // UVs only
inline constexpr std::uint32_t kMeshVmrefs = 0x1008;
inline constexpr std::uint32_t kMeshSurfaceFaces = 0x1009;
inline constexpr std::uint32_t kMeshOptions = 0x1010;   // 2 x u32, reserved
inline constexpr std::uint32_t kMeshVmaps1 = 0x1011;    // without polymap byte and index arrays
inline constexpr std::uint32_t kMeshVmaps2 = 0x1012;
inline constexpr std::uint32_t kMeshSmoothing = 0x1013;
inline constexpr std::uint32_t kMeshNormals = 0x1014;   // split normals (not in the GSC SDK; kept)
inline constexpr std::uint16_t kMeshVersionCurrent = 0x11;
inline constexpr std::uint8_t kMeshFlagSgMask = 4;

inline constexpr std::uint8_t kVmapUv = 0;
inline constexpr std::uint8_t kVmapWeight = 1;

// A surface: what a group of faces is drawn and compiled with. Strings are raw cp1251.
struct ObjectSurface {
  std::uint64_t offset = 0;  // its name in the file
  std::string name, shader, compiler_shader, game_mtl, texture, vmap;
  std::uint32_t flags = 0;  // sf2Sided = 1 (0x905: its u8 two-sided byte)
  std::uint32_t fvf = 0;
  std::uint32_t tc_count = 1;
  bool two_sided() const { return (flags & 1u) != 0; }
};

// A vertex map (VMAPS_2 entry, or the older forms): `size` values of `dim` floats, each for point
// `point(i)` and, in a discontinuous ("polymap") map, face `face(i)`. UV maps hold (u, v), V down
// as D3D stores it; weight maps one weight and are named after their bone's weight map.
struct ObjectVmap {
  std::uint64_t offset = 0;
  std::string name;
  std::uint8_t dim = 2;
  std::uint8_t polymap = 0;
  std::uint8_t type = kVmapUv;  // as stored; the SDK uses its low 2 bits
  std::uint32_t size = 0;
  Bytes values, points, faces;  // views: size x dim floats, size i32 (VMAPS_2), size i32 (polymap)
  float value(std::size_t i, std::size_t k) const { return load_le<float>(values.data() + 4 * (i * dim + k)); }
  std::int32_t point(std::size_t i) const { return load_le<std::int32_t>(points.data() + 4 * i); }
  std::int32_t face(std::size_t i) const { return load_le<std::int32_t>(faces.data() + 4 * i); }
  bool is_uv() const { return (type & 3) == kVmapUv; }
  bool is_weight() const { return (type & 3) == kVmapWeight; }
};

// One entry of a corner's vmref: which vmap, which value in it.
struct VmrefEntry {
  std::int32_t vmap = -1, index = -1;
};

// The faces one surface covers (SFACE).
struct SurfaceFaces {
  std::uint64_t offset = 0;  // its name in the file
  std::string surface;       // raw cp1251
  std::uint32_t count = 0;
  Bytes faces;  // count x u32
  std::uint32_t face(std::size_t i) const { return load_le<std::uint32_t>(faces.data() + 4 * i); }
};

struct ObjectMesh {
  std::uint32_t index = 0;   // chunk id inside 0x910
  std::uint64_t offset = 0;  // its chunk header
  ChunkList chunks;
  std::uint16_t version = 0;
  std::string name;  // raw cp1251
  std::optional<std::array<float, 6>> bbox;
  std::optional<std::uint8_t> flags;
  std::optional<std::array<std::uint32_t, 2>> options;
  std::uint32_t point_count = 0;
  Bytes points;  // point_count x 3 floats
  std::uint32_t face_count = 0;
  Bytes faces;  // face_count x 3 x (u32 point, u32 vmref)
  Bytes smoothing;  // face_count x u32 when present
  bool has_smoothing = false;
  std::uint32_t vmref_count = 0;
  Bytes vmrefs;                          // the chunk after its count
  std::vector<std::uint32_t> vmref_at;   // where each vmref starts in `vmrefs`
  std::vector<SurfaceFaces> surfaces;
  std::uint32_t vmaps_chunk = 0;  // 0x1012, 0x1011 or 0x1007
  std::vector<ObjectVmap> vmaps;
  Bytes normals;  // 0x1014 when present: face_count x 3 x 3 floats
  // Not ok when the mesh cannot be read; the rest of the object (and its other meshes) still is.
  Status readable;

  std::string path() const;  // "0x910/0"
  Vec3 point(std::size_t i) const {
    const std::uint8_t* p = points.data() + 12 * i;
    return {load_le<float>(p), load_le<float>(p + 4), load_le<float>(p + 8)};
  }
  std::uint32_t corner_point(std::size_t face, int k) const {
    return load_le<std::uint32_t>(faces.data() + 24 * face + 8 * static_cast<std::size_t>(k));
  }
  std::uint32_t corner_vmref(std::size_t face, int k) const {
    return load_le<std::uint32_t>(faces.data() + 24 * face + 8 * static_cast<std::size_t>(k) + 4);
  }
  // The face's smoothing value as the SDK loads it: stored, else 0 with the SG mask flag, else -1.
  std::uint32_t smoothing_group(std::size_t face) const {
    if (has_smoothing && 4 * face + 4 <= smoothing.size()) return load_le<std::uint32_t>(smoothing.data() + 4 * face);
    return sg_mask() ? 0u : 0xFFFFFFFFu;
  }
  bool sg_mask() const { return flags && (*flags & kMeshFlagSgMask) != 0; }
  std::size_t vmref_size(std::size_t ref) const { return vmrefs[vmref_at[ref]]; }
  VmrefEntry vmref_entry(std::size_t ref, std::size_t k) const {
    const std::uint8_t* p = vmrefs.data() + vmref_at[ref] + 1 + 8 * k;
    return {load_le<std::int32_t>(p), load_le<std::int32_t>(p + 4)};
  }
};

// 0x922 as the SDK writes it: creator, time, modifier, time. The files hold 4-byte times (BX, XRE);
// the SDK source writes sizeof(time_t), 8 in a 64-bit build: both are read. `parsed` false keeps
// it raw (the chunk is always rewritten as stored).
struct ObjectDescription {
  bool parsed = false;
  std::string creator, modifier;  // raw cp1251
  std::uint64_t create_time = 0, modify_time = 0;
  std::uint8_t time_size = 4;
};

// How a file's smoothing groups are meant (docs/xray-object.md "Smoothing groups").
enum class SmoothingStyle : std::uint8_t {
  soc,    // SoC SDK: ids that smooth when equal ("Maya"; -1 flat) or, with a mesh's SG mask flag,
          // bit masks that smooth when they share a bit ("MAX"; 0 flat)
  cscop,  // CS/CoP SDK: per-face flags, bits 0-2 hard edges, bit 3 back face
};
std::string_view smoothing_style_name(SmoothingStyle s);  // "soc", "cscop"

struct ObjectFile {
  std::shared_ptr<const FileData> source;
  std::uint64_t size = 0;
  ChunkList file_chunks;  // the file's own chunks (0x7777 and anything after it), as stored
  std::size_t body_chunk = 0;  // index of the 0x7777 chunk in file_chunks
  // The body chunk was LZHuf-compressed (bit 31 set on its id): `body` then views `unpacked`, and
  // offsets inside it are offsets into the unpacked body (findings say so).
  bool compressed = false;
  std::shared_ptr<const std::vector<std::uint8_t>> unpacked;
  Bytes body;
  ChunkList chunks;  // the body's chunks in file order
  std::optional<std::uint16_t> version;
  std::optional<std::uint32_t> flags;  // eoDynamic 1, eoProgressive 2, eoUsingLOD 4, eoHOM 8, ...
  std::uint32_t flags_size = 4;        // very old files store one byte
  std::optional<std::string> user_data;  // 0x912 (class script), raw cp1251
  std::optional<std::string> lod_ref;    // 0x925
  std::uint32_t surfaces_chunk = 0;      // 0x907, 0x906 or 0x905 (with 0x918)
  std::vector<ObjectSurface> surfaces;
  std::vector<ObjectMesh> meshes;        // 0x910 children 0, 1, ... (the SDK stops at a gap)
  std::uint32_t bones_chunk = 0;         // 0x921 or 0x913
  std::vector<BoneData> bones;
  std::optional<BoneParts> parts;        // 0x923 or 0x919
  std::uint32_t motion_refs_chunk = 0;   // 0x924 or 0x926
  std::vector<std::string> motion_refs;  // raw cp1251
  std::optional<std::uint32_t> motion_count;  // 0x916's count
  // 0x916's motions (the .skls body, xray/skl), views into the body; `motions_error` when they do
  // not read (the chunk is kept as stored either way).
  std::vector<SklMotion> motions;
  Status motions_error;
  std::optional<std::array<Vec3, 2>> actor_transform;  // position, rotation
  std::optional<ObjectDescription> description;
  std::vector<Finding> read_findings;

  bool is_dynamic() const { return flags && (*flags & 1u) != 0; }
  // The bone whose weight map (else name) is `wmap`, as CEditableObject::GetBoneIndexByWMap; -1.
  int bone_of_weight_map(std::string_view wmap) const;
  // The surface named `name`, as FindSurfaceByName (exact); -1.
  int find_surface(std::string_view name) const;
  const Chunk* find(std::uint32_t id) const { return chunks.find(id); }
};

// True when the bytes start with an object body chunk (0x7777, bit 31 allowed).
bool looks_like_object(Bytes bytes);
Result<ObjectFile> read_object(std::shared_ptr<const FileData> file);
// Lossless: the file's chunks as stored (a compressed body keeps its packed bytes).
std::vector<std::uint8_t> write_object(const ObjectFile& file);
// An object file holding `body` (the body's chunks), compressed with LZHuf when `compress`.
Result<std::vector<std::uint8_t>> object_file_bytes(Bytes body, bool compress);
// `bytes` when they read back and validate without errors beyond the inherited ones (one output
// error let through per inherited error with the same message); else the first new problem, its
// path prefixed with "written .object".
Result<std::vector<std::uint8_t>> checked_object_bytes(std::vector<std::uint8_t> bytes,
                                                       const Diagnostics* inherited = nullptr);
// write_object checked against the file's own findings.
Result<std::vector<std::uint8_t>> rewrite_object(const ObjectFile& file);

// The style the file's smoothing groups are in, as far as the values tell: ids above 15 are SoC;
// flags that disagree across an edge two faces share are not CS/CoP; otherwise CS/CoP. `decided`
// is false when nothing in the values tells the two apart (then CS/CoP is assumed).
SmoothingStyle detect_smoothing(const ObjectFile& file, bool* decided = nullptr);

Diagnostics validate_object(const ObjectFile& file);
// Mesh findings for one mesh (validate_object reports them for every mesh). `errors_only`: the
// errors alone (what an export needs to know), without the work that only warnings need.
void validate_object_mesh(const ObjectFile& file, const ObjectMesh& mesh, Diagnostics& out, bool errors_only = false);

}  // namespace boneyard::xray
