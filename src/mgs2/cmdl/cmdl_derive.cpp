// A .cmdl from its .kms / .evm (docs/mgs2-cmdl.md "Derivation"): per packet, the strip vertices
// that triangles use, merged when every column is equal, in strip order; the strip's triangles
// with the .cmdl's winding (0, 2, 1); one record per packet; laid out as SeaLouse's writer does
// (sections from 0x10 + 0x20 * n on, 16-byte aligned, 0xFF filler, then the tail). A template
// .cmdl gives what the model does not determine (cmdl_template.cpp).
#include <algorithm>
#include <bit>
#include <cstring>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "core/byte_reader.h"
#include "cmdl_derive.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2 {

namespace detail {

namespace {

static_assert(sizeof(CmdlVertex) == 44, "CmdlVertex must have no padding (its bytes are what merging compares)");

std::uint64_t hash_of(const CmdlVertex& v) {
  std::uint32_t w[11];
  std::memcpy(w, &v, sizeof w);
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (auto x : w) h = (h ^ x) * 0xFF51AFD7ED558CCDULL;
  return h ^ (h >> 29);
}

Vec3 box_corner(const Derived& d, std::size_t from, std::size_t to, bool lo) {
  if (from == to) return {};
  float c[3];
  for (int k = 0; k < 3; ++k) c[k] = d.vert(from).position[std::size_t(k)];
  for (std::size_t v = from; v < to; ++v) {
    const auto& p = d.vert(v).position;
    for (int k = 0; k < 3; ++k) c[k] = lo ? std::min(c[k], p[std::size_t(k)]) : std::max(c[k], p[std::size_t(k)]);
  }
  return {c[0], c[1], c[2]};
}

}  // namespace

const std::vector<std::uint32_t>& FirstEqual::of(const CmdlSourcePacket& p, const std::vector<std::uint8_t>* used) {
  const std::size_t n = p.verts.size();
  std::size_t size = 16;
  while (size < 2 * n) size *= 2;
  slots_.assign(size, 0);
  first_.resize(n);
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < n; ++i) {
    first_[i] = static_cast<std::uint32_t>(i);
    if (used != nullptr && (*used)[i] == 0) continue;
    for (std::size_t h = hash_of(p.verts[i]) & mask;; h = (h + 1) & mask) {
      if (slots_[h] == 0) {
        slots_[h] = static_cast<std::uint32_t>(i + 1);
        break;
      }
      const std::uint32_t j = slots_[h] - 1;
      if (std::memcmp(&p.verts[j], &p.verts[i], sizeof(CmdlVertex)) == 0) {
        first_[i] = j;
        break;
      }
    }
  }
  return first_;
}

Derived derive(const CmdlSource& src) {
  Derived d;
  std::size_t n_tris = 0;
  for (const auto& p : src.packets) n_tris += p.tris.size();
  d.refs.reserve(src.strip_total);  // at most one per strip vertex: no regrowth of large arrays
  d.oidx.reserve(src.strip_total);
  d.indices.reserve(n_tris * 3);
  d.meshes.reserve(src.packets.size());
  FirstEqual first;
  std::vector<std::uint8_t> used;
  std::vector<std::uint32_t> vertex_of;  // strip vertex -> .cmdl vertex, for the used ones
  for (const auto& p : src.packets) {
    const auto start_vertex = static_cast<std::uint32_t>(d.size());
    const auto start_index = static_cast<std::uint32_t>(d.indices.size());
    used.assign(p.verts.size(), 0);
    for (const auto& t : p.tris)
      for (auto v : t) used[v] = 1;
    vertex_of.assign(p.verts.size(), 0);
    const auto& equal = first.of(p, &used);  // equal columns share one vertex: the first's
    for (std::size_t i = 0; i < p.verts.size(); ++i) {
      if (used[i] == 0) continue;
      if (equal[i] != i) {
        vertex_of[i] = vertex_of[equal[i]];
        continue;
      }
      vertex_of[i] = static_cast<std::uint32_t>(d.size());
      d.refs.push_back({&p, static_cast<std::uint32_t>(i)});
      d.oidx.push_back(static_cast<std::uint32_t>(p.strip_base + i));
    }
    for (const auto& t : p.tris) {
      d.indices.push_back(vertex_of[t[0]]);
      d.indices.push_back(vertex_of[t[2]]);
      d.indices.push_back(vertex_of[t[1]]);
    }
    CmdlMesh m;
    m.field_80.fill(0x80);
    m.start_vertex = start_vertex;
    m.vertex_count = static_cast<std::uint32_t>(d.size()) - start_vertex;
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
    const Vec3 lo = box_corner(d, from, to, true), hi = box_corner(d, from, to, false);
    for (std::size_t k = a; k < b; ++k) d.meshes[k].bbox_min = lo, d.meshes[k].bbox_max = hi;
    a = b;
  }
  return d;
}

