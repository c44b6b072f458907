#include <algorithm>
#include <cstdio>
#include <string>

#include "boneyard/mgs2/evm/evm.h"
#include "mgs2/dump_helpers.h"
#include "boneyard/mgs2/evm/evm_report.h"

namespace boneyard::mgs2 {

namespace {

using detail::json_texture;
using detail::json_vec3;
using detail::json_vec4;

void dump_packet(JsonWriter& w, const EvmFile& m, const EvmPacket& p, bool raw, const TextureNames* names) {
  const std::size_t n = p.vertex_count();
  w.begin_object();
  w.field("flag", static_cast<std::uint64_t>(p.flag));
  w.key("tex_ids").begin_array();
  for (auto id : p.tex_id) json_texture(w, id, names);
  w.end_array();
  w.field("n_mats", static_cast<std::uint64_t>(p.n_mats));
  w.key("mat_ids").begin_array();
  for (auto id : p.mat_id) w.value(static_cast<std::uint64_t>(id));
  w.end_array();
  w.key("vertices");
  if (!p.verts.present()) {
    w.null();
  } else {
    detail::json_s16_records(w, p.verts.data, n, 8, raw ? 4 : 3, raw, m.position_scale());
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
      detail::json_s16_records(w, uv.data, n, 8, raw ? 4 : 2, raw, 1.0f / 4096.0f);
    }
  }
  w.end_array();
  w.key("weights");
  if (!p.weights.present()) {
    w.null();
  } else {
    w.begin_array();
    std::array<EvmInfluence, 8> inf;
    for (std::size_t v = 0; v < n; ++v) {
      w.begin_array();
      if (raw) {
        for (std::size_t k = 0; k < 8; ++k) w.value(static_cast<std::uint64_t>(p.weights.data[v * 8 + k]));
      } else {
        const std::size_t ni = evm_influences(m, p, v, inf);
        for (std::size_t k = 0; k < ni; ++k) {
          w.begin_array().value(static_cast<std::int64_t>(inf[k].joint)).value(inf[k].weight).end_array();
        }
      }
      w.end_array();
    }
    w.end_array();
  }
  w.key("triangles");
  detail::json_triangles(w, p.verts.data, p.verts.data.size() / 8);
  w.end_object();
}

}  // namespace

std::string describe_evm(const EvmFile& m, const TextureNames* names) {
  const EvmHeader& h = m.header;
  std::string s;
  char b[256];
  std::snprintf(b, sizeof b, "format: evm (MGS2 EVM_DEF), layout %s (%s)\n", std::string(layout_name(m.layout)).c_str(),
                m.layout == Layout::ps2 ? "PS2, 32-bit" : "Master Collection, 64-bit");
  s += b;
  std::snprintf(b, sizeof b, "type: 0x%08X (positions %s, weights %s)\n", h.type,
                m.large() ? "1.15.0 LARGE" : "1.11.4, /16", m.weights_v2() ? "v2: 4 + palette" : "v1: 8 per matrix");
  s += b;
  s += "texture: " + detail::texture_text(h.texture, names) + "\n";
  std::size_t verts = 0, tris = 0, max_verts = 0, max_mats = 0;
  std::vector<std::uint32_t> textures;
  for (const auto& p : m.packets) {
    verts += p.vertex_count();
    max_verts = std::max<std::size_t>(max_verts, p.vertex_count());
    max_mats = std::max<std::size_t>(max_mats, p.n_mats);
    tris += count_strip_triangles(p.verts.data, p.verts.data.size() / 8);
    for (auto id : p.tex_id) {
      if (id != 0 && std::find(textures.begin(), textures.end(), id) == textures.end()) textures.push_back(id);
    }
  }
  std::snprintf(b, sizeof b,
                "joints: %zu (%u regular, %zu extended), packets: %zu, vertices: %zu, triangles: %zu, "
                "largest packet: %zu of 32 vertices, most matrices: %zu of 8\n",
                m.bones.size(), h.n_models, m.bones.size() - std::min<std::size_t>(h.n_models, m.bones.size()),
                m.packets.size(), verts, tris, max_verts, max_mats);
  s += b;
  s += "bbox: " + detail::vec_str(h.bbox_min) + " .. " + detail::vec_str(h.bbox_max) + "\n";
  s += "  joint  flag        parent  offset                 root offset\n";
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    const EvmBone& bone = m.bones[i];
    std::snprintf(b, sizeof b, "  %5zu  0x%08X  %6d  %-22s %s\n", i, bone.flag, bone.parent,
                  detail::vec_str(bone.translation).c_str(), detail::vec_str(bone.root_offset).c_str());
    s += b;
  }
  s += "packet textures:";
  for (auto id : textures) s += " " + detail::texture_text(id, names);
  s += textures.empty() ? " none\n" : "\n";
  return s;
}

void dump_evm(JsonWriter& w, const EvmFile& m, bool raw, const TextureNames* names) {
  const EvmHeader& h = m.header;
  w.begin_object();
  w.field("format", "evm").field("layout", layout_name(m.layout));
  w.field("n_models", static_cast<std::uint64_t>(h.n_models)).field("n_x_models", static_cast<std::uint64_t>(h.n_x_models));
  w.field("type", static_cast<std::uint64_t>(h.type));
  w.key("texture");
  json_texture(w, h.texture, names);
  w.key("bbox_min");
  json_vec3(w, h.bbox_min);
  w.key("bbox_max");
  json_vec3(w, h.bbox_max);
  w.key("bones").begin_array();
  for (const auto& b : m.bones) {
    w.begin_object();
    w.field("flag", static_cast<std::uint64_t>(b.flag)).field("parent", static_cast<std::int64_t>(b.parent));
    w.key("offset");
    json_vec3(w, b.translation);
    w.key("root_offset");
    json_vec3(w, b.root_offset);
    w.key("bbox_min");
    json_vec4(w, b.box_min);
    w.key("bbox_max");
    json_vec4(w, b.box_max);
    w.end_object();
  }
  w.end_array();
  w.key("packets").begin_array();
  for (const auto& p : m.packets) {
    dump_packet(w, m, p, raw, names);
    w.newline();
  }
  w.end_array();
  w.end_object();
}

int sniff_evm(Bytes bytes, std::string_view extension) {
  const auto layout = detect_evm_layout(bytes);
  if (!layout) return extension == ".evm" ? 5 : 0;  // let the reader explain
  const std::uint32_t n_models = load_le<std::uint32_t>(bytes.data());
  const std::uint32_t n_x = load_le<std::uint32_t>(bytes.data() + 4);
  // mat_id is a byte and 0xFF means unused: no more than 255 joints.
  if (n_x > 255 || n_models > n_x) return extension == ".evm" ? 5 : 0;
  // With its extension, a structurally valid EVM beats an OGF guess (an EVM whose first two
  // dwords are 1, 1 also looks like an OGF header chunk).
  return extension == ".evm" ? 85 : 30;
}

}  // namespace boneyard::mgs2
