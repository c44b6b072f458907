// `info` text and `dump` JSON of skeletal motions (schema: docs/json-schema.md).
#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "boneyard/core/text.h"
#include "boneyard/xray/envelope/envelope_report.h"
#include "boneyard/xray/skl/skl_report.h"

namespace boneyard::xray {

namespace {

#if defined(__clang__)
void skl_appendf(std::string& s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
#else
void skl_appendf(std::string& s, const char* fmt, ...) __attribute__((format(gnu_printf, 2, 3)));
#endif
void skl_appendf(std::string& s, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n > 0) s.append(buf, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buf - 1));
}

std::string skl_part_or_bone(const SklMotion& m) {
  const std::uint32_t v = m.bone_or_part & 0xFFFF;
  if (v == kNoBoneOrPart) return m.is_fx() ? "root" : "all";
  return (m.is_fx() ? "bone " : "part ") + std::to_string(v);
}

std::string skl_marks_text(const SklMotion& m) {
  if (m.version < 7) return "-";
  if (m.marks.empty()) return "none";
  std::string s;
  for (const auto& mark : m.marks) {
    if (!s.empty()) s += "; ";
    s += printable(mark.name);
    for (const auto& iv : mark.intervals) skl_appendf(s, " %.3g-%.3gs", iv.start, iv.end);
  }
  return s;
}

}  // namespace

std::string describe_skl_motions(const std::vector<SklMotion>& motions) {
  std::string s;
  if (motions.empty()) return "  no motions\n";
  skl_appendf(s, "  %4s  %-28s %3s %13s %5s %8s %-5s %-9s %6s %6s %7s %6s  %-18s %5s  %-34s %s\n", "#", "name", "ver",
          "frames", "fps", "seconds", "kind", "part/bone", "speed", "accrue", "falloff", "power", "flags", "bones",
          "keys", "marks");
  ShapeCounts all;
  for (std::size_t i = 0; i < motions.size(); ++i) {
    const SklMotion& m = motions[i];
    ShapeCounts counts;
    for (const auto& b : m.bones)
      for (std::size_t c = 0; c < kMotionChannels; ++c) counts.add(b.channel(c));
    for (std::size_t k = 0; k < counts.keys.size(); ++k) all.keys[k] += counts.keys[k];
    char frames[40], seconds[32];
    std::snprintf(frames, sizeof frames, "%d-%d", m.frame_start, m.frame_end);
    if (m.fps > 0) std::snprintf(seconds, sizeof seconds, "%.3f", static_cast<double>(m.frame_end - m.frame_start) / m.fps);
    else std::snprintf(seconds, sizeof seconds, "?");
    skl_appendf(s, "  %4zu  %-28s %3u %13s %5.4g %8s %-5s %-9s %6.3g %6.3g %7.3g %6.3g  %-18s %5zu  %-34s %s\n", i,
            printable(m.name).c_str(), m.version, frames, static_cast<double>(m.fps), seconds, m.is_fx() ? "fx" : "cycle",
            skl_part_or_bone(m).c_str(), static_cast<double>(m.speed), static_cast<double>(m.accrue),
            static_cast<double>(m.falloff), static_cast<double>(m.power), motion_flag_words(m.flags).c_str(),
            m.bones.size(), counts.text().c_str(), skl_marks_text(m).c_str());
  }
  skl_appendf(s, "  all motions: %s\n", all.text().c_str());
  return s;
}

std::string describe_skl(const SklFile& f) {
  std::string s;
  if (f.container == SklContainer::skls)
    skl_appendf(s, "  format: X-Ray SDK skeletal motions (.skls), %llu bytes, %zu motion(s)\n",
            static_cast<unsigned long long>(f.size), f.motions.size());
  else
    skl_appendf(s, "  format: X-Ray SDK skeletal motion (.skl, chunk %s%s), %llu bytes\n",
            hex(f.chunks[f.motion_chunk].raw_id).c_str(), f.motion_unpacked ? ", LZHuf-packed" : "",
            static_cast<unsigned long long>(f.size));
  return s + describe_skl_motions(f.motions);
}

int sniff_skl(Bytes bytes, std::string_view extension) {
  if (!looks_like_skl(bytes)) return 0;
  return extension == ".skl" ? 90 : 80;
}

int sniff_skls(Bytes bytes, std::string_view extension) {
  if (looks_like_skls(bytes)) return extension == ".skls" ? 90 : 40;
  // A .skls too short or too broken for its first motion header to show: read it as what its name
  // says, so that the reader says what is wrong (content that another format recognises wins).
  return extension == ".skls" && bytes.size() >= 4 ? 30 : 0;
}

void dump_skl_motion(JsonWriter& out, const SklMotion& m, bool raw) {
  out.begin_object();
  out.field("name", cp1251_to_utf8(m.name));
  out.field("version", static_cast<unsigned>(m.version));
  out.field("frame_start", static_cast<std::int64_t>(m.frame_start));
  out.field("frame_end", static_cast<std::int64_t>(m.frame_end));
  out.field("fps", m.fps);
  out.field("flags", static_cast<std::uint64_t>(m.flags));
  out.field("flag_words", motion_flag_words(m.flags));
  out.field("bone_or_part", static_cast<std::uint64_t>(m.bone_or_part));
  out.field("speed", m.speed).field("accrue", m.accrue).field("falloff", m.falloff).field("power", m.power);
  if (raw) {
    out.field("offset", m.offset);
    if (m.version == 4) {
      out.key("v4_flag_bytes").begin_array().value(static_cast<unsigned>(m.v4_flag_bytes[0]));
      out.value(static_cast<unsigned>(m.v4_flag_bytes[1])).end_array();
    }
  }
  out.key("bones").begin_array();
  for (const auto& b : m.bones) {
    out.begin_object();
    out.key("name");
    if (m.version >= 5) out.value(cp1251_to_utf8(b.name));
    else out.null();  // v4 names bones by their index
    out.field("flags", static_cast<std::uint64_t>(b.flags));
    if (raw) out.field("offset", b.offset);
    out.key("channels").begin_object();
    for (std::size_t c = 0; c < kMotionChannels; ++c) {
      out.key(motion_channel_name(static_cast<MotionChannel>(c)));
      dump_envelope(out, b.channel(c), raw);
    }
    out.end_object();
    out.end_object();
  }
  out.end_array();
  if (m.version >= 7) {
    out.key("marks").begin_array();
    for (const auto& mark : m.marks) {
      out.begin_object().field("name", cp1251_to_utf8(mark.name)).key("intervals").begin_array();
      for (const auto& iv : mark.intervals) out.begin_array().value(iv.start).value(iv.end).end_array();
      out.end_array().end_object();
    }
    out.end_array();
  }
  out.end_object();
}

void dump_skl(JsonWriter& out, const SklFile& f, bool raw) {
  out.begin_object();
  out.field("format", f.container == SklContainer::skls ? "skls" : "skl");
  if (f.container == SklContainer::skl) {
    out.field("chunk", hex(f.chunks[f.motion_chunk].raw_id));
    out.field("packed", f.motion_unpacked.has_value());
  }
  out.key("motions").begin_array();
  for (const auto& m : f.motions) {
    dump_skl_motion(out, m, raw);
    out.newline();
  }
  out.end_array();
  out.end_object();
}

}  // namespace boneyard::xray
