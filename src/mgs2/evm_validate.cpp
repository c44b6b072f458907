#include <string>

#include "boneyard/mgs2_validate.h"
#include "validate_common.h"

namespace boneyard::mgs2 {

using detail::Extent;

namespace {

void check_header(const EvmModel& m, Diagnostics& out) {
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
  const EvmModel& m;
  std::vector<detail::BoxCheck>& bone_boxes;
  detail::BoxCheck& model_box;
  Diagnostics& out;
};

void check_weights(const PacketContext& c, const EvmPacket& p, const std::string& path) {
  const std::size_t n = p.weights.data.size() / 8;
  const bool v2 = c.m.weights_v2();
  std::size_t bad_sum = 0, first_bad_sum = 0, past_mats = 0, first_past = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const std::uint8_t* w = p.weights.data.data() + v * 8;
    const std::uint64_t at = p.weights.pointer + v * 8;
    const int slots = v2 ? 4 : 8;
    unsigned sum = 0;
    for (int k = 0; k < slots; ++k) {
      sum += w[k];
      if (w[k] == 0) continue;
      const unsigned slot = v2 ? w[4 + k] / 4U : static_cast<unsigned>(k);
      const std::string where = path + " vertex " + std::to_string(v) + " weight " + std::to_string(k);
      if (slot >= 8) {
        c.out.add(Severity::error, at + 4 + k, where, "palette byte selects a matrix slot past mat_id[8]",
                  "a byte / 4 below 8 (at most 31)", std::to_string(w[4 + k]));
        continue;
      }
      if (p.mat_id[slot] == 0xFF) {
        c.out.add(Severity::error, v2 ? at + 4 + k : at + k, where, "non-zero weight on an unused matrix slot",
                  "mat_id[" + std::to_string(slot) + "] naming a joint", "0xFF");
        continue;
      }
      if (slot >= p.n_mats && past_mats++ == 0) first_past = v;
    }
    if (sum < 126 || sum > 130) {
      if (bad_sum++ == 0) first_bad_sum = v;
    }
  }
  if (bad_sum != 0) {
    const std::uint8_t* w = p.weights.data.data() + first_bad_sum * 8;
    unsigned sum = 0;
    for (int k = 0; k < (v2 ? 4 : 8); ++k) sum += w[k];
    c.out.add(Severity::warning, p.weights.pointer + first_bad_sum * 8,
              path + " vertex " + std::to_string(first_bad_sum) + " weights",
              "weights do not sum to 128 (1.0) on " + std::to_string(bad_sum) + " vertices", "128 +/- 2",
              std::to_string(sum));
  }
  if (past_mats != 0) {
    c.out.add(Severity::info, p.weights.pointer + first_past * 8,
              path + " vertex " + std::to_string(first_past) + " weights",
              "palette index at or past n_mats on " + std::to_string(past_mats) +
                  " vertices (n_mats read as the influence count, as some tools write it)",
              "below " + std::to_string(p.n_mats), "past it");
  }
}

void check_packet(const PacketContext& c, const EvmPacket& p, std::size_t j, std::vector<Extent>& extents) {
  const EvmModel& m = c.m;
  Diagnostics& out = c.out;
  const std::string path = "packet " + std::to_string(j);
  const std::size_t ptr = m.layout == Layout::ps2 ? 4 : 8;
  const std::uint64_t n_at = p.file_offset + (m.layout == Layout::ps2 ? 0x10 : 0x20);
  const std::uint64_t ptr_at = n_at + 0x10;
  const std::uint32_t n = p.vertex_count();
  if ((p.n_verts >> 16) != 0) {
    out.add(Severity::warning, n_at, path + " n_verts",
            "high half non-zero (Xbox-era u16 count + u16 index count?); the low half is used as the count", "0",
            hex(p.n_verts >> 16));
  }
  if (n > kEvmPacketVertexLimit) {
    out.add(Severity::error, n_at, path + " n_verts", "too many vertices for one packet", "at most 32", std::to_string(n));
  }
  if (p.n_mats > kEvmMaxMats) {
    out.add(Severity::error, n_at + 4, path + " n_mats", "too many matrices for one packet", "at most 8",
            std::to_string(p.n_mats));
  }
  for (std::size_t k = 0; k < 8; ++k) {
    if (p.mat_id[k] != 0xFF && p.mat_id[k] >= m.bones.size()) {
      out.add(Severity::error, n_at + 8 + k, path + " mat_id " + std::to_string(k), "joint index past the skeleton",
              "below " + std::to_string(m.bones.size()) + " or 0xFF", std::to_string(p.mat_id[k]));
    }
  }
  static const char* const kNames[6] = {" vertices", " normals", " uv0", " uv1", " uv2", " weights"};
  const ArrayRef* arrays[6] = {&p.verts, &p.norms, &p.uvs[0], &p.uvs[1], &p.uvs[2], &p.weights};
  for (int k = 0; k < 6; ++k) {
    const ArrayRef& a = *arrays[k];
    if (n != 0 && !a.present() && (k < 2 || k == 5)) {
      out.add(k == 5 ? Severity::warning : Severity::error, ptr_at + ptr * k, path + kNames[k], "array absent",
              "a file offset", "0");
    }
    detail::check_aligned(a, ptr_at + ptr * k, path + kNames[k], out);
    if (a.present()) {
      extents.push_back(Extent{a.pointer, a.pointer + a.data.size(), static_cast<std::uint32_t>(j), 0,
                               static_cast<std::uint8_t>(detail::kVerts + k)});
    }
  }
  if (p.verts.present()) detail::check_kicks(p.verts.data, n, p.verts.pointer, path + " vertices", out);
  if (p.weights.present()) check_weights(c, p, path);

  // Boxes: the model box holds every vertex; a joint's box those weighted to it.
  const float scale = m.position_scale();
  const std::size_t nv = p.verts.data.size() / 8;
  const bool weighted = p.weights.data.size() >= nv * 8;
  std::array<EvmInfluence, 8> inf;
  for (std::size_t v = 0; v < nv; ++v) {
    const float x = static_cast<float>(s16_at(p.verts.data, v, 0)) * scale;
    const float y = static_cast<float>(s16_at(p.verts.data, v, 1)) * scale;
    const float z = static_cast<float>(s16_at(p.verts.data, v, 2)) * scale;
    c.model_box.add(x, y, z, Vec3{});
    if (!weighted) continue;
    const std::size_t ni = evm_influences(m, p, v, inf);
    for (std::size_t k = 0; k < ni; ++k) {
      if (inf[k].joint < 0 || static_cast<std::size_t>(inf[k].joint) >= m.bones.size()) continue;
      const EvmBone& b = m.bones[static_cast<std::size_t>(inf[k].joint)];
      // "local" reading: relative to the joint's bind position.
      c.bone_boxes[static_cast<std::size_t>(inf[k].joint)].add(x - b.root_offset.x, y - b.root_offset.y,
                                                                 z - b.root_offset.z, b.root_offset);
    }
  }
}

}  // namespace

