// Internal: the scene as the MGS2 builders see it (model units, model joints), shared by
// mgs2_scene_import.cpp (gathering, KMS) and mgs2_scene_import_evm.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/strips.h"
#include "core/byte_reader.h"
#include "mgs2_scene_common.h"

namespace boneyard::mgs2::detail {

struct SrcVertex {
  std::array<double, 3> pos{};  // model space, model units (before the EVM position scale)
  std::array<float, 3> normal{};
  std::array<std::array<float, 2>, 3> uv{};
  std::array<std::uint16_t, 4> joints{};  // model joints
  std::array<float, 4> weights{};         // sum 1, decreasing
  float dropped = 0;  // share of the vertex's glTF weight on influences past the 4 kept (moved)
};

struct SrcPrimitive {
  std::vector<SrcVertex> verts;
  std::vector<Triangle> tris;
  std::size_t uv_sets = 0;     // TEXCOORD_n read (at most 3 kept)
  const Json* packet = nullptr;  // our primitive extras, when present (the exact path's source)
  // Packet fields to reuse (pads, stored index): our primitive extras, else those of the
  // template's packet that holds the primitive's triangles (mgs2_scene_identity.cpp), else none.
  const Json* fields = nullptr;
  int unit = -1;                 // KMS: the unit named by our mesh extras
  std::size_t mesh = 0, order = 0;
  std::array<std::uint32_t, 3> tex_id{};
  bool double_sided = true;
  std::uint32_t flag = 0;                       // packet flag of a re-stripped packet (KMS: ENVELOPE recomputed)
  std::array<bool, 3> uv_present{true, false, false};  // UV arrays a re-stripped packet stores
  std::optional<std::uint16_t> kick_low;        // low kick bits of a re-stripped strip (culling hints)
};

struct SrcSkeleton {
  std::vector<int> parent;                      // model joint parents
  std::vector<std::array<double, 3>> world;     // rest positions, model units
  std::vector<const Json*> extras;              // our joint extras, or nullptr
};

// ---- identity (mgs2_scene_identity.cpp): which glTF joint is which model joint, which textures a
// material names, which template packet a primitive comes from (docs/mgs2-gltf.md "Identity").

// A joint's rest position may differ from its bind pose (template or extras) by this much (metres)
// plus float noise (1e-6 of the coordinates) and still be the same joint: Blender moves joints by
// about 1e-6 m.
inline constexpr double kBindPoseTolerance = 1e-4;
double bind_tolerance(const std::array<double, 3>& at, double scale);  // in model units
double position_distance(const std::array<double, 3>& a, const std::array<double, 3>& b);

// A triangle's corners in model space on a 1/16 unit grid, sorted: the same key in any winding or
// strip order.
using TriangleKey = std::array<std::int64_t, 9>;

// The --template in the gatherer's terms: its joints (parents, bind positions in model units,
// KMS roots on the header's base) and its packets, found by the triangles they hold.
struct TemplateView {
  struct Packet {
    std::size_t unit = 0;  // KMS unit (EVM: 0)
    std::array<std::uint32_t, 3> tex_id{};
    std::uint32_t flag = 0;
    std::array<bool, 3> uv_sets{};
    std::optional<std::uint16_t> kick_low;  // the drawing vertices' most common low kick bits
    Json fields;                            // index and pads (SrcPrimitive::fields)
  };
  const char* joint_name = "unit";  // "unit" (KMS) or "joint" (EVM)
  std::vector<int> parent;
  std::vector<std::array<double, 3>> world;
  std::vector<Packet> packets;
  std::map<TriangleKey, std::size_t> by_triangle;
};
std::shared_ptr<const TemplateView> template_view(const Mgs2ImportOptions& o, bool kms);  // nullptr without one
// The template packet that holds most of the primitive's triangles, or nullptr.
const TemplateView::Packet* template_packet(const TemplateView& tpl, const SrcPrimitive& p);

// Model joint -> scene node, and where the order came from ("extras", "names", "template",
// "skin"): our joint extras' indices, else the names our export gives (unit_N, joint_N), else
// the template's skeleton (parents and bind positions), else the skin's order (said when the glTF
// is `ours` or a template was given). Never the skin's order while something better exists:
// Blender writes skin joints depth-first.
struct JointOrder {
  std::vector<int> node_of;
  std::string source;
};
JointOrder order_joints(const scene::Scene& s, const std::vector<scene::Mat4>& world, double scale, const char* format,
                        const TemplateView* tpl, bool ours, Diagnostics& warnings);

// Texture ids a material names: our material extras (also as the Python repr string Blender makes
// of a value it cannot store), else its name as our export writes it ("A+B+C (single-sided)",
// 8 hex digits or texture file names per slot), else its image's file name (slot 0).
struct MaterialIds {
  enum class From { extras, name, image, none };
  std::array<std::uint32_t, 3> ids{};
  From from = From::none;
};
MaterialIds material_texture_ids(const scene::Material& m);
// A texture id from a file name: 8 or 6 hex digits (a .tri's PNGs) are an id, anything else is hashed (".bmp" added
// when it has no extension, as the game hashes file names); ".png" and folders are dropped.
std::uint32_t id_from_file_name(std::string name);

struct Gathered {
  double scale = kDefaultScale;
  const Json* header = nullptr;  // our scene extras, or nullptr
  SrcSkeleton skeleton;
  std::vector<SrcPrimitive> primitives;
  std::vector<const Json*> mesh_extras;  // per scene mesh
  std::shared_ptr<const TemplateView> tpl;  // owns the template packet fields primitives point at
};

// Reads the scene into model units and model joints. `format` "kms" or "evm" (checked against
// our extras). Errors: no usable geometry, joints that cannot be mapped.
Result<Gathered> gather(const scene::Scene& s, const Mgs2ImportOptions& o, const char* format, Diagnostics& warnings);

// Rounds a value to s16, or fails with a message naming `where` + `what` (and suggesting --scale
// when `scale_hint`). The name is put together only on failure: this runs for every coordinate.
[[noreturn]] void fail_s16(double v, std::string_view where, std::string_view what, bool scale_hint);
inline std::int16_t to_s16(double v, std::string_view where, std::string_view what, bool scale_hint) {
  const double r = std::nearbyint(v);
  if (!(r >= -32768 && r <= 32767)) fail_s16(v, where, what, scale_hint);
  return static_cast<std::int16_t>(r);
}
// What a UV set out of range is called in that message.
inline constexpr std::string_view kUvOutOfRange[3] = {" UV0 (outside -8..8)", " UV1 (outside -8..8)", " UV2 (outside -8..8)"};

// Owned bytes for ArrayRef views of a built model.
struct Storage {
  std::deque<std::vector<std::uint8_t>> blocks;
  ArrayRef add(std::vector<std::uint8_t> bytes) {
    blocks.push_back(std::move(bytes));
    return ArrayRef{1, Bytes(blocks.back().data(), blocks.back().size())};
  }
};
inline void put_s16(std::vector<std::uint8_t>& out, std::int16_t v) {
  out.push_back(static_cast<std::uint8_t>(v & 0xFF));
  out.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFF));
}

