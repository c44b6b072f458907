// Reading bone data: a bone's chunks (BONES2 entry, .bones record), the old 0x913 records, bone
// parts, and the .bones file around them.
#include <algorithm>

#include "boneyard/core/text.h"
#include "boneyard/xray/bones/bones.h"
#include "core/byte_reader.h"

namespace boneyard::xray {

namespace {

Vec3 read_bone_vec3(ByteReader& r, std::string_view what) {
  Vec3 v;
  v.x = r.f32(what);
  v.y = r.f32(what);
  v.z = r.f32(what);
  return v;
}

// Fails when the chunk is shorter than its layout; a longer one is noted (the SDK reads the
// fields it knows and ignores the rest).
void check_size(const Chunk& c, std::size_t want, const std::string& path, std::vector<Finding>& notes) {
  if (c.payload.size() < want)
    fail(c.payload_offset(), path, "chunk shorter than its layout", std::to_string(want) + " bytes",
         std::to_string(c.payload.size()) + " bytes");
  if (c.payload.size() > want)
    notes.push_back({Severity::warning, c.payload_offset() + want, path,
                     "chunk longer than its layout (the extra bytes are kept)", std::to_string(want) + " bytes",
                     std::to_string(c.payload.size()) + " bytes"});
}

BoneShape read_shape(ByteReader& r) {
  BoneShape s;
  s.type = r.u16("shape type");
  s.flags = r.u16("shape flags");
  for (float& f : s.box_rotate) f = r.f32("shape box rotation");
  s.box_translate = read_bone_vec3(r, "shape box translation");
  s.box_halfsize = read_bone_vec3(r, "shape box half size");
  s.sphere_center = read_bone_vec3(r, "shape sphere centre");
  s.sphere_radius = r.f32("shape sphere radius");
  s.cylinder_center = read_bone_vec3(r, "shape cylinder centre");
  s.cylinder_direction = read_bone_vec3(r, "shape cylinder direction");
  s.cylinder_height = r.f32("shape cylinder height");
  s.cylinder_radius = r.f32("shape cylinder radius");
  return s;
}

BoneJoint read_joint(ByteReader& r) {
  BoneJoint j;
  j.type = r.u32("joint type");
  for (auto& l : j.limits) {
    l.lo = r.f32("joint limit");
    l.hi = r.f32("joint limit");
    l.spring = r.f32("joint limit spring");
    l.damping = r.f32("joint limit damping");
  }
  j.spring = r.f32("joint spring");
  j.damping = r.f32("joint damping");
  return j;
}

}  // namespace

Vec3 BoneData::bind_rotation() const {
  if (version && *version == 1) return {rest_rotate.y, rest_rotate.x, rest_rotate.z};
  return rest_rotate;
}

std::string bone_key(std::string_view raw_name) { return lower_ascii(raw_name); }

BoneData parse_bone_chunks(const Chunk& bone, std::string path, std::vector<Finding>& notes) {
  BoneData b;
  b.offset = bone.offset;
  b.path = std::move(path);
  b.chunks = split_chunks(bone.payload, bone.payload_offset());
  if (b.chunks.overrun && b.chunks.overrun->truncated_chunk())
    fail(b.chunks.overrun->offset, b.path + " " + hex(b.chunks.overrun->raw_id), "chunk runs past the end of the bone",
         std::to_string(b.chunks.overrun->declared_size) + " bytes", std::to_string(b.chunks.overrun->available) + " bytes left");
  if (!b.chunks.trailing.empty())
    notes.push_back({Severity::warning, b.chunks.trailing_offset, b.path,
                     "bytes after the bone's last chunk (kept)", "none", std::to_string(b.chunks.trailing.size()) + " bytes"});
  for (const Chunk& c : b.chunks.chunks) {
    const std::string where = b.path + " " + hex(c.id());
    ByteReader r(c.payload, c.payload_offset());
    try {
      switch (c.id()) {
        case kBoneVersion:
          check_size(c, 2, where, notes);
          if (!b.version) b.version = r.u16("version");
          break;
        case kBoneDef:
          if (b.def_chunks++ == 0) {
            b.name = std::string(r.stringz("name"));
            if (!r.at_end()) {
              b.parent = std::string(r.stringz("parent"));
              b.wmap = std::string(r.stringz("weight map"));
              b.def_has_links = true;
            }
          } else {
            // SaveData's own DEF repeats the name; what the SDK reads is the first one.
            (void)r.stringz("name");
          }
          break;
        case kBoneBindPose:
          check_size(c, 28, where, notes);
          b.has_bind_pose = true;
          b.rest_offset = read_bone_vec3(r, "rest offset");
          b.rest_rotate = read_bone_vec3(r, "rest rotation");
          b.rest_length = r.f32("rest length");
          break;
        case kBoneMaterial:
          if (!b.game_mtl) b.game_mtl = std::string(r.stringz("game material"));
          break;
        case kBoneShape:
          check_size(c, kBoneShapeSize, where, notes);
          if (!b.shape) b.shape = read_shape(r);
          break;
        case kBoneFlags:
          check_size(c, 4, where, notes);
          if (!b.ik_flags) b.ik_flags = r.u32("ik flags");
          break;
        case kBoneIkJoint:
          check_size(c, kBoneJointSize, where, notes);
          if (!b.joint) b.joint = read_joint(r);
          break;
        case kBoneBreak:
          check_size(c, 8, where, notes);
          if (!b.break_limits) {
            const float force = r.f32("break force");
            b.break_limits = std::array<float, 2>{force, r.f32("break torque")};
          }
          break;
        case kBoneFriction:
          check_size(c, 4, where, notes);
          if (!b.friction) b.friction = r.f32("friction");
          break;
        case kBoneMass:
          check_size(c, 16, where, notes);
          if (!b.mass) {
            b.mass = r.f32("mass");
            b.center_of_mass = read_bone_vec3(r, "centre of mass");
          }
          break;
        default:
          notes.push_back({Severity::info, c.offset, where, "unknown bone chunk (kept)", {}, {}});
          break;
      }
    } catch (ParseError& e) {
      e.prepend_path(where);
      throw;
    }
  }
  return b;
}

std::vector<BoneData> parse_old_bones(const Chunk& chunk, std::vector<Finding>&) {
  ByteReader r(chunk.payload, chunk.payload_offset());
  const std::uint32_t count = r.u32("0x913 bone count");
  // name, parent, wmap (at least their NULs) and 7 floats per record.
  r.need_array(count, 3 + 28, "0x913 bones");
  std::vector<BoneData> out;
  out.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    BoneData b;
    b.path = "0x913 bone " + std::to_string(i);
    b.offset = r.offset();
    try {
      b.name = std::string(r.stringz("name"));
      b.parent = std::string(r.stringz("parent"));
      b.wmap = std::string(r.stringz("weight map"));
      b.def_has_links = true;
      b.has_bind_pose = true;
      b.rest_offset = read_bone_vec3(r, "rest offset");
      b.rest_rotate = read_bone_vec3(r, "rest rotation");
      b.rest_length = r.f32("rest length");
      b.version = 1;  // Load_0 swaps x and y of the rotation, as version 1 does
    } catch (ParseError& e) {
      e.prepend_path(b.path);
      throw;
    }
    out.push_back(std::move(b));
  }
  return out;
}

