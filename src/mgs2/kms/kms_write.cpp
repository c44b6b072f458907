#include <string>

#include "boneyard/mgs2/kms/kms.h"
#include "core/byte_reader.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2 {

using detail::put_ptr;
using detail::put_vec3;

namespace {

void put_header(ByteWriter& w, const KmsHeader& h, Layout layout, std::uint32_t n_x_models) {
  w.u32(h.data_format);
  w.u32(h.n_models);
  w.u32(n_x_models);
  if (layout == Layout::ps2) {
    w.u32(h.texture);
    for (auto p : h.pad) w.u32(p);
  } else {
    w.u32(h.pad[2]);
    w.u32(h.texture);
    w.u32(h.pad[0]);
    w.u32(h.pad[1]);
  }
  put_vec3(w, h.bbox_min);
  put_vec3(w, h.bbox_max);
  put_vec3(w, h.position);
}

void put_unit(ByteWriter& w, const KmsUnit& u, Layout layout, std::uint32_t n_packs, std::uint64_t packs) {
  w.u32(u.type);
  w.u32(n_packs);
  put_vec3(w, u.bbox_min);
  put_vec3(w, u.bbox_max);
  put_vec3(w, u.position);
  w.s32(u.parent);
  put_ptr(w, layout, packs);
  for (auto p : u.pad) put_ptr(w, layout, p);
}

struct PacketPointers {
  std::uint64_t verts, norms, uvs[3], rgbs;
};

void put_packet(ByteWriter& w, const KmsPacket& p, Layout layout, const PacketPointers& ptrs) {
  w.u32(p.flag);
  w.u32(p.n_verts);
  detail::put_tex_ids(w, layout, p.tex_id, p.tex_pad);
  put_ptr(w, layout, ptrs.verts);
  put_ptr(w, layout, ptrs.norms);
  for (auto u : ptrs.uvs) put_ptr(w, layout, u);
  put_ptr(w, layout, ptrs.rgbs);
  put_ptr(w, layout, p.pad);
  if (layout == Layout::mc) w.u64(p.pad2);
}

}  // namespace

std::vector<std::uint8_t> write_kms(const KmsFile& m) {
  std::vector<std::uint8_t> out = detail::file_with_gaps(m.file_size, m.gaps);
  std::vector<std::uint8_t> tmp;
  ByteWriter w(tmp);
  put_header(w, m.header, m.layout, m.header.n_x_models);
  detail::place(out, 0, tmp);
  for (const auto& u : m.units) {
    tmp.clear();
    put_unit(w, u, m.layout, u.n_packs, u.packs);
    detail::place(out, u.file_offset, tmp);
    for (const auto& p : u.packets) {
      tmp.clear();
      put_packet(w, p, m.layout, {p.verts.pointer, p.norms.pointer, {p.uvs[0].pointer, p.uvs[1].pointer, p.uvs[2].pointer}, p.rgbs});
      detail::place(out, p.file_offset, tmp);
      detail::put_at(out, p.verts.pointer, p.verts.data);
      detail::put_at(out, p.norms.pointer, p.norms.data);
      for (const auto& uv : p.uvs) detail::put_at(out, uv.pointer, uv.data);
    }
  }
  return out;
}

