// What `info` and `dump` show of an .object.
#include <cstdio>

#include "boneyard/core/text.h"
#include "boneyard/xray/bones/bones_report.h"
#include "boneyard/xray/object/object_report.h"
#include "boneyard/xray/skl/skl_report.h"

namespace boneyard::xray {

namespace {

void object_vec3(JsonWriter& out, std::string_view key, const Vec3& v) {
  out.key(key).begin_array().value(v.x).value(v.y).value(v.z).end_array();
}

std::string text_of(const std::string& raw) { return cp1251_to_utf8(raw); }

void dump_mesh_arrays(JsonWriter& out, const ObjectMesh& m) {
  out.key("points").begin_array();
  for (std::size_t i = 0; i < m.point_count; ++i) {
    const Vec3 p = m.point(i);
    out.begin_array().value(p.x).value(p.y).value(p.z).end_array();
  }
  out.end_array().key("faces").begin_array();
  for (std::size_t f = 0; f < m.face_count; ++f) {
    out.begin_array();
    for (int k = 0; k < 3; ++k) out.begin_array().value(std::uint64_t{m.corner_point(f, k)}).value(std::uint64_t{m.corner_vmref(f, k)}).end_array();
    out.end_array();
  }
  out.end_array();
  if (m.has_smoothing) {
    out.key("smoothing_groups").begin_array();
    for (std::size_t f = 0; f < m.face_count && 4 * f + 4 <= m.smoothing.size(); ++f) out.value(std::uint64_t{m.smoothing_group(f)});
    out.end_array();
  }
  out.key("vmrefs").begin_array();
  for (std::size_t r = 0; r < m.vmref_count; ++r) {
    out.begin_array();
    for (std::size_t k = 0; k < m.vmref_size(r); ++k) {
      const VmrefEntry e = m.vmref_entry(r, k);
      out.begin_array().value(std::int64_t{e.vmap}).value(std::int64_t{e.index}).end_array();
    }
    out.end_array();
  }
  out.end_array();
}

void dump_mesh(JsonWriter& out, const ObjectFile& f, const ObjectMesh& m, bool raw) {
  out.begin_object().field("chunk", m.path()).field("name", text_of(m.name));
  if (!m.readable) {
    out.field("error", m.readable.error().message + (m.readable.error().path.empty() ? "" : " in " + m.readable.error().path));
    out.end_object();
    return;
  }
  out.field("version", unsigned{m.version});
  if (m.flags) out.field("flags", unsigned{*m.flags});
  if (m.options) out.key("options").begin_array().value(std::uint64_t{(*m.options)[0]}).value(std::uint64_t{(*m.options)[1]}).end_array();
  if (m.bbox) {
    out.key("bbox").begin_array();
    for (float v : *m.bbox) out.value(v);
    out.end_array();
  }
  out.field("points", std::uint64_t{m.point_count}).field("faces", std::uint64_t{m.face_count});
  out.field("vmrefs", std::uint64_t{m.vmref_count}).field("smoothing", m.has_smoothing);
  out.field("split_normals", !m.normals.empty());
  out.key("surfaces").begin_array();
  for (const auto& s : m.surfaces) out.begin_object().field("surface", text_of(s.surface)).field("faces", std::uint64_t{s.count}).end_object();
  out.end_array().field("vmaps_chunk", hex(m.vmaps_chunk)).key("vmaps").begin_array();
  for (const auto& v : m.vmaps) {
    out.begin_object().field("name", text_of(v.name)).field("type", v.is_uv() ? "uv" : v.is_weight() ? "weight" : "unknown");
    out.field("type_byte", unsigned{v.type}).field("dim", unsigned{v.dim}).field("discontinuous", v.polymap != 0);
    out.field("size", std::uint64_t{v.size});
    if (raw) {
      out.field("offset", std::uint64_t{v.offset}).key("values").begin_array();
      for (std::size_t i = 0; i < std::size_t{v.size} * v.dim; ++i) out.value(v.value(i / v.dim, i % v.dim));
      out.end_array();
      if (!v.points.empty()) {
        out.key("points").begin_array();
        for (std::size_t i = 0; i < v.size; ++i) out.value(std::int64_t{v.point(i)});
        out.end_array();
      }
      if (!v.faces.empty()) {
        out.key("faces").begin_array();
        for (std::size_t i = 0; i < v.size; ++i) out.value(std::int64_t{v.face(i)});
        out.end_array();
      }
    }
    out.end_object();
  }
  out.end_array();
  if (raw) {
    out.field("offset", std::uint64_t{m.offset});
    dump_mesh_arrays(out, m);
  }
  (void)f;
  out.end_object();
}

}  // namespace

std::string describe_object(const ObjectFile& f) {
  std::string s = "  format: X-Ray SDK object (.object v" + (f.version ? std::to_string(*f.version) : std::string("?")) + "), " +
                  std::to_string(f.size) + " bytes" + (f.compressed ? ", LZHuf-compressed body (" + std::to_string(f.body.size()) + " bytes unpacked)" : "") +
                  ", " + std::to_string(f.chunks.chunks.size()) + " chunks\n";
  if (f.flags) {
    s += "  flags: " + hex(*f.flags);
    static constexpr const char* kNames[] = {"dynamic", "progressive", "using LOD", "HOM", "multiple usage", "sound occluder", "HQ export"};
    for (int b = 0; b < 7; ++b)
      if (*f.flags & (1u << b)) s += std::string(" ") + kNames[b];
    s += "\n";
  }
  bool decided = false;
  const SmoothingStyle style = detect_smoothing(f, &decided);
  std::size_t points = 0, faces = 0;
  for (const auto& m : f.meshes) points += m.point_count, faces += m.face_count;
  s += "  meshes: " + std::to_string(f.meshes.size()) + " (" + std::to_string(points) + " points, " + std::to_string(faces) +
       " faces), smoothing groups in the " + (style == SmoothingStyle::soc ? "SoC" : "CS/CoP") + " style" +
       (decided ? "" : " (assumed: the values fit both)") + "\n";
  for (const auto& m : f.meshes) {
    s += "  " + m.path() + " " + printable(m.name) + ": ";
    if (!m.readable) {
      s += "unreadable: " + m.readable.error().message + " (" + m.readable.error().path + ")\n";
      continue;
    }
    std::size_t uv = 0, weights = 0;
    for (const auto& v : m.vmaps) (v.is_uv() ? uv : weights) += 1;
    s += std::to_string(m.point_count) + " points, " + std::to_string(m.face_count) + " faces, " + std::to_string(m.vmref_count) +
         " vmrefs, " + std::to_string(uv) + " UV map(s), " + std::to_string(weights) + " weight map(s), " +
         std::to_string(m.surfaces.size()) + " surface(s)" + (m.sg_mask() ? ", SG mask" : "") + "\n";
  }
  s += "  surfaces (" + hex(f.surfaces_chunk) + "): " + std::to_string(f.surfaces.size()) + "\n";
  for (const auto& x : f.surfaces)
    s += "    " + printable(x.name) + ": texture " + printable(x.texture) + ", shader " + printable(x.shader) + ", compiler " +
         printable(x.compiler_shader) + ", material " + printable(x.game_mtl) + (x.two_sided() ? ", two-sided" : "") + "\n";
  if (!f.bones.empty()) {
    s += "  bones (" + hex(f.bones_chunk) + "): " + std::to_string(f.bones.size()) + "\n" + describe_bone_list(f.bones);
  }
  if (f.parts) s += "  bone parts (" + hex(f.parts->chunk) + "): " + std::to_string(f.parts->parts.size()) + "\n";
  if (f.motion_refs_chunk) {
    s += "  motion refs (" + hex(f.motion_refs_chunk) + "):";
    for (const auto& r : f.motion_refs) s += " " + printable(r);
    s += "\n";
  }
  if (f.motion_count) {
    s += "  embedded motions (0x916): " + std::to_string(*f.motion_count) + "\n";
    if (!f.motions_error) s += "    unreadable: " + f.motions_error.error().message + " (" + f.motions_error.error().path + ")\n";
    else s += describe_skl_motions(f.motions);
  }
  if (f.user_data && !f.user_data->empty()) s += "  user data: " + std::to_string(f.user_data->size()) + " bytes\n";
  if (f.lod_ref && !f.lod_ref->empty()) s += "  LOD reference: " + printable(*f.lod_ref) + "\n";
  if (f.description && f.description->parsed)
    s += "  description: created by " + printable(f.description->creator) + ", modified by " + printable(f.description->modifier) + "\n";
  return s;
}

void dump_object(JsonWriter& out, const ObjectFile& f, bool raw) {
  out.begin_object().field("format", "object");
  out.key("version");
  if (f.version) out.value(unsigned{*f.version}); else out.null();
  out.field("compressed", f.compressed);
  out.key("flags");
  if (f.flags) out.value(std::uint64_t{*f.flags}); else out.null();
  bool decided = false;
  out.field("smoothing_style", smoothing_style_name(detect_smoothing(f, &decided))).field("smoothing_style_decided", decided);
  out.key("user_data");
  if (f.user_data) out.value(text_of(*f.user_data)); else out.null();
  out.key("lod_ref");
  if (f.lod_ref) out.value(text_of(*f.lod_ref)); else out.null();
  out.field("surfaces_chunk", hex(f.surfaces_chunk)).key("surfaces").begin_array();
  for (const auto& s : f.surfaces) {
    out.begin_object().field("name", text_of(s.name)).field("shader", text_of(s.shader)).field("compiler_shader", text_of(s.compiler_shader));
    out.field("game_mtl", text_of(s.game_mtl)).field("texture", text_of(s.texture)).field("vmap", text_of(s.vmap));
    out.field("flags", std::uint64_t{s.flags}).field("two_sided", s.two_sided()).field("fvf", std::uint64_t{s.fvf});
    out.field("tc_count", std::uint64_t{s.tc_count});
    if (raw) out.field("offset", std::uint64_t{s.offset});
    out.end_object();
  }
  out.end_array().key("meshes").begin_array();
  for (const auto& m : f.meshes) dump_mesh(out, f, m, raw);
  out.end_array();
  out.key("bones_chunk");
  if (f.bones_chunk) out.value(hex(f.bones_chunk)); else out.null();
  out.key("bones").begin_array();
  for (const auto& b : f.bones) dump_bone_data(out, b, raw);
  out.end_array().key("parts");
  if (f.parts) dump_bone_parts(out, *f.parts); else out.null();
  out.key("motion_refs");
  if (f.motion_refs_chunk) {
    out.begin_object().field("chunk", hex(f.motion_refs_chunk)).key("refs").begin_array();
    for (const auto& r : f.motion_refs) out.value(text_of(r));
    out.end_array().end_object();
  } else {
    out.null();
  }
  out.key("motion_count");
  if (f.motion_count) out.value(std::uint64_t{*f.motion_count}); else out.null();
  out.key("motions").begin_array();
  for (const auto& m : f.motions) dump_skl_motion(out, m, raw);
  out.end_array();
  out.key("actor_transform");
  if (f.actor_transform) {
    out.begin_object();
    object_vec3(out, "position", (*f.actor_transform)[0]);
    object_vec3(out, "rotation", (*f.actor_transform)[1]);
    out.end_object();
  } else {
    out.null();
  }
  out.key("description");
  if (f.description && f.description->parsed) {
    const auto& d = *f.description;
    out.begin_object().field("creator", text_of(d.creator)).field("create_time", std::uint64_t{d.create_time});
    out.field("modifier", text_of(d.modifier)).field("modify_time", std::uint64_t{d.modify_time});
    out.field("time_size", unsigned{d.time_size}).end_object();
  } else {
    out.null();
  }
  if (raw) {
    out.key("chunks").begin_array();
    for (const auto& c : f.chunks.chunks)
      out.begin_object().field("id", hex(c.raw_id)).field("offset", std::uint64_t{c.offset}).field("size", std::uint64_t{c.payload.size()}).end_object();
    out.end_array();
  }
  out.end_object();
}

int sniff_object(Bytes bytes, std::string_view extension) {
  if (!looks_like_object(bytes)) return 0;
  return extension == ".object" ? 90 : 80;
}

}  // namespace boneyard::xray
