// Reading skeletal motions (CSMotion::Load, every version) and their two files. Layouts:
// docs/xray-sdk.md "Skeletal motions".
#include <cstring>

#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/skl/skl.h"
#include "core/byte_reader.h"
#include "xray/envelope/envelope_io.h"

namespace boneyard::xray {

namespace {

constexpr std::string_view kSklChannelWhat[kMotionChannels] = {"x", "y", "z", "h", "p", "b"};

// Fewest bytes a bone record takes, per version: v4 flags + six v1 headers; v5 adds a name; v6+
// a name, a flags byte and six v2 headers.
std::size_t min_skl_bone_bytes(std::uint16_t version) {
  if (version == 4) return 4 + 6 * 12;
  if (version == 5) return 1 + 4 + 6 * 12;
  return 1 + 1 + 6 * 4;
}
// A motion's header before its bones: name, frames, fps, version, then the version's fields.
constexpr std::size_t kMinSklMotionBytes = 1 + 4 + 4 + 4 + 2 + 1 + 2 + 16 + 2;

MotionMark read_skl_mark(ByteReader& r) {
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

void read_skl_bone(ByteReader& r, std::uint16_t version, SklBone& b) {
  b.offset = r.offset();
  if (version >= 5) b.name = r.stringz("name");
  b.flags = version >= 6 ? r.u8("flags") : r.u32("flags");
  b.layout = version >= 6 ? EnvelopeLayout::v2 : EnvelopeLayout::v1;
  const std::size_t first = r.position();
  b.envelopes_offset = r.offset();
  Envelope e;  // walked and checked; the bone keeps the bytes
  std::uint8_t plain = 0;
  for (std::size_t c = 0; c < kMotionChannels; ++c) {
    b.starts[c] = static_cast<std::uint32_t>(r.position() - first);
    read_envelope(r, b.layout, kSklChannelWhat[c], e);
    plain |= static_cast<std::uint8_t>(e.plain ? 1u << c : 0u);
  }
  b.plain_channels = plain;
  b.envelopes = r.data().subspan(first, r.position() - first);
}

SklMotion read_skl_body(ByteReader& r) {
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
  r.need_array(bone_count, min_skl_bone_bytes(m.version), "bones");
  m.bones.resize(bone_count);
  bool plain = true;
  for (std::uint32_t i = 0; i < bone_count; ++i) {
    SklBone& b = m.bones[i];
    try {
      read_skl_bone(r, m.version, b);
    } catch (ParseError& e) {
      e.prepend_path("bone " + std::to_string(i));
      throw;
    }
    plain &= (b.flags & ~kBoneWorldOrient) == 0 && b.plain_channels == 0x3F;
  }
  m.plain = plain;
  if (m.version >= 7) {
    const std::uint32_t marks = r.u32("mark count");
    r.need_array(marks, 2 + 4, "marks");
    m.marks.reserve(marks);
    for (std::uint32_t i = 0; i < marks; ++i) {
      try {
        m.marks.push_back(read_skl_mark(r));
      } catch (ParseError& e) {
        e.prepend_path("mark " + std::to_string(i));
        throw;
      }
    }
  }
  return m;
}

std::string skl_motion_path(std::string_view prefix, std::size_t i) {
  std::string p(prefix);
  if (!p.empty()) p += ' ';
  return p + "motion " + std::to_string(i);
}

MotionList read_skl_list(Bytes data, std::uint64_t base, std::string_view prefix) {
  ByteReader r(data, base);
  MotionList list;
  list.declared_count = r.u32(prefix.empty() ? "motion count" : std::string(prefix) + " motion count");
  r.need_array(list.declared_count, kMinSklMotionBytes, prefix.empty() ? "motions" : std::string(prefix) + " motions");
  list.motions.reserve(list.declared_count);
  for (std::uint32_t i = 0; i < list.declared_count; ++i) {
    try {
      list.motions.push_back(read_skl_body(r));
    } catch (ParseError& e) {
      e.prepend_path(skl_motion_path(prefix, i));
      throw;
    }
  }
  list.tail = r.rest();
  list.tail_offset = r.offset();
  return list;
}

// A .skl motion from a chunk's content; `unpacked`: the content is LZHuf-unpacked (positions, not
// file offsets).
void read_skl_chunk(SklFile& f, Bytes content, std::uint64_t base, const std::string& prefix) {
  ByteReader r(content, base);
  try {
    f.motions.push_back(read_skl_body(r));
  } catch (ParseError& e) {
    e.prepend_path(prefix);
    throw;
  }
  f.tail = r.rest();
  f.tail_offset = r.offset();
}

}  // namespace

Envelope SklBone::channel(std::size_t c) const {
  Envelope e;
  e.layout = layout;
  e.plain = (plain_channels >> c) & 1u;
  const std::size_t start = starts[c];
  const std::size_t end = c + 1 < kMotionChannels ? starts[c + 1] : envelopes.size();
  const std::uint8_t* p = envelopes.data() + start;
  if (layout == EnvelopeLayout::v1) {
    e.pre = load_le<std::uint32_t>(p);
    e.post = load_le<std::uint32_t>(p + 4);
    e.key_count = load_le<std::uint32_t>(p + 8);
  } else {
    e.pre = p[0];
    e.post = p[1];
    e.key_count = load_le<std::uint16_t>(p + 2);
  }
  e.keys = envelopes.subspan(start + e.header_bytes(), end - start - e.header_bytes());
  e.offset = envelopes_offset + start;
  return e;
}

std::array<Envelope, kMotionChannels> SklBone::channels() const {
  std::array<Envelope, kMotionChannels> out;
  for (std::size_t c = 0; c < kMotionChannels; ++c) out[c] = channel(c);
  return out;
}

SklBone make_skl_bone(std::string_view name, std::uint32_t flags, EnvelopeLayout layout,
                      const std::array<Envelope, kMotionChannels>& channels,
                      std::deque<std::vector<std::uint8_t>>& storage) {
  SklBone b;
  b.name = name;
  b.flags = flags;
  b.layout = layout;
  std::vector<std::uint8_t> bytes;
  ByteWriter w(bytes);
  for (std::size_t c = 0; c < kMotionChannels; ++c) {
    b.starts[c] = static_cast<std::uint32_t>(bytes.size());
    Envelope e = channels[c];
    e.layout = layout;
    write_envelope(w, e);
  }
  storage.push_back(std::move(bytes));
  b.envelopes = storage.back();
  return b;
}

Bytes SklFile::keep(std::vector<std::uint8_t> bytes) {
  owned->push_back(std::move(bytes));
  return owned->back();
}

std::string_view SklFile::keep_text(std::string_view text) {
  const Bytes kept = keep(std::vector<std::uint8_t>(text.begin(), text.end()));
  return {reinterpret_cast<const char*>(kept.data()), kept.size()};
}

bool looks_like_skl(Bytes bytes) {
  return bytes.size() >= 8 && (load_le<std::uint32_t>(bytes.data()) & ~kChunkCompressBit) == kChunkSkeletonMotion;
}

bool looks_like_skls(Bytes bytes) {
  // A count, then a motion header: a name of printable bytes, start <= end, an fps, a version 4-7.
  if (bytes.size() < 4 + kMinSklMotionBytes) return false;
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
      SklMotion m = read_skl_body(r);
      consumed = r.position();
      return m;
    } catch (ParseError& e) {
      if (!path.empty()) e.prepend_path(path);
      throw;
    }
  });
}

