// What `info` and `dump` show of an OGF model: the skeleton, the meshes, the motion refs and the
// embedded motions.
#include <algorithm>
#include <cstdio>

#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf_report.h"
#include "boneyard/xray/ogf/ogf_report.h"
#include "boneyard/core/text.h"

namespace boneyard::xray {

namespace {

void vec3(JsonWriter& out, std::string_view key, const Vec3& v) {
  out.key(key).begin_array().value(v.x).value(v.y).value(v.z).end_array();
}

// Children (0x9): what each holds; with `raw`, offsets and every decoded vertex and index too.
void dump_meshes(JsonWriter& out, const OgfFile& file, bool raw) {
  out.key("meshes").begin_array();
  for (const auto& c : file.children) {
    out.begin_object().field("chunk", c.path()).field("type", unsigned{c.header.type});
    out.field("texture", cp1251_to_utf8(c.texture)).field("shader", cp1251_to_utf8(c.shader));
    if (!c.readable) out.field("error", c.readable.error().message + (c.readable.error().path.empty() ? "" : " in " + c.readable.error().path));
    if (c.vertices) {
      const auto& v = *c.vertices;
      out.field("vertex_format", std::uint64_t{v.format}).field("links", v.links());
      out.field("vertex_count", std::uint64_t{v.count}).field("stride", std::uint64_t{v.stride});
    }
    out.field("index_count", std::uint64_t{c.index_count});
    const auto [first, count] = c.full_detail();
    out.field("full_detail_triangles", std::uint64_t{count / 3});
    out.key("slide_windows").begin_array();
    for (const auto& w : c.windows)
      out.begin_object()
          .field("offset", std::uint64_t{w.offset})
          .field("triangles", unsigned{w.triangles})
          .field("vertices", unsigned{w.vertices})
          .end_object();
    out.end_array();
    if (raw) {
      out.field("offset", std::uint64_t{c.offset});
      if (c.vertices) {
        out.field("vertices_offset", std::uint64_t{c.vertices->offset}).key("vertices").begin_array();
        // Bounded by the bytes actually held: a broken child may have fewer than its count says.
        const std::size_t held = c.vertices->stride ? c.vertices->data.size() / c.vertices->stride : 0;
        for (std::size_t i = 0; i < std::min<std::size_t>(c.vertices->count, held); ++i) {
          const OgfVertex vx = decode_vertex(*c.vertices, i);
          out.begin_object();
          vec3(out, "position", vx.position);
          vec3(out, "normal", vx.normal);
          out.key("uv").begin_array().value(vx.u).value(vx.v).end_array();
          out.key("bones").begin_array();
          for (int k = 0; k < vx.links; ++k) out.value(unsigned{vx.bones[static_cast<std::size_t>(k)]});
          out.end_array().key("weights").begin_array();
          for (int k = 0; k < vx.links; ++k) out.value(vx.weights[static_cast<std::size_t>(k)]);
          out.end_array().end_object();
        }
        out.end_array();
      }
      out.field("indices_offset", std::uint64_t{c.indices_offset}).key("indices").begin_array();
      for (std::size_t i = 0; i < std::min<std::size_t>(c.index_count, c.indices.size() / 2); ++i)
        out.value(unsigned{c.index_at(i)});
      out.end_array();
    }
    out.end_object();
  }
  out.end_array();
}

std::string fmt(const char* f, double a, double b, double c) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

}  // namespace

std::string describe_ogf(const OgfFile& file) {
  std::string s = "  format: X-Ray model (.ogf v" + std::to_string(file.header.format_version) + ", type " +
                  std::to_string(file.header.type) + "), " + std::to_string(file.size) + " bytes, " +
                  std::to_string(file.chunks.chunks.size()) + " chunks\n";
  std::size_t roots = 0;
  for (const auto& b : file.bones) roots += b.parent_name.empty() ? 1 : 0;
  s += "  skeleton: " + std::to_string(file.bones.size()) + " bone(s), " + std::to_string(roots) + " root(s), " +
       (file.has_ik ? "IK data (bind pose) present" : "no IK data") + "\n";
  for (std::size_t i = 0; i < file.bones.size(); ++i) {
    const auto& b = file.bones[i];
    s += "  " + std::to_string(i) + " " + printable(b.name) + " <- " +
         (b.parent_name.empty() ? std::string("(root)") : printable(b.parent_name));
    if (b.ik)
      s += fmt("  bind pos (%.4g %.4g %.4g)", b.ik->bind_position.x, b.ik->bind_position.y, b.ik->bind_position.z) +
           fmt(" rot (%.4g %.4g %.4g)", b.ik->bind_rotation.x, b.ik->bind_rotation.y, b.ik->bind_rotation.z);
    s += "\n";
  }
  if (file.motion_refs_chunk != 0) {
    s += "  motion refs (" + hex(file.motion_refs_chunk) + "):";
    for (const auto& r : file.motion_refs) s += " " + printable(r);
    s += "\n";
  }
  if (!file.children.empty()) s += "  meshes: " + std::to_string(file.children.size()) + " child(ren)\n";
  for (const auto& c : file.children) {
    s += "  " + c.path() + " ";
    if (!c.readable) {
      s += "unreadable: " + c.readable.error().message + " (" + c.readable.error().path + ")\n";
      continue;
    }
    const auto [first, count] = c.full_detail();
    (void)first;
    s += "type " + std::to_string(c.header.type) + ", " + std::to_string(c.vertices->count) + " vertices (" +
         hex(c.vertices->format) + (c.vertices->links() ? ", " + std::to_string(c.vertices->links()) + " link(s)" : ", static") +
         "), " + std::to_string(count / 3) + " triangles" +
         (c.windows.empty() ? "" : " at full detail of " + std::to_string(c.index_count / 3)) + ", texture " +
         printable(c.texture) + ", shader " + printable(c.shader) + "\n";
  }
  if (file.user_data) s += "  user data: " + std::to_string(file.user_data->size()) + " bytes\n";
  if (file.description && file.description->parsed)
    s += "  description: source " + printable(file.description->source) + ", build " +
         printable(file.description->build) + ", created by " + printable(file.description->creator) +
         ", modified by " + printable(file.description->modifier) + "\n";
  if (file.motions)
    s += "  embedded motions:\n" + describe_motion_set(*file.motions);
  else
    s += "  no embedded motions\n";
  return s;
}

void dump_ogf(JsonWriter& out, const OgfFile& file, bool raw) {
  out.begin_object().field("format", "ogf");
  out.field("ogf_version", unsigned{file.header.format_version}).field("type", unsigned{file.header.type});
  out.key("bones").begin_array();
  for (const auto& b : file.bones) {
    out.begin_object().field("name", cp1251_to_utf8(b.name)).field("parent", cp1251_to_utf8(b.parent_name));
    if (b.ik) {
      const IkData& ik = *b.ik;
      out.key("ik").begin_object().field("version", unsigned{ik.version});
      out.field("game_mtl", cp1251_to_utf8(ik.game_mtl)).field("joint_type", unsigned{ik.joint.type});
      if (ik.joint.friction) out.field("friction", *ik.joint.friction);
      vec3(out, "bind_rotation", ik.bind_rotation);
      vec3(out, "bind_position", ik.bind_position);
      out.field("mass", ik.mass);
      vec3(out, "center_of_mass", ik.center_of_mass);
      out.end_object();
    }
    if (raw) {
      out.field("offset", std::uint64_t{b.offset});
      out.key("obb").begin_object();
      out.key("rotate").begin_array();
      for (float v : b.obb.rotate) out.value(v);
      out.end_array();
      vec3(out, "translate", b.obb.translate);
      vec3(out, "halfsize", b.obb.halfsize);
      out.end_object();
    }
    out.end_object();
  }
  out.end_array();
  out.key("motion_refs");
  if (file.motion_refs_chunk != 0) {
    out.begin_object().field("chunk", hex(file.motion_refs_chunk)).key("refs").begin_array();
    for (const auto& r : file.motion_refs) out.value(cp1251_to_utf8(r));
    out.end_array().end_object();
  } else {
    out.null();
  }
  out.key("user_data");
  if (file.user_data) out.value(cp1251_to_utf8(*file.user_data)); else out.null();
  out.key("description");
  if (file.description && file.description->parsed) {
    const auto& d = *file.description;
    out.begin_object().field("source", cp1251_to_utf8(d.source)).field("build", cp1251_to_utf8(d.build));
    out.field("build_time", unsigned{d.build_time}).field("creator", cp1251_to_utf8(d.creator));
    out.field("create_time", unsigned{d.create_time}).field("modifier", cp1251_to_utf8(d.modifier));
    out.field("modify_time", unsigned{d.modify_time}).end_object();
  } else {
    out.null();
  }
  dump_meshes(out, file, raw);
  out.key("motions");
  if (file.motions) {
    out.begin_object();
    dump_motion_set(out, *file.motions, raw);
    out.end_object();
  } else {
    out.null();
  }
  out.end_object();
}

int sniff_ogf(Bytes bytes, std::string_view extension) {
  if (!looks_like_ogf(bytes)) return 0;
  // A 4-byte header is OGF v3, a format of its own (sniff_ogf_v3).
  if (load_le<std::uint32_t>(bytes.data() + 4) == 4) return 0;
  return extension == ".ogf" ? 90 : 70;
}

}  // namespace boneyard::xray
