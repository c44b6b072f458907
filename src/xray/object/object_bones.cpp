// Bone data (.bones) out of and into models: the Actor Editor's Bones > Save and Bones > Load
// (CEditableObject::SaveBoneData / LoadBoneData: bones matched by name, CBone::CopyData's fields).
#include <algorithm>
#include <unordered_map>

#include "boneyard/core/chunks.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/object/object_scene.h"

namespace boneyard::xray {

namespace {

// CBone::CopyData: material, shape, IK data (joint, flags, break limits, friction), mass.
void copy_data(BoneData& into, const BoneData& from) {
  if (from.game_mtl) into.game_mtl = from.game_mtl;
  if (from.shape) into.shape = from.shape;
  if (from.joint) into.joint = from.joint;
  if (from.ik_flags) into.ik_flags = from.ik_flags;
  if (from.break_limits) into.break_limits = from.break_limits;
  if (from.friction) into.friction = from.friction;
  if (from.mass) {
    into.mass = from.mass;
    into.center_of_mass = from.center_of_mass;
  }
}

// Index of each bone of the file by its lower-cased name (the first of several).
std::unordered_map<std::string, std::size_t> by_name(const std::vector<BoneData>& bones) {
  std::unordered_map<std::string, std::size_t> out;
  for (std::size_t i = 0; i < bones.size(); ++i) out.emplace(bone_key(bones[i].name), i);
  return out;
}

void warn_unmatched(const std::vector<std::string>& missing, Diagnostics& warnings) {
  if (missing.empty()) return;
  std::string list;
  for (std::size_t i = 0; i < missing.size() && i < 8; ++i) list += (i ? ", " : "") + printable(missing[i]);
  if (missing.size() > 8) list += ", ...";
  warnings.add(Severity::warning, 0, "--bones", "bones the .bones file does not name keep their data (the SDK: \"Can't find bone\")",
               "every bone named", std::to_string(missing.size()) + " bone(s): " + list);
}

BoneParts named_parts(const ObjectFile& object) {
  BoneParts out;
  if (!object.parts) return out;
  for (const auto& p : object.parts->parts) {
    BoneGroup g;
    g.name = p.name;
    g.bones = p.bones;
    for (auto i : p.indices)
      if (i < object.bones.size()) g.bones.push_back(object.bones[i].name);
    out.parts.push_back(std::move(g));
  }
  return out;
}

}  // namespace

Result<std::vector<std::uint8_t>> bones_of_object(const ObjectFile& object) {
  if (object.bones.empty())
    return Finding{Severity::error, 0, "", "the object has no bones to save as a .bones file", "bones (0x921)", "none"};
  return checked_bones_bytes(make_bones(object.bones, named_parts(object)));
}

Result<std::vector<std::uint8_t>> bones_of_ogf(const OgfFile& ogf) {
  if (ogf.bones.empty())
    return Finding{Severity::error, 0, "", "the model has no bones to save as a .bones file", "bones (0xD)", "none"};
  if (!ogf.has_ik)
    return Finding{Severity::error, 0, "0x10", "the model has no IK data: its bones hold no data to save", "chunk 0x10", "none"};
  std::vector<BoneData> data;
  for (const auto& b : ogf.bones) data.push_back(bone_data_of(b));
  BoneParts parts;
  if (ogf.motions)
    for (const auto& p : ogf.motions->params.parts) {
      BoneGroup g;
      g.name = p.name;
      for (const auto& b : p.bones) g.bones.push_back(b.name);
      parts.parts.push_back(std::move(g));
    }
  return checked_bones_bytes(make_bones(data, parts));
}

Result<std::vector<std::uint8_t>> apply_bones_to_object(const ObjectFile& object, const BonesFile& file, Diagnostics& warnings) {
  if (object.bones.empty())
    return Finding{Severity::error, 0, "", "the object has no bones to take bone data", "bones (0x921)", "none"};
  const auto index = by_name(file.bones);
  std::vector<BoneData> bones = object.bones;
  std::vector<bool> changed(bones.size(), false);
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const auto it = index.find(bone_key(bones[i].name));
    if (it == index.end()) {
      missing.push_back(bones[i].name);
      continue;
    }
    const std::vector<std::uint8_t> before = bone_payload(bones[i], true);
    copy_data(bones[i], file.bones[it->second]);
    changed[i] = bone_payload(bones[i], true) != before || object.bones_chunk == kObjBonesOld;
  }
  warn_unmatched(missing, warnings);
  // The body with the bones (old 0x913 records become 0x921 entries: only those hold data) and,
  // when the file has parts, its parts in place of the object's.
  // Parts the object already holds as the file has them (none against an empty list, or the same
  // bytes) leave the object as it was.
  const Chunk* own_parts = object.find(kBonePartsChunk);
  const Chunk* own_old_parts = object.find(kBonePartsOldChunk);
  const bool take_parts =
      file.parts && !(own_parts == nullptr && own_old_parts == nullptr && file.parts->parts.empty()) &&
      !(own_parts != nullptr && own_old_parts == nullptr && std::ranges::equal(own_parts->payload, bone_parts_payload(*file.parts)));
  std::vector<std::uint8_t> body;
  ByteWriter w(body);
  bool parts_written = false;
  auto write_parts = [&] {
    if (take_parts) write_chunk(w, kBonePartsChunk, bone_parts_payload(*file.parts));
    parts_written = true;
  };
  for (const Chunk& c : object.chunks.chunks) {
    if (c.id() == kObjBones) {
      const ChunkList list = split_chunks(c.payload, c.payload_offset());
      write_chunk_with(w, c.raw_id, [&] {
        for (const Chunk& b : list.chunks) {
          if (b.id() < bones.size() && !b.compress_bit() && changed[b.id()])
            write_chunk(w, b.raw_id, bone_payload(bones[b.id()], true));
          else
            write_chunk(w, b.raw_id, b.payload);
        }
        w.bytes(list.trailing);
      });
    } else if (c.id() == kObjBonesOld) {
      write_chunk_with(w, kObjBones, [&] {
        for (std::size_t i = 0; i < bones.size(); ++i) write_chunk(w, std::uint32_t(i), bone_payload(bones[i], true));
      });
    } else if ((c.id() == kBonePartsChunk || c.id() == kBonePartsOldChunk) && take_parts) {
      if (!parts_written) write_parts();
    } else {
      if (c.id() == kObjDescription && take_parts && !parts_written) write_parts();
      write_chunk(w, c.raw_id, c.payload);
    }
  }
  if (take_parts && !parts_written) write_parts();
  w.bytes(object.chunks.trailing);
  auto bytes = object_file_bytes(body, object.compressed);
  if (!bytes) return bytes.error();
  ByteWriter f(bytes.value());
  for (std::size_t i = 1; i < object.file_chunks.chunks.size(); ++i)
    write_chunk(f, object.file_chunks.chunks[i].raw_id, object.file_chunks.chunks[i].payload);
  f.bytes(object.file_chunks.trailing);
  const Diagnostics own = validate_object(object);
  return checked_object_bytes(std::move(bytes).value(), &own);
}