BoneParts parse_bone_parts(const Chunk& chunk) {
  BoneParts p;
  p.chunk = chunk.id();
  p.offset = chunk.payload_offset();
  ByteReader r(chunk.payload, chunk.payload_offset());
  const std::string base = hex(chunk.id());
  const std::uint32_t count = r.u32(base + " part count");
  r.need_array(count, 5, base + " parts");
  p.parts.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::string where = base + " part " + std::to_string(i);
    BoneGroup part;
    part.name = std::string(r.stringz(where + " name"));
    const std::uint32_t n = r.u32(where + " bone count");
    if (chunk.id() == kBonePartsOldChunk) {
      r.need_array(n, 4, where + " bone indices");
      part.indices.reserve(n);
      for (std::uint32_t k = 0; k < n; ++k) part.indices.push_back(r.u32(where + " bone index"));
    } else {
      r.need_array(n, 1, where + " bone names");
      part.bones.reserve(n);
      for (std::uint32_t k = 0; k < n; ++k) part.bones.emplace_back(r.stringz(where + " bone name"));
    }
    p.parts.push_back(std::move(part));
  }
  return p;
}

bool looks_like_bones(Bytes bytes) {
  if (bytes.size() < 8) return false;
  const auto id = load_le<std::uint32_t>(bytes.data());
  const auto size = load_le<std::uint32_t>(bytes.data() + 4);
  if (size > bytes.size() - 8) return false;
  if (id == kBonePartsChunk) return size >= 4 && size == bytes.size() - 8;
  if (id != 0 || size < 8) return false;
  // Bone 0 starts with a data chunk: SaveData writes DEF first.
  const auto first = load_le<std::uint32_t>(bytes.data() + 8);
  return first == kBoneDef || first == kBoneVersion;
}

Result<BonesFile> read_bones(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&]() -> BonesFile {
    BonesFile f;
    f.source = file;
    f.size = file->bytes().size();
    f.chunks = split_chunks(file->bytes(), 0);
    if (f.chunks.chunks.empty()) fail(0, "", "not a .bones file: no chunks", "bone chunks and 0x923", std::to_string(f.size) + " bytes");
    if (f.chunks.overrun && f.chunks.overrun->truncated_chunk())
      fail(f.chunks.overrun->offset, hex(f.chunks.overrun->raw_id), "chunk runs past the end of the file",
           std::to_string(f.chunks.overrun->declared_size) + " bytes", std::to_string(f.chunks.overrun->available) + " bytes left");
    if (!f.chunks.trailing.empty())
      f.read_findings.push_back({Severity::warning, f.chunks.trailing_offset, "",
                                 "bytes after the last chunk (kept)", "none", std::to_string(f.chunks.trailing.size()) + " bytes"});
    // The SDK opens chunk 0, 1, ... until one is missing.
    for (std::uint32_t id = 0;; ++id) {
      const Chunk* c = f.chunks.find(id);
      if (c == nullptr || c->compress_bit()) break;
      f.bones.push_back(parse_bone_chunks(*c, "bone " + std::to_string(id), f.read_findings));
    }
    if (const Chunk* parts = f.chunks.find(kBonePartsChunk)) f.parts = parse_bone_parts(*parts);
    return f;
  });
}

std::vector<std::uint8_t> write_bones(const BonesFile& file) {
  std::vector<std::uint8_t> out;
  out.reserve(file.size);
  ByteWriter w(out);
  for (const auto& c : file.chunks.chunks) write_chunk(w, c.raw_id, c.payload);
  w.bytes(file.chunks.trailing);  // junk after the last chunk (or a header that overruns the end)
  return out;
}

}  // namespace boneyard::xray
