#include <string>

#include "boneyard/mgs2/evm/evm.h"
#include "core/byte_reader.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2 {

using detail::put_ptr;
using detail::put_vec3;
using detail::put_vec4;

namespace {

void put_header(ByteWriter& w, const EvmHeader& h, Layout layout, std::uint32_t n_x, std::uint32_t n_packs,
                std::uint64_t packet) {
  w.u32(h.n_models);
  w.u32(n_x);
  put_vec3(w, h.bbox_min);
  put_vec3(w, h.bbox_max);
  if (layout == Layout::ps2) {
    w.u32(h.type);
    w.u32(h.texture);
    w.u32(n_packs);
    w.u32(static_cast<std::uint32_t>(packet));
  } else {
    w.u32(h.texture);
    w.u32(h.mc_pad[0]);
    w.u32(h.type);
    w.u32(n_packs);
    w.u64(packet);
    w.u32(h.mc_pad[1]);
    w.u32(h.mc_pad[2]);
  }
}

void put_bone(ByteWriter& w, const EvmBone& b) {
  w.u32(b.flag);
  w.s32(b.parent);
  put_vec3(w, b.translation);
  put_vec3(w, b.root_offset);
  put_vec4(w, b.box_min);
  put_vec4(w, b.box_max);
}

// verts, norms, uv0, uv1, uv2, weights
using Pointers = std::array<std::uint64_t, 6>;

void put_packet(ByteWriter& w, const EvmPacket& p, Layout layout, const Pointers& ptrs, std::uint64_t rgbs) {
  w.u32(p.flag);
  if (layout == Layout::mc) w.u32(p.flag_pad);
  detail::put_tex_ids(w, layout, p.tex_id, p.tex_pad);
  w.u32(p.n_verts);
  w.u32(p.n_mats);
  for (auto id : p.mat_id) w.u8(id);
  for (auto q : ptrs) put_ptr(w, layout, q);
  put_ptr(w, layout, rgbs);
  put_ptr(w, layout, p.pad);
}

const ArrayRef& array_of(const EvmPacket& p, int k) {
  switch (k) {
    case 0: return p.verts;
    case 1: return p.norms;
    case 2: return p.uvs[0];
    case 3: return p.uvs[1];
    case 4: return p.uvs[2];
    default: return p.weights;
  }
}

}  // namespace

std::vector<std::uint8_t> write_evm(const EvmFile& m) {
  std::vector<std::uint8_t> out = detail::file_with_gaps(m.file_size, m.gaps);
  std::vector<std::uint8_t> tmp;
  ByteWriter w(tmp);
  put_header(w, m.header, m.layout, m.header.n_x_models, m.header.n_packs, m.header.packet);
  detail::place(out, 0, tmp);
  for (const auto& b : m.bones) {
    tmp.clear();
    put_bone(w, b);
    detail::place(out, b.file_offset, tmp);
  }
  for (const auto& p : m.packets) {
    tmp.clear();
    Pointers ptrs{};
    for (int k = 0; k < 6; ++k) ptrs[k] = array_of(p, k).pointer;
    put_packet(w, p, m.layout, ptrs, p.rgbs);
    detail::place(out, p.file_offset, tmp);
    for (int k = 0; k < 6; ++k) detail::put_at(out, array_of(p, k).pointer, array_of(p, k).data);
  }
  return out;
}

namespace {

bool present(const ArrayRef& a) { return a.present() || !a.data.empty(); }

std::vector<std::uint8_t> build(const EvmFile& m, Layout layout) {
  const std::size_t pack_size = evm_packet_size(layout);
  for (std::size_t j = 0; j < m.packets.size(); ++j) {
    const EvmPacket& p = m.packets[j];
    const std::string path = "packet " + std::to_string(j);
    const std::uint64_t n = p.vertex_count();
    if (n > kEvmPacketVertexLimit) {
      fail(p.file_offset, path + " n_verts", "too many vertices for one packet",
           "at most " + std::to_string(kEvmPacketVertexLimit), std::to_string(n));
    }
    if (p.n_mats > kEvmMaxMats) {
      fail(p.file_offset, path + " n_mats", "too many matrices for one packet", "at most 8", std::to_string(p.n_mats));
    }
    static const char* const kNames[6] = {"vertices", "normals", "uv0", "uv1", "uv2", "weights"};
    for (int k = 0; k < 6; ++k) {
      const ArrayRef& a = array_of(p, k);
      const bool required = k < 2;
      if ((required || present(a)) && a.data.size() != n * 8) {
        fail(p.file_offset, path + " " + kNames[k], "array size does not match n_verts", std::to_string(n * 8) + " bytes",
             std::to_string(a.data.size()) + " bytes");
      }
    }
  }
  std::uint64_t pos = evm_header_size(layout) + m.bones.size() * kEvmBoneSize;
  const std::uint64_t table = m.packets.empty() ? 0 : pos;
  pos += m.packets.size() * pack_size;
  std::vector<Pointers> ptrs(m.packets.size(), Pointers{});
  for (int k = 0; k < 6; ++k) {
    for (std::size_t j = 0; j < m.packets.size(); ++j) {
      const ArrayRef& a = array_of(m.packets[j], k);
      if (k >= 2 && !present(a)) continue;
      pos = detail::align16(pos);
      ptrs[j][k] = pos;
      pos += a.data.size();
    }
  }
  const std::uint64_t total = detail::built_size(pos, layout);
  std::vector<std::uint8_t> out;
  out.reserve(total);
  ByteWriter w(out);
  put_header(w, m.header, layout, static_cast<std::uint32_t>(m.bones.size()),
             static_cast<std::uint32_t>(m.packets.size()), table);
  for (const auto& b : m.bones) put_bone(w, b);
  for (std::size_t j = 0; j < m.packets.size(); ++j) put_packet(w, m.packets[j], layout, ptrs[j], 0);
  out.resize(total, 0);
  for (std::size_t j = 0; j < m.packets.size(); ++j) {
    for (int k = 0; k < 6; ++k) {
      if (ptrs[j][k] != 0) detail::put_at(out, ptrs[j][k], array_of(m.packets[j], k).data);
    }
  }
  return out;
}

}  // namespace

Result<std::vector<std::uint8_t>> build_evm(const EvmFile& model, Layout layout) {
  return catch_parse_errors([&] { return build(model, layout); });
}

}  // namespace boneyard::mgs2
