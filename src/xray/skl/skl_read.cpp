// Reading skeletal motions (CSMotion::Load, every version) and their two files. Layouts:
// docs/xray-sdk.md "Skeletal motions".
#include <cstring>

#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/skl/skl.h"
#include "core/byte_reader.h"
#include "xray/envelope/envelope_io.h"

namespace boneyard::xray {

namespace {

constexpr const char* kChannelWhat[kMotionChannels] = {"x", "y", "z", "h", "p", "b"};

// Fewest bytes a bone record takes, per version: v4 flags + six v1 headers; v5 adds a name; v6+
// a name, a flags byte and six v2 headers.
std::size_t min_bone_bytes(std::uint16_t version) {
  if (version == 4) return 4 + 6 * 12;
  if (version == 5) return 1 + 4 + 6 * 12;
  return 1 + 1 + 6 * 4;
}
// A motion's header before its bones: name, frames, fps, version, then the version's fields.
constexpr std::size_t kMinMotionBytes = 1 + 4 + 4 + 4 + 2 + 1 + 2 + 16 + 2;

MotionMark read_mark(ByteReader& r) {
  MotionMark m;
  m.offset = r.offset();
  m.name = std::string(r.string_crlf("name"));
  m.count_offset = r.offset();
  const std::uint32_t n = r.u32("interval count");
  r.need_array(n, 8, "intervals");
  m.intervals.resize(n);
  for (auto& iv : m.intervals) {
    iv.start = r.f32("interval start");
    iv.end = r.f32("interval end");
  }
  return m;
}

SklBone read_bone(ByteReader& r, std::uint16_t version) {
  SklBone b;
  b.offset = r.offset();
  if (version >= 5) b.name = std::string(r.stringz("name"));
  b.flags = version >= 6 ? r.u8("flags") : r.u32("flags");
  const EnvelopeLayout layout = version >= 6 ? EnvelopeLayout::v2 : EnvelopeLayout::v1;
  for (std::size_t c = 0; c < kMotionChannels; ++c) b.channels[c] = read_envelope(r, layout, kChannelWhat[c]);
  return b;
}

SklMotion read_motion(ByteReader& r) {
  SklMotion m;
  m.offset = r.offset();
  m.name = std::string(r.stringz("name"));
  m.frame_start = r.s32("frame start");
  m.frame_end = r.s32("frame end");
  m.fps = r.f32("fps");
  const std::uint64_t version_at = r.offset();
  m.version = r.u16("version");
  std::uint32_t bone_count = 0;
  switch (m.version) {
    case 4:
      m.bone_or_part = r.u32("bone or part");
      m.v4_flag_bytes[0] = r.u8("fx");
      m.v4_flag_bytes[1] = r.u8("stop at end");
      m.flags = (m.v4_flag_bytes[0] ? kMotionFx : 0u) | (m.v4_flag_bytes[1] ? kMotionStopAtEnd : 0u);
      break;
    case 5:
      m.flags = r.u32("flags");
      m.bone_or_part = r.u32("bone or part");
      break;
    case 6:
    case 7:
      m.flags = r.u8("flags");
      m.bone_or_part = r.u16("bone or part");
      break;
    default:
      fail(version_at, "version", "unsupported motion version", "4 to 7", std::to_string(m.version));
  }
  m.speed = r.f32("speed");
  m.accrue = r.f32("accrue");
  m.falloff = r.f32("falloff");
  m.power = r.f32("power");
  bone_count = m.version >= 6 ? r.u16("bone count") : r.u32("bone count");
  r.need_array(bone_count, min_bone_bytes(m.version), "bones");
  m.bones.reserve(bone_count);
  for (std::uint32_t i = 0; i < bone_count; ++i) {
    try {
      m.bones.push_back(read_bone(r, m.version));
    } catch (ParseError& e) {
      e.prepend_path("bone " + std::to_string(i));
      throw;
    }
  }
  if (m.version >= 7) {
    const std::uint32_t marks = r.u32("mark count");
    r.need_array(marks, 2 + 4, "marks");
    m.marks.reserve(marks);
    for (std::uint32_t i = 0; i < marks; ++i) {
      try {
        m.marks.push_back(read_mark(r));
      } catch (ParseError& e) {
        e.prepend_path("mark " + std::to_string(i));
        throw;
      }
    }
  }
  return m;
}

std::string motion_path(std::string_view prefix, std::size_t i) {
  std::string p(prefix);
  if (!p.empty()) p += ' ';
  return p + "motion " + std::to_string(i);
}

MotionList read_list(Bytes data, std::uint64_t base, std::string_view prefix) {
  ByteReader r(data, base);
  MotionList list;
  list.declared_count = r.u32(prefix.empty() ? "motion count" : std::string(prefix) + " motion count");
  r.need_array(list.declared_count, kMinMotionBytes, prefix.empty() ? "motions" : std::string(prefix) + " motions");
  list.motions.reserve(list.declared_count);
  for (std::uint32_t i = 0; i < list.declared_count; ++i) {
    try {
      list.motions.push_back(read_motion(r));
    } catch (ParseError& e) {
      e.prepend_path(motion_path(prefix, i));
      throw;
    }
  }
  list.tail = r.rest();
  list.tail_offset = r.offset();
  return list;
}

// A .skl motion from a chunk's content; `unpacked`: the content is LZHuf-unpacked (positions, not
// file offsets).
void read_motion_chunk(SklFile& f, Bytes content, std::uint64_t base, const std::string& prefix) {
  ByteReader r(content, base);
  try {
    f.motions.push_back(read_motion(r));
  } catch (ParseError& e) {
    e.prepend_path(prefix);
    throw;
  }
  f.tail = r.rest();
  f.tail_offset = r.offset();
}

}  // namespace

Bytes SklFile::keep(std::vector<std::uint8_t> bytes) {
  owned->push_back(std::move(bytes));
  return owned->back();
}

bool looks_like_skl(Bytes bytes) {
  return bytes.size() >= 8 && (load_le<std::uint32_t>(bytes.data()) & ~kChunkCompressBit) == kChunkSkeletonMotion;
}

bool looks_like_skls(Bytes bytes) {
  // A count, then a motion header: a name of printable bytes, start <= end, an fps, a version 4-7.
  if (bytes.size() < 4 + kMinMotionBytes) return false;
  if (load_le<std::uint32_t>(bytes.data()) == 0) return false;
  std::size_t at = 4;
  while (at < bytes.size() && bytes[at] != 0) {
    if (bytes[at] < 0x20 || at - 4 > 255) return false;
    ++at;
  }
  ++at;
  if (bytes.size() < at + 14) return false;
  const auto version = load_le<std::uint16_t>(bytes.data() + at + 12);
  return version >= kOldestSklVersion && version <= kNewestSklVersion;
}

Result<SklMotion> read_skl_motion(Bytes data, std::uint64_t base_offset, std::size_t& consumed, std::string_view path) {
  return catch_parse_errors([&] {
    ByteReader r(data, base_offset);
    try {
      SklMotion m = read_motion(r);
      consumed = r.position();
      return m;
    } catch (ParseError& e) {
      if (!path.empty()) e.prepend_path(path);
      throw;
    }
  });
}

Result<MotionList> read_motion_list(Bytes data, std::uint64_t base_offset, std::string_view path) {
  return catch_parse_errors([&] { return read_list(data, base_offset, path); });
}

Result<SklFile> read_skls(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&] {
    SklFile f;
    f.container = SklContainer::skls;
    f.source = file;
    f.size = file->bytes().size();
    MotionList list = read_list(file->bytes(), 0, "");
    f.declared_count = list.declared_count;
    f.motions = std::move(list.motions);
    f.tail = list.tail;
    f.tail_offset = list.tail_offset;
    return f;
  });
}

