// .cmdl: the Master Collection's PC-side companion of an MGS2 model (magic "MODL", in a `_win/`
// folder beside the .kms/.evm). The MC game draws the model's geometry from it: vertex columns
// (positions, normals, UVs, EVM bone indices and weights, each vertex's index in the model's strip
// stream), a triangle list and one record per packet. Mixed endianness; layout, derivation and
// what is uncertain in docs/mgs2-cmdl.md.
//
// The model is a lossless native view like kms.h: every stored field, the section data as views,
// the tail's index list as a view, and the bytes no structure covers (gaps).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/half_float.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mgs2_layout.h"

namespace boneyard::mgs2 {

inline constexpr std::size_t kCmdlHeaderSize = 0x10;
inline constexpr std::size_t kCmdlSectionEntrySize = 0x20;
// Section offsets and the tail offset count from this file offset (Jayveer's and SeaLouse's
// readers both add it).
inline constexpr std::uint64_t kCmdlBase = 0x0C;
inline constexpr std::uint32_t kCmdlVersion = 1;

// What a section holds, by its tag. Tags are read in this order ("POS0"); files store the four
// bytes reversed ("0SOP").
enum class CmdlColumn : std::uint8_t { position, normal, uv0, uv1, uv2, bone_index, bone_weight, original_index, unknown };

// The tag, element size and format code of a known column (format code: the u16 at entry + 4).
struct CmdlColumnInfo {
  std::string_view tag;
  std::size_t element_size;
  std::uint16_t format;
};
CmdlColumnInfo cmdl_column_info(CmdlColumn column);  // unknown: {"", 0, 0}
CmdlColumn cmdl_column(std::string_view tag);        // "POS0" -> position; others -> unknown

struct CmdlSection {
  std::uint64_t file_offset = 0;  // of the 0x20-byte table entry
  std::array<char, 4> tag{};      // readable order ("POS0"); stored reversed
  std::uint16_t format = 0;       // entry + 0x04, little-endian: element format code
  std::uint16_t field_06 = 0;     // entry + 0x06: 2 in every known file
  std::uint32_t offset = 0;       // entry + 0x08: the data starts at offset + 0x0C
  std::uint32_t pad = 0;          // entry + 0x0C
  std::uint32_t size = 0;         // entry + 0x10: bytes of data
  std::array<std::uint32_t, 3> pad2{};  // entry + 0x14
  Bytes data;                     // `size` bytes at offset + 0x0C

  std::string_view tag_text() const { return {tag.data(), tag.size()}; }
  CmdlColumn column() const { return cmdl_column(tag_text()); }
  std::uint64_t data_offset() const { return std::uint64_t{offset} + kCmdlBase; }
};

// One draw record of the tail (big-endian, packed: 0x43 + 4 * bones bytes).
struct CmdlMesh {
  std::uint64_t file_offset = 0;
  Vec3 bbox_min, bbox_max;          // 0x00, 0x0C: the mesh's vertices as the .cmdl stores them
  std::int16_t field_18 = -1;       // -1 in every known file
  std::uint8_t field_1a = 0;        // 0 in every known file
  std::uint32_t start_vertex = 0;   // first vertex of the range the triangles use
  std::uint32_t vertex_count = 0;
  std::uint32_t start_index = 0;    // into the tail's index list (3 per triangle)
  std::uint32_t index_count = 0;
  std::vector<std::uint32_t> bones;  // EVM: the joint of each BONI slot; KMS: none
  std::array<std::uint8_t, 8> field_80{};  // 0x80 x 8 in every known file
  std::uint32_t field_pre = 0;      // 0 in every known file
  std::uint32_t mesh = 0;           // KMS unit; EVM 0
  std::uint32_t sub_mesh = 0;       // packet within the unit (KMS) or the model (EVM)

  std::uint64_t stored_size() const { return 0x43 + 4 * std::uint64_t{bones.size()}; }
};

struct CmdlTail {
  std::uint64_t file_offset = 0;  // tail_offset + 0x0C
  std::uint32_t n_indices = 0;    // big-endian, 3 per triangle
  Bytes indices;                  // n_indices big-endian u32
  std::uint32_t pad = 0;          // big-endian, 0 in every known file
  std::uint32_t n_meshes = 0;     // big-endian
  std::vector<CmdlMesh> meshes;
  std::uint64_t end = 0;          // file offset after the last record

