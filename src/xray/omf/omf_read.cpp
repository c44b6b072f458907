// Reading chunks 0xE/0xF. Layout facts: docs/xray-omf.md (from ../shared/docs/xray-motions.md).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "boneyard/core/crc32.h"
#include "boneyard/xray/omf/omf.h"
#include "core/byte_reader.h"
#include "omf_parse.h"

namespace boneyard::xray {

namespace {

std::string annotate(std::string_view base, std::size_t i) { return std::string(base) + " " + std::to_string(i); }

std::string part_path(std::size_t p) { return "part " + std::to_string(p); }

void read_part_bones(ByteReader& r, BonePart& part, std::uint16_t version, bool without_names, std::uint16_t count) {
  // v1 and the nameless SDK layout: 4 bytes each; otherwise at least a NUL byte per bone.
  r.need_array(count, (version == 1 || without_names) ? 4 : 1, "bones");
  part.bones.reserve(count);
  for (std::uint16_t b = 0; b < count; ++b) {
    PartBone bone;
    bone.offset = r.offset();
    try {
      if (version == 1 || without_names) {
        bone.index = r.u32("bone id");
      } else {
        bone.name = std::string(r.stringz("bone name"));
        bone.index = version >= 3 ? r.u32("motion bone index") : b;
      }
    } catch (ParseError& e) {
      e.prepend_path(annotate("bone", b));
      throw;
    }
    part.bones.push_back(std::move(bone));
  }
}

void read_parts(ByteReader& r, Params& p, bool without_names) {
  const std::uint16_t part_count = r.u16("part count");
  r.need_array(part_count, 3, "parts");
  p.parts.clear();
  p.parts.reserve(part_count);
  for (std::uint16_t i = 0; i < part_count; ++i) {
    BonePart part;
    part.offset = r.offset();
    try {
      part.name = std::string(r.stringz("name"));
      const std::uint16_t bone_count = r.u16("bone count");
      read_part_bones(r, part, p.version, without_names, bone_count);
    } catch (ParseError& e) {
      e.prepend_path(part_path(i));
      throw;
    }
    p.parts.push_back(std::move(part));
  }
}

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

MotionParams read_motion_params(ByteReader& r, std::uint16_t version) {
  MotionParams m;
  m.offset = r.offset();
  m.name = std::string(r.stringz("name"));
  m.flags = r.u32("flags");
  m.bone_or_part = r.u16("bone or part");
  m.motion_id = r.u16("motion id");
  m.speed = r.f32("speed");
  m.power = r.f32("power");
  m.accrue = r.f32("accrue");
  m.falloff = r.f32("falloff");
  if (version >= 4) {
    const std::uint32_t n = r.u32("mark count");
    r.need_array(n, 6, "marks");  // CR LF + u32 count at least
    m.marks.reserve(n);
    for (std::uint32_t k = 0; k < n; ++k) {
      try {
        m.marks.push_back(read_mark(r));
      } catch (ParseError& e) {
        e.prepend_path(annotate("mark", k));
        throw;
      }
    }
  }
  return m;
}

void read_params_body(ByteReader& r, Params& p, bool without_names) {
  p.motions.clear();
  try {
    read_parts(r, p, without_names);
    const std::uint16_t n = r.u16("motion count");
    r.need_array(n, 25, "motions");  // NUL, flags, bone/part, id and 4 floats at least
    p.motions.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) {
      try {
        p.motions.push_back(read_motion_params(r, p.version));
      } catch (ParseError& e) {
        e.prepend_path(annotate("motion", i));
        throw;
      }
    }
  } catch (ParseError& e) {
    e.prepend_path("0xF");
    throw;
  }
}

Params parse_params(const Chunk& chunk) {
  Params p;
  p.raw_id = chunk.raw_id;
  p.offset = chunk.offset;
  ByteReader r(chunk.payload, chunk.payload_offset());
  try {
    p.version = r.u16("version");
  } catch (ParseError& e) {
    e.prepend_path("0xF");
    throw;
  }
  if (p.version < 1 || p.version > 4) {
    fail(chunk.payload_offset(), "0xF version", "unsupported params version", "1, 2, 3 or 4",
         std::to_string(p.version));
  }
  const ByteReader body = r;
  try {
    read_params_body(r, p, false);
  } catch (const ParseError& named_error) {
    // The SDK writes a nameless "default" part (u32 indices only) when an object has no parts.
    if (p.version < 3) throw;
    r = body;
    try {
      read_params_body(r, p, true);
    } catch (const ParseError&) {
      throw named_error;  // the named layout's error is the meaningful one
    }
    p.parts_without_names = true;
  }
  p.tail_offset = r.offset();
  p.tail = r.rest();
  return p;
}

// Parses one bone record; throws on truncation.
BoneKeys read_bone_keys(ByteReader& r, std::uint32_t frames) {
  BoneKeys b;
  b.offset = r.offset();
  b.flags = r.u8("flags");
  if (b.rotation_static()) {
    b.rotation_keys = r.bytes(8, "static rotation");
  } else {
    b.rotation_crc = r.u32("rotation CRC");
    r.need_array(frames, 8, "rotation keys");
    b.rotation_keys = r.bytes(std::size_t{frames} * 8, "rotation keys");
  }
  if (b.translation_keyed()) {
    b.translation_crc = r.u32("translation CRC");
    const std::size_t stride = (b.flags & kFlagTKeys16) ? 6 : 3;
    r.need_array(frames, stride, "translation keys");
    b.translation_keys = r.bytes(std::size_t{frames} * stride, "translation keys");
    b.translation_size = {r.f32("translation size"), r.f32("translation size"), r.f32("translation size")};
    b.translation_init = {r.f32("translation init"), r.f32("translation init"), r.f32("translation init")};
  } else {
    b.translation_init = {r.f32("constant translation"), r.f32("constant translation"),
                          r.f32("constant translation")};
  }
  return b;
}

MotionKeys parse_motion_keys(const Chunk& sub, std::size_t motion_index, std::size_t bone_count) {
  MotionKeys m;
  m.raw_id = sub.raw_id;
  m.offset = sub.offset;
  ByteReader r(sub.payload, sub.payload_offset());
  const std::string where = "0xE/" + std::to_string(motion_index + 1);
  try {
    m.name = std::string(r.stringz("name"));
    m.frames = r.u32("frame count");
    // Every record holds at least a flags byte, 8 rotation bytes and 12 translation bytes.
    if (bone_count > r.remaining() / 21) {
      fail(r.offset(), "bone records", "bone records run past the end of the motion",
           "at least " + std::to_string(bone_count * 21) + " bytes for " + std::to_string(bone_count) + " records",
           std::to_string(r.remaining()) + " bytes");
    }
    m.bones.reserve(bone_count);
    for (std::size_t b = 0; b < bone_count; ++b) {
      if (r.at_end()) {
        fail(r.offset(), "bone records", "fewer bone records than the parts' bone total",
             std::to_string(bone_count) + " records", std::to_string(b) + " records");
      }
      try {
        m.bones.push_back(read_bone_keys(r, m.frames));
      } catch (ParseError& e) {
        e.prepend_path(annotate("bone", b));
        throw;
      }
    }
    m.tail_offset = r.offset();
    m.tail = r.rest();
  } catch (ParseError& e) {
    e.prepend_path(where);
    m.readable = e.finding();
    m.bones.clear();
    m.raw = sub.payload;
  }
  return m;
}

}  // namespace

