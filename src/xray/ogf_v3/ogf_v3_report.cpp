// What `info` and `dump` show of an OGF v3 model: its visuals, skeleton, IK layout, motions and
// refs. The dump keeps the v4 dump's keys where the content is the same (docs/json-schema.md).
#include <algorithm>
#include <cstdio>

#include "boneyard/core/text.h"
#include "boneyard/xray/ogf_v3/ogf_v3_report.h"
#include "ogf_v3_internal.h"
#include "ogf_v3_validate.h"

namespace boneyard::xray {

namespace ogf3 {

namespace {

void vec3(JsonWriter& out, std::string_view key, const Vec3& v) {
  out.key(key).begin_array().value(v.x).value(v.y).value(v.z).end_array();
}

template <std::size_t N>
void floats(JsonWriter& out, std::string_view key, const std::optional<std::array<float, N>>& a) {
  out.key(key);
  if (!a) {
    out.null();
    return;
  }
  out.begin_array();
  for (float v : *a) out.value(v);
  out.end_array();
}

std::string fmt3(const char* f, double a, double b, double c) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

std::string type_text(std::uint8_t type) {
  const auto name = ogf3_type_name(type);
  return std::to_string(type) + (name.empty() ? std::string(" (unknown)") : " " + std::string(name));
}

std::string layout_text(const Ogf3Vertices& v) {
  if (v.links() == 1) return hex(v.format) + ", 1 link, bone space";
  if (v.links() == 2) return hex(v.format) + ", 2 links, bone space of the first";
  return hex(v.format) + ", static";
}

std::vector<const Ogf3Visual*> geometry_visuals(const OgfV3File& f) {
  std::vector<const Ogf3Visual*> out;
  for_each_visual(f.model, [&](const Ogf3Visual& v) {
    if (!v.path.empty() || v.vertices || !v.readable) out.push_back(&v);
  });
  return out;
}

void dump_visual(JsonWriter& out, const Ogf3Visual& v, bool raw) {
  out.begin_object().field("chunk", v.path.empty() ? std::string("") : v.path);
  out.field("type", unsigned{v.header.type}).field("type_name", std::string(ogf3_type_name(v.header.type)));
  if (!v.readable)
    out.field("error", v.readable.error().message + (v.readable.error().path.empty() ? "" : " in " + v.readable.error().path));
  out.key("texture");
  if (v.texture) out.value(cp1251_to_utf8(*v.texture)); else out.null();
  out.key("shader");
  if (v.shader) out.value(cp1251_to_utf8(*v.shader)); else out.null();
  floats(out, "bbox", v.bbox);
  floats(out, "bsphere", v.bsphere);
  if (v.vertices) {
    const auto& vs = *v.vertices;
    out.field("vertex_format", std::uint64_t{vs.format}).field("links", vs.links());
    out.field("vertex_count", std::uint64_t{vs.count}).field("stride", std::uint64_t{vs.stride});
  }
  out.field("index_count", std::uint64_t{v.index_count});
  out.key("progressive");
  if (v.lod) {
    out.begin_object().field("min_vertices", std::uint64_t{v.lod->min_vertices});
    out.field("min_indices", std::uint64_t{v.lod->min_indices});
    out.field("vertex_splits", std::uint64_t{v.lod->vsplit_count()});
    out.field("fix_faces", std::uint64_t{v.lod->fix_face_count}).end_object();
  } else {
    out.null();
  }
  out.key("child_refs").begin_array();
  for (const auto& r : v.child_refs) out.value(cp1251_to_utf8(r));
  out.end_array();
  if (raw) {
    out.field("offset", std::uint64_t{v.offset});
    if (v.vertices) {
      const auto& vs = *v.vertices;
      out.field("vertices_offset", std::uint64_t{vs.offset}).key("vertices").begin_array();
      for (std::size_t i = 0; i < vs.count; ++i) {
        const Ogf3Vertex x = decode_vertex(vs, i);
        out.begin_object();
        vec3(out, "position", x.position);
        vec3(out, "normal", x.normal);
        out.key("uv").begin_array().value(x.u).value(x.v).end_array();
        out.key("bones").begin_array();
        if (x.links == 1) out.value(std::uint64_t{x.stored_bone});
        if (x.links == 2) out.value(unsigned{x.bones[0]}).value(unsigned{x.bones[1]});
        out.end_array().key("weights").begin_array();
        for (int k = 0; k < x.links; ++k) out.value(x.weights[std::size_t(k)]);
        out.end_array().end_object();
      }
      out.end_array();
    }
    out.field("indices_offset", std::uint64_t{v.indices_offset}).key("indices").begin_array();
    for (std::size_t i = 0; i < std::min<std::size_t>(v.index_count, v.indices.size() / 2); ++i)
      out.value(unsigned{v.index_at(i)});
    out.end_array();
  }
  out.end_object();
}

void dump_bones(JsonWriter& out, const OgfV3File& f, bool raw) {
  out.key("bones").begin_array();
  for (const auto& b : f.bones) {
    out.begin_object().field("name", cp1251_to_utf8(b.name)).field("parent", cp1251_to_utf8(b.parent_name));
    if (b.ik) {
      const Ogf3Ik& ik = *b.ik;
      out.key("ik").begin_object().field("chunk", hex(f.ik_chunk));
      out.key("version");
      if (ik.version) out.value(unsigned{*ik.version}); else out.null();
      out.field("game_mtl", cp1251_to_utf8(ik.game_mtl)).field("joint_type", unsigned{ik.joint.type});
      if (ik.joint.friction) out.field("friction", *ik.joint.friction);
      vec3(out, "bind_rotation", ik.bind_rotation);
      vec3(out, "bind_position", ik.bind_position);
      out.field("bind_space", f.bind_in_model_space() ? "model" : "parent");
      out.field("mass", ik.mass);
      vec3(out, "center_of_mass", ik.center_of_mass);
      out.end_object();
    }
    if (raw) {
      out.field("offset", std::uint64_t{b.offset});
      out.key("obb").begin_object().key("rotate").begin_array();
      for (float v : b.obb.rotate) out.value(v);
      out.end_array();
      vec3(out, "translate", b.obb.translate);
      vec3(out, "halfsize", b.obb.halfsize);
      out.end_object();
    }
    out.end_object();
  }
  out.end_array();
}

void dump_motions(JsonWriter& out, const OgfV3File& f, bool raw) {
  out.key("motions");
  if (!f.params && !f.motions) {
    out.null();
    return;
  }
  out.begin_object();
  out.key("params_chunk");
  if (f.params) out.value(hex(f.params->chunk)); else out.null();
  out.field("params_version", unsigned{f.params ? f.params->version : 0u});
  out.key("keys_chunk");
  if (f.motions) out.value(hex(f.motions->chunk)); else out.null();
  out.key("parts").begin_array();
  if (f.params)
    for (const auto& p : f.params->parts) {
      out.begin_object().field("name", cp1251_to_utf8(p.name)).key("bones").begin_array();
      for (const auto& b : p.bones) {
        out.begin_object().key("name");
        if (f.params->chunk == kOgf3SmParamsNew && f.params->version >= 2) out.value(cp1251_to_utf8(b.name)); else out.null();
        out.key("index");
        if (b.index) out.value(std::uint64_t{*b.index}); else out.null();
        out.end_object();
      }
      out.end_array().end_object();
    }
  out.end_array();
  // Motions in parameter order, each with the key set of its name; then key sets no parameters name.
  std::vector<bool> used(f.motions ? f.motions->motions.size() : 0, false);
  const auto by_name = f.motions ? key_sets_by_name(*f.motions) : std::unordered_map<std::string, std::size_t>{};
  auto keys_of = [&](const std::string& name) -> const Ogf3Motion* {
    const auto it = by_name.find(name);
    if (it == by_name.end()) return nullptr;
    used[it->second] = true;
    return &f.motions->motions[it->second];
  };
  auto bones = [&](const Ogf3Motion* k) {
    out.key("bones");
    if (k == nullptr || !k->readable) {
      out.null();
      if (k != nullptr) out.field("error", k->readable.error().message);
      return;
    }
    out.begin_array();
    for (const auto& b : k->bones) {
      out.begin_object().field("flags", unsigned{b.flags}).key("rotation").begin_array();
      for (std::size_t i = 0; i < k->frames; ++i) {
        const Quat q = b.rotation(i);
        out.begin_array().value(q.x).value(q.y).value(q.z).value(q.w).end_array();
      }
      out.end_array().key("translation").begin_array();
      for (std::size_t i = 0; i < (b.translation_keyed() ? k->frames : 1u); ++i) {
        const Vec3 t = b.translation(i);
        out.begin_array().value(t.x).value(t.y).value(t.z).end_array();
      }
      out.end_array();
      if (raw) {
        out.field("offset", std::uint64_t{b.offset});
        if (!b.floats) {
          out.field("rotation_crc", std::uint64_t{b.rotation_crc});
          if (b.flags != 0) out.field("translation_crc", std::uint64_t{b.translation_crc});
          if (b.flags != 0) vec3(out, "translation_size", b.size);
          vec3(out, "translation_init", b.init);
        }
      }
      out.end_object();
    }
    out.end_array();
  };
  out.key("motions").begin_array();
  if (f.params)
    for (const auto& m : f.params->motions) {
      const Ogf3Motion* k = keys_of(m.name);
      out.begin_object().field("name", cp1251_to_utf8(m.name));
      out.key("frames");
      if (k && k->readable) out.value(std::uint64_t{k->frames}); else out.null();
      out.field("flags", std::uint64_t{m.flags});
      if (f.params->chunk == kOgf3SmParams) out.field("kind", m.kind == 0 ? "fx" : "cycle").field("stop_at_end", m.stop_at_end);
      out.field("bone_or_part", unsigned{m.bone_or_part}).field("motion_id", unsigned{m.motion_id});
      out.field("speed", m.speed).field("power", m.power).field("accrue", m.accrue).field("falloff", m.falloff);
      bones(k);
      out.end_object();
    }
  out.end_array().key("unnamed_key_sets").begin_array();
  if (f.motions)
    for (std::size_t i = 0; i < f.motions->motions.size(); ++i) {
      if (used[i]) continue;
      const auto& k = f.motions->motions[i];
      out.begin_object().field("chunk", hex(f.motions->chunk) + "/" + std::to_string(i + 1));
      out.field("name", cp1251_to_utf8(k.name)).field("frames", std::uint64_t{k.frames});
      bones(&k);
      out.end_object();
    }
  out.end_array().end_object();
}

}  // namespace

}  // namespace ogf3

std::string describe_ogf_v3(const OgfV3File& f) {
  std::string s = "  format: X-Ray model (.ogf v3, type " + ogf3::type_text(f.model.header.type) + "), " + std::to_string(f.size) +
                  " bytes, " + std::to_string(f.model.chunks.chunks.size()) + " chunks\n";
  if (!f.bones.empty()) {
    std::size_t roots = 0;
    for (const auto& b : f.bones) roots += b.parent_name.empty() ? 1 : 0;
    s += "  skeleton: " + std::to_string(f.bones.size()) + " bone(s), " + std::to_string(roots) + " root(s), ";
    if (!f.has_bind_pose()) s += "no IK data (no bind pose)\n";
    else
      s += "IK data " + hex(f.ik_chunk) + " (bind pose relative to the " +
           (f.bind_in_model_space() ? "model" : "parent") + ")\n";
    for (std::size_t i = 0; i < f.bones.size(); ++i) {
      const auto& b = f.bones[i];
      s += "  " + std::to_string(i) + " " + printable(b.name) + " <- " +
           (b.parent_name.empty() ? std::string("(root)") : printable(b.parent_name));
      if (b.ik)
        s += ogf3::fmt3("  bind pos (%.4g %.4g %.4g)", b.ik->bind_position.x, b.ik->bind_position.y, b.ik->bind_position.z) +
             ogf3::fmt3(" rot (%.4g %.4g %.4g)", b.ik->bind_rotation.x, b.ik->bind_rotation.y, b.ik->bind_rotation.z);
      s += "\n";
    }
  }
  if (!f.motion_refs.empty()) {
    s += "  motion refs (0x1D):";
    for (const auto& r : f.motion_refs) s += " " + printable(r);
    s += "\n";
  }
  if (f.params || f.motions) {
    s += "  motions:";
    if (f.params)
      s += " parameters " + hex(f.params->chunk) + (f.params->chunk == kOgf3SmParamsNew ? " v" + std::to_string(f.params->version) : "") +
           " (" + std::to_string(f.params->motions.size()) + " motion(s), " + std::to_string(f.params->parts.size()) + " part(s))";
    if (f.motions)
      s += ", keys " + hex(f.motions->chunk) + (f.motions->floats() ? " (float translations)" : " (8-bit translations)") +
           " (" + std::to_string(f.motions->motions.size()) + " key set(s))";
    s += "\n";
    if (f.motions)
      for (const auto& m : f.motions->motions)
        s += "    " + printable(m.name) + ": " +
             (m.readable ? std::to_string(m.frames) + " frame(s)" : "unreadable: " + m.readable.error().message) + "\n";
  }
  const auto visuals = ogf3::geometry_visuals(f);
  if (!visuals.empty()) s += "  visuals: " + std::to_string(visuals.size()) + "\n";
  for (const Ogf3Visual* v : visuals) {
    s += "  " + (v->path.empty() ? std::string("(model)") : v->path) + " ";
    if (!v->readable) {
      s += "unreadable: " + v->readable.error().message + " (" + v->readable.error().path + ")\n";
      continue;
    }
    s += "type " + ogf3::type_text(v->header.type);
    if (v->vertices)
      s += ", " + std::to_string(v->vertices->count) + " vertices (" + ogf3::layout_text(*v->vertices) + "), " +
           std::to_string(v->index_count / 3) + " triangles" + (v->lod ? " (progressive)" : "");
    if (v->texture) s += ", texture " + printable(*v->texture) + ", shader " + printable(v->shader.value_or(""));
    if (!v->children.empty()) s += ", " + std::to_string(v->children.size()) + " child(ren)";
    s += "\n";
  }
  if (f.user_data) s += "  user data: " + std::to_string(f.user_data->size()) + " bytes\n";
  if (f.description && f.description->parsed)
    s += "  description: source " + printable(f.description->source) + ", build " + printable(f.description->build) +
         ", created by " + printable(f.description->creator) + ", modified by " + printable(f.description->modifier) + "\n";
  return s;
}

void dump_ogf_v3(JsonWriter& out, const OgfV3File& f, bool raw) {
  out.begin_object().field("format", "ogf");
  out.field("ogf_version", unsigned{f.model.header.version}).field("type", unsigned{f.model.header.type});
  out.field("type_name", std::string(ogf3_type_name(f.model.header.type)));
  ogf3::floats(out, "bbox", f.model.bbox);
  ogf3::floats(out, "bsphere", f.model.bsphere);
  out.key("ik_chunk");
  if (f.ik_chunk != 0) out.value(hex(f.ik_chunk)); else out.null();
  ogf3::dump_bones(out, f, raw);
  out.key("motion_refs");
  if (!f.motion_refs.empty()) {
    out.begin_object().field("chunk", hex(kOgf3MotionRefs)).key("refs").begin_array();
    for (const auto& r : f.motion_refs) out.value(cp1251_to_utf8(r));
    out.end_array().end_object();
  } else {
    out.null();
  }
  out.key("user_data");
  if (f.user_data) out.value(cp1251_to_utf8(*f.user_data)); else out.null();
  out.key("description");
  if (f.description && f.description->parsed) {
    const auto& d = *f.description;
    out.begin_object().field("source", cp1251_to_utf8(d.source)).field("build", cp1251_to_utf8(d.build));
    out.field("build_time", unsigned{d.build_time}).field("creator", cp1251_to_utf8(d.creator));
    out.field("create_time", unsigned{d.create_time}).field("modifier", cp1251_to_utf8(d.modifier));
    out.field("modify_time", unsigned{d.modify_time}).end_object();
  } else {
    out.null();
  }
  out.key("meshes").begin_array();
  for (const Ogf3Visual* v : ogf3::geometry_visuals(f)) ogf3::dump_visual(out, *v, raw);
  out.end_array();
  ogf3::dump_motions(out, f, raw);
  out.end_object();
}

int sniff_ogf_v3(Bytes bytes, std::string_view extension) {
  if (!looks_like_ogf_v3(bytes)) return 0;
  return extension == ".ogf" ? 95 : 75;
}

}  // namespace boneyard::xray
