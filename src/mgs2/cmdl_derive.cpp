// A .cmdl from its .kms / .evm (docs/mgs2-cmdl.md "Derivation"): per packet, the strip vertices
// that triangles use, merged when every column is equal, in strip order; the strip's triangles
// with the .cmdl's winding (0, 2, 1); one record per packet; laid out as SeaLouse's writer does
// (sections from 0x10 + 0x20 * n on, 16-byte aligned, 0xFF filler, then the tail). A template
// .cmdl gives what the model does not determine (cmdl_template.cpp).
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "boneyard/mgs2_validate.h"
#include "cmdl_derive.h"
#include "read_helpers.h"

namespace boneyard::mgs2 {

namespace detail {

namespace {

// The bytes of a vertex's columns, as a hash key (merging compares stored bits, not values).
using VertexKey = std::array<std::uint8_t, sizeof(CmdlVertex)>;
static_assert(sizeof(CmdlVertex) == 44, "CmdlVertex must have no padding (its bytes are its key)");

VertexKey key_of(const CmdlVertex& v) {
  VertexKey k;
  std::memcpy(k.data(), &v, sizeof v);
  return k;
}

struct KeyHash {
  std::size_t operator()(const VertexKey& k) const noexcept {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (auto b : k) h = (h ^ b) * 1099511628211ULL;
    return static_cast<std::size_t>(h);
  }
};

Vec3 box_corner(const std::vector<CmdlVertex>& verts, std::size_t from, std::size_t to, bool lo) {
  if (from == to) return {};
  float c[3];
  for (int k = 0; k < 3; ++k) c[k] = verts[from].position[std::size_t(k)];
  for (std::size_t v = from; v < to; ++v)
    for (int k = 0; k < 3; ++k) c[k] = lo ? std::min(c[k], verts[v].position[std::size_t(k)]) : std::max(c[k], verts[v].position[std::size_t(k)]);
  return {c[0], c[1], c[2]};
}

}  // namespace

std::vector<std::size_t> canonical_strip_vertices(const CmdlSourcePacket& p) {
  std::unordered_map<VertexKey, std::size_t, KeyHash> first;
  std::vector<std::size_t> canon(p.verts.size());
  for (std::size_t i = 0; i < p.verts.size(); ++i) canon[i] = first.try_emplace(key_of(p.verts[i]), i).first->second;
  return canon;
}

Derived derive(const CmdlSource& src) {
  Derived d;
  for (const auto& p : src.packets) {
    const auto start_vertex = static_cast<std::uint32_t>(d.verts.size());
    const auto start_index = static_cast<std::uint32_t>(d.indices.size());
    std::vector<bool> used(p.verts.size(), false);
    for (const auto& t : p.tris)
      for (auto v : t) used[v] = true;
    // Strip vertex -> .cmdl vertex, for the used ones; equal columns share one vertex.
    std::vector<std::uint32_t> vertex_of(p.verts.size(), 0);
    std::unordered_map<VertexKey, std::uint32_t, KeyHash> merged;
    for (std::size_t i = 0; i < p.verts.size(); ++i) {
      if (!used[i]) continue;
      const auto [it, added] = merged.try_emplace(key_of(p.verts[i]), static_cast<std::uint32_t>(d.verts.size()));
      if (added) {
        d.verts.push_back(p.verts[i]);
        d.own_weight.push_back({p.own_weight[i], p.stored_weight[i]});
        d.oidx.push_back(static_cast<std::uint32_t>(p.strip_base + i));
      }
      vertex_of[i] = it->second;
    }
    for (const auto& t : p.tris) {
      d.indices.push_back(vertex_of[t[0]]);
      d.indices.push_back(vertex_of[t[2]]);
      d.indices.push_back(vertex_of[t[1]]);
    }
    CmdlMesh m;
    m.field_80.fill(0x80);
    m.start_vertex = start_vertex;
    m.vertex_count = static_cast<std::uint32_t>(d.verts.size()) - start_vertex;
    m.start_index = start_index;
    m.index_count = static_cast<std::uint32_t>(d.indices.size()) - start_index;
    m.bones.assign(p.bones.begin(), p.bones.end());
    m.mesh = p.mesh;
    m.sub_mesh = p.sub_mesh;
    d.meshes.push_back(std::move(m));
  }
  // Boxes: the vertices of every record of the same mesh (a KMS unit, in its own space; the whole
  // EVM), as SeaLouse's writer gives every sub-mesh its object's box.
  for (std::size_t a = 0; a < d.meshes.size();) {
    std::size_t b = a;
    while (b < d.meshes.size() && d.meshes[b].mesh == d.meshes[a].mesh) ++b;
    const std::size_t from = d.meshes[a].start_vertex, to = d.meshes[b - 1].start_vertex + d.meshes[b - 1].vertex_count;
    const Vec3 lo = box_corner(d.verts, from, to, true), hi = box_corner(d.verts, from, to, false);
    for (std::size_t k = a; k < b; ++k) d.meshes[k].bbox_min = lo, d.meshes[k].bbox_max = hi;
    a = b;
  }
  return d;
}

CmdlBuild build_of(const CmdlSource& src, const Derived& d) {
  CmdlBuild b;
  const std::size_t n = d.verts.size();
  const auto add = [&](CmdlColumn c, std::size_t reserve) -> std::vector<std::uint8_t>& {
    const CmdlColumnInfo info = cmdl_column_info(c);
    CmdlBuild::Section s;
    std::copy(info.tag.begin(), info.tag.end(), s.tag.begin());
    s.format = info.format;
    s.data.reserve(reserve);
    b.sections.push_back(std::move(s));
    return b.sections.back().data;
  };
  auto& pos = add(CmdlColumn::position, n * 16);
  for (const auto& v : d.verts)
    for (float f : v.position) put_le32(pos, std::bit_cast<std::uint32_t>(f));
  auto& nrm = add(CmdlColumn::normal, n * 4);
  for (const auto& v : d.verts) put_le32(nrm, v.normal);
  for (int s = 0; s < 3; ++s) {
    if (!src.uv_layers[std::size_t(s)]) continue;  // a layer no packet stores is left out
    auto& uv = add(static_cast<CmdlColumn>(int(CmdlColumn::uv0) + s), n * 4);
    for (const auto& v : d.verts) put_le16(uv, v.uv[std::size_t(s * 2)]), put_le16(uv, v.uv[std::size_t(s * 2 + 1)]);
  }
  if (src.evm) {
    auto& boni = add(CmdlColumn::bone_index, n * 4);
    for (const auto& v : d.verts) boni.insert(boni.end(), v.bone_index.begin(), v.bone_index.end());
    auto& bonw = add(CmdlColumn::bone_weight, n * 8);
    for (const auto& v : d.verts)
      for (auto w : v.bone_weight) put_le16(bonw, w);
  }
  auto& oidx = add(CmdlColumn::original_index, n * 4);
  for (auto o : d.oidx) put_le32(oidx, o);
  b.indices = d.indices;
  b.meshes = d.meshes;
  return b;
}

std::vector<std::uint8_t> lay_out(const CmdlBuild& b) {
  const std::size_t n = b.sections.size();
  std::vector<std::uint32_t> offsets;
  std::uint64_t at = kCmdlHeaderSize + n * kCmdlSectionEntrySize;  // as offsets count: from 0x0C
  for (const auto& s : b.sections) {
    offsets.push_back(static_cast<std::uint32_t>(at));
    at = align16(at + s.data.size());
  }
  if (at + kCmdlBase > 0xFFFFFFFFULL) fail(0, "file", "too large for 32-bit .cmdl offsets", "at most 4 GiB", std::to_string(at) + " bytes");
  std::vector<std::uint8_t> out;
  put_cmdl_header(out, b.magic, b.version, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const auto& s = b.sections[i];
    put_cmdl_entry(out, s.tag, s.format, s.field_06, offsets[i], s.pad, static_cast<std::uint32_t>(s.data.size()), s.pad2);
  }
  out.resize(at + kCmdlBase, 0xFF);
  for (std::size_t i = 0; i < n; ++i) put_at(out, offsets[i] + kCmdlBase, b.sections[i].data);
  std::vector<std::uint8_t> index_bytes;
  index_bytes.reserve(b.indices.size() * 4);
  for (auto i : b.indices) put_be32(index_bytes, i);
  put_cmdl_tail(out, static_cast<std::uint32_t>(b.indices.size()), index_bytes, b.tail_pad,
                static_cast<std::uint32_t>(b.meshes.size()), b.meshes);
  out.insert(out.end(), b.trailing.begin(), b.trailing.end());
  return out;
}

}  // namespace detail

namespace {

template <class Model>
Result<std::vector<std::uint8_t>> derive_any(const Model& model, const CmdlModel* tpl, Diagnostics* notes) {
  if (tpl != nullptr) {
    Diagnostics disagreements;
    validate_cmdl(*tpl, disagreements);
    for (auto& f : disagreements.findings())
      if (f.severity == Severity::warning) f.severity = Severity::info;  // odd constants are the template's to keep
    check_cmdl_pair(model, *tpl, disagreements);
    if (disagreements.count(Severity::error) == 0 && disagreements.count(Severity::warning) == 0) {
      if (notes != nullptr) notes->add(Severity::info, 0, "cmdl", "the template .cmdl agrees with the model: kept as it is");
      return write_cmdl(*tpl);
    }
  }
  auto src = detail::cmdl_source(model);
  if (!src) return src.error();
  if (src.value().over_four != 0 && notes != nullptr)
    notes->add(Severity::warning, 0, "cmdl BONI/BONW", "vertices with more than 4 influences: the lightest are not in the .cmdl",
               "<= 4 per vertex", std::to_string(src.value().over_four));
  return catch_parse_errors([&] {
    const detail::Derived d = detail::derive(src.value());
    detail::CmdlBuild b = detail::build_of(src.value(), d);
    if (tpl != nullptr) detail::apply_template(b, src.value(), d, *tpl, notes);
    return detail::lay_out(b);
  });
}

}  // namespace

Result<std::vector<std::uint8_t>> derive_cmdl(const KmsModel& model, const CmdlModel* tpl, Diagnostics* notes) {
  return derive_any(model, tpl, notes);
}
Result<std::vector<std::uint8_t>> derive_cmdl(const EvmModel& model, const CmdlModel* tpl, Diagnostics* notes) {
  return derive_any(model, tpl, notes);
}

}  // namespace boneyard::mgs2
