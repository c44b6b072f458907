// `info` text and `dump` JSON of object motions (schema: docs/json-schema.md).
#include <cstdio>

#include "boneyard/core/text.h"
#include "boneyard/xray/anm/anm_report.h"
#include "boneyard/xray/envelope/envelope_report.h"

namespace boneyard::xray {

std::string describe_anm(const AnmFile& f) {
  const AnmMotion& m = f.motion;
  char line[512];
  std::string s;
  std::snprintf(line, sizeof line, "  format: X-Ray SDK object motion (.anm, chunk %s%s), %llu bytes\n",
                hex(f.chunks[f.motion_chunk].raw_id).c_str(), f.motion_unpacked ? ", LZHuf-packed" : "",
                static_cast<unsigned long long>(f.size));
  s += line;
  const double seconds = m.fps > 0 ? static_cast<double>(m.frame_end - m.frame_start) / m.fps : 0.0;
  std::snprintf(line, sizeof line, "  name \"%s\", version %u%s, frames %d-%d at %g fps (%.3f s)\n",
                printable(m.name).c_str(), m.version, m.version == 4 ? " (rotation stored p, h, b)" : "", m.frame_start,
                m.frame_end, static_cast<double>(m.fps), seconds);
  s += line;
  ShapeCounts all;
  for (std::size_t c = 0; c < kMotionChannels; ++c) {
    const auto channel = static_cast<MotionChannel>(c);
    const Envelope& e = m.channel(channel);
    ShapeCounts counts;
    counts.add(e);
    all.add(e);
    const auto pre = envelope_behaviour_name(e.pre), post = envelope_behaviour_name(e.post);
    std::snprintf(line, sizeof line, "  %s: %s; before %s, after %s\n", std::string(motion_channel_name(channel)).c_str(),
                  counts.text().c_str(), pre.empty() ? std::to_string(e.pre).c_str() : std::string(pre).c_str(),
                  post.empty() ? std::to_string(e.post).c_str() : std::string(post).c_str());
    s += line;
  }
  s += "  all channels: " + all.text() + "\n";
  return s;
}

int sniff_anm(Bytes bytes, std::string_view extension) {
  if (!looks_like_anm(bytes)) return 0;
  return extension == ".anm" ? 90 : 80;
}

void dump_anm(JsonWriter& out, const AnmFile& f, bool raw) {
  const AnmMotion& m = f.motion;
  out.begin_object();
  out.field("format", "anm");
  out.field("chunk", hex(f.chunks[f.motion_chunk].raw_id));
  out.field("packed", f.motion_unpacked.has_value());
  out.field("name", cp1251_to_utf8(m.name));
  out.field("version", static_cast<unsigned>(m.version));
  out.field("frame_start", static_cast<std::int64_t>(m.frame_start));
  out.field("frame_end", static_cast<std::int64_t>(m.frame_end));
  out.field("fps", m.fps);
  if (raw) out.field("offset", m.offset);
  out.key("channels").begin_object();
  for (std::size_t c = 0; c < kMotionChannels; ++c) {
    const auto channel = static_cast<MotionChannel>(c);
    out.key(motion_channel_name(channel));
    dump_envelope(out, m.channel(channel), raw);
  }
  out.end_object();
  out.end_object();
}

}  // namespace boneyard::xray