void validate_evm(const EvmModel& m, Diagnostics& out) {
  check_header(m, out);
  std::vector<Extent> extents;
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
  std::vector<detail::BoxCheck> bone_boxes;
  bone_boxes.reserve(m.bones.size());
  for (const auto& b : m.bones) {
    bone_boxes.push_back(detail::BoxCheck{Vec3{b.box_min.x, b.box_min.y, b.box_min.z},
                                          Vec3{b.box_max.x, b.box_max.y, b.box_max.z}, eps});
  }
  detail::BoxCheck model_box{m.header.bbox_min, m.header.bbox_max, eps};
  model_box.local_ok = false;  // the header box has one reading: model space
  const PacketContext c{m, bone_boxes, model_box, out};
  for (std::size_t j = 0; j < m.packets.size(); ++j) check_packet(c, m.packets[j], j, extents);

  if (model_box.failed()) {
    out.add(Severity::warning, 0x08, "header bbox", "bounding box does not contain the vertices",
            detail::vec_text(m.header.bbox_min) + " .. " + detail::vec_text(m.header.bbox_max), "vertices outside");
  }
  for (std::size_t i = 0; i < bone_boxes.size(); ++i) {
    if (bone_boxes[i].failed()) {
      out.add(Severity::warning, m.bones[i].file_offset + 0x20, "bone " + std::to_string(i) + " bbox",
              "box does not contain the vertices weighted to this joint, read as joint-local or as model coordinates",
              detail::vec_text(bone_boxes[i].lo) + " .. " + detail::vec_text(bone_boxes[i].hi), "vertices outside");
    }
  }
  detail::check_overlaps(std::move(extents), false, out);
}

}  // namespace boneyard::mgs2