  std::uint32_t index(std::size_t i) const { return load_be32(indices.data() + i * 4); }
  static std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
  }
};

struct CmdlFile {
  std::shared_ptr<const FileData> source;  // the bytes the views point into (null: built in memory)
  std::array<std::uint8_t, 4> magic{'M', 'O', 'D', 'L'};
  std::uint32_t version = kCmdlVersion;  // 0x04, big-endian
  std::uint32_t tail_offset = 0;         // 0x08, big-endian: the tail is at tail_offset + 0x0C
  std::uint32_t n_sections = 0;          // 0x0C, little-endian
  std::vector<CmdlSection> sections;
  CmdlTail tail;
  std::vector<Gap> gaps;  // filler (0xFF in known files) and trailing bytes
  std::uint64_t file_size = 0;

  // The first section of `column`, or nullptr.
  const CmdlSection* find(CmdlColumn column) const;
  // POS0 elements (0 without POS0): the vertex count every column is checked against.
  std::size_t vertex_count() const;
};

// "MODL" at 0 (a file cut inside its header is still a .cmdl, for the reader to say so).
bool looks_like_cmdl(Bytes file);

// Parses a whole file. Errors: no "MODL", truncation, a section table or tail past the end,
// counts past the data. Section data that lies outside the file is left empty here and reported
// by validate_cmdl (so that `validate` can show every such section, not only the first).
Result<CmdlFile> read_cmdl(std::shared_ptr<const FileData> file, Diagnostics* notes = nullptr);

// Rewrites the model at its stored offsets, gaps included: byte-exact for an unedited model.
std::vector<std::uint8_t> write_cmdl(const CmdlFile& model);

// ---- Values as the sections store them --------------------------------------------------------

// NRM0: x bits 0-10 and y bits 11-21 (signed, / 1023), z bits 22-31 (signed, / 511).
std::array<float, 3> unpack_normal(std::uint32_t packed);
// The unit vector (x, y, z) packed (each component rounded half away from zero); zero stays 0.
std::uint32_t pack_normal(double x, double y, double z);

// ---- A .cmdl from its model (docs/mgs2-cmdl.md "Derivation") ----------------------------------

// The .cmdl the Master Collection needs beside `model`: one vertex per distinct (position, normal,
// UVs, weights) within each packet, the packets' strips as triangles, one record per packet.
// With `template_cmdl` (the original model's .cmdl): kept whole when it already agrees with the
// model (check_cmdl_pair finds nothing), else what the model does not determine is taken from it
// (section codes and order, unknown sections, record fields, values that still match). `notes`
// receives info about what the template gave. The result reads back and passes check_cmdl_pair.
Result<std::vector<std::uint8_t>> derive_cmdl(const KmsFile& model, const CmdlFile* template_cmdl, Diagnostics* notes);
Result<std::vector<std::uint8_t>> derive_cmdl(const EvmFile& model, const CmdlFile* template_cmdl, Diagnostics* notes);

// Where a model and its .cmdl disagree, the way the Master Collection reads the pair: records
// that name no packet or miss one, OIDX outside the strip stream or its packet, vertices whose
// position, normal, UVs, weights or bones differ from the strip vertex they come from, triangles
// missing, added or turned over, boxes that do not hold their vertices. Offsets are in the .cmdl.
void check_cmdl_pair(const KmsFile& model, const CmdlFile& cmdl, Diagnostics& out);
void check_cmdl_pair(const EvmFile& model, const CmdlFile& cmdl, Diagnostics& out);

// A .cmdl on its own: the section table, sizes against the vertex count, values, the tail's
// indices and records (docs/mgs2-cmdl.md "Validation"). With its model: check_cmdl_pair (cmdl.h).
Diagnostics validate_cmdl(const CmdlFile& model);

}  // namespace boneyard::mgs2
