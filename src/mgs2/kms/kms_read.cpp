#include <string>

#include "boneyard/mgs2/kms/kms.h"
#include "core/byte_reader.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2 {

using detail::read_ptr;
using detail::read_vec3;

std::size_t kms_unit_size(Layout layout) { return layout == Layout::ps2 ? 0x40 : 0x50; }
std::size_t kms_packet_size(Layout layout) { return layout == Layout::ps2 ? 0x30 : 0x60; }

Layout detect_kms_layout(Bytes file) {
  if (file.size() < 0x10 || load_le<std::uint32_t>(file.data() + 0x0C) != 0) return Layout::ps2;
  // A PS2 file whose texture id is 0: its first unit's packet pointer (0x70 in both layouts)
  // points right after a table of 0x40-byte units.
  if (file.size() >= 0x74) {
    const std::uint64_t n = load_le<std::uint32_t>(file.data() + 0x08);
    if (n != 0 && load_le<std::uint32_t>(file.data() + 0x70) == kKmsHeaderSize + n * 0x40) return Layout::ps2;
  }
  return Layout::mc;
}

namespace {

KmsPacket read_packet(ByteReader& r, Layout layout, const detail::ArrayResolver& arrays) {
  KmsPacket p;
  p.file_offset = r.offset();
  p.flag = r.u32("flag");
  p.n_verts = r.u32("n_verts");
  detail::read_tex_ids(r, layout, p.tex_id, p.tex_pad);
  const std::uint64_t at = r.offset();
  std::uint64_t ptrs[5];  // verts, norms, uv0..2
  ptrs[0] = read_ptr(r, layout, "verts");
  ptrs[1] = read_ptr(r, layout, "norms");
  for (int i = 2; i < 5; ++i) ptrs[i] = read_ptr(r, layout, "uvs");
  p.rgbs = read_ptr(r, layout, "rgbs");
  p.pad = read_ptr(r, layout, "pad");
  if (layout == Layout::mc) p.pad2 = r.u64("pad");

  detail::resolve_packet_arrays(p, arrays, layout, at, ptrs, p.vertex_count(), 4);
  return p;
}

KmsUnit read_unit(ByteReader& r, Layout layout) {
  KmsUnit u;
  u.file_offset = r.offset();
  u.type = r.u32("type");
  u.n_packs = r.u32("n_packs");
  u.bbox_min = read_vec3(r, "bbox");
  u.bbox_max = read_vec3(r, "bbox");
  u.position = read_vec3(r, "position");
  u.parent = r.s32("parent");
  u.packs = read_ptr(r, layout, "packs");
  for (auto& p : u.pad) p = read_ptr(r, layout, "pad");
  return u;
}

KmsFile read_model(Bytes file, std::optional<Layout> force, Diagnostics* notes) {
  KmsFile m;
  m.layout = force ? *force : detect_kms_layout(file);
  m.file_size = file.size();
  ByteReader r(file, 0);
  KmsHeader& h = m.header;
  h.data_format = r.u32("header data_format");
  h.n_models = r.u32("header n_models");
  h.n_x_models = r.u32("header n_x_models");
  if (m.layout == Layout::ps2) {
    h.texture = r.u32("header texture");
    for (auto& p : h.pad) p = r.u32("header pad");
  } else {
    h.pad[2] = r.u32("header pad");
    h.texture = r.u32("header texture");
    h.pad[0] = r.u32("header pad");
    h.pad[1] = r.u32("header pad");
  }
  h.bbox_min = read_vec3(r, "header bbox");
  h.bbox_max = read_vec3(r, "header bbox");
  h.position = read_vec3(r, "header position");

  const std::size_t unit_size = kms_unit_size(m.layout);
  const std::size_t pack_size = kms_packet_size(m.layout);
  r.need_array(h.n_x_models, unit_size, "units (n_x_models)");
  std::vector<Interval> covered;
  covered.push_back(Interval{0, kKmsHeaderSize + std::uint64_t{h.n_x_models} * unit_size});
  const detail::ArrayResolver arrays{file};

  m.units.reserve(h.n_x_models);
  for (std::uint32_t i = 0; i < h.n_x_models; ++i)
    m.units.push_back(detail::read_at("unit ", i, [&] {
      KmsUnit u = read_unit(r, m.layout);
      ByteReader pr = detail::table_reader(file, u.file_offset + 0x30, u.packs, u.n_packs, pack_size, "packs");
      covered.push_back(Interval{u.packs, u.packs + std::uint64_t{u.n_packs} * pack_size});
      u.packets.reserve(u.n_packs);
      for (std::uint32_t j = 0; j < u.n_packs; ++j)
        u.packets.push_back(detail::read_at("packet ", j, [&] { return read_packet(pr, m.layout, arrays); }));
      return u;
    }));
  // Kind by kind: a file in the spec's order then needs no sorting.
  for (int k = 0; k < 5; ++k) {
    for (const auto& u : m.units) {
      for (const auto& p : u.packets) detail::cover(covered, k == 0 ? p.verts : k == 1 ? p.norms : p.uvs[k - 2]);
    }
  }
  m.gaps = uncovered_gaps(file, std::move(covered));
  if (notes != nullptr) note_layout_and_gaps(*notes, force, m.gaps);
  return m;
}

}  // namespace

Result<KmsFile> read_kms(std::shared_ptr<const FileData> file, std::optional<Layout> force, Diagnostics* notes) {
  return catch_parse_errors([&] {
    KmsFile m = read_model(file->bytes(), force, notes);
    m.source = std::move(file);
    return m;
  });
}

}  // namespace boneyard::mgs2