CmdlBuild build_of(const CmdlSource& src, const Derived& d) {
  CmdlBuild b;
  const std::size_t n = d.size();
  const auto add = [&](CmdlColumn c, std::size_t reserve) -> std::vector<std::uint8_t>& {
    const CmdlColumnInfo info = cmdl_column_info(c);
    CmdlBuild::Section s;
    std::copy(info.tag.begin(), info.tag.end(), s.tag.begin());
    s.format = info.format;
    s.data.reserve(reserve);
    b.sections.push_back(std::move(s));
    return b.sections.back().data;
  };
  b.sections.reserve(8);
  auto& pos = add(CmdlColumn::position, n * 16);
  for (std::size_t v = 0; v < n; ++v)
    for (float f : d.vert(v).position) put_le32(pos, std::bit_cast<std::uint32_t>(f));
  auto& nrm = add(CmdlColumn::normal, n * 4);
  for (std::size_t v = 0; v < n; ++v) put_le32(nrm, d.vert(v).normal);
  for (std::size_t s = 0; s < 3; ++s) {
    if (!src.uv_layers[s]) continue;  // a layer no packet stores is left out
    auto& uv = add(static_cast<CmdlColumn>(std::size_t(CmdlColumn::uv0) + s), n * 4);
    for (std::size_t v = 0; v < n; ++v) put_le16(uv, d.vert(v).uv[s * 2]), put_le16(uv, d.vert(v).uv[s * 2 + 1]);
  }
  if (src.evm) {
    auto& boni = add(CmdlColumn::bone_index, n * 4);
    for (std::size_t v = 0; v < n; ++v) boni.insert(boni.end(), d.vert(v).bone_index.begin(), d.vert(v).bone_index.end());
    auto& bonw = add(CmdlColumn::bone_weight, n * 8);
    for (std::size_t v = 0; v < n; ++v)
      for (auto w : d.vert(v).bone_weight) put_le16(bonw, w);
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
  std::uint64_t tail = 12 + b.indices.size() * 4 + b.trailing.size();
  for (const auto& m : b.meshes) tail += m.stored_size();
  out.reserve(at + kCmdlBase + tail);
  put_cmdl_header(out, b.magic, b.version, static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const auto& s = b.sections[i];
    put_cmdl_entry(out, s.tag, s.format, s.field_06, offsets[i], s.pad, static_cast<std::uint32_t>(s.data.size()), s.pad2);
  }
  out.resize(at + kCmdlBase, 0xFF);
  for (std::size_t i = 0; i < n; ++i) put_at(out, offsets[i] + kCmdlBase, b.sections[i].data);
  put_be32(out, static_cast<std::uint32_t>(b.indices.size()));
  for (auto i : b.indices) put_be32(out, i);
  put_cmdl_tail(out, 0, {}, b.tail_pad, static_cast<std::uint32_t>(b.meshes.size()), b.meshes, false);
  out.insert(out.end(), b.trailing.begin(), b.trailing.end());
  return out;
}

}  // namespace detail

namespace {

template <class Model>
Result<std::vector<std::uint8_t>> derive_any(const Model& model, const CmdlFile* tpl, Diagnostics* notes) {
  if (tpl != nullptr) {
    Diagnostics disagreements;
    disagreements.append(validate_cmdl(*tpl));
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

Result<std::vector<std::uint8_t>> derive_cmdl(const KmsFile& model, const CmdlFile* tpl, Diagnostics* notes) {
  return derive_any(model, tpl, notes);
}
Result<std::vector<std::uint8_t>> derive_cmdl(const EvmFile& model, const CmdlFile* tpl, Diagnostics* notes) {
  return derive_any(model, tpl, notes);
}

}  // namespace boneyard::mgs2
