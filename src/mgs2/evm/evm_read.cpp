#include <string>

#include "boneyard/mgs2/evm/evm.h"
#include "core/byte_reader.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2 {

using detail::read_ptr;
using detail::read_vec3;
using detail::read_vec4;

std::size_t evm_header_size(Layout layout) { return layout == Layout::ps2 ? 0x30 : 0x40; }
std::size_t evm_packet_size(Layout layout) { return layout == Layout::ps2 ? 0x40 : 0x70; }

std::optional<Layout> detect_evm_layout(Bytes file) {
  if (file.size() < 0x30) return std::nullopt;
  const std::uint64_t n = load_le<std::uint32_t>(file.data() + 0x04);
  if (load_le<std::uint32_t>(file.data() + 0x2C) == 0x30 + n * kEvmBoneSize) return Layout::ps2;
  if (file.size() >= 0x38 && load_le<std::uint64_t>(file.data() + 0x30) == 0x40 + n * kEvmBoneSize) return Layout::mc;
  return std::nullopt;
}

namespace {

EvmPacket read_packet(ByteReader& r, Layout layout, const detail::ArrayResolver& arrays) {
  EvmPacket p;
  p.file_offset = r.offset();
  p.flag = r.u32("flag");
  if (layout == Layout::mc) p.flag_pad = r.u32("flag pad");
  detail::read_tex_ids(r, layout, p.tex_id, p.tex_pad);
  p.n_verts = r.u32("n_verts");
  p.n_mats = r.u32("n_mats");
  for (auto& id : p.mat_id) id = r.u8("mat_id");
  const std::size_t ptr = layout == Layout::ps2 ? 4 : 8;
  const std::uint64_t at = r.offset();
  std::uint64_t ptrs[6];
  for (auto& q : ptrs) q = read_ptr(r, layout, "array pointers");
  p.rgbs = read_ptr(r, layout, "rgbs");
  p.pad = read_ptr(r, layout, "pad");

  const std::uint64_t n = p.vertex_count();
  detail::resolve_packet_arrays(p, arrays, layout, at, ptrs, n, 8);
  p.weights = arrays.resolve(at + ptr * 5, ptrs[5], n * 8, "weights");
  return p;
}

EvmBone read_bone(ByteReader& r) {
  EvmBone b;
  b.file_offset = r.offset();
  b.flag = r.u32("flag");
  b.parent = r.s32("parent");
  b.translation = read_vec3(r, "offset");
  b.root_offset = read_vec3(r, "root offset");
  b.box_min = read_vec4(r, "bbox");
  b.box_max = read_vec4(r, "bbox");
  return b;
}

EvmFile read_model(Bytes file, std::optional<Layout> force, Diagnostics* notes) {
  EvmFile m;
  if (force) {
    m.layout = *force;
  } else if (auto detected = detect_evm_layout(file)) {
    m.layout = *detected;
  } else {
    fail(file.size() >= 0x30 ? 0x2C : 0, "header packet", "cannot tell the layout: the packet pointer does not follow the skeleton",
         "0x30 + n_x_models * 0x40 at 0x2C (PS2) or 0x40 + n_x_models * 0x40 at 0x30 (MC); use --layout to force",
         file.size() >= 0x30 ? hex(load_le<std::uint32_t>(file.data() + 0x2C)) : std::to_string(file.size()) + " bytes");
  }
  m.file_size = file.size();
  ByteReader r(file, 0);
  EvmHeader& h = m.header;
  h.n_models = r.u32("header n_models");
  h.n_x_models = r.u32("header n_x_models");
  h.bbox_min = read_vec3(r, "header bbox");
  h.bbox_max = read_vec3(r, "header bbox");
  if (m.layout == Layout::ps2) {
    h.type = r.u32("header type");
    h.texture = r.u32("header texture");
    h.n_packs = r.u32("header n_packs");
    h.packet = r.u32("header packet");
  } else {
    h.texture = r.u32("header texture");
    h.mc_pad[0] = r.u32("header pad");
    h.type = r.u32("header type");
    h.n_packs = r.u32("header n_packs");
    h.packet = r.u64("header packet");
    h.mc_pad[1] = r.u32("header pad");
    h.mc_pad[2] = r.u32("header pad");
  }
  r.need_array(h.n_x_models, kEvmBoneSize, "skeleton (n_x_models)");
  std::vector<Interval> covered;
  covered.push_back(Interval{0, r.offset() + std::uint64_t{h.n_x_models} * kEvmBoneSize});
  m.bones.reserve(h.n_x_models);
  for (std::uint32_t i = 0; i < h.n_x_models; ++i) m.bones.push_back(detail::read_at("bone ", i, [&] { return read_bone(r); }));
  const std::size_t pack_size = evm_packet_size(m.layout);
  const std::uint64_t packet_field = m.layout == Layout::ps2 ? 0x2C : 0x30;
  ByteReader pr = detail::table_reader(file, packet_field, h.packet, h.n_packs, pack_size, "header packet");
  covered.push_back(Interval{h.packet, h.packet + std::uint64_t{h.n_packs} * pack_size});
  const detail::ArrayResolver arrays{file};
  m.packets.reserve(h.n_packs);
  for (std::uint32_t j = 0; j < h.n_packs; ++j)
    m.packets.push_back(detail::read_at("packet ", j, [&] { return read_packet(pr, m.layout, arrays); }));
  // Kind by kind: a file in the spec's order then needs no sorting.
  for (int k = 0; k < 6; ++k) {
    for (const auto& p : m.packets) {
      const ArrayRef* arrays_of[6] = {&p.verts, &p.norms, &p.uvs[0], &p.uvs[1], &p.uvs[2], &p.weights};
      detail::cover(covered, *arrays_of[k]);
    }
  }
  m.gaps = uncovered_gaps(file, std::move(covered));
  if (notes != nullptr) note_layout_and_gaps(*notes, force, m.gaps);
  return m;
}

}  // namespace

Result<EvmFile> read_evm(std::shared_ptr<const FileData> file, std::optional<Layout> force, Diagnostics* notes) {
  return catch_parse_errors([&] {
    EvmFile m = read_model(file->bytes(), force, notes);
    m.source = std::move(file);
    return m;
  });
}

std::size_t evm_influences(const EvmFile& model, const EvmPacket& packet, std::size_t v,
                           std::array<EvmInfluence, 8>& out) {
  if (packet.weights.data.size() < (v + 1) * 8) return 0;
  const std::uint8_t* w = packet.weights.data.data() + v * 8;
  std::size_t n = 0;
  if (model.weights_v2()) {
    for (int k = 0; k < 4; ++k) {
      if (w[k] == 0) continue;
      const unsigned slot = w[4 + k] / 4U;
      const int joint = slot < 8 && packet.mat_id[slot] != 0xFF ? packet.mat_id[slot] : -1;
      out[n++] = EvmInfluence{joint, static_cast<float>(w[k]) / 128.0f};
    }
  } else {
    for (int k = 0; k < 8; ++k) {
      if (w[k] == 0) continue;
      const int joint = packet.mat_id[k] != 0xFF ? packet.mat_id[k] : -1;
      out[n++] = EvmInfluence{joint, static_cast<float>(w[k]) / 128.0f};
    }
  }
  return n;
}

}  // namespace boneyard::mgs2