Result<MotionList> read_motion_list(Bytes data, std::uint64_t base_offset, std::string_view path) {
  return catch_parse_errors([&] { return read_skl_list(data, base_offset, path); });
}

Result<SklFile> read_skls(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&] {
    SklFile f;
    f.container = SklContainer::skls;
    f.source = file;
    f.size = file->bytes().size();
    MotionList list = read_skl_list(file->bytes(), 0, "");
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
    const std::size_t found = list.index_or_fail(kChunkSkeletonMotion, "no skeletal motion chunk", "chunk 0x1200");
    f.chunks = std::move(list.chunks);
    f.trailing = list.trailing;
    f.trailing_offset = list.trailing_offset;
    f.overrun = list.overrun;
    f.motion_chunk = found;
    const Chunk& c = f.chunks[found];
    const std::string prefix = hex(c.raw_id);
    if (!c.compress_bit()) {
      read_skl_chunk(f, c.payload, c.payload_offset(), prefix);
      return f;
    }
    // Bit 31: the engine reads the payload as stored; blender-xray unpacks it.
    try {
      read_skl_chunk(f, c.payload, c.payload_offset(), prefix);
      return f;
    } catch (const ParseError& as_stored) {
      auto content = open_chunk(c, prefix);
      if (!content) throw;
      SklFile g = std::move(f);
      g.motions.clear();
      try {
        read_skl_chunk(g, content->bytes, 0, prefix + " unpacked");
      } catch (const ParseError&) {
        throw as_stored;
      }
      g.motion_unpacked = std::move(content).value();
      return g;
    }
  });
}

}  // namespace boneyard::xray
