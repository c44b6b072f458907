#include <algorithm>
#include <cstdio>
#include <string>

#include "boneyard/mgs2/kms/kms.h"
#include "mgs2/dump_helpers.h"
#include "boneyard/mgs2/kms/kms_report.h"

namespace boneyard::mgs2 {

namespace {

using detail::json_texture;
using detail::json_vec3;

std::string format_name(std::uint32_t f) {
  switch (f) {
    case kKmsNorm: return "NORM";
    case kKmsMultitex: return "MULTITEX";
    case kKmsNormA: return "NORM_A";
    case kKmsMultitexA: return "MULTITEX_A";
    default: return "unknown";
  }
}

void dump_packet(JsonWriter& w, const KmsPacket& p, bool raw, const TextureNames* names) {
  const std::size_t n = p.vertex_count();
  w.begin_object();
  w.field("flag", static_cast<std::uint64_t>(p.flag));
  w.key("tex_ids").begin_array();
  for (auto id : p.tex_id) json_texture(w, id, names);
  w.end_array();
  w.key("vertices");
  if (!p.verts.present()) {
    w.null();
  } else if (raw) {
    detail::json_s16_records(w, p.verts.data, n, 8, 4, true, 1.0f);
  } else {
    w.begin_array();
    for (std::size_t i = 0; i < n; ++i) {
      w.begin_array();
      // Positions are whole model units: printed as integers (the same JSON number, faster).
      for (int c = 0; c < 3; ++c) w.value(static_cast<std::int64_t>(s16_at(p.verts.data, i, static_cast<std::size_t>(c))));
      w.value(fixed_1_3_12(s16_at(p.verts.data, i, 3)));
      w.end_array();
    }
    w.end_array();
  }
  w.key("normals");
  if (!p.norms.present()) {
    w.null();
  } else {
    detail::json_s16_records(w, p.norms.data, n, 8, raw ? 4 : 3, raw, 1.0f / 4096.0f);
  }
  w.key("uvs").begin_array();
  for (const auto& uv : p.uvs) {
    if (!uv.present()) {
      w.null();
    } else {
      detail::json_s16_records(w, uv.data, n, 4, 2, raw, 1.0f / 4096.0f);
    }
  }
  w.end_array();
  w.key("triangles");
  detail::json_triangles(w, p.norms.data, p.norms.data.size() / 8);
  w.end_object();
}

}  // namespace

std::string describe_kms(const KmsFile& m, const TextureNames* names) {
  const KmsHeader& h = m.header;
  std::string s;
  char b[256];
  std::snprintf(b, sizeof b, "format: kms (MGS2 DG_DEF), layout %s (%s)\n", std::string(layout_name(m.layout)).c_str(),
                m.layout == Layout::ps2 ? "PS2, 32-bit" : "Master Collection, 64-bit");
  s += b;
  std::snprintf(b, sizeof b, "data_format: 0x%08X = %s, flag byte 0x%02X%s\n", h.data_format,
                format_name(m.format()).c_str(), m.format_flags(),
                m.format_flags() == 1 ? " (indexed)" : "");
  s += b;
  s += "texture: " + detail::texture_text(h.texture, names) + "\n";
  std::size_t packets = 0, verts = 0, tris = 0, max_verts = 0;
  for (const auto& u : m.units) {
    for (const auto& p : u.packets) {
      ++packets;
      verts += p.vertex_count();
      max_verts = std::max<std::size_t>(max_verts, p.vertex_count());
      tris += count_strip_triangles(p.norms.data, p.norms.data.size() / 8);
    }
  }
  std::snprintf(b, sizeof b,
                "units: %zu (%u regular, %zu extended), packets: %zu, vertices: %zu, triangles: %zu, "
                "largest packet: %zu of %u vertices\n",
                m.units.size(), h.n_models, m.units.size() - std::min<std::size_t>(h.n_models, m.units.size()),
                packets, verts, tris, max_verts, m.packet_vertex_limit());
  s += b;
  s += "bbox: " + detail::vec_str(h.bbox_min) + " .. " + detail::vec_str(h.bbox_max) +
       ", position: " + detail::vec_str(h.position) + "\n";
  s += "  unit  type    parent  packets  vertices  triangles  position\n";
  std::vector<std::uint32_t> textures;
  for (std::size_t i = 0; i < m.units.size(); ++i) {
    const KmsUnit& u = m.units[i];
    std::size_t v = 0, t = 0;
    for (const auto& p : u.packets) {
      v += p.vertex_count();
      t += count_strip_triangles(p.norms.data, p.norms.data.size() / 8);
      for (auto id : p.tex_id) {
        if (id != 0 && std::find(textures.begin(), textures.end(), id) == textures.end()) textures.push_back(id);
      }
    }
    std::snprintf(b, sizeof b, "  %4zu  0x%04X  %6d  %7zu  %8zu  %9zu  %s%s\n", i, u.type, u.parent, u.packets.size(),
                  v, t, detail::vec_str(u.position).c_str(), (u.type & kUnitExtend) != 0 ? "  extended" : "");
    s += b;
  }
  s += "packet textures:";
  for (auto id : textures) s += " " + detail::texture_text(id, names);
  s += textures.empty() ? " none\n" : "\n";
  return s;
}

void dump_kms(JsonWriter& w, const KmsFile& m, bool raw, const TextureNames* names) {
  const KmsHeader& h = m.header;
  w.begin_object();
  w.field("format", "kms").field("layout", layout_name(m.layout));
  w.field("data_format", static_cast<std::uint64_t>(h.data_format));
  w.field("n_models", static_cast<std::uint64_t>(h.n_models)).field("n_x_models", static_cast<std::uint64_t>(h.n_x_models));
  w.key("texture");
  json_texture(w, h.texture, names);
  w.key("bbox_min");
  json_vec3(w, h.bbox_min);
  w.key("bbox_max");
  json_vec3(w, h.bbox_max);
  w.key("position");
  json_vec3(w, h.position);
  w.key("units").begin_array();
  for (const auto& u : m.units) {
    w.begin_object();
    w.field("type", static_cast<std::uint64_t>(u.type)).field("parent", static_cast<std::int64_t>(u.parent));
    w.key("position");
    json_vec3(w, u.position);
    w.key("bbox_min");
    json_vec3(w, u.bbox_min);
    w.key("bbox_max");
    json_vec3(w, u.bbox_max);
    w.key("packets").begin_array();
    for (const auto& p : u.packets) dump_packet(w, p, raw, names);
    w.end_array();
    w.end_object();
    w.newline();
  }
  w.end_array();
  w.end_object();
}

int sniff_kms(Bytes bytes, std::string_view extension) {
  if (bytes.size() < kKmsHeaderSize) return 0;
  const std::uint32_t df = load_le<std::uint32_t>(bytes.data());
  const std::uint32_t f = df & kDataFormatMask;
  const bool known = f == kKmsNorm || f == kKmsMultitex || f == kKmsNormA || f == kKmsMultitexA;
  if (extension == ".kms") return known ? 90 : 10;  // let the validator explain an unknown format
  return known && (df >> 24) <= 1 ? 80 : 0;
}

}  // namespace boneyard::mgs2
