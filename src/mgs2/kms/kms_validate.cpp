#include <string>

#include "boneyard/mgs2/kms/kms.h"
#include "mgs2/validate_common.h"

namespace boneyard::mgs2 {

using detail::Extent;

namespace {

void check_header(const KmsFile& m, Diagnostics& out) {
  const std::uint32_t f = m.format();
  if (f != kKmsNorm && f != kKmsMultitex && f != kKmsNormA && f != kKmsMultitexA) {
    out.add(Severity::error, 0, "header data_format", "unknown data format",
            "0xC81371 (NORM) or 0xB253A3 (MULTITEX) in the low 24 bits", hex(f));
  }
  const std::uint8_t flags = m.format_flags();
  if (flags == 0x01) {
    out.add(Severity::info, 3, "header data_format", "flag byte 0x01: indexed (Xbox-era) data", {}, hex(flags));
  } else if (flags != 0) {
    out.add(Severity::warning, 3, "header data_format", "unknown flag byte", "0x00 or 0x01", hex(flags));
  }
  if (m.header.n_models > m.header.n_x_models) {
    out.add(Severity::error, 4, "header n_models", "more regular units than units in all",
            "at most n_x_models = " + std::to_string(m.header.n_x_models), std::to_string(m.header.n_models));
  }
}

// World (model-space) offsets of each unit: the sum of `position` along its parent chain. Each
// unit's offset is computed once, from its parent's (walked iteratively: a chain may be 100k deep),
// so the whole table costs time linear in the number of units. Callers have checked the parents
// are acyclic; a parent out of range ends the chain.
std::vector<Vec3> unit_offsets(const KmsFile& m) {
  const std::size_t n = m.units.size();
  std::vector<Vec3> world(n);
  std::vector<std::uint8_t> done(n, 0);
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < n; ++i) {
    // Collect the not yet computed units from i up to the first computed one (or a root).
    std::size_t cur = i;
    while (!done[cur] && pending.size() <= n) {
      pending.push_back(cur);
      const std::int32_t p = m.units[cur].parent;
      if (p < 0 || static_cast<std::size_t>(p) >= n) break;
      cur = static_cast<std::size_t>(p);
    }
    // Resolve them root-side first.
    while (!pending.empty()) {
      const std::size_t u = pending.back();
      pending.pop_back();
      const std::int32_t p = m.units[u].parent;
      const bool has_parent = p >= 0 && static_cast<std::size_t>(p) < n && done[static_cast<std::size_t>(p)];
      const Vec3 base = has_parent ? world[static_cast<std::size_t>(p)] : Vec3{};
      const Vec3& own = m.units[u].position;
      world[u] = Vec3{base.x + own.x, base.y + own.y, base.z + own.z};
      done[u] = 1;
    }
  }
  return world;
}

void check_packet(const KmsFile& m, const KmsPacket& p, std::size_t ui, std::size_t pi, Diagnostics& out) {
  const auto path = [ui, pi] { return "unit " + std::to_string(ui) + " packet " + std::to_string(pi); };
  const std::size_t ptr = m.layout == Layout::ps2 ? 4 : 8;
  const std::uint64_t ptr_at = p.file_offset + (m.layout == Layout::ps2 ? 0x14 : 0x20);
  const std::uint32_t n = p.vertex_count();
  if ((p.n_verts >> 16) != 0) {
    out.add(Severity::warning, p.file_offset + 4, path() + " n_verts",
            "high half non-zero (Xbox-era u16 count + u16 index count?); the low half is used as the count", "0",
            hex(p.n_verts >> 16));
  }
  if (n > m.packet_vertex_limit()) {
    out.add(Severity::error, p.file_offset + 4, path() + " n_verts", "too many vertices for one packet",
            "at most " + std::to_string(m.packet_vertex_limit()) + (m.multitex() ? " (multi-texture)" : ""),
            std::to_string(n));
  }
  if (n != 0 && !p.verts.present()) {
    out.add(Severity::error, ptr_at, path() + " vertices", "vertex array absent", "a file offset", "0");
  }
  if (n != 0 && !p.norms.present()) {
    out.add(Severity::error, ptr_at + ptr, path() + " normals", "normal array (kick flags) absent", "a file offset", "0");
  }
  detail::check_aligned(p.verts, ptr_at, [&] { return path() + " vertices"; }, out);
  detail::check_aligned(p.norms, ptr_at + ptr, [&] { return path() + " normals"; }, out);
  static const char* const kUv[3] = {" uv0", " uv1", " uv2"};
  for (int s = 0; s < 3; ++s) {
    detail::check_aligned(p.uvs[s], ptr_at + ptr * (2 + s), [&] { return path() + kUv[s]; }, out);
  }

  if (p.norms.present()) detail::check_kicks(p.norms.data, n, p.norms.pointer, [&] { return path() + " normals"; }, out);
}

}  // namespace