std::size_t Params::bone_count() const {
  std::size_t n = 0;
  for (const auto& p : parts) n += p.bones.size();
  return n;
}

MotionSet parse_motion_set(const Chunk* motions_chunk, const Chunk& params_chunk) {
  MotionSet set;
  set.params = parse_params(params_chunk);
  if (motions_chunk == nullptr) {
    set.has_motions_chunk = false;
    return set;
  }
  set.motions_raw_id = motions_chunk->raw_id;
  set.motions_offset = motions_chunk->offset;
  ChunkList subs = split_chunks(motions_chunk->payload, motions_chunk->payload_offset());
  set.motions_trailing = subs.trailing;
  set.motions_trailing_offset = subs.trailing_offset;
  set.motions_overrun = subs.overrun;

  if (const Chunk* c = subs.find(0); c != nullptr && c->payload.size() >= 4) {
    set.declared_count = load_le<std::uint32_t>(c->payload.data());
  }
  // Motion i lives in the first sub-chunk with id i+1 (the engine's find_chunk(i+1)). Without a
  // count sub-chunk, take the run of consecutive ids from 1 so that the file can still be shown.
  // One pass: the first sub-chunk of each id 1..wanted.
  const std::size_t wanted = set.declared_count ? *set.declared_count : subs.chunks.size();
  std::vector<const Chunk*> first_of_id(std::min(wanted, subs.chunks.size()), nullptr);
  for (const Chunk& c : subs.chunks) {
    const std::size_t i = c.id();
    if (i >= 1 && i <= first_of_id.size() && first_of_id[i - 1] == nullptr) first_of_id[i - 1] = &c;
  }
  std::vector<const Chunk*> by_motion;
  for (const Chunk* c : first_of_id) {
    if (c == nullptr) break;
    by_motion.push_back(c);
  }
  const std::size_t bone_count = set.params.bone_count();
  set.motions.reserve(by_motion.size());
  for (std::size_t i = 0; i < by_motion.size(); ++i) set.motions.push_back(parse_motion_keys(*by_motion[i], i, bone_count));

  bool count_seen = false;
  set.subchunks.reserve(subs.chunks.size());
  for (const Chunk& c : subs.chunks) {
    MotionsSubchunk s;
    s.raw_id = c.raw_id;
    s.offset = c.offset;
    s.payload = c.payload;
    const std::size_t id = c.id();
    if (id >= 1 && id <= by_motion.size() && by_motion[id - 1] == &c) {
      s.kind = MotionsSubchunk::Kind::motion;
      s.motion = id - 1;
    } else if (c.id() == 0 && !count_seen) {
      s.kind = MotionsSubchunk::Kind::count;
      count_seen = true;
    }
    set.subchunks.push_back(s);
  }
  return set;
}

