// OGF v3 skeleton chunks: 0xD bone names (the v4 layout), the IK data in its three layouts, motion
// refs 0x1D, user data 0x18 and the description 0x1B; the bind pose relative to each parent (the
// fix S_IKDATA_0 needs) and the skeleton in the v4 model's terms. Layouts: docs/xray-ogf-v3.md.
#include <algorithm>
#include <unordered_map>

#include "boneyard/core/text.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/xray_scene.h"
#include "ogf_v3_internal.h"
#include "xray/ogf/ogf_bones.h"

namespace boneyard::xray {

namespace ogf3 {

namespace {

constexpr std::size_t kMinBoneRecord = 2 + 60;  // two empty names and the box
// Smallest IK record per layout: material "", shape, joint type and limits, spring and damping,
// [ik flags, break force, break torque], bind rotation and position, mass, centre of mass.
constexpr std::size_t kMinIk0 = 1 + kBoneShapeBytes + 4 + 48 + 8 + 12 + 12 + 4 + 12;
constexpr std::size_t kMinIk1 = kMinIk0 + 12;
constexpr std::size_t kMinIk2 = 4 + kMinIk1 + 4;  // version first, friction last

void parse_bone_names(const Chunk& c, OgfV3File& f) {
  ByteReader r(c.payload, c.payload_offset());
  const std::uint32_t count = r.u32("bone count");
  r.need_array(count, kMinBoneRecord, "bone records");
  f.bones.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    Ogf3Bone& b = f.bones[i];
    b.offset = r.offset();
    try {
      b.name = std::string(r.stringz("name"));
      b.parent_name = std::string(r.stringz("parent name"));
      for (auto& v : b.obb.rotate) v = r.f32("box rotation");
      b.obb.translate = read_vec3(r, "box centre");
      b.obb.halfsize = read_vec3(r, "box half size");
    } catch (ParseError& e) {
      e.prepend_path("bone " + std::to_string(i));
      throw;
    }
  }
  if (!r.at_end())
    f.read_findings.push_back({Severity::warning, r.offset(), "0xD", "bytes after the last bone record (kept)", "0",
                               std::to_string(r.remaining())});
  // Parents by the stored name, else as the engine compares (lower-cased).
  std::unordered_map<std::string_view, int> exact;
  std::unordered_map<std::string, int> lower;
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    exact.emplace(f.bones[i].name, static_cast<int>(i));
    lower.emplace(lower_ascii(f.bones[i].name), static_cast<int>(i));
  }
  for (auto& b : f.bones) {
    if (b.parent_name.empty()) continue;
    if (auto it = exact.find(b.parent_name); it != exact.end()) b.parent = it->second;
    else if (auto lt = lower.find(lower_ascii(b.parent_name)); lt != lower.end()) b.parent = lt->second;
  }
}

void parse_ik(const Chunk& c, OgfV3File& f) {
  const std::uint32_t id = c.id();
  const std::size_t min = id == kOgf3IkData2 ? kMinIk2 : id == kOgf3IkData1 ? kMinIk1 : kMinIk0;
  ByteReader r(c.payload, c.payload_offset());
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    Ogf3Ik ik;
    ik.offset = r.offset();
    try {
      if (r.remaining() < min)
        fail(r.offset(), "", "IK data ends before the last bone", std::to_string(f.bones.size()) + " records",
             std::to_string(i) + " records and " + std::to_string(r.remaining()) + " bytes");
      if (id == kOgf3IkData2) ik.version = r.u32("version");
      ik.game_mtl = std::string(r.stringz("game material"));
      ik.shape = r.bytes(kBoneShapeBytes, "bone shape");
      JointData& j = ik.joint;
      j.type = r.u32("joint type");
      for (auto& l : j.limits) {
        l.lo = r.f32("joint limit");
        l.hi = r.f32("joint limit");
        l.spring = r.f32("joint limit spring");
        l.damping = r.f32("joint limit damping");
      }
      j.spring = r.f32("joint spring");
      j.damping = r.f32("joint damping");
      if (id != kOgf3IkData0) {  // S_IKDATA_0 ends the joint data here
        j.ik_flags = r.u32("ik flags");
        j.break_force = r.f32("break force");
        j.break_torque = r.f32("break torque");
      }
      if (id == kOgf3IkData2) j.friction = r.f32("friction");
      ik.bind_rotation = read_vec3(r, "bind rotation");
      ik.bind_position = read_vec3(r, "bind position");
      ik.mass = r.f32("mass");
      ik.center_of_mass = read_vec3(r, "centre of mass");
    } catch (ParseError& e) {
      e.prepend_path("bone " + std::to_string(i));
      throw;
    }
    if (ik.version && *ik.version != 1)
      f.read_findings.push_back({Severity::warning, ik.offset, hex(id) + " bone " + std::to_string(i) + " version",
                                 "IK record version is not 1 (read as 1)", "1", std::to_string(*ik.version)});
    f.bones[i].ik = std::move(ik);
  }
  if (!r.at_end())
    f.read_findings.push_back({Severity::warning, r.offset(), hex(id), "bytes after the last IK record (kept)", "0",
                               std::to_string(r.remaining())});
}