Diagnostics validate_kms(const KmsFile& m) {
  Diagnostics out;
  check_header(m, out);
  const std::size_t unit_size = kms_unit_size(m.layout);
  const std::size_t pack_size = kms_packet_size(m.layout);
  std::vector<Extent> extents;
  std::size_t n_packets = 0;
  for (const auto& u : m.units) n_packets += u.packets.size();
  extents.reserve(2 + m.units.size() + n_packets * 5);
  extents.push_back(Extent{0, kKmsHeaderSize, 0, 0, detail::kHeader});
  extents.push_back(Extent{kKmsHeaderSize, kKmsHeaderSize + m.units.size() * unit_size, 0, 0, detail::kUnitTable});

  std::vector<std::int32_t> parents;
  parents.reserve(m.units.size());
  for (const auto& u : m.units) parents.push_back(u.parent);
  const bool acyclic =
      detail::check_parents(parents, "unit", [&](std::size_t i) { return m.units[i].file_offset + 0x2C; }, out);
  const std::vector<Vec3> world = acyclic ? unit_offsets(m) : std::vector<Vec3>(m.units.size());

  detail::Aabb all_local, all_model;
  for (std::size_t i = 0; i < m.units.size(); ++i) {
    const KmsUnit& u = m.units[i];
    const std::string path = "unit " + std::to_string(i);
    const bool extended = (u.type & kUnitExtend) != 0;
    if (i < m.header.n_models && extended) {
      out.add(Severity::error, u.file_offset, path + " type",
              "extended unit (0x4000) among the regular ones: extended units must follow the n_models regular units",
              "index >= " + std::to_string(m.header.n_models), std::to_string(i));
    } else if (i >= m.header.n_models && !extended) {
      out.add(Severity::warning, u.file_offset, path + " type", "unit past n_models without the extended flag",
              "type with 0x4000", hex(u.type));
    }
    if (u.n_packs != 0) {
      extents.push_back(Extent{u.packs, u.packs + std::uint64_t{u.n_packs} * pack_size, static_cast<std::uint32_t>(i),
                               0, detail::kPacketTable});
      if (u.packs % 16 != 0) {
        out.add(Severity::warning, u.file_offset + 0x30, path + " packs", "packet table not 16-byte aligned",
                "an offset multiple of 16", hex(u.packs));
      }
    }
    detail::Aabb pts;
    for (std::size_t j = 0; j < u.packets.size(); ++j) {
      const KmsPacket& p = u.packets[j];
      check_packet(m, p, i, j, out);
      pts.merge(detail::s16_bounds(p.verts.data, p.verts.data.size() / 8, 1.0f));
    }
    // Boxes: unit-local or model coordinates (the unit's offset along its parent chain).
    const detail::Aabb model_pts = pts.empty() ? pts : pts.shifted(world[i]);
    if (!detail::box_holds(u.bbox_min, u.bbox_max, pts, 0.5f) &&
        !detail::box_holds(u.bbox_min, u.bbox_max, model_pts, 0.5f)) {
      out.add(Severity::warning, u.file_offset + 8, path + " bbox",
              "bounding box does not contain the unit's vertices, read as unit-local or as model coordinates",
              detail::vec_text(u.bbox_min) + " .. " + detail::vec_text(u.bbox_max), "vertices outside");
    }
    all_local.merge(pts);
    all_model.merge(model_pts);
  }
  if (!detail::box_holds(m.header.bbox_min, m.header.bbox_max, all_local, 0.5f) &&
      !detail::box_holds(m.header.bbox_min, m.header.bbox_max, all_model, 0.5f)) {
    out.add(Severity::warning, 0x1C, "header bbox",
            "bounding box does not contain the vertices, read as unit-local or as model coordinates",
            detail::vec_text(m.header.bbox_min) + " .. " + detail::vec_text(m.header.bbox_max), "vertices outside");
  }
  // Kind by kind, so that a file in the spec's order needs no sorting.
  for (int k = 0; k < 5; ++k) {
    for (std::size_t i = 0; i < m.units.size(); ++i) {
      for (std::size_t j = 0; j < m.units[i].packets.size(); ++j) {
        const KmsPacket& p = m.units[i].packets[j];
        const ArrayRef& a = k == 0 ? p.verts : k == 1 ? p.norms : p.uvs[k - 2];
        if (a.present()) {
          extents.push_back(Extent{a.pointer, a.pointer + a.data.size(), static_cast<std::uint32_t>(i),
                                   static_cast<std::uint32_t>(j), static_cast<std::uint8_t>(detail::kVerts + k)});
        }
      }
    }
  }
  detail::check_overlaps(std::move(extents), true, out);
  return out;
}

}  // namespace boneyard::mgs2
