// Reading, writing and validating .anm object motions (COMotion::Load/Save, every version).
// Layouts and rules: docs/xray-sdk.md "Object motions".
#include <cmath>
#include <cstdio>

#include "boneyard/core/limits.h"
#include "boneyard/core/read_back.h"
#include "boneyard/xray/anm/anm.h"
#include "core/byte_reader.h"
#include "xray/envelope/envelope_io.h"

namespace boneyard::xray {

namespace {

std::string anm_num(std::uint64_t v) { return std::to_string(v); }
std::string anm_fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

AnmMotion read_anm_body(ByteReader& r) {
  AnmMotion m;
  m.offset = r.offset();
  m.name = std::string(r.stringz("name"));
  m.frame_start = r.s32("frame start");
  m.frame_end = r.s32("frame end");
  m.fps = r.f32("fps");
  const std::uint64_t version_at = r.offset();
  m.version = r.u16("version");
  if (m.version < kOldestAnmVersion || m.version > kNewestAnmVersion)
    fail(version_at, "version", "unsupported object motion version", "3 to 5", std::to_string(m.version));
  for (std::size_t i = 0; i < kMotionChannels; ++i) {
    // Name each stored envelope by what it holds (v4 stores p before h).
    std::size_t meaning = i;
    if (m.version == 4 && (i == 3 || i == 4)) meaning = 7 - i;
    read_envelope(r, m.envelope_layout(), motion_channel_name(static_cast<MotionChannel>(meaning)), m.stored[i]);
  }
  return m;
}

void read_anm_chunk(AnmFile& f, Bytes content, std::uint64_t base, const std::string& prefix) {
  ByteReader r(content, base);
  try {
    f.motion = read_anm_body(r);
  } catch (ParseError& e) {
    e.prepend_path(prefix);
    throw;
  }
  f.tail = r.rest();
  f.tail_offset = r.offset();
}

}  // namespace

Bytes AnmFile::keep(std::vector<std::uint8_t> bytes) {
  owned->push_back(std::move(bytes));
  return owned->back();
}

bool looks_like_anm(Bytes bytes) {
  return bytes.size() >= 8 && (load_le<std::uint32_t>(bytes.data()) & ~kChunkCompressBit) == kChunkObjectMotion;
}

Result<AnmFile> read_anm(std::shared_ptr<const FileData> file) {
  return catch_parse_errors([&]() -> AnmFile {
    AnmFile f;
    f.source = file;
    f.size = file->bytes().size();
    ChunkList list = split_chunks(file->bytes(), 0);
    const std::size_t found = list.index_or_fail(kChunkObjectMotion, "no object motion chunk", "chunk 0x1100");
    f.chunks = std::move(list.chunks);
    f.trailing = list.trailing;
    f.trailing_offset = list.trailing_offset;
    f.overrun = list.overrun;
    f.motion_chunk = found;
    const Chunk& c = f.chunks[found];
    const std::string prefix = hex(c.raw_id);
    if (!c.compress_bit()) {
      read_anm_chunk(f, c.payload, c.payload_offset(), prefix);
      return f;
    }
    try {  // the engine reads the payload as stored; blender-xray unpacks it
      read_anm_chunk(f, c.payload, c.payload_offset(), prefix);
      return f;
    } catch (const ParseError& as_stored) {
      auto content = open_chunk(c, prefix);
      if (!content) throw;
      try {
        read_anm_chunk(f, content->bytes, 0, prefix + " unpacked");
      } catch (const ParseError&) {
        throw as_stored;
      }
      f.motion_unpacked = std::move(content).value();
      return f;
    }
  });
}

void write_anm_motion(ByteWriter& w, const AnmMotion& m) {
  w.stringz(m.name);
  w.s32(m.frame_start);
  w.s32(m.frame_end);
  w.f32(m.fps);
  w.u16(m.version);
  for (const auto& e : m.stored) write_envelope(w, e);
}

std::vector<std::uint8_t> write_anm(const AnmFile& f) {
  std::vector<std::uint8_t> out;
  out.reserve(f.size + 64);
  ByteWriter w(out);
  for (std::size_t i = 0; i < f.chunks.size(); ++i) {
    const Chunk& c = f.chunks[i];
    if (i != f.motion_chunk) {
      write_chunk(w, c.raw_id, c.payload);
      continue;
    }
    std::vector<std::uint8_t> body;
    ByteWriter bw(body);
    write_anm_motion(bw, f.motion);
    bw.bytes(f.tail);
    if (f.motion_unpacked) write_chunk_content(w, *f.motion_unpacked, body);
    else write_chunk(w, c.raw_id, body);
  }
  w.bytes(f.trailing);
  return out;
}

Diagnostics validate_anm(const AnmFile& f) {
  Diagnostics out;
  const AnmMotion& m = f.motion;
  const Chunk& c = f.chunks[f.motion_chunk];
  const std::string path = hex(c.raw_id) + (f.motion_unpacked ? " unpacked" : "");
  const std::uint64_t header = m.offset + m.name.size() + 1;
  if (!std::isfinite(m.fps) || m.fps <= 0.0f)
    out.add(Severity::error, header + 8, path + " fps", "fps is not a positive number (frames are times * fps)",
            "a positive number", anm_fmt(m.fps));
  if (m.frame_end < m.frame_start)
    out.add(Severity::error, header, path + " frames", "frame range ends before it starts", "start <= end",
            std::to_string(m.frame_start) + " > " + std::to_string(m.frame_end));
  else if (static_cast<std::uint64_t>(std::int64_t{m.frame_end} - m.frame_start) + 1 > kMaxMotionFrames)
    out.add(Severity::warning, header, path + " frames", "longer than boneyard converts",
            "at most " + frames_text(kMaxMotionFrames), std::to_string(std::int64_t{m.frame_end} - m.frame_start + 1));
  if (m.version == 4)
    out.add(Severity::info, header + 12, path + " version",
            "version 4 stores the rotation as p, h, b, and the engine reads it so; blender-xray reads and writes v4 as "
            "h, p, b, so a v4 file it wrote plays with heading and pitch exchanged",
            "5", "4");
  EnvelopeChecker checker([&](std::size_t, std::size_t stored) {
    std::size_t meaning = stored;
    if (m.version == 4 && (stored == 3 || stored == 4)) meaning = 7 - stored;
    return path + " " + std::string(motion_channel_name(static_cast<MotionChannel>(meaning)));
  });
  for (std::size_t i = 0; i < kMotionChannels; ++i) checker.check(m.stored[i], 0, i);
  checker.report(out, "in this motion");
  if (f.motion_unpacked)
    out.add(Severity::error, c.offset, hex(c.raw_id),
            "LZHuf-packed motion chunk: the engine and the SDK read this chunk as stored and would not load the motion "
            "(blender-xray unpacks it)",
            "a plain chunk 0x1100", "bit 31 set, packed");
  else if (c.compress_bit())
    out.add(Severity::warning, c.offset, hex(c.raw_id),
            "bit 31 set on a plain motion chunk: the engine reads it as stored, blender-xray would try to unpack it",
            "chunk id 0x1100", hex(c.raw_id));
  if (!f.tail.empty())
    out.add(Severity::warning, f.tail_offset, hex(c.raw_id) + " end",
            "bytes after the motion in its chunk, which the engine ignores (kept)", "none", anm_num(f.tail.size()) + " bytes");
  for (std::size_t i = 0; i < f.chunks.size(); ++i) {
    if (i == f.motion_chunk) continue;
    const Chunk& other = f.chunks[i];
    if (other.id() == kChunkObjectMotion)
      out.add(Severity::warning, other.offset, hex(other.raw_id),
              "a second motion chunk: the engine reads the first only (kept)", "one chunk 0x1100", "another");
    else
      out.add(Severity::info, other.offset, hex(other.raw_id), "chunk the engine does not read (kept)", "chunk 0x1100",
              hex(other.raw_id));
  }
  if (f.overrun) {
    const bool truncated = f.overrun->truncated_chunk();
    out.add(truncated ? Severity::error : Severity::warning, f.overrun->offset, hex(f.overrun->raw_id),
            truncated ? "truncated chunk" : "trailing bytes after the last chunk (kept)",
            anm_num(f.overrun->declared_size) + " bytes", anm_num(f.overrun->available) + " bytes");
  } else if (!f.trailing.empty()) {
    out.add(Severity::warning, f.trailing_offset, "end", "trailing bytes after the last chunk (kept)", "none",
            anm_num(f.trailing.size()) + " bytes");
  }
  out.sort_by_offset();
  return out;
}

Result<std::vector<std::uint8_t>> checked_anm_bytes(std::vector<std::uint8_t> bytes, const Diagnostics* inherited) {
  auto reread = read_anm(FileData::from_vector(bytes));
  if (!reread) {
    Finding e = reread.error();
    e.path = "written .anm" + (e.path.empty() ? "" : " " + e.path);
    return e;
  }
  if (auto fresh = first_new_error(validate_anm(reread.value()), inherited, "written .anm"); !fresh) return fresh.error();
  return bytes;
}

}  // namespace boneyard::xray
