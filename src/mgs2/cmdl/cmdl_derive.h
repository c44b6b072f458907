// Internal: the steps of derive_cmdl (cmdl_derive.cpp), and the template's part
// (cmdl_template.cpp).
#pragma once

#include <vector>

#include "cmdl_internal.h"

#include "core/byte_reader.h"

namespace boneyard::mgs2::detail {

// The .cmdl's vertices, OIDX, triangle list and records as the derivation makes them.
struct Derived {
  struct Ref {  // the strip vertex a .cmdl vertex is (its first, for merged ones)
    const CmdlSourcePacket* packet = nullptr;
    std::uint32_t index = 0;
  };
  std::vector<Ref> refs;
  std::vector<std::uint32_t> oidx;
  std::vector<std::uint32_t> indices;  // 3 per triangle, .cmdl winding
  std::vector<CmdlMesh> meshes;        // one per packet, in packet order

  std::size_t size() const { return refs.size(); }
  const CmdlVertex& vert(std::size_t v) const { return refs[v].packet->verts[refs[v].index]; }
  // KMS: what else POS0.w may hold (CmdlSourcePacket::own_weight, stored_weight).
  std::array<float, 2> weights(std::size_t v) const {
    return {refs[v].packet->own_weight[refs[v].index], refs[v].packet->stored_weight[refs[v].index]};
  }
};
Derived derive(const CmdlSource& src);

// For each strip vertex of a packet, the first strip vertex with the same columns (what a merge
// makes of it): triangles compared through it do not depend on which duplicate they use. With
// `used`, only the vertices it marks take part (the others map to themselves). One object serves
// packet after packet: its buffers grow once (a hash table of strip indices, linear probing).
class FirstEqual {
 public:
  const std::vector<std::uint32_t>& of(const CmdlSourcePacket& p, const std::vector<std::uint8_t>* used = nullptr);

 private:
  std::vector<std::uint32_t> slots_;  // strip index + 1, 0 = empty
  std::vector<std::uint32_t> first_;
};

// A .cmdl to lay out: its sections (in order) with their entry fields, the tail, trailing bytes.
struct CmdlBuild {
  struct Section {
    std::array<char, 4> tag{};
    std::uint16_t format = 0;
    std::uint16_t field_06 = 2;
    std::uint32_t pad = 0;
    std::array<std::uint32_t, 3> pad2{};
    std::vector<std::uint8_t> data;
  };
  std::array<std::uint8_t, 4> magic{'M', 'O', 'D', 'L'};
  std::uint32_t version = kCmdlVersion;
  std::vector<Section> sections;
  std::vector<std::uint32_t> indices;
  std::uint32_t tail_pad = 0;
  std::vector<CmdlMesh> meshes;
  std::vector<std::uint8_t> trailing;
};
CmdlBuild build_of(const CmdlSource& src, const Derived& d);

// Sections from 0x10 + 0x20 * n (offsets count from 0x0C) on, each 16-byte aligned, 0xFF between
// them, then the tail and the trailing bytes. Throws ParseError past 4 GiB.
std::vector<std::uint8_t> lay_out(const CmdlBuild& b);

// What `tpl` keeps of a derived .cmdl the model does not determine: entry fields, section order and
// unknown sections, record fields, the trailing bytes, and (when the vertices are the same ones:
// same count and OIDX) each value that still stands for the model's, and each record's triangle
// order when it holds the same triangles. Said in `notes`.
void apply_template(CmdlBuild& b, const CmdlSource& src, const Derived& d, const CmdlFile& tpl, Diagnostics* notes);

}  // namespace boneyard::mgs2::detail