// The packet extras' strip, when it still describes the primitive exactly: the same vertex count
// and the kick flags decode to the primitive's triangles in order. Empty otherwise.
std::vector<std::uint16_t> exact_kicks(const SrcPrimitive& p);

// Helpers the KMS and EVM builders share: both keep a value from our extras while it still agrees
// with the glTF, and fall back to what the glTF says otherwise.

// A joint's parent: the glTF's, or the stored negative one (real files use several "no parent"
// values) when the glTF's is also "none".
inline std::int32_t stored_parent(const Json& joint_extras, int parent) {
  const auto stored = jnum<std::int64_t>(joint_extras, "parent", parent);
  return parent >= 0 || stored == parent || stored >= 0 ? parent : static_cast<std::int32_t>(stored);
}

inline constexpr std::uint32_t kPackCullOn = 0x4;      // DG_PACKFLAG_CULLON
inline constexpr std::uint32_t kPackCulling = 0x6;     // CULLAUTO | CULLON
inline constexpr std::uint16_t kKickCulledLow = 0x0000;  // low kick bits of a culled strip (not 0x0FFF)

// The flag of a new packet: textured strips with the UV sets and textures the primitive has,
// culled (CULLON) when its material is single-sided.
inline std::uint32_t default_packet_flag(const SrcPrimitive& p) {
  return 0x48 | (p.uv_present[1] ? 0x80 : 0) | (p.uv_present[2] ? 0x100 : 0) | (p.tex_id[1] ? 0x10 : 0) |
         (p.tex_id[2] ? 0x20 : 0) | (p.double_sided ? 0 : kPackCullOn);
}

