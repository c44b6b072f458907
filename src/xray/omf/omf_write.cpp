// Writing chunks 0xE/0xF from the model. Unedited models reproduce their file byte for byte:
// sub-chunk order, raw ids (bit 31), tails and trailing bytes are all part of the model.
#include "boneyard/xray/omf/omf.h"

namespace boneyard::xray {

namespace {

void write_vec3(ByteWriter& w, const Vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

void write_bone_keys(ByteWriter& w, const BoneKeys& b) {
  w.u8(b.flags);
  if (!b.rotation_static()) w.u32(b.rotation_crc);
  w.bytes(b.rotation_keys);
  if (b.translation_keyed()) {
    w.u32(b.translation_crc);
    w.bytes(b.translation_keys);
    write_vec3(w, b.translation_size);
  }
  write_vec3(w, b.translation_init);
}

void write_motion_keys(ByteWriter& w, const MotionKeys& m) {
  const std::size_t at = begin_chunk(w, m.raw_id);
  if (!m.readable) {
    w.bytes(m.raw);
  } else {
    w.stringz(m.name);
    w.u32(m.frames);
    for (const auto& b : m.bones) write_bone_keys(w, b);
    w.bytes(m.tail);
  }
  end_chunk(w, at);
}

}  // namespace

void write_motions_payload(ByteWriter& w, const MotionSet& set) {
  for (const auto& s : set.subchunks) {
    if (s.kind == MotionsSubchunk::Kind::motion)
      write_motion_keys(w, set.motions[s.motion]);
    else
      write_chunk(w, s.raw_id, s.payload);
  }
  w.bytes(set.motions_trailing);
}

void write_params_payload(ByteWriter& w, const Params& p) {
  w.u16(p.version);
  w.u16(static_cast<std::uint16_t>(p.parts.size()));
  for (const auto& part : p.parts) {
    w.stringz(part.name);
    w.u16(static_cast<std::uint16_t>(part.bones.size()));
    for (const auto& bone : part.bones) {
      if (p.version == 1 || p.parts_without_names) {
        w.u32(bone.index);
      } else {
        w.stringz(bone.name);
        if (p.version >= 3) w.u32(bone.index);
      }
    }
  }
  w.u16(static_cast<std::uint16_t>(p.motions.size()));
  for (const auto& m : p.motions) {
    w.stringz(m.name);
    w.u32(m.flags);
    w.u16(m.bone_or_part);
    w.u16(m.motion_id);
    w.f32(m.speed);
    w.f32(m.power);
    w.f32(m.accrue);
    w.f32(m.falloff);
    if (p.version >= 4) {
      w.u32(static_cast<std::uint32_t>(m.marks.size()));
      for (const auto& mark : m.marks) {
        w.string_crlf(mark.name);
        w.u32(static_cast<std::uint32_t>(mark.intervals.size()));
        for (const auto& iv : mark.intervals) {
          w.f32(iv.start);
          w.f32(iv.end);
        }
      }
    }
  }
  w.bytes(p.tail);
}

std::vector<std::uint8_t> write_omf(const OmfFile& file) {
  std::vector<std::uint8_t> out;
  out.reserve(file.size);
  ByteWriter w(out);
  for (const auto& c : file.chunks) {
    switch (c.kind) {
      case TopChunk::Kind::motions: {
        const std::size_t at = begin_chunk(w, file.motions.motions_raw_id);
        write_motions_payload(w, file.motions);
        end_chunk(w, at);
        break;
      }
      case TopChunk::Kind::params: {
        const std::size_t at = begin_chunk(w, file.motions.params.raw_id);
        write_params_payload(w, file.motions.params);
        end_chunk(w, at);
        break;
      }
      case TopChunk::Kind::other: write_chunk(w, c.raw_id, c.payload); break;
    }
  }
  w.bytes(file.trailing);
  return out;
}

}  // namespace boneyard::xray
