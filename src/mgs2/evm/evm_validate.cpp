#include <string>

#include "boneyard/mgs2/evm/evm.h"
#include "mgs2/validate_common.h"

namespace boneyard::mgs2 {

using detail::Extent;

namespace {

void check_header(const EvmFile& m, Diagnostics& out) {
  const EvmHeader& h = m.header;
  if (h.n_models > h.n_x_models) {
    out.add(Severity::error, 0, "header n_models", "more regular joints than joints in all",
            "at most n_x_models = " + std::to_string(h.n_x_models), std::to_string(h.n_models));
  }
  const std::uint64_t type_at = m.layout == Layout::ps2 ? 0x20 : 0x28;
  if ((h.type & ~kEvmKnownTypeBits) != 0) {
    out.add(Severity::warning, type_at, "header type", "unknown type bits",
            "only 0x1 LARGE, 0x2 INDEX, 0x4 BLACKBUMP, 0x01000000 FORMAT_V2", hex(h.type));
  }
}

struct PacketContext {
  const EvmFile& m;
  std::vector<detail::Aabb>& joint_points;  // per joint: the vertices weighted to it
  detail::Aabb& all_points;
  Diagnostics& out;
  bool boxes;  // gather the vertices' bounds for the box checks (validate_evm_for_conversion: not)
};

// Reports the palette errors of one packet, vertex by vertex (only run when some exist).
template <class PathFn>
void report_palette_errors(const PacketContext& c, const EvmPacket& p, PathFn path) {
  const std::size_t n = p.weights.data.size() / 8;
  const bool v2 = c.m.weights_v2();
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint8_t* w = p.weights.data.data() + v * 8;
    const std::uint64_t at = p.weights.pointer + v * 8;
    for (int k = 0; k < (v2 ? 4 : 8); ++k) {
      if (w[k] == 0) continue;
      const unsigned slot = v2 ? w[4 + k] / 4U : static_cast<unsigned>(k);
      if (slot < 8 && p.mat_id[slot] != 0xFF) continue;
      const std::string where = path() + " vertex " + std::to_string(v) + " weight " + std::to_string(k);
      if (slot >= 8) {
        c.out.add(Severity::error, at + 4 + k, where, "palette byte selects a matrix slot past mat_id[8]",
                  "a byte / 4 below 8 (at most 31)", std::to_string(w[4 + k]));
      } else {
        c.out.add(Severity::error, v2 ? at + 4 + k : at + k, where, "non-zero weight on an unused matrix slot",
                  "mat_id[" + std::to_string(slot) + "] naming a joint", "0xFF");
      }
    }
  }
}

struct WeightScan {
  std::int32_t lo[8][3], hi[8][3];
  std::size_t bad_sum = 0, first_bad_sum = 0, past_mats = 0, first_past = 0;
  bool errors = false;
};

// The hot loop of EVM validation, one instantiation per weight format and per need of bounds.
template <bool V2, bool Bounds>
void scan_weights(const EvmPacket& p, const std::uint8_t (&cls)[64], WeightScan& r) {
  constexpr int kCount = V2 ? 4 : 8;
  const std::size_t n = p.weights.data.size() / 8;
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint8_t* w = p.weights.data.data() + v * 8;
    std::int32_t pos[3] = {0, 0, 0};
    if constexpr (Bounds) {
      for (std::size_t a = 0; a < 3; ++a) pos[a] = s16_at(p.verts.data, v, a);
    }
    unsigned sum = 0;
    unsigned seen = 0;
    for (int k = 0; k < kCount; ++k) {
      sum += w[k];
      if (w[k] == 0) continue;
      const unsigned slot = V2 ? w[4 + k] / 4U : static_cast<unsigned>(k);
      const std::uint8_t cl = cls[slot];
      seen |= 1U << cl;
      if (!Bounds || cl == 2) continue;
      for (int a = 0; a < 3; ++a) {
        r.lo[slot][a] = std::min(r.lo[slot][a], pos[a]);
        r.hi[slot][a] = std::max(r.hi[slot][a], pos[a]);
      }
    }
    r.errors |= (seen & 4U) != 0;
    if ((seen & 2U) != 0 && r.past_mats++ == 0) r.first_past = v;
    if ((sum < 126 || sum > 130) && r.bad_sum++ == 0) r.first_bad_sum = v;
  }
}

