// .cmdl value encodings (half floats, packed normals) and the big-endian writers of the header,
// section entries and tail, shared by the lossless writer and the derivation.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "cmdl_internal.h"

namespace boneyard::mgs2 {

std::array<float, 3> unpack_normal(std::uint32_t packed) {
  const auto field = [](std::uint32_t v, int bits) {
    const std::int32_t s = static_cast<std::int32_t>(v << (32 - bits)) >> (32 - bits);  // sign-extend
    return s;
  };
  return {float(field(packed & 0x7FF, 11)) / 1023.0f, float(field((packed >> 11) & 0x7FF, 11)) / 1023.0f,
          float(field(packed >> 22, 10)) / 511.0f};
}

std::uint32_t pack_normal(double x, double y, double z) {
  const auto q = [](double v, double scale) {
    const long r = std::lround(std::isfinite(v) ? v * scale : 0.0);
    return static_cast<std::int32_t>(std::clamp<long>(r, -long(scale), long(scale)));
  };
  const std::int32_t nx = q(x, 1023), ny = q(y, 1023), nz = q(z, 511);
  return (std::uint32_t(nx) & 0x7FF) | ((std::uint32_t(ny) & 0x7FF) << 11) | ((std::uint32_t(nz) & 0x3FF) << 22);
}

namespace detail {

void put_cmdl_header(std::vector<std::uint8_t>& out, const std::array<std::uint8_t, 4>& magic, std::uint32_t version,
                     std::uint32_t tail_offset, std::uint32_t n_sections) {
  out.insert(out.end(), magic.begin(), magic.end());
  put_be32(out, version);
  put_be32(out, tail_offset);
  put_le32(out, n_sections);
}

void put_cmdl_entry(std::vector<std::uint8_t>& out, const std::array<char, 4>& tag, std::uint16_t format,
                    std::uint16_t field_06, std::uint32_t offset, std::uint32_t pad, std::uint32_t size,
                    const std::array<std::uint32_t, 3>& pad2) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(tag[std::size_t(i)]));
  put_le16(out, format);
  put_le16(out, field_06);
  put_le32(out, offset);
  put_le32(out, pad);
  put_le32(out, size);
  for (auto p : pad2) put_le32(out, p);
}

void put_cmdl_mesh(std::vector<std::uint8_t>& out, const CmdlMesh& m) {
  for (const Vec3* v : {&m.bbox_min, &m.bbox_max}) {
    put_be_f32(out, v->x);
    put_be_f32(out, v->y);
    put_be_f32(out, v->z);
  }
  const auto f18 = static_cast<std::uint16_t>(m.field_18);
  out.push_back(static_cast<std::uint8_t>(f18 >> 8));
  out.push_back(static_cast<std::uint8_t>(f18));
  out.push_back(m.field_1a);
  for (auto v : {m.start_vertex, m.vertex_count, m.start_index, m.index_count, static_cast<std::uint32_t>(m.bones.size())})
    put_be32(out, v);
  for (auto b : m.bones) put_be32(out, b);
  out.insert(out.end(), m.field_80.begin(), m.field_80.end());
  for (auto v : {m.field_pre, m.mesh, m.sub_mesh}) put_be32(out, v);
}

void put_cmdl_tail(std::vector<std::uint8_t>& out, std::uint32_t n_indices, Bytes indices, std::uint32_t pad,
                   std::uint32_t n_meshes, const std::vector<CmdlMesh>& meshes, bool with_indices) {
  if (with_indices) {
    put_be32(out, n_indices);
    out.insert(out.end(), indices.begin(), indices.end());
  }
  put_be32(out, pad);
  put_be32(out, n_meshes);
  for (const auto& m : meshes) put_cmdl_mesh(out, m);
}

std::string quoted_bytes(Bytes b) {
  std::string s = "\"";
  for (auto c : b) {
    if (c < 0x20 || c > 0x7E) {
      std::string h;
      for (auto x : b) h += hex(x).substr(2) + " ";
      return h.substr(0, h.size() - 1);
    }
    s += static_cast<char>(c);
  }
  return s + "\"";
}

std::string tag_label(const CmdlSection& s) {
  const bool text = std::all_of(s.tag.begin(), s.tag.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
  if (text) return std::string(s.tag_text());
  std::string h;
  for (char c : s.tag) {
    static constexpr char digits[] = "0123456789ABCDEF";
    const auto x = static_cast<std::uint8_t>(c);
    if (!h.empty()) h += ' ';
    h += digits[x >> 4];
    h += digits[x & 15];
  }
  return h;
}

}  // namespace detail

}  // namespace boneyard::mgs2
