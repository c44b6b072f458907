// OGF v3 motions: parameters (0x12 of build 1469, or 0x14 in versions 1-3) and key sets (0xE
// with float translations, or 0x1A with 8-bit ones). Each key set holds one record per bone of
// 0xD, in that order; the engine finds a motion's keys by the name the key set repeats. Layouts:
// docs/xray-ogf-v3.md. Records are views into the file; counts are checked against the bytes left.
#include <algorithm>

#include "boneyard/core/text.h"
#include "ogf_v3_internal.h"

namespace boneyard::xray {

namespace ogf3 {

namespace {

constexpr std::size_t kOldRecord = 20;  // s16 x 4 rotation, f32 x 3 translation
constexpr std::size_t kMinOldMotionParams = 1 + 1 + 2 + 2 + 16 + 1;
constexpr std::size_t kMinNewMotionParams = 1 + 4 + 2 + 2 + 16;

void parse_parts(ByteReader& r, Ogf3Params& p) {
  const std::uint16_t count = r.u16("part count");
  r.need_array(count, 3, "parts");
  p.parts.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    Ogf3Part& part = p.parts[i];
    try {
      part.offset = r.offset();
      part.name = std::string(r.stringz("name"));
      const std::uint16_t n = r.u16("bone count");
      // A v2 bone is at least its name's NUL; the others hold a u32.
      r.need_array(n, p.chunk == kOgf3SmParamsNew && p.version == 2 ? 1 : 4, "part bones");
      part.bones.resize(n);
      for (std::size_t b = 0; b < n; ++b) {
        Ogf3PartBone& bone = part.bones[b];
        bone.offset = r.offset();
        const bool named = p.chunk == kOgf3SmParamsNew && p.version >= 2;
        const bool indexed = p.chunk == kOgf3SmParams || p.version != 2;
        if (named) bone.name = std::string(r.stringz("bone " + std::to_string(b) + " name"));
        if (indexed) bone.index = r.u32("bone " + std::to_string(b) + " index");
      }
    } catch (ParseError& e) {
      e.prepend_path("part " + std::to_string(i));
      throw;
    }
  }
}

void parse_params(const Chunk& c, Ogf3Params& p, bool wide_kind) {
  ByteReader r(c.payload, c.payload_offset());
  p.chunk = c.id();
  p.wide_kind = wide_kind;
  p.offset = c.offset;
  if (p.chunk == kOgf3SmParamsNew) {
    const std::uint64_t at = r.offset();
    p.version = r.u16("version");
    if (p.version < 1 || p.version > 3) fail(at, "version", "unknown motion parameter version", "1-3", std::to_string(p.version));
  }
  parse_parts(r, p);
  const std::uint16_t count = r.u16("motion count");
  const bool old = p.chunk == kOgf3SmParams;
  r.need_array(count, old ? kMinOldMotionParams + (wide_kind ? 3 : 0) : kMinNewMotionParams, "motion parameters");
  p.motions.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    Ogf3MotionParams& m = p.motions[i];
    try {
      m.offset = r.offset();
      m.name = std::string(r.stringz("name"));
      if (old) m.kind = wide_kind ? static_cast<std::uint8_t>(r.u32("kind")) : r.u8("kind");
      else m.flags = r.u32("flags");
      m.bone_or_part = r.u16("bone or part");
      m.motion_id = r.u16("motion id");
      m.speed = r.f32("speed");
      m.power = r.f32("power");
      m.accrue = r.f32("accrue");
      m.falloff = r.f32("falloff");
      if (old) {
        m.stop_at_end = r.u8("stop at end") != 0;
        m.flags = (m.kind == 0 ? 1u : 0u) | (m.stop_at_end ? 2u : 0u);  // kind 0 is an fx
      }
    } catch (ParseError& e) {
      e.prepend_path("motion " + std::to_string(i));
      throw;
    }
  }
  p.tail_offset = r.offset();
  p.tail = r.rest();
}

void parse_records(ByteReader& r, Ogf3Motion& m, bool floats, std::size_t bones) {
  m.bones.reserve(std::min<std::size_t>(bones, r.remaining() / kOldRecord));
  for (std::size_t b = 0; b < bones; ++b) {
    Ogf3BoneKeys k;
    k.offset = r.offset();
    k.floats = floats;
    try {
      if (floats) {
        r.need_array(m.frames, kOldRecord, "keys");
        k.keys = r.bytes(std::size_t{m.frames} * kOldRecord, "keys");
      } else {
        k.flags = r.u8("flags");
        k.rotation_crc = r.u32("rotation CRC");
        r.need_array(m.frames, 8, "rotation keys");
        k.keys = r.bytes(std::size_t{m.frames} * 8, "rotation keys");
        if (k.flags != 0) {
          k.translation_crc = r.u32("translation CRC");
          r.need_array(m.frames, 3, "translation keys");
          k.translation_keys = r.bytes(std::size_t{m.frames} * 3, "translation keys");
          k.size = read_vec3(r, "translation size");
        }
        k.init = read_vec3(r, "translation init");
      }
    } catch (ParseError& e) {
      e.prepend_path("bone " + std::to_string(b));
      throw;
    }
    m.bones.push_back(k);
  }
}

void parse_keys(const Chunk& c, Ogf3Motions& set, std::size_t bones, std::vector<Finding>& findings) {
  set.chunk = c.id();
  set.offset = c.offset;
  const std::string path = hex(set.chunk);
  const ChunkList subs = split_chunks(c.payload, c.payload_offset());
  if (subs.overrun && subs.overrun->truncated_chunk())
    findings.push_back({Severity::error, subs.overrun->offset, path + "/" + std::to_string(subs.overrun->raw_id & ~kChunkCompressBit),
                        "sub-chunk size runs past the motions chunk", std::to_string(subs.overrun->declared_size) + " bytes",
                        std::to_string(subs.overrun->available) + " bytes"});
  else if (subs.overrun || !subs.trailing.empty())
    findings.push_back({Severity::warning, subs.trailing_offset, path, "bytes after the last sub-chunk (kept)", "0",
                        std::to_string(subs.trailing.size()) + " bytes"});
  std::vector<bool> used(subs.chunks.size(), false);
  if (const Chunk* count = subs.find(0)) {
    used[std::size_t(count - subs.chunks.data())] = true;
    ByteReader r(count->payload, count->payload_offset());
    parse_chunk(*count, path + "/0", [&] { set.declared_count = r.u32("motion count"); });
  }
  for (std::uint32_t id = 1;; ++id) {
    const Chunk* s = subs.find(id);
    if (s == nullptr) break;
    used[std::size_t(s - subs.chunks.data())] = true;
    Ogf3Motion m;
    m.raw_id = s->raw_id;
    m.offset = s->offset;
    ByteReader r(s->payload, s->payload_offset());
    auto read = catch_parse_errors([&] {
      parse_chunk(*s, path + "/" + std::to_string(id), [&] {
        m.name = std::string(r.stringz("name"));
        m.frames_offset = r.offset();
        m.frames = r.u32("frames");
        if (m.frames == 0) fail(m.frames_offset, "frames", "motion has no frames", ">= 1", "0");
        parse_records(r, m, set.floats(), bones);
      });
      return 0;
    });
    if (!read) {
      m.readable = read.error();
      m.bones.clear();
    } else {
      m.tail_offset = r.offset();
      m.tail = r.rest();
    }
    set.motions.push_back(std::move(m));
  }
  for (std::size_t i = 0; i < subs.chunks.size(); ++i)
    if (!used[i]) set.other.push_back(subs.chunks[i]);
}

}  // namespace