// One pass over a packet's weights: sums, palette validity, and the bounds of the raw positions
// weighted to each matrix slot (for the joint boxes), without allocating.
template <class PathFn>
void check_weights(const PacketContext& c, const EvmPacket& p, PathFn path) {
  const std::size_t n = p.weights.data.size() / 8;
  const bool v2 = c.m.weights_v2();
  const bool bounds = c.boxes && p.verts.data.size() >= n * 8;
  // Slot (palette byte / 4) -> 0 fine, 1 fine but at or past n_mats, 2 error.
  std::uint8_t cls[64];
  for (unsigned slot = 0; slot < 64; ++slot) {
    cls[slot] = slot >= 8 || p.mat_id[slot] == 0xFF ? 2 : (slot >= p.n_mats ? 1 : 0);
  }
  WeightScan r;
  for (int k = 0; k < 8; ++k) {
    for (int a = 0; a < 3; ++a) {
      r.lo[k][a] = 32767;
      r.hi[k][a] = -32768;
    }
  }
  if (v2) {
    bounds ? scan_weights<true, true>(p, cls, r) : scan_weights<true, false>(p, cls, r);
  } else {
    bounds ? scan_weights<false, true>(p, cls, r) : scan_weights<false, false>(p, cls, r);
  }
  const int count = v2 ? 4 : 8;
  const auto& lo = r.lo;
  const auto& hi = r.hi;
  const std::size_t bad_sum = r.bad_sum, first_bad_sum = r.first_bad_sum;
  const std::size_t past_mats = r.past_mats, first_past = r.first_past;
  const bool errors = r.errors;
  if (errors) report_palette_errors(c, p, path);
  if (bounds) {
    const float scale = c.m.position_scale();
    for (unsigned k = 0; k < 8; ++k) {
      if (lo[k][0] > hi[k][0] || p.mat_id[k] >= c.joint_points.size()) continue;
      detail::Aabb b;
      for (int a = 0; a < 3; ++a) {
        b.lo[a] = static_cast<float>(lo[k][a]) * scale;
        b.hi[a] = static_cast<float>(hi[k][a]) * scale;
      }
      c.joint_points[p.mat_id[k]].merge(b);
    }
  }
  if (bad_sum != 0) {
    const std::uint8_t* w = p.weights.data.data() + first_bad_sum * 8;
    unsigned sum = 0;
    for (int k = 0; k < count; ++k) sum += w[k];
    c.out.add(Severity::warning, p.weights.pointer + first_bad_sum * 8,
              path() + " vertex " + std::to_string(first_bad_sum) + " weights",
              "weights do not sum to 128 (1.0) on " + std::to_string(bad_sum) + " vertices", "128 +/- 2",
              std::to_string(sum));
  }
  if (past_mats != 0) {
    c.out.add(Severity::info, p.weights.pointer + first_past * 8,
              path() + " vertex " + std::to_string(first_past) + " weights",
              "palette index at or past n_mats on " + std::to_string(past_mats) +
                  " vertices (n_mats read as the influence count, as some tools write it)",
              "below " + std::to_string(p.n_mats), "past it");
  }
}

void check_packet(const PacketContext& c, const EvmPacket& p, std::size_t j) {
  const EvmFile& m = c.m;
  Diagnostics& out = c.out;
  const auto path = [j] { return "packet " + std::to_string(j); };
  const std::size_t ptr = m.layout == Layout::ps2 ? 4 : 8;
  const std::uint64_t n_at = p.file_offset + (m.layout == Layout::ps2 ? 0x10 : 0x20);
  const std::uint64_t ptr_at = n_at + 0x10;
  const std::uint32_t n = p.vertex_count();
  if ((p.n_verts >> 16) != 0) {
    out.add(Severity::warning, n_at, path() + " n_verts",
            "high half non-zero (Xbox-era u16 count + u16 index count?); the low half is used as the count", "0",
            hex(p.n_verts >> 16));
  }
  if (n > kEvmPacketVertexLimit) {
    out.add(Severity::error, n_at, path() + " n_verts", "too many vertices for one packet", "at most 32", std::to_string(n));
  }
  if (p.n_mats > kEvmMaxMats) {
    out.add(Severity::error, n_at + 4, path() + " n_mats", "too many matrices for one packet", "at most 8",
            std::to_string(p.n_mats));
  }
  for (std::size_t k = 0; k < 8; ++k) {
    if (p.mat_id[k] != 0xFF && p.mat_id[k] >= m.bones.size()) {
      out.add(Severity::error, n_at + 8 + k, path() + " mat_id " + std::to_string(k), "joint index past the skeleton",
              "below " + std::to_string(m.bones.size()) + " or 0xFF", std::to_string(p.mat_id[k]));
    }
  }
  static const char* const kNames[6] = {" vertices", " normals", " uv0", " uv1", " uv2", " weights"};
  const ArrayRef* arrays[6] = {&p.verts, &p.norms, &p.uvs[0], &p.uvs[1], &p.uvs[2], &p.weights};
  for (int k = 0; k < 6; ++k) {
    const ArrayRef& a = *arrays[k];
    if (n != 0 && !a.present() && (k < 2 || k == 5)) {
      out.add(k == 5 ? Severity::warning : Severity::error, ptr_at + ptr * k, path() + kNames[k], "array absent",
              "a file offset", "0");
    }
    detail::check_aligned(a, ptr_at + ptr * k, [&] { return path() + kNames[k]; }, out);
  }
  if (p.verts.present()) detail::check_kicks(p.verts.data, n, p.verts.pointer, [&] { return path() + " vertices"; }, out);
  if (p.weights.present()) check_weights(c, p, path);

  // The model box holds every vertex; joint boxes were gathered by check_weights.
  if (c.boxes) c.all_points.merge(detail::s16_bounds(p.verts.data, p.verts.data.size() / 8, m.position_scale()));
}

