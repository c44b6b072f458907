// The .object scene extras, both ways.
#include "object_extras.h"

#include <algorithm>
#include <cmath>

#include "boneyard/core/text.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray::object_extras {

using nlohmann::json;

json float_json(float f) { return compact_float(f); }

json vec3_json(const Vec3& v) { return json::array({compact_float(v.x), compact_float(v.y), compact_float(v.z)}); }

namespace {

json floats(const float* v, std::size_t n) {
  json a = json::array();
  for (std::size_t i = 0; i < n; ++i) a.push_back(compact_float(v[i]));
  return a;
}

std::optional<std::string> hex_decode(const std::string& h) {
  if (h.size() % 2) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < h.size(); i += 2) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      const char c = h[i + std::size_t(k)];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + d;
    }
    out += static_cast<char>(v);
  }
  return out;
}

template <class T>
std::optional<T> integer(const json& x, const char* key) {
  const auto it = x.find(key);
  if (it == x.end() || !it->is_number_integer()) return std::nullopt;
  const auto v = it->get<std::int64_t>();
  if (v < 0 || static_cast<std::uint64_t>(v) > std::numeric_limits<T>::max()) return std::nullopt;
  return static_cast<T>(v);
}

// An array of n numbers over `out`: a finite number replaces its element, anything else (a
// non-finite value cannot travel in JSON and is written as null) leaves the element as it was, so a
// template's NaN comes back as itself. False when the array is missing or of another length.
bool read_floats(const json& x, const char* key, float* out, std::size_t n) {
  const auto it = x.find(key);
  if (it == x.end() || !it->is_array() || it->size() != n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if ((*it)[i].is_number() && std::isfinite((*it)[i].get<double>())) out[i] = (*it)[i].get<float>();
  return true;
}

Vec3 vec3_or(const json& x, const char* key, Vec3 base) {
  float v[3] = {base.x, base.y, base.z};
  if (x.is_object()) read_floats(x, key, v, 3);
  return Vec3{v[0], v[1], v[2]};
}

}  // namespace

json bone_json(const BoneData& b) {
  json x;
  put_name(x, "name", b.name);
  if (b.game_mtl) put_name(x, "game_mtl", *b.game_mtl);
  x["bind_rotation"] = vec3_json(b.bind_rotation());
  x["bind_position"] = vec3_json(b.rest_offset);
  x["rest_length"] = compact_float(b.rest_length);
  put_name(x, "weight_map", b.wmap);
  if (b.mass) {
    x["mass"] = compact_float(*b.mass);
    x["center_of_mass"] = vec3_json(b.center_of_mass);
  }
  if (b.joint) {
    x["joint_type"] = b.joint->type;
    json limits = json::array();
    for (const auto& l : b.joint->limits) limits.push_back(floats(&l.lo, 4));
    x["joint"] = {{"limits", std::move(limits)}, {"spring", compact_float(b.joint->spring)},
                  {"damping", compact_float(b.joint->damping)}};
  }
  if (b.shape) {
    const BoneShape& s = *b.shape;
    x["shape"] = {{"type", s.type},
                  {"flags", s.flags},
                  {"box_rotate", floats(s.box_rotate.data(), 9)},
                  {"box_translate", vec3_json(s.box_translate)},
                  {"box_halfsize", vec3_json(s.box_halfsize)},
                  {"sphere_center", vec3_json(s.sphere_center)},
                  {"sphere_radius", compact_float(s.sphere_radius)},
                  {"cylinder_center", vec3_json(s.cylinder_center)},
                  {"cylinder_direction", vec3_json(s.cylinder_direction)},
                  {"cylinder_height", compact_float(s.cylinder_height)},
                  {"cylinder_radius", compact_float(s.cylinder_radius)}};
  }
  if (b.ik_flags) x["ik_flags"] = *b.ik_flags;
  if (b.break_limits) {
    x["break_force"] = compact_float((*b.break_limits)[0]);
    x["break_torque"] = compact_float((*b.break_limits)[1]);
  }
  if (b.friction) x["friction"] = compact_float(*b.friction);
  return x;
}

json surface_json(const ObjectSurface& s) {
  json x;
  put_name(x, "surface", s.name);
  put_name(x, "texture", s.texture);
  put_name(x, "shader", s.shader);
  put_name(x, "compiler_shader", s.compiler_shader);
  put_name(x, "game_mtl", s.game_mtl);
  put_name(x, "vmap", s.vmap);
  x["flags"] = s.flags;
  x["fvf"] = s.fvf;
  x["tc_count"] = s.tc_count;
  return x;
}

json object_json(const ObjectFile& f, SmoothingStyle style) {
  json x;
  if (f.version) x["version"] = *f.version;
  if (f.flags) x["flags"] = *f.flags;
  x["smoothing"] = std::string(smoothing_style_name(style));
  if (f.motion_refs_chunk) x["motion_refs_chunk"] = hex(f.motion_refs_chunk);
  if (f.lod_ref) put_name(x, "lod_ref", *f.lod_ref);
  json surfaces = json::array();
  for (const auto& s : f.surfaces) surfaces.push_back(surface_json(s));
  x["surfaces"] = std::move(surfaces);
  if (f.parts) {
    json parts = json::array();
    for (const auto& p : f.parts->parts) {
      json part;
      put_name(part, "name", p.name);
      json bones = json::array();
      for (const auto& b : p.bones) bones.push_back(cp1251_to_utf8(b));
      for (auto i : p.indices)
        bones.push_back(i < f.bones.size() ? cp1251_to_utf8(f.bones[i].name) : std::string());
      part["bones"] = std::move(bones);
      parts.push_back(std::move(part));
    }
    x["parts"] = std::move(parts);
  }
  if (f.actor_transform)
    x["actor_transform"] = {{"position", vec3_json((*f.actor_transform)[0])}, {"rotation", vec3_json((*f.actor_transform)[1])}};
  if (f.description && f.description->parsed) {
    json d;
    put_name(d, "creator", f.description->creator);
    put_name(d, "modifier", f.description->modifier);
    d["create_time"] = f.description->create_time;
    d["modify_time"] = f.description->modify_time;
    x["description"] = std::move(d);
  }
  return x;
}