bool looks_like_omf(Bytes bytes) {
  if (bytes.size() < 8) return false;
  const std::uint32_t id = load_le<std::uint32_t>(bytes.data()) & ~kChunkCompressBit;
  return id == kChunkMotions || id == kChunkParams;
}

Result<OmfFile> read_omf(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&]() -> OmfFile {
    OmfFile f;
    f.source = file;
    const Bytes bytes = file->bytes();
    f.size = bytes.size();
    ChunkList top = split_chunks(bytes, 0);
    f.trailing = top.trailing;
    f.trailing_offset = top.trailing_offset;
    f.overrun = top.overrun;
    const Chunk* motions = top.find(kChunkMotions);
    const Chunk* params = top.find(kChunkParams);
    if (params == nullptr || motions == nullptr) {
      if (top.overrun && ((top.overrun->raw_id & ~kChunkCompressBit) == kChunkMotions ||
                          (top.overrun->raw_id & ~kChunkCompressBit) == kChunkParams)) {
        fail(top.overrun->offset, hex(top.overrun->raw_id & ~kChunkCompressBit), "chunk truncated",
             std::to_string(top.overrun->declared_size) + " bytes", std::to_string(top.overrun->available) + " bytes");
      }
      if (params == nullptr) {
        fail(0, "0xF", "missing chunk 0xF (bone parts and motion params)", "chunk 0xF",
             top.chunks.empty() ? "no complete chunk" : std::to_string(top.chunks.size()) + " other chunks");
      }
    }
    f.motions = parse_motion_set(motions, *params);
    bool seen_motions = false, seen_params = false;
    for (const Chunk& c : top.chunks) {
      TopChunk t;
      t.raw_id = c.raw_id;
      t.offset = c.offset;
      t.payload = c.payload;
      if (&c == motions && !seen_motions) {
        t.kind = TopChunk::Kind::motions;
        seen_motions = true;
      } else if (&c == params && !seen_params) {
        t.kind = TopChunk::Kind::params;
        seen_params = true;
      }
      f.chunks.push_back(t);
    }
    return f;
  });
}

std::uint32_t key_crc(Bytes keys) { return crc32(keys); }

void update_crcs(BoneKeys& bone) {
  bone.rotation_crc = bone.rotation_static() ? 0 : key_crc(bone.rotation_keys);
  bone.translation_crc = bone.translation_keyed() ? key_crc(bone.translation_keys) : 0;
}

Bytes OmfFile::keep(std::vector<std::uint8_t> bytes) {
  owned->push_back(std::move(bytes));
  return owned->back();
}

}  // namespace boneyard::xray

namespace boneyard::xray {

std::optional<std::size_t> count_whole_records(Bytes bytes, std::uint32_t frames) {
  ByteReader r(bytes, 0);
  std::size_t n = 0;
  try {
    while (!r.at_end()) {
      (void)read_bone_keys(r, frames);
      ++n;
    }
  } catch (const ParseError&) {
    return std::nullopt;
  }
  return n;
}

std::uint16_t quantize_param(float v) {
  const float q = std::floor(v * 655.35f);
  if (!(q > 0.0f)) return 0;  // also NaN
  if (q >= 65535.0f) return 65535;
  return static_cast<std::uint16_t>(q);
}

EffectiveParams effective_params(const MotionParams& m) {
  constexpr float kRange = 655.35f;
  const std::uint16_t accrue = quantize_param(m.accrue);
  std::uint16_t falloff = quantize_param(m.falloff);
  bool clamped = false;
  if (!m.is_fx() && falloff >= accrue) {
    falloff = static_cast<std::uint16_t>(accrue - 1);  // wraps to 65535 when accrue is 0, as in the engine
    clamped = true;
  }
  return {static_cast<float>(quantize_param(m.speed)) / kRange, static_cast<float>(quantize_param(m.power)) / kRange,
          1.5f * static_cast<float>(accrue) / kRange, 1.5f * static_cast<float>(falloff) / kRange, clamped};
}

}  // namespace boneyard::xray
