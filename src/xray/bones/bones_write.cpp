// Writing bone data: a bone's chunks in CBone::Save / SaveData order, bone parts, new .bones files.
#include <algorithm>

#include "boneyard/core/chunks.h"
#include "boneyard/xray/bones/bones.h"

namespace boneyard::xray {

namespace {

void put_vec3(ByteWriter& w, const Vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

}  // namespace

BoneData default_bone_data() {
  BoneData b;
  b.game_mtl = "default_object";
  b.shape = BoneShape{};
  b.ik_flags = 0;
  b.joint = BoneJoint{};
  b.break_limits = std::array<float, 2>{0, 0};
  b.friction = 0.0f;
  b.mass = 10.0f;
  return b;
}

std::vector<std::uint8_t> bone_payload(const BoneData& bone, bool full) {
  const BoneData defaults = default_bone_data();
  std::vector<std::uint8_t> out;
  out.reserve(400);
  ByteWriter w(out);
  if (full) {
    write_chunk_with(w, kBoneVersion, [&] { w.u16(kBoneCurrentVersion); });
    write_chunk_with(w, kBoneDef, [&] {
      w.stringz(bone.name);
      w.stringz(bone.parent);
      w.stringz(bone.wmap);
    });
    write_chunk_with(w, kBoneBindPose, [&] {
      put_vec3(w, bone.rest_offset);
      put_vec3(w, bone.bind_rotation());  // version 2 stores the rotation as used
      w.f32(bone.rest_length);
    });
  }
  write_chunk_with(w, kBoneDef, [&] { w.stringz(bone.name); });
  write_chunk_with(w, kBoneMaterial, [&] { w.stringz(bone.game_mtl.value_or(*defaults.game_mtl)); });
  const BoneShape& s = bone.shape ? *bone.shape : *defaults.shape;
  write_chunk_with(w, kBoneShape, [&] {
    w.u16(s.type);
    w.u16(s.flags);
    for (float f : s.box_rotate) w.f32(f);
    put_vec3(w, s.box_translate);
    put_vec3(w, s.box_halfsize);
    put_vec3(w, s.sphere_center);
    w.f32(s.sphere_radius);
    put_vec3(w, s.cylinder_center);
    put_vec3(w, s.cylinder_direction);
    w.f32(s.cylinder_height);
    w.f32(s.cylinder_radius);
  });
  write_chunk_with(w, kBoneFlags, [&] { w.u32(bone.ik_flags.value_or(0)); });
  const BoneJoint& j = bone.joint ? *bone.joint : *defaults.joint;
  write_chunk_with(w, kBoneIkJoint, [&] {
    w.u32(j.type);
    for (const auto& l : j.limits) {
      w.f32(l.lo);
      w.f32(l.hi);
      w.f32(l.spring);
      w.f32(l.damping);
    }
    w.f32(j.spring);
    w.f32(j.damping);
  });
  const auto brk = bone.break_limits.value_or(*defaults.break_limits);
  write_chunk_with(w, kBoneBreak, [&] {
    w.f32(brk[0]);
    w.f32(brk[1]);
  });
  write_chunk_with(w, kBoneFriction, [&] { w.f32(bone.friction.value_or(0.0f)); });
  write_chunk_with(w, kBoneMass, [&] {
    w.f32(bone.mass.value_or(*defaults.mass));
    put_vec3(w, bone.mass ? bone.center_of_mass : Vec3{});
  });
  return out;
}

std::vector<std::uint8_t> bone_parts_payload(const BoneParts& parts) {
  std::vector<std::uint8_t> out;
  out.reserve(64);
  ByteWriter w(out);
  w.u32(static_cast<std::uint32_t>(parts.parts.size()));
  for (const auto& p : parts.parts) {
    w.stringz(p.name);
    if (parts.chunk == kBonePartsOldChunk) {
      w.u32(static_cast<std::uint32_t>(p.indices.size()));
      for (auto i : p.indices) w.u32(i);
    } else {
      w.u32(static_cast<std::uint32_t>(p.bones.size()));
      for (const auto& b : p.bones) w.stringz(b);
    }
  }
  return out;
}

std::vector<std::uint8_t> make_bones(const std::vector<BoneData>& bones, const BoneParts& parts) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  for (std::size_t i = 0; i < bones.size(); ++i) write_chunk(w, static_cast<std::uint32_t>(i), bone_payload(bones[i], false));
  BoneParts named = parts;
  named.chunk = kBonePartsChunk;  // a .bones file holds the named form
  write_chunk(w, kBonePartsChunk, bone_parts_payload(named));
  return out;
}

Result<std::vector<std::uint8_t>> checked_bones_bytes(std::vector<std::uint8_t> bytes, const Diagnostics* inherited) {
  auto file = read_bones(FileData::from_vector(bytes));
  if (!file) {
    Finding f = file.error();
    f.path = "written .bones" + (f.path.empty() ? "" : " " + f.path);
    return f;
  }
  std::vector<std::string> allowed;
  if (inherited)
    for (const auto& f : inherited->findings())
      if (f.severity == Severity::error) allowed.push_back(f.message);
  const Diagnostics found = validate_bones(file.value());
  for (const auto& f : found.findings()) {
    if (f.severity != Severity::error) continue;
    if (auto it = std::find(allowed.begin(), allowed.end(), f.message); it != allowed.end()) {
      allowed.erase(it);
      continue;
    }
    Finding e = f;
    e.path = "written .bones" + (e.path.empty() ? "" : " " + e.path);
    return e;
  }
  return bytes;
}

Result<std::vector<std::uint8_t>> rewrite_bones(const BonesFile& file) {
  const Diagnostics own = validate_bones(file);
  return checked_bones_bytes(write_bones(file), &own);
}

}  // namespace boneyard::xray
