// The .object scene extras, both ways.
#include "object_extras.h"

#include <algorithm>
#include <cmath>

#include "boneyard/core/text.h"
#include "scene/extras_text.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray::object_extras {

using nlohmann::json;

json float_json(float f) { return compact_float(f); }

json vec3_json(const Vec3& v) {
  json a = json::array();
  a.get_ref<json::array_t&>().reserve(3);
  a.push_back(compact_float(v.x));
  a.push_back(compact_float(v.y));
  a.push_back(compact_float(v.z));
  return a;
}

namespace {


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

namespace {

// The members put_name adds, as text: the UTF-8 name, and its stored bytes in hex when they have
// no cp1251 form to come back through.
void name_text(scene::ObjectText& x, std::string_view key, std::string_view hex_key, const std::string& raw) {
  // ASCII is its own UTF-8 and comes back unchanged: no conversion either way.
  if (std::all_of(raw.begin(), raw.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    scene::append_string(x.value(key), raw);
    return;
  }
  const std::string utf8 = cp1251_to_utf8(raw);
  scene::append_string(x.value(key), utf8);
  const auto back = utf8_to_cp1251(utf8);
  if (back && *back == raw) return;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string& h = x.value(hex_key);
  h.push_back('"');
  for (const unsigned char c : raw) h.push_back(kHex[c >> 4]), h.push_back(kHex[c & 15]);
  h.push_back('"');
}

void float_text(std::string& out, float f) {
  // An integral float below 10^7 is exactly the double its shortest text reads as: printed
  // without the text round trip of compact_float (most of a bone's data: zeros, ones, masses).
  if (std::fabs(f) < 1e7f && f == std::trunc(f))
    scene::append_double(out, f);
  else
    scene::append_double(out, compact_float(f));
}
void floats_text(std::string& out, const float* v, std::size_t n) {
  out.push_back('[');
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out.push_back(',');
    float_text(out, v[i]);
  }
  out.push_back(']');
}
void vec3_text(std::string& out, const Vec3& v) {
  const float f[3] = {v.x, v.y, v.z};
  floats_text(out, f, 3);
}

}  // namespace

std::string bone_extras_text(const BoneData& b) {
  // Members in key order (ObjectText then prints them without sorting).
  scene::ObjectText x;
  x.reserve(1024);  // a bone with shape and joint prints about 700 bytes
  vec3_text(x.value("bind_position"), b.rest_offset);
  vec3_text(x.value("bind_rotation"), b.bind_rotation());
  if (b.break_limits) {
    float_text(x.value("break_force"), (*b.break_limits)[0]);
    float_text(x.value("break_torque"), (*b.break_limits)[1]);
  }
  if (b.mass) vec3_text(x.value("center_of_mass"), b.center_of_mass);
  if (b.friction) float_text(x.value("friction"), *b.friction);
  if (b.game_mtl) name_text(x, "game_mtl", "game_mtl_hex", *b.game_mtl);
  if (b.ik_flags) scene::append_uint(x.value("ik_flags"), *b.ik_flags);
  if (b.joint) {
    scene::ObjectText joint;
    joint.reserve(256);
    float_text(joint.value("damping"), b.joint->damping);
    std::string& limits = joint.value("limits");
    limits.push_back('[');
    for (std::size_t k = 0; k < b.joint->limits.size(); ++k) {
      if (k) limits.push_back(',');
      floats_text(limits, &b.joint->limits[k].lo, 4);
    }
    limits.push_back(']');
    float_text(joint.value("spring"), b.joint->spring);
    joint.append_to(x.value("joint"));
    scene::append_uint(x.value("joint_type"), b.joint->type);
  }
  if (b.mass) float_text(x.value("mass"), *b.mass);
  name_text(x, "name", "name_hex", b.name);
  float_text(x.value("rest_length"), b.rest_length);
  if (b.shape) {
    const BoneShape& s = *b.shape;
    scene::ObjectText shape;
    shape.reserve(512);
    vec3_text(shape.value("box_halfsize"), s.box_halfsize);
    floats_text(shape.value("box_rotate"), s.box_rotate.data(), 9);
    vec3_text(shape.value("box_translate"), s.box_translate);
    vec3_text(shape.value("cylinder_center"), s.cylinder_center);
    vec3_text(shape.value("cylinder_direction"), s.cylinder_direction);
    float_text(shape.value("cylinder_height"), s.cylinder_height);
    float_text(shape.value("cylinder_radius"), s.cylinder_radius);
    scene::append_uint(shape.value("flags"), s.flags);
    vec3_text(shape.value("sphere_center"), s.sphere_center);
    float_text(shape.value("sphere_radius"), s.sphere_radius);
    scene::append_uint(shape.value("type"), s.type);
    shape.append_to(x.value("shape"));
  }
  name_text(x, "weight_map", "weight_map_hex", b.wmap);
  return x.inside("xray");
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
