// What `info` and `dump` show of bone data and of a .bones file.
#include <cstdio>

#include "boneyard/core/text.h"
#include "boneyard/xray/bones/bones_report.h"

namespace boneyard::xray {

namespace {

void dump_vec3(JsonWriter& out, std::string_view key, const Vec3& v) {
  out.key(key).begin_array().value(v.x).value(v.y).value(v.z).end_array();
}

const char* shape_name(std::uint16_t type) {
  switch (type) {
    case 0: return "none";
    case 1: return "box";
    case 2: return "sphere";
    case 3: return "cylinder";
    default: return "unknown";
  }
}

const char* joint_name(std::uint32_t type) {
  switch (type) {
    case 0: return "rigid";
    case 1: return "cloth";
    case 2: return "joint";
    case 3: return "wheel";
    case 4: return "none";
    case 5: return "slider";
    default: return "unknown";
  }
}

void dump_shape(JsonWriter& out, const BoneShape& s) {
  out.key("shape").begin_object().field("type", unsigned{s.type}).field("type_name", shape_name(s.type));
  out.field("flags", unsigned{s.flags});
  out.key("box").begin_object().key("rotate").begin_array();
  for (float f : s.box_rotate) out.value(f);
  out.end_array();
  dump_vec3(out, "translate", s.box_translate);
  dump_vec3(out, "halfsize", s.box_halfsize);
  out.end_object();
  out.key("sphere").begin_object();
  dump_vec3(out, "center", s.sphere_center);
  out.field("radius", s.sphere_radius).end_object();
  out.key("cylinder").begin_object();
  dump_vec3(out, "center", s.cylinder_center);
  dump_vec3(out, "direction", s.cylinder_direction);
  out.field("height", s.cylinder_height).field("radius", s.cylinder_radius).end_object();
  out.end_object();
}

void dump_joint(JsonWriter& out, const BoneJoint& j) {
  out.key("joint").begin_object().field("type", std::uint64_t{j.type}).field("type_name", joint_name(j.type));
  out.key("limits").begin_array();
  for (const auto& l : j.limits)
    out.begin_object().field("min", l.lo).field("max", l.hi).field("spring", l.spring).field("damping", l.damping).end_object();
  out.end_array().field("spring", j.spring).field("damping", j.damping).end_object();
}

}  // namespace

void dump_bone_data(JsonWriter& out, const BoneData& b, bool raw) {
  out.begin_object().field("name", cp1251_to_utf8(b.name));
  if (b.def_has_links) out.field("parent", cp1251_to_utf8(b.parent)).field("weight_map", cp1251_to_utf8(b.wmap));
  if (b.version) out.field("version", unsigned{*b.version});
  if (b.has_bind_pose) {
    dump_vec3(out, "rest_offset", b.rest_offset);
    dump_vec3(out, "rest_rotate", b.rest_rotate);
    out.field("rest_length", b.rest_length);
  }
  if (b.game_mtl) out.field("game_mtl", cp1251_to_utf8(*b.game_mtl));
  if (b.shape) dump_shape(out, *b.shape);
  if (b.ik_flags) out.field("ik_flags", std::uint64_t{*b.ik_flags});
  if (b.joint) dump_joint(out, *b.joint);
  if (b.break_limits) out.field("break_force", (*b.break_limits)[0]).field("break_torque", (*b.break_limits)[1]);
  if (b.friction) out.field("friction", *b.friction);
  if (b.mass) {
    out.field("mass", *b.mass);
    dump_vec3(out, "center_of_mass", b.center_of_mass);
  }
  if (raw) {
    out.field("offset", std::uint64_t{b.offset}).field("def_chunks", std::uint64_t{b.def_chunks});
    out.key("chunks").begin_array();
    for (const auto& c : b.chunks.chunks)
      out.begin_object().field("id", hex(c.raw_id)).field("offset", std::uint64_t{c.offset}).field("size", std::uint64_t{c.payload.size()}).end_object();
    out.end_array();
  }
  out.end_object();
}

void dump_bone_parts(JsonWriter& out, const BoneParts& parts) {
  out.begin_array();
  for (const auto& p : parts.parts) {
    out.begin_object().field("name", cp1251_to_utf8(p.name));
    if (parts.chunk == kBonePartsOldChunk) {
      out.key("indices").begin_array();
      for (auto i : p.indices) out.value(std::uint64_t{i});
    } else {
      out.key("bones").begin_array();
      for (const auto& b : p.bones) out.value(cp1251_to_utf8(b));
    }
    out.end_array().end_object();
  }
  out.end_array();
}

std::string describe_bone_list(const std::vector<BoneData>& bones) {
  std::string s;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const BoneData& b = bones[i];
    s += "  " + std::to_string(i) + " " + printable(b.name);
    if (b.def_has_links) s += " <- " + (b.parent.empty() ? std::string("(root)") : printable(b.parent));
    if (b.shape) s += std::string(", ") + shape_name(b.shape->type) + " shape";
    if (b.joint) s += std::string(", ") + joint_name(b.joint->type) + " joint";
    if (b.game_mtl) s += ", material " + printable(*b.game_mtl);
    if (b.mass) {
      char buf[48];
      std::snprintf(buf, sizeof buf, ", mass %.4g", double(*b.mass));
      s += buf;
    }
    s += "\n";
  }
  return s;
}

std::string describe_bones(const BonesFile& file) {
  std::string s = "  format: X-Ray bone data (.bones), " + std::to_string(file.size) + " bytes, " +
                  std::to_string(file.bones.size()) + " bone(s)\n";
  s += describe_bone_list(file.bones);
  if (file.parts) {
    s += "  bone parts (" + hex(file.parts->chunk) + "): " + std::to_string(file.parts->parts.size()) + "\n";
    for (const auto& p : file.parts->parts)
      s += "    " + printable(p.name) + ": " + std::to_string(p.bones.size()) + " bone(s)\n";
  } else {
    s += "  no bone parts\n";
  }
  return s;
}

void dump_bones(JsonWriter& out, const BonesFile& file, bool raw) {
  out.begin_object().field("format", "bones").key("bones").begin_array();
  for (const auto& b : file.bones) dump_bone_data(out, b, raw);
  out.end_array().key("parts");
  if (file.parts)
    dump_bone_parts(out, *file.parts);
  else
    out.null();
  out.end_object();
}

int sniff_bones(Bytes bytes, std::string_view extension) {
  if (!looks_like_bones(bytes)) return 0;
  return extension == ".bones" ? 90 : 40;
}

}  // namespace boneyard::xray
