// Internal pieces of the .cmdl code: big-endian reading and writing of the header and tail, and
// the model's packets seen as the .cmdl stores them (CmdlSource), which the derivation
// (cmdl_derive.cpp) lays out and the pair check (cmdl_pair.cpp) compares with a .cmdl.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/mgs2/strips.h"
#include "core/byte_reader.h"

namespace boneyard::mgs2::detail {

inline std::uint32_t bswap32(std::uint32_t v) { return __builtin_bswap32(v); }

// Reads big-endian fields (the .cmdl header's version and tail offset, the whole tail).
class BigEndianReader {
 public:
  BigEndianReader(Bytes data, std::uint64_t base) : r_(data, base) {}
  std::uint64_t offset() const { return r_.offset(); }
  void need_array(std::uint64_t count, std::size_t elem, std::string_view what) const { r_.need_array(count, elem, what); }
  Bytes bytes(std::size_t n, std::string_view what) { return r_.bytes(n, what); }
  std::uint8_t u8(std::string_view what) { return r_.u8(what); }
  std::uint16_t u16(std::string_view what) { return __builtin_bswap16(r_.u16(what)); }
  std::uint32_t u32(std::string_view what) { return bswap32(r_.u32(what)); }
  float f32(std::string_view what) {
    const std::uint32_t v = u32(what);
    float f;
    std::memcpy(&f, &v, 4);
    return f;
  }
  Vec3 vec3(std::string_view what) {
    Vec3 v;
    v.x = f32(what);
    v.y = f32(what);
    v.z = f32(what);
    return v;
  }

 private:
  ByteReader r_;
};

inline void put_be32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}
inline void put_be_f32(std::vector<std::uint8_t>& out, float f) {
  std::uint32_t v;
  std::memcpy(&v, &f, 4);
  put_be32(out, v);
}
inline void put_le32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 0; s < 32; s += 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}
inline void put_le16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}

void put_cmdl_header(std::vector<std::uint8_t>& out, const std::array<std::uint8_t, 4>& magic, std::uint32_t version,
                     std::uint32_t tail_offset, std::uint32_t n_sections);
void put_cmdl_entry(std::vector<std::uint8_t>& out, const std::array<char, 4>& tag, std::uint16_t format,
                    std::uint16_t field_06, std::uint32_t offset, std::uint32_t pad, std::uint32_t size,
                    const std::array<std::uint32_t, 3>& pad2);
void put_cmdl_mesh(std::vector<std::uint8_t>& out, const CmdlMesh& m);
// The tail; without `with_indices`, from the pad on (the caller wrote the count and the indices).
void put_cmdl_tail(std::vector<std::uint8_t>& out, std::uint32_t n_indices, Bytes indices, std::uint32_t pad,
                   std::uint32_t n_meshes, const std::vector<CmdlMesh>& meshes, bool with_indices = true);

// `"ABCD"`, or hex when the bytes are not printable (for a wrong magic).
std::string quoted_bytes(Bytes b);
// A section's tag in a message or an info line: as it is when printable, else its bytes in hex
// (a tag may hold NUL or line breaks, which would cut or split the line).
std::string tag_label(const CmdlSection& s);

// ---- The model as the .cmdl sees it -------------------------------------------------------------

// One strip vertex as the .cmdl stores it (the bits each column would hold).
struct CmdlVertex {
  std::array<float, 4> position{};         // POS0
  std::uint32_t normal = 0;                // NRM0
  std::array<std::uint16_t, 6> uv{};       // TEX0..2: f16 u, v
  std::array<std::uint8_t, 4> bone_index{};   // BONI (EVM)
  std::array<std::uint16_t, 4> bone_weight{};  // BONW (EVM): f16
  bool operator==(const CmdlVertex&) const = default;
};

