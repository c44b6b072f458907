// .ogf <-> .object through the scene: converter.exe's `.ogf -> .object` (every child, its UV and
// weights as the engine reads them, bones with their IK data, smoothing groups rebuilt from the
// stored normals in the target game's style), and the Actor Editor's `.object -> .ogf` (normals by
// the smoothing rules, two-sided surfaces doubled, bone data carried in the joint extras).
#include <algorithm>
#include <cstring>

#include "boneyard/core/text.h"
#include "boneyard/xray/object/object_scene.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"
#include "object_extras.h"
#include "scene/extras_json.h"
#include "xray/scene/xray_scene_internal.h"

namespace boneyard::xray {

namespace {

// The stored SBoneShape (112 bytes) as values.
BoneShape shape_of(Bytes raw) {
  BoneShape s;
  if (raw.size() < kBoneShapeSize) return s;
  const std::uint8_t* p = raw.data();
  auto f = [&](std::size_t at) { return load_le<float>(p + at); };
  s.type = load_le<std::uint16_t>(p);
  s.flags = load_le<std::uint16_t>(p + 2);
  for (std::size_t i = 0; i < 9; ++i) s.box_rotate[i] = f(4 + 4 * i);
  s.box_translate = {f(40), f(44), f(48)};
  s.box_halfsize = {f(52), f(56), f(60)};
  s.sphere_center = {f(64), f(68), f(72)};
  s.sphere_radius = f(76);
  s.cylinder_center = {f(80), f(84), f(88)};
  s.cylinder_direction = {f(92), f(96), f(100)};
  s.cylinder_height = f(104);
  s.cylinder_radius = f(108);
  return s;
}

}  // namespace

// An .ogf bone's data (0xD name and parent, 0x10 IK data) as the SDK's bone data.
BoneData bone_data_of(const OgfBone& b) {
  BoneData d = default_bone_data();
  d.version = kBoneCurrentVersion;
  d.name = b.name;
  d.parent = b.parent_name;
  d.wmap = b.name;
  d.def_has_links = true;
  d.has_bind_pose = true;
  if (!b.ik) return d;
  const IkData& ik = *b.ik;
  d.rest_offset = ik.bind_position;
  d.rest_rotate = ik.bind_rotation;
  d.game_mtl = ik.game_mtl;
  d.shape = shape_of(ik.shape);
  BoneJoint j;
  j.type = ik.joint.type;
  for (std::size_t k = 0; k < 3; ++k)
    j.limits[k] = {ik.joint.limits[k].lo, ik.joint.limits[k].hi, ik.joint.limits[k].spring, ik.joint.limits[k].damping};
  j.spring = ik.joint.spring;
  j.damping = ik.joint.damping;
  d.joint = j;
  d.ik_flags = ik.joint.ik_flags;
  d.break_limits = std::array<float, 2>{ik.joint.break_force, ik.joint.break_torque};
  d.friction = ik.joint.friction.value_or(0.0f);
  d.mass = ik.mass;
  d.center_of_mass = ik.center_of_mass;
  return d;
}

Result<std::vector<std::uint8_t>> ogf_to_object_bytes(const OgfFile& ogf, std::string_view name, Game game,
                                                      Diagnostics& warnings) {
  scene::Scene s;
  if (ogf.bones.empty()) {
    s.generator = "boneyard";
    s.skeleton.name = std::string(name);
  } else {
    auto made = skeleton_scene(ogf, name);
    if (!made) return made.error();
    s = std::move(made).value();
    for (std::uint32_t j = 0; j < s.skeleton.joints.size(); ++j) s.skeleton.skin.push_back(j);
  }
  XrayExportOptions eo;
  eo.input = std::string(name) + ".ogf";
  if (auto added = add_meshes(s, ogf, eo, warnings); !added) return added.error();
  auto& x = json_of(s.extras)["xray"];
  if (!ogf.motion_refs.empty()) {
    auto& refs = x["motion_refs"] = nlohmann::json::array();
    for (const auto& r : ogf.motion_refs) refs.push_back(cp1251_to_utf8(r));
  }
  if (ogf.user_data) put_name(x, "user_data", *ogf.user_data);
  // Surfaces as converter.exe names them: the texture's file name and "_S", one per material.
  std::vector<std::string> taken;
  for (auto& m : s.materials) {
    std::string texture = m.texture.path;
    const auto slash = texture.find_last_of("\\/");
    std::string surface = (slash == std::string::npos ? texture : texture.substr(slash + 1)) + "_S";
    for (int k = 1; std::find(taken.begin(), taken.end(), surface) != taken.end(); ++k)
      surface = (slash == std::string::npos ? texture : texture.substr(slash + 1)) + "_S" + std::to_string(k);
    taken.push_back(surface);
    auto& mx = json_of(m.extras)["xray"];
    put_name(mx, "surface", surface);
    put_name(mx, "game_mtl", "default_object");
  }
  std::vector<BoneData> data;
  for (const auto& b : ogf.bones) data.push_back(bone_data_of(b));
  ObjectImportOptions io;
  io.game = game == Game::keep ? Game::cop : game;
  io.bone_data = &data;
  if (ogf.motions && !ogf.motions->params.parts.empty()) {
    BoneParts parts;
    for (const auto& p : ogf.motions->params.parts) {
      BoneGroup g;
      g.name = p.name;
      for (const auto& b : p.bones) g.bones.push_back(b.name);
      parts.parts.push_back(std::move(g));
    }
    io.parts = std::move(parts);
  }
  return scene_to_object_bytes(s, io, warnings);
}

Result<std::vector<std::uint8_t>> object_to_ogf_bytes(const ObjectFile& object, std::string_view name, Game game,
                                                      std::optional<SmoothingStyle> style, Diagnostics& warnings) {
  ObjectExportOptions eo;
  eo.style = style;
  eo.two_sided_copies = true;
  eo.rebuild_extras = false;
  eo.motions = false;  // the .ogf gets motion refs; its embedded motions would need the compiler
  auto s = object_to_scene(object, name, eo, warnings);
  if (!s) return s.error();
  for (std::uint32_t j = 0; j < s->skeleton.joints.size(); ++j) s->skeleton.skin.push_back(j);
  OgfImportOptions io;
  io.game = game;
  return scene_to_ogf_bytes(s.value(), io, warnings);
}

}  // namespace boneyard::xray