// One string that may lack its terminator at the end of the chunk (kept with a warning).
std::string tolerant_string(const Chunk& c, std::vector<Finding>& findings) {
  const auto nul = std::find(c.payload.begin(), c.payload.end(), std::uint8_t{0});
  if (nul == c.payload.end())
    findings.push_back({Severity::warning, c.payload_offset(), hex(c.id()), "string runs to the end of the chunk",
                        "a NUL terminator", "none"});
  else if (nul + 1 != c.payload.end())
    findings.push_back({Severity::warning, c.payload_offset() + std::uint64_t(nul - c.payload.begin()) + 1, hex(c.id()),
                        "bytes after the string (kept)", "0", std::to_string(c.payload.end() - nul - 1)});
  return std::string(c.payload.begin(), nul);
}

}  // namespace

std::unordered_map<std::string, int> bones_by_lower_name(const OgfV3File& f) {
  std::unordered_map<std::string, int> out;
  out.reserve(f.bones.size());
  for (std::size_t i = 0; i < f.bones.size(); ++i) out.emplace(lower_ascii(f.bones[i].name), static_cast<int>(i));
  return out;
}

std::unordered_map<std::string, std::size_t> key_sets_by_name(const Ogf3Motions& keys) {
  std::unordered_map<std::string, std::size_t> out;
  out.reserve(keys.motions.size());
  for (std::size_t i = 0; i < keys.motions.size(); ++i) out.emplace(keys.motions[i].name, i);
  return out;
}

OgfDescription parse_description(const Chunk& c, std::vector<Finding>& findings, const std::string& path) {
  ByteReader r(c.payload, c.payload_offset());
  OgfDescription d;
  try {
    d.source = std::string(r.stringz("source"));
    d.build = std::string(r.stringz("build"));
    d.build_time = r.u32("build time");
    d.creator = std::string(r.stringz("creator"));
    d.create_time = r.u32("create time");
    d.modifier = std::string(r.stringz("modifier"));
    d.modify_time = r.u32("modify time");
    d.parsed = r.at_end();
  } catch (const ParseError&) {
    d = OgfDescription{};
  }
  if (!d.parsed)
    findings.push_back({Severity::info, c.offset, path, "description does not parse as the SDK writes it (kept raw)",
                        "6 fields", "other"});
  return d;
}