std::optional<std::string> raw_string(const json& x, const char* key) {
  if (!x.is_object()) return std::nullopt;
  const auto hex_it = x.find(std::string(key) + "_hex");
  if (hex_it != x.end() && hex_it->is_string())
    if (auto raw = hex_decode(hex_it->get<std::string>())) return raw;
  const auto it = x.find(key);
  if (it == x.end() || !it->is_string()) return std::nullopt;
  return utf8_to_cp1251(it->get<std::string>());
}

std::optional<Vec3> vec3(const json& x, const char* key) {
  float v[3] = {0, 0, 0};
  if (!x.is_object() || !read_floats(x, key, v, 3)) return std::nullopt;
  return Vec3{v[0], v[1], v[2]};
}

std::optional<float> number(const json& x, const char* key) {
  if (!x.is_object()) return std::nullopt;
  const auto it = x.find(key);
  if (it == x.end() || !it->is_number() || !std::isfinite(it->get<double>())) return std::nullopt;
  return it->get<float>();
}

void bone_from_json(const json& x, BoneData& b) {
  if (!x.is_object()) return;
  if (auto m = raw_string(x, "game_mtl")) b.game_mtl = *m;
  if (auto w = raw_string(x, "weight_map")) b.wmap = *w;
  if (auto l = number(x, "rest_length")) b.rest_length = *l;
  if (auto m = number(x, "mass")) {
    b.mass = *m;
    b.center_of_mass = vec3_or(x, "center_of_mass", b.center_of_mass);
  }
  if (auto t = integer<std::uint32_t>(x, "joint_type")) {
    BoneJoint j = b.joint.value_or(BoneJoint{});
    j.type = *t;
    if (const auto it = x.find("joint"); it != x.end() && it->is_object()) {
      if (const auto lim = it->find("limits"); lim != it->end() && lim->is_array() && lim->size() == 3)
        for (std::size_t k = 0; k < 3; ++k) {
          const json& l = (*lim)[k];
          if (!l.is_array() || l.size() != 4) continue;
          float v[4] = {j.limits[k].lo, j.limits[k].hi, j.limits[k].spring, j.limits[k].damping};
          for (std::size_t i = 0; i < 4; ++i)
            if (l[i].is_number() && std::isfinite(l[i].get<double>())) v[i] = l[i].get<float>();
          j.limits[k] = {v[0], v[1], v[2], v[3]};
        }
      j.spring = number(*it, "spring").value_or(j.spring);
      j.damping = number(*it, "damping").value_or(j.damping);
    }
    b.joint = j;
  }
  if (const auto it = x.find("shape"); it != x.end() && it->is_object()) {
    BoneShape s = b.shape.value_or(BoneShape{});
    s.type = integer<std::uint16_t>(*it, "type").value_or(s.type);
    s.flags = integer<std::uint16_t>(*it, "flags").value_or(s.flags);
    read_floats(*it, "box_rotate", s.box_rotate.data(), 9);
    s.box_translate = vec3_or(*it, "box_translate", s.box_translate);
    s.box_halfsize = vec3_or(*it, "box_halfsize", s.box_halfsize);
    s.sphere_center = vec3_or(*it, "sphere_center", s.sphere_center);
    s.sphere_radius = number(*it, "sphere_radius").value_or(s.sphere_radius);
    s.cylinder_center = vec3_or(*it, "cylinder_center", s.cylinder_center);
    s.cylinder_direction = vec3_or(*it, "cylinder_direction", s.cylinder_direction);
    s.cylinder_height = number(*it, "cylinder_height").value_or(s.cylinder_height);
    s.cylinder_radius = number(*it, "cylinder_radius").value_or(s.cylinder_radius);
    b.shape = s;
  }
  if (auto f = integer<std::uint32_t>(x, "ik_flags")) b.ik_flags = *f;
  if (auto f = number(x, "break_force")) b.break_limits = std::array<float, 2>{*f, number(x, "break_torque").value_or(b.break_limits ? (*b.break_limits)[1] : 0.0f)};
  if (auto f = number(x, "friction")) b.friction = *f;
}

ObjectSurface surface_from_json(const json& x, const std::string& name) {
  ObjectSurface s;
  s.name = raw_string(x, "surface").value_or(name);
  s.texture = raw_string(x, "texture").value_or("");
  s.shader = raw_string(x, "shader").value_or("models\\model");
  s.compiler_shader = raw_string(x, "compiler_shader").value_or("default");
  s.game_mtl = raw_string(x, "game_mtl").value_or("default");
  s.vmap = raw_string(x, "vmap").value_or("Texture");
  if (x.is_object()) {
    s.flags = integer<std::uint32_t>(x, "flags").value_or(0);
    s.fvf = integer<std::uint32_t>(x, "fvf").value_or(0x112);
    s.tc_count = integer<std::uint32_t>(x, "tc_count").value_or(1);
  } else {
    s.fvf = 0x112;
  }
  return s;
}

}  // namespace boneyard::xray::object_extras