// One packet: where its strip starts in the model's whole strip stream, its vertices and
// triangles (strip indices, decoded winding), and the record the .cmdl gives it.
struct CmdlSourcePacket {
  std::uint32_t mesh = 0, sub_mesh = 0;
  std::uint64_t strip_base = 0;  // index of its first strip vertex in the model's stream
  std::vector<CmdlVertex> verts;
  std::vector<Triangle> tris;
  std::vector<std::uint32_t> bones;  // EVM: mat_id palette up to its last used slot
  // KMS, per strip vertex, what POS0.w may hold besides 1: the weight the game gives the vertex's
  // own unit (stored w / 4096 with ENVELOPE under a parent, else 1) and the stored w / 4096 (what
  // SeaLouse writes, whatever the packet's flags).
  std::vector<float> own_weight;
  std::vector<float> stored_weight;
  std::string label;  // "unit 1 packet 0" / "packet 3"
};

struct CmdlSource {
  bool evm = false;
  std::array<bool, 3> uv_layers{};  // TEXn written: some packet stores UV set n
  std::uint64_t strip_total = 0;    // vertices in the model's strip stream
  std::vector<CmdlSourcePacket> packets;
  // Position tolerance of the pair check: half a stored step of the model (KMS 0.5, EVM 1/32,
  // LARGE 0.5), in .cmdl units.
  float position_step = 1.0f;
  // Warnings met while gathering (EVM V1 vertices over 4 influences).
  std::size_t over_four = 0;
};

// Errors: packets sharing arrays beyond a memory budget (VertexBudget in cmdl_source.cpp).
Result<CmdlSource> cmdl_source(const KmsFile& model);
Result<CmdlSource> cmdl_source(const EvmFile& model);

// ---- How close two stored values must be to stand for the same vertex (pair check, template) ----

// Half of a half-float step at v (the rounding of float_to_half).
inline float half_rounding(float v) {
  const float a = std::fabs(v);
  if (!(a >= 6.103515625e-05f)) return 2.98023224e-08f;  // subnormal halves: 2^-25
  int e = 0;
  std::frexp(a, &e);
  return std::ldexp(1.0f, e - 12);
}
// Positions: within the model's half step (a .cmdl made from finer data may differ by that).
inline bool positions_close(const float* a, const float* b, float step) {
  if (a[0] == b[0] && a[1] == b[1] && a[2] == b[2]) return true;
  for (int c = 0; c < 3; ++c)
    if (!(std::fabs(a[c] - b[c]) <= step + 1e-5f * std::fabs(b[c]))) return false;
  return true;
}
// Normals: each component within two packing steps of the other.
inline bool normals_close(std::uint32_t a, std::uint32_t b) {
  if (a == b) return true;
  const auto x = unpack_normal(a), y = unpack_normal(b);
  return std::fabs(x[0] - y[0]) <= 2.0f / 1023 && std::fabs(x[1] - y[1]) <= 2.0f / 1023 && std::fabs(x[2] - y[2]) <= 2.0f / 511;
}
// UV or weight halves: within the model's step (1.3.12 UVs: 1/4096; weights 1/128) plus rounding.
inline bool halves_close(std::uint16_t a, std::uint16_t b, float step) {
  if (a == b) return true;
  const float x = half_to_float(a), y = half_to_float(b);
  return std::fabs(x - y) <= step + half_rounding(x) + half_rounding(y);
}

// The joints and weights of one EVM vertex: BONI slots resolved through a bone list (`bones`),
// the weights of a joint named twice added up, zero weights left out; sorted by joint.
struct Influence {
  std::int64_t joint = -1;  // -1: the slot is past the bone list
  float weight = 0;
  bool operator<(const Influence& o) const { return joint < o.joint; }
};
std::vector<Influence> influences(const std::uint8_t* bone_index, const std::uint16_t* bone_weight,
                                  const std::vector<std::uint32_t>& bones);
// Same joints, each weight within 1/256 plus half rounding.
bool influences_close(const std::vector<Influence>& a, const std::vector<Influence>& b);

// Runs read(), naming `what` in front of the path of any error it throws.
template <class Read>
auto with_path(const char* what, Read read) {
  try {
    return read();
  } catch (ParseError& e) {
    e.prepend_path(what);
    throw;
  }
}

}  // namespace boneyard::mgs2::detail