void parse_skeleton(OgfV3File& f) {
  const ChunkList& chunks = f.model.chunks;
  if (const Chunk* c = chunks.find(kOgf3BoneNames)) parse_chunk(*c, "0xD", [&] { parse_bone_names(*c, f); });
  // The engine reads the newest layout present (S_IKDATA_2, then S_IKDATA, then S_IKDATA_0).
  for (std::uint32_t id : {kOgf3IkData2, kOgf3IkData1, kOgf3IkData0}) {
    const Chunk* c = chunks.find(id);
    if (c == nullptr) continue;
    if (f.ik_chunk != 0) {
      f.read_findings.push_back({Severity::info, c->offset, hex(id), "IK data the engine does not read: a newer "
                                 "layout is present (kept)", "one IK chunk", hex(f.ik_chunk) + " and " + hex(id)});
      continue;
    }
    if (f.bones.empty() && !c->payload.empty())
      fail(c->payload_offset(), hex(id), "IK data without bone names (chunk 0xD)", "chunk 0xD", "none");
    parse_chunk(*c, hex(id), [&] { parse_ik(*c, f); });
    f.ik_chunk = id;
  }
  if (const Chunk* c = chunks.find(kOgf3MotionRefs)) {
    const std::string list = tolerant_string(*c, f.read_findings);
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      std::string item = list.substr(start, comma - start);
      const auto first = item.find_first_not_of(" \t");
      const auto last = item.find_last_not_of(" \t");
      item = first == std::string::npos ? std::string() : item.substr(first, last - first + 1);
      if (!item.empty()) f.motion_refs.push_back(std::move(item));
      start = comma + 1;
    }
  }
  if (const Chunk* c = chunks.find(kOgf3UserData)) {
    Bytes b = c->payload;
    if (!b.empty() && b.back() == 0) b = b.first(b.size() - 1);
    f.user_data = std::string(b.begin(), b.end());
  }
  if (const Chunk* c = chunks.find(kOgf3Desc)) f.description = parse_description(*c, f.read_findings, "0x1B");
}

}  // namespace ogf3

std::vector<Ogf3BindLocal> bind_locals(const OgfV3File& f) {
  std::vector<Ogf3BindLocal> out;
  if (!f.has_bind_pose()) return out;
  out.reserve(f.bones.size());
  for (const auto& b : f.bones) out.push_back({b.ik->bind_rotation, b.ik->bind_position});
  if (!f.bind_in_model_space()) return out;
  // S_IKDATA_0 stores each bone's bind transform relative to the model. The engine composes
  // world = local x parent world (row vectors), so local = world x inverse(parent world). Done
  // with the scene's matrices in glTF space, where the mirror conjugates every transform alike.
  std::vector<scene::Mat4> world(f.bones.size());
  for (std::size_t i = 0; i < f.bones.size(); ++i)
    world[i] = scene::trs_matrix(to_gltf(out[i].position), to_gltf(bind_quaternion(out[i].rotation)), Vec3{1, 1, 1});
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    const int p = f.bones[i].parent;
    if (p < 0 || static_cast<std::size_t>(p) == i) continue;
    const scene::Mat4 local = scene::multiply(scene::inverse_affine(world[static_cast<std::size_t>(p)]), world[i]);
    const Quat g = ogf_import::rotation_of(local);
    out[i].rotation = ogf_import::xyz_rotation(Quat{g.x, g.y, -g.z, g.w});
    out[i].position = {static_cast<float>(local[12]), static_cast<float>(local[13]), static_cast<float>(-local[14])};
  }
  return out;
}

OgfFile skeleton_as_v4(const OgfV3File& f) {
  OgfFile v4;
  v4.source = f.source;
  v4.size = f.size;
  const auto locals = bind_locals(f);
  v4.bones.reserve(f.bones.size());
  for (std::size_t i = 0; i < f.bones.size(); ++i) {
    const Ogf3Bone& b = f.bones[i];
    OgfBone o;
    o.offset = b.offset;
    o.name = b.name;
    o.parent_name = b.parent_name;
    o.parent = b.parent;
    o.obb = b.obb;
    if (b.ik && !locals.empty()) {
      IkData ik;
      ik.offset = b.ik->offset;
      ik.version = b.ik->joint.friction ? 1 : 0;  // the v4 record carries friction from version 1 on
      ik.game_mtl = b.ik->game_mtl;
      ik.shape = b.ik->shape;
      ik.joint = b.ik->joint;
      ik.bind_rotation = locals[i].rotation;
      ik.bind_position = locals[i].position;
      ik.mass = b.ik->mass;
      ik.center_of_mass = b.ik->center_of_mass;
      o.ik = std::move(ik);
    }
    v4.bones.push_back(std::move(o));
  }
  v4.has_ik = f.has_bind_pose();
  v4.motion_refs = f.motion_refs;
  v4.motion_refs_chunk = f.motion_refs.empty() ? 0 : kOgf3MotionRefs;
  if (f.motions) v4.motions = MotionSet{};
  return v4;
}

}  // namespace boneyard::xray