Result<SklFile> read_skl(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&]() -> SklFile {
    SklFile f;
    f.container = SklContainer::skl;
    f.source = file;
    f.size = file->bytes().size();
    ChunkList list = split_chunks(file->bytes(), 0);
    f.chunks = std::move(list.chunks);
    f.trailing = list.trailing;
    f.trailing_offset = list.trailing_offset;
    f.overrun = list.overrun;
    std::size_t found = f.chunks.size();
    for (std::size_t i = 0; i < f.chunks.size() && found == f.chunks.size(); ++i)
      if (f.chunks[i].id() == kChunkSkeletonMotion) found = i;
    if (found == f.chunks.size()) {
      if (f.overrun && f.overrun->truncated_chunk())
        fail(f.overrun->offset, hex(f.overrun->raw_id), "truncated chunk",
             std::to_string(f.overrun->declared_size) + " bytes", std::to_string(f.overrun->available) + " bytes");
      fail(0, {}, "no skeletal motion chunk", "chunk 0x1200", f.chunks.empty() ? "no chunk" : "chunk " + hex(f.chunks[0].raw_id));
    }
    f.motion_chunk = found;
    const Chunk& c = f.chunks[found];
    const std::string prefix = hex(c.raw_id);
    if (!c.compress_bit()) {
      read_motion_chunk(f, c.payload, c.payload_offset(), prefix);
      return f;
    }
    // Bit 31: the engine reads the payload as stored; blender-xray unpacks it.
    try {
      read_motion_chunk(f, c.payload, c.payload_offset(), prefix);
      return f;
    } catch (const ParseError& as_stored) {
      auto content = open_chunk(c, prefix);
      if (!content) throw;
      SklFile g = std::move(f);
      g.motions.clear();
      try {
        read_motion_chunk(g, content->bytes, 0, prefix + " unpacked");
      } catch (const ParseError&) {
        throw as_stored;
      }
      g.motion_unpacked = std::move(content).value();
      return g;
    }
  });
}

}  // namespace boneyard::xray