// The stored n_verts (its high half may hold other bits) when an exact packet still has n vertices.
inline std::uint32_t stored_vertex_count(const Json& packet_extras, std::size_t count, bool exact) {
  const auto n = static_cast<std::uint32_t>(count);
  const auto stored_n = jnum<std::uint32_t>(packet_extras, "n_verts", n);
  return exact && ((stored_n >> 16) != 0 ? (stored_n & 0xFFFF) : stored_n) == n ? stored_n : n;
}

// Which of the 3 UV arrays a packet stores: the stored choice for an exact packet, else the
// primitive's (uv_present).
std::array<bool, 3> stored_uv_sets(const Json& packet_extras, const SrcPrimitive& p, bool exact);

// Low bits (culling hints) for the strip encoder, per source vertex: the stored strip's kicks when
// they cover the primitive, else the primitive's kick_low for every vertex, else empty (0x0FFF).
std::vector<std::uint16_t> stored_source_kicks(const SrcPrimitive& p);

// The layout to write: --layout, else the one our export recorded in the header extras, else the
// template's, else PS2. Falling back to PS2 is said once in `warnings` (Master Collection files
// come back in the PS2 layout otherwise without a word).
Layout choose_layout(const Mgs2ImportOptions& o, const Json* header, std::optional<Layout> from_template, Diagnostics& warnings);

// Appends vertex i's normal as 3 s16 (4096 = 1): the stored one (raw_n, 3 per vertex of n) when it
// still points the glTF's way, else the glTF's.
void put_normal(std::vector<std::uint8_t>& out, const std::vector<std::int16_t>& raw_n, std::size_t i, std::size_t n,
                const SrcVertex& v, std::string_view where);

// Whether two packets (KmsPacket or EvmPacket) hold arrays of the same sizes, so that a template's
// placement fits the new one.
template <class Packet>
bool same_array_sizes(const Packet& a, const Packet& b) {
  bool same = a.verts.data.size() == b.verts.data.size() && a.norms.data.size() == b.norms.data.size();
  for (int q = 0; q < 3; ++q) same = same && a.uvs[q].present() == b.uvs[q].present() && a.uvs[q].data.size() == b.uvs[q].data.size();
  return same;
}

// Copies the template packet's file offset and array pointers onto the new packet.
template <class Packet>
void copy_array_pointers(const Packet& from, Packet& to) {
  to.file_offset = from.file_offset;
  to.verts.pointer = from.verts.pointer, to.norms.pointer = from.norms.pointer;
  for (int q = 0; q < 3; ++q) to.uvs[q].pointer = from.uvs[q].pointer;
}

// A box holding `pts`, or the stored one when it already holds them, or holds `alt` (the other
// reading of the box's space, which real files leave open): unchanged files keep theirs.
void fit_box(const std::vector<std::array<double, 3>>& pts, float* lo, float* hi, const float* stored_lo,
             const float* stored_hi, const std::vector<std::array<double, 3>>* alt = nullptr);

// Runs a KMS or EVM builder: `assemble()` lays out the model from the gathered scene (failing
// through fail(), caught here), `finish()` then writes it. Its bytes come out at the template's
// offsets when the template's placement still fits (`keeps_template_placement`), else in a fresh
// layout.
template <class Builder>
Result<std::vector<std::uint8_t>> run_builder(const Gathered& g, const Mgs2ImportOptions& o, Diagnostics& warnings) {
  std::optional<Builder> builder;
  const auto assembled = catch_parse_errors([&] {
    builder.emplace(g, o, warnings);
    builder->assemble();
    return true;
  });
  if (!assembled) return assembled.error();
  return builder->finish();
}

}  // namespace boneyard::mgs2::detail
