// What the SDK needs of bone data (CBone::LoadData's asserts, the shape and joint types it knows)
// and of bone parts (CEditableObject::VerifyBoneParts), for .bones files and .object bones.
#include <cmath>
#include <unordered_map>

#include "boneyard/core/text.h"
#include "boneyard/xray/bones/bones.h"

namespace boneyard::xray {

namespace {

bool finite_vec3(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::uint64_t chunk_offset(const BoneData& b, std::uint32_t id) {
  const Chunk* c = b.chunks.find(id);
  return c ? c->offset : b.offset;
}

}  // namespace

void validate_bone_data(const BoneData& b, bool object_bone, Diagnostics& out) {
  const std::string& p = b.path;
  if (b.name.empty()) out.add(Severity::error, chunk_offset(b, kBoneDef), p, "bone has no name", "a name", "\"\"");
  const bool old_record = b.chunks.chunks.empty() && object_bone;  // 0x913
  if (!old_record) {
    if (object_bone) {
      if (!b.version)
        out.add(Severity::error, b.offset, p, "bone has no version chunk (CBone::Load_1 asserts it)", "chunk 0x1", "none");
      else if (*b.version != 1 && *b.version != 2)
        out.add(Severity::error, chunk_offset(b, kBoneVersion), p + " 0x1",
                "unsupported bone version (the SDK skips the bone's data)", "1 or 2", std::to_string(*b.version));
      if (!b.has_bind_pose)
        out.add(Severity::error, b.offset, p, "bone has no bind pose chunk (CBone::Load_1 asserts it)", "chunk 0x3", "none");
    }
    if (b.def_chunks == 0) out.add(Severity::error, b.offset, p, "bone has no DEF chunk", "chunk 0x2", "none");
    if (!b.game_mtl) out.add(Severity::error, b.offset, p, "bone has no game material chunk (CBone::LoadData asserts it)", "chunk 0x4", "none");
    if (!b.shape) out.add(Severity::error, b.offset, p, "bone has no shape chunk (CBone::LoadData asserts it)", "chunk 0x5", "none");
    if (!b.joint) out.add(Severity::error, b.offset, p, "bone has no IK joint chunk (CBone::LoadData asserts it)", "chunk 0x6", "none");
  }
  if (b.shape && b.shape->type > 3)
    out.add(Severity::error, chunk_offset(b, kBoneShape), p + " 0x5 shape type", "unknown bone shape type",
            "0 (none), 1 (box), 2 (sphere) or 3 (cylinder)", std::to_string(b.shape->type));
  if (b.joint && b.joint->type > 5)
    out.add(Severity::error, chunk_offset(b, kBoneIkJoint), p + " 0x6 joint type", "unknown joint type",
            "0 (rigid), 1 (cloth), 2 (joint), 3 (wheel), 4 (none) or 5 (slider)", std::to_string(b.joint->type));
  if (b.has_bind_pose && (!finite_vec3(b.rest_offset) || !finite_vec3(b.rest_rotate) || !std::isfinite(b.rest_length)))
    out.add(Severity::error, chunk_offset(b, kBoneBindPose), p + " 0x3", "non-finite bind pose", "finite numbers", "NaN or infinity");
  if (b.mass && (!std::isfinite(*b.mass) || !finite_vec3(b.center_of_mass)))
    out.add(Severity::warning, chunk_offset(b, kBoneMass), p + " 0x7", "non-finite mass or centre of mass", "finite numbers",
            "NaN or infinity");
  if (b.mass && *b.mass < 0)
    out.add(Severity::warning, chunk_offset(b, kBoneMass), p + " 0x7", "negative mass", ">= 0", std::to_string(*b.mass));
}

void validate_bone_parts(const BoneParts& parts, const std::vector<BoneData>& bones, std::string_view path,
                         Diagnostics& out) {
  std::unordered_map<std::string, std::size_t> bone_of;
  for (std::size_t i = 0; i < bones.size(); ++i) bone_of.emplace(bone_key(bones[i].name), i);
  std::vector<int> part_of(bones.size(), -1);
  const std::string base = std::string(path);
  for (std::size_t p = 0; p < parts.parts.size(); ++p) {
    const BoneGroup& part = parts.parts[p];
    const std::string where = base + " part " + std::to_string(p) + " (" + printable(part.name) + ")";
    auto take = [&](std::size_t bone) {
      if (part_of[bone] >= 0 && part_of[bone] != int(p))
        out.add(Severity::warning, parts.offset, where,
                "bone in two parts (the SDK logs \"Invalid bone parts\"; the engine uses the last)",
                "each bone in one part", printable(bones[bone].name) + " also in part " + std::to_string(part_of[bone]));
      part_of[bone] = int(p);
    };
    for (const auto& name : part.bones) {
      const auto it = bone_of.find(bone_key(name));
      if (it == bone_of.end())
        out.add(Severity::warning, parts.offset, where, "part names a bone the skeleton does not have", "a bone name",
                printable(name));
      else
        take(it->second);
    }
    for (auto index : part.indices) {
      if (index >= bones.size())
        out.add(Severity::error, parts.offset, where, "part bone index past the bones (the SDK drops every part)",
                "< " + std::to_string(bones.size()), std::to_string(index));
      else
        take(index);
    }
  }
  if (parts.parts.empty()) return;
  std::size_t loose = 0;
  std::string first;
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (part_of[i] < 0 && loose++ == 0) first = printable(bones[i].name);
  if (loose)
    out.add(Severity::warning, parts.offset, base, "bones in no part (their motions play in no channel)", "every bone in a part",
            std::to_string(loose) + " bone(s), the first " + first);
}

Diagnostics validate_bones(const BonesFile& file) {
  Diagnostics d;
  for (const auto& f : file.read_findings) d.add(f);
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < file.bones.size(); ++i) {
    const BoneData& b = file.bones[i];
    validate_bone_data(b, false, d);
    if (auto [it, fresh] = seen.emplace(bone_key(b.name), i); !fresh)
      d.add(Severity::warning, b.offset, b.path, "two records for one bone (the SDK copies the later over the earlier)",
            "unique names", "same as bone " + std::to_string(it->second));
  }
  for (const auto& c : file.chunks.chunks) {
    if (c.id() == kBonePartsChunk) continue;
    if (c.id() < file.bones.size() && !c.compress_bit()) continue;
    d.add(Severity::warning, c.offset, hex(c.raw_id),
          c.id() < 0x900 ? "bone chunk after a gap in the ids (the SDK stops at the first missing id; kept, never read)"
                         : "unknown chunk (kept)");
  }
  if (file.bones.empty())
    d.add(Severity::error, 0, "", "no bones (the SDK refuses an empty bone list)", "bone chunks 0, 1, ...", "none");
  if (!file.parts)
    d.add(Severity::warning, 0, "", "no bone parts chunk (the SDK logs \"Can't load bone parts\" and keeps the model's)",
          "chunk 0x923", "none");
  else
    validate_bone_parts(*file.parts, file.bones, "0x923", d);
  d.sort_by_offset();
  return d;
}

}  // namespace boneyard::xray
