// Writing skeletal motions as stored: each version's own layout, envelopes and marks copied from
// the model (docs/xray-sdk.md "Skeletal motions").
#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

void write_skl_motion(ByteWriter& w, const SklMotion& m) {
  w.stringz(m.name);
  w.s32(m.frame_start);
  w.s32(m.frame_end);
  w.f32(m.fps);
  w.u16(m.version);
  if (m.version == 4) {
    w.u32(m.bone_or_part);
    w.u8(m.v4_flag_bytes[0]);
    w.u8(m.v4_flag_bytes[1]);
  } else if (m.version == 5) {
    w.u32(m.flags);
    w.u32(m.bone_or_part);
  } else {
    w.u8(static_cast<std::uint8_t>(m.flags));
    w.u16(static_cast<std::uint16_t>(m.bone_or_part));
  }
  w.f32(m.speed);
  w.f32(m.accrue);
  w.f32(m.falloff);
  w.f32(m.power);
  if (m.version >= 6) w.u16(static_cast<std::uint16_t>(m.bones.size()));
  else w.u32(static_cast<std::uint32_t>(m.bones.size()));
  for (const auto& b : m.bones) {
    if (m.version >= 5) w.stringz(b.name);
    if (m.version >= 6) w.u8(static_cast<std::uint8_t>(b.flags));
    else w.u32(b.flags);
    w.bytes(b.envelopes);
  }
  if (m.version >= 7) {
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

void write_motion_list(ByteWriter& w, const std::vector<SklMotion>& motions, Bytes tail) {
  w.u32(static_cast<std::uint32_t>(motions.size()));
  for (const auto& m : motions) write_skl_motion(w, m);
  w.bytes(tail);
}

std::vector<std::uint8_t> write_skl(const SklFile& f) {
  std::vector<std::uint8_t> out;
  out.reserve(f.size + 64);
  ByteWriter w(out);
  if (f.container == SklContainer::skls) {
    write_motion_list(w, f.motions, f.tail);
    return out;
  }
  for (std::size_t i = 0; i < f.chunks.size(); ++i) {
    const Chunk& c = f.chunks[i];
    if (i != f.motion_chunk || f.motions.empty()) {
      write_chunk(w, c.raw_id, c.payload);
      continue;
    }
    std::vector<std::uint8_t> body;
    ByteWriter bw(body);
    write_skl_motion(bw, f.motions.front());
    bw.bytes(f.tail);
    if (f.motion_unpacked) write_chunk_content(w, *f.motion_unpacked, body);  // the stored bytes when unchanged
    else write_chunk(w, c.raw_id, body);  // as the engine reads it: bit 31 or not, stored as it is
  }
  w.bytes(f.trailing);
  return out;
}

}  // namespace boneyard::xray

#include "boneyard/core/read_back.h"

namespace boneyard::xray {

Result<std::vector<std::uint8_t>> checked_skl_bytes(std::vector<std::uint8_t> bytes, SklContainer container,
                                                    const Diagnostics* inherited) {
  // Never hand out a file boneyard or the SDK would misread: the written bytes are read back and
  // validated, and the first new error stops the write.
  const char* what = container == SklContainer::skl ? "written .skl" : "written .skls";
  auto file = FileData::from_vector(bytes);
  auto reread = container == SklContainer::skl ? read_skl(file) : read_skls(file);
  if (!reread) {
    Finding e = reread.error();
    e.path = what + (e.path.empty() ? "" : " " + e.path);
    return e;
  }
  if (auto fresh = first_new_error(validate_skl(reread.value()), inherited, what); !fresh) return fresh.error();
  return bytes;
}

}  // namespace boneyard::xray