namespace {

bool uv_present(const ArrayRef& a) { return a.present() || !a.data.empty(); }

void check_packet_for_build(const KmsFile& m, const KmsPacket& p, std::size_t ui, std::size_t pi) {
  const std::string path = "unit " + std::to_string(ui) + " packet " + std::to_string(pi);
  const std::uint64_t n = p.vertex_count();
  if (n > m.packet_vertex_limit()) {
    fail(p.file_offset + 4, path + " n_verts", "too many vertices for one packet",
         "at most " + std::to_string(m.packet_vertex_limit()), std::to_string(n));
  }
  auto check = [&](const ArrayRef& a, std::uint64_t size, const char* what) {
    if (a.data.size() != size) {
      fail(p.file_offset, path + " " + what, "array size does not match n_verts", std::to_string(size) + " bytes",
           std::to_string(a.data.size()) + " bytes");
    }
  };
  check(p.verts, n * 8, "vertices");
  check(p.norms, n * 8, "normals");
  static const char* const kUv[3] = {"uv0", "uv1", "uv2"};
  for (int i = 0; i < 3; ++i) {
    if (uv_present(p.uvs[i])) check(p.uvs[i], n * 4, kUv[i]);
  }
}

// `header` replaces m.header (a layout conversion may clear pads the target cannot hold).
std::vector<std::uint8_t> build(const KmsFile& m, const KmsHeader& header, Layout layout) {
  if (layout == Layout::mc && header.pad[2] != 0) {
    fail(0x18, "header pad", "this pad lands at 0x0C in the Master Collection layout, where it must be 0",
         "0", hex(header.pad[2]));
  }
  const std::size_t unit_size = kms_unit_size(layout);
  const std::size_t pack_size = kms_packet_size(layout);
  std::uint64_t pos = kKmsHeaderSize + m.units.size() * unit_size;
  std::vector<std::uint64_t> table(m.units.size());
  for (std::size_t i = 0; i < m.units.size(); ++i) {
    table[i] = m.units[i].packets.empty() ? 0 : pos;
    pos += m.units[i].packets.size() * pack_size;
    for (std::size_t j = 0; j < m.units[i].packets.size(); ++j) check_packet_for_build(m, m.units[i].packets[j], i, j);
  }
  // Arrays grouped by attribute across all packets, in the spec's order.
  std::vector<PacketPointers> ptrs;
  for (const auto& u : m.units) ptrs.resize(ptrs.size() + u.packets.size(), PacketPointers{});
  auto assign = [&](auto get, auto present, auto set) {
    std::size_t k = 0;
    for (const auto& u : m.units) {
      for (const auto& p : u.packets) {
        const ArrayRef& a = get(p);
        if (present(a)) {
          pos = detail::align16(pos);
          set(ptrs[k], pos);
          pos += a.data.size();
        }
        ++k;
      }
    }
  };
  auto always = [](const ArrayRef&) { return true; };
  assign([](const KmsPacket& p) -> const ArrayRef& { return p.verts; }, always,
         [](PacketPointers& q, std::uint64_t v) { q.verts = v; });
  assign([](const KmsPacket& p) -> const ArrayRef& { return p.norms; }, always,
         [](PacketPointers& q, std::uint64_t v) { q.norms = v; });
  for (int s = 0; s < 3; ++s) {
    assign([s](const KmsPacket& p) -> const ArrayRef& { return p.uvs[s]; }, uv_present,
           [s](PacketPointers& q, std::uint64_t v) { q.uvs[s] = v; });
  }
  const std::uint64_t total = detail::built_size(pos, layout);

  std::vector<std::uint8_t> out;
  out.reserve(total);
  ByteWriter w(out);
  put_header(w, header, layout, static_cast<std::uint32_t>(m.units.size()));
  for (std::size_t i = 0; i < m.units.size(); ++i) {
    put_unit(w, m.units[i], layout, static_cast<std::uint32_t>(m.units[i].packets.size()), table[i]);
  }
  std::size_t k = 0;
  for (const auto& u : m.units) {
    for (const auto& p : u.packets) put_packet(w, p, layout, ptrs[k++]);
  }
  out.resize(total, 0);
  k = 0;
  for (const auto& u : m.units) {
    for (const auto& p : u.packets) {
      const PacketPointers& q = ptrs[k++];
      detail::put_at(out, q.verts, p.verts.data);
      detail::put_at(out, q.norms, p.norms.data);
      for (int s = 0; s < 3; ++s) {
        if (q.uvs[s] != 0) detail::put_at(out, q.uvs[s], p.uvs[s].data);
      }
    }
  }
  return out;
}

}  // namespace

Result<std::vector<std::uint8_t>> build_kms(const KmsFile& model, Layout layout) {
  return catch_parse_errors([&] { return build(model, model.header, layout); });
}

Result<std::vector<std::uint8_t>> convert_kms_layout(const KmsFile& model, Layout layout, Diagnostics* warnings) {
  KmsHeader header = model.header;
  // The PS2 header's third pad (0x18) would land at 0x0C in the Master Collection layout, where
  // a non-zero dword means "PS2" to every reader: it has no place there and is dropped.
  if (model.layout == Layout::ps2 && layout == Layout::mc && header.pad[2] != 0) {
    if (warnings != nullptr)
      warnings->add(Severity::warning, 0x18, "header pad",
                    "PS2 header pad has no place in the Master Collection header; written as 0 (converting back "
                    "to PS2 does not restore it)",
                    "0", hex(header.pad[2]));
    header.pad[2] = 0;
  }
  return catch_parse_errors([&] { return build(model, header, layout); });
}

}  // namespace boneyard::mgs2