Diagnostics validate(const EvmFile& m, bool boxes) {
  Diagnostics out;
  check_header(m, out);
  std::vector<Extent> extents;
  extents.reserve(2 + m.packets.size() * 6);
  extents.push_back(Extent{0, evm_header_size(m.layout) + m.bones.size() * kEvmBoneSize, 0, 0, detail::kHeader});
  if (!m.packets.empty()) {
    extents.push_back(
        Extent{m.header.packet, m.header.packet + m.packets.size() * evm_packet_size(m.layout), 0, 0, detail::kPacketTable});
    if (m.header.packet % 16 != 0) {
      out.add(Severity::warning, m.layout == Layout::ps2 ? 0x2C : 0x30, "header packet",
              "packet table not 16-byte aligned", "an offset multiple of 16", hex(m.header.packet));
    }
  }
  std::vector<std::int32_t> parents;
  parents.reserve(m.bones.size());
  for (const auto& b : m.bones) parents.push_back(b.parent);
  detail::check_parents(parents, "bone", [&](std::size_t i) { return m.bones[i].file_offset + 4; }, out);

  const float eps = m.position_scale() * 0.5f;
  std::vector<detail::Aabb> joint_points(m.bones.size());
  detail::Aabb all_points;
  const PacketContext c{m, joint_points, all_points, out, boxes};
  for (std::size_t j = 0; j < m.packets.size(); ++j) check_packet(c, m.packets[j], j);
  // Kind by kind, so that a file in the spec's order needs no sorting.
  for (int k = 0; k < 6; ++k) {
    for (std::size_t j = 0; j < m.packets.size(); ++j) {
      const EvmPacket& p = m.packets[j];
      const ArrayRef* arrays[6] = {&p.verts, &p.norms, &p.uvs[0], &p.uvs[1], &p.uvs[2], &p.weights};
      const ArrayRef& a = *arrays[k];
      if (a.present()) {
        extents.push_back(Extent{a.pointer, a.pointer + a.data.size(), static_cast<std::uint32_t>(j), 0,
                                 static_cast<std::uint8_t>(detail::kVerts + k)});
      }
    }
  }

  if (boxes && !detail::box_holds(m.header.bbox_min, m.header.bbox_max, all_points, eps)) {
    out.add(Severity::warning, 0x08, "header bbox", "bounding box does not contain the vertices",
            detail::vec_text(m.header.bbox_min) + " .. " + detail::vec_text(m.header.bbox_max), "vertices outside");
  }
  for (std::size_t i = 0; boxes && i < m.bones.size(); ++i) {
    const EvmBone& b = m.bones[i];
    const Vec3 lo{b.box_min.x, b.box_min.y, b.box_min.z};
    const Vec3 hi{b.box_max.x, b.box_max.y, b.box_max.z};
    const Vec3 back{-b.root_offset.x, -b.root_offset.y, -b.root_offset.z};
    const detail::Aabb& pts = joint_points[i];
    // Model coordinates, or relative to the joint's bind position.
    if (!detail::box_holds(lo, hi, pts, eps) && !detail::box_holds(lo, hi, pts.empty() ? pts : pts.shifted(back), eps)) {
      out.add(Severity::warning, b.file_offset + 0x20, "bone " + std::to_string(i) + " bbox",
              "box does not contain the vertices weighted to this joint, read as joint-local or as model coordinates",
              detail::vec_text(lo) + " .. " + detail::vec_text(hi), "vertices outside");
    }
  }
  detail::check_overlaps(std::move(extents), false, out);
  return out;
}

}  // namespace

Diagnostics validate_evm(const EvmFile& m) { return validate(m, true); }

Diagnostics validate_evm_for_conversion(const EvmFile& m) { return validate(m, false); }

}  // namespace boneyard::mgs2