Result<std::vector<std::uint8_t>> apply_bones_to_ogf(const OgfFile& ogf, const BonesFile& file, Diagnostics& warnings) {
  if (!ogf.has_ik)
    return Finding{Severity::error, 0, "0x10", "the model has no IK data to take bone data", "chunk 0x10", "none"};
  const auto index = by_name(file.bones);
  std::vector<std::string> missing;
  std::vector<std::uint8_t> ik;
  ByteWriter w(ik);
  for (const OgfBone& b : ogf.bones) {
    const IkData& old = *b.ik;
    BoneData d = bone_data_of(b);
    if (const auto it = index.find(bone_key(b.name)); it != index.end())
      copy_data(d, file.bones[it->second]);
    else
      missing.push_back(b.name);
    // The record as the engine reads it (CKinematics::Load): its version, so friction stays where
    // it was; the bind pose as stored.
    w.u32(old.version);
    w.stringz(d.game_mtl.value_or("default_object"));
    const std::vector<std::uint8_t> payload = bone_payload(d, false);
    const ChunkList parts = split_chunks(payload, 0);
    w.bytes(parts.find(kBoneShape)->payload);
    const BoneJoint& j = *d.joint;
    w.u32(j.type);
    for (const auto& l : j.limits) w.f32(l.lo), w.f32(l.hi), w.f32(l.spring), w.f32(l.damping);
    w.f32(j.spring);
    w.f32(j.damping);
    w.u32(d.ik_flags.value_or(0));
    w.f32((*d.break_limits)[0]);
    w.f32((*d.break_limits)[1]);
    if (static_cast<std::uint16_t>(old.version) != 0) w.f32(d.friction.value_or(0.0f));
    w.f32(old.bind_rotation.x), w.f32(old.bind_rotation.y), w.f32(old.bind_rotation.z);
    w.f32(old.bind_position.x), w.f32(old.bind_position.y), w.f32(old.bind_position.z);
    w.f32(d.mass.value_or(10.0f));
    w.f32(d.center_of_mass.x), w.f32(d.center_of_mass.y), w.f32(d.center_of_mass.z);
  }
  warn_unmatched(missing, warnings);
  std::vector<std::uint8_t> out;
  ByteWriter o(out);
  for (const auto& c : ogf.chunks.chunks) write_chunk(o, c.raw_id, c.id() == kOgfIkData ? Bytes(ik) : c.payload);
  o.bytes(ogf.chunks.trailing);
  const Diagnostics own = validate_ogf(ogf);
  return checked_ogf_bytes(std::move(out), &own);
}

}  // namespace boneyard::xray