void parse_motions(OgfV3File& f) {
  const ChunkList& chunks = f.model.chunks;
  // The engine reads 0x14 before 0x12, and 0x1A before 0xE.
  const Chunk* params = chunks.find(kOgf3SmParamsNew);
  if (params == nullptr) params = chunks.find(kOgf3SmParams);
  else if (const Chunk* old = chunks.find(kOgf3SmParams))
    f.read_findings.push_back({Severity::info, old->offset, "0x12", "motion parameters the engine does not read: "
                               "0x14 is present (kept)", "one of 0x12/0x14", "both"});
  if (params != nullptr) {
    Ogf3Params p;
    auto narrow = catch_parse_errors([&] {
      parse_chunk(*params, hex(params->id()), [&] { parse_params(*params, p, false); });
      return 0;
    });
    // 0x12's motion kind is one byte to the converter and four to blender-xray; no real file
    // settles it. The one-byte reading is taken unless only the four-byte one uses every byte.
    if (params->id() == kOgf3SmParams && (!narrow || !p.tail.empty())) {
      Ogf3Params wide;
      auto read = catch_parse_errors([&] {
        parse_params(*params, wide, true);
        return 0;
      });
      if (read && wide.tail.empty()) {
        p = std::move(wide);
        narrow = 0;
        f.read_findings.push_back({Severity::info, params->offset, "0x12", "motion kinds read as 4 bytes (as "
                                   "blender-xray reads them; the converter reads 1 byte, which leaves bytes over here)",
                                   "1-byte kinds", "4-byte kinds"});
      }
    }
    if (!narrow) throw ParseError(narrow.error());
    f.params = std::move(p);
  }
  const Chunk* keys = chunks.find(kOgf3MotionsNew);
  if (keys == nullptr) keys = chunks.find(kOgf3Motions);
  else if (const Chunk* old = chunks.find(kOgf3Motions))
    f.read_findings.push_back({Severity::info, old->offset, "0xE", "key sets the engine does not read: 0x1A is "
                               "present (kept)", "one of 0xE/0x1A", "both"});
  if (keys != nullptr) {
    Ogf3Motions set;
    parse_keys(*keys, set, f.bones.size(), f.read_findings);
    f.motions = std::move(set);
  }
}

}  // namespace ogf3

QuatKey Ogf3BoneKeys::rotation_key(std::size_t frame) const {
  const std::uint8_t* p = keys.data() + frame * (floats ? 20 : 8);
  return {load_le<std::int16_t>(p), load_le<std::int16_t>(p + 2), load_le<std::int16_t>(p + 4),
          load_le<std::int16_t>(p + 6)};
}

Quat Ogf3BoneKeys::rotation(std::size_t frame) const {
  const QuatKey k = rotation_key(frame);
  return {quat_component(k.x), quat_component(k.y), quat_component(k.z), quat_component(k.w)};
}

Vec3 Ogf3BoneKeys::translation(std::size_t frame) const {
  if (floats) {
    const std::uint8_t* p = keys.data() + frame * 20 + 8;
    return {load_le<float>(p), load_le<float>(p + 4), load_le<float>(p + 8)};
  }
  if (flags == 0) return init;
  const std::uint8_t* p = translation_keys.data() + frame * 3;
  return {float(std::int8_t(p[0])) * size.x + init.x, float(std::int8_t(p[1])) * size.y + init.y,
          float(std::int8_t(p[2])) * size.z + init.z};
}

std::uint64_t Ogf3BoneKeys::translation_offset() const {
  return floats ? offset + 8 : offset + 5 + keys.size();
}

}  // namespace boneyard::xray
