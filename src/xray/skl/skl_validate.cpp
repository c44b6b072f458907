// Validation of skeletal motions and their files (docs/xray-sdk.md "Skeletal motions", rules).
// One pass over the key records (EnvelopeChecker); paths and values are built only for problems.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }
std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}
std::string show(std::string_view raw) { return "\"" + printable(raw) + "\""; }

// The SDK reads bone names of v5+ motions into 64 bytes (string64) and asserts on longer ones.
constexpr std::size_t kMaxSdkBoneName = 63;

bool has_upper(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

std::string lowered(std::string_view s) { return lower_ascii(s); }

void validate_marks(const SklMotion& m, const std::string& path, Diagnostics& out) {
  const float length = m.fps > 0 && std::isfinite(m.fps) ? static_cast<float>(m.frame_end - m.frame_start) / m.fps : 0.0f;
  for (std::size_t k = 0; k < m.marks.size(); ++k) {
    const auto& mark = m.marks[k];
    const std::string mp = path + " mark " + num(k);
    if (mark.name.empty())
      out.add(Severity::warning, mark.offset, mp + " name", "empty mark name", "a name", "\"\"");
    for (std::size_t i = 0; i < mark.intervals.size(); ++i) {
      const auto& iv = mark.intervals[i];
      const std::uint64_t at = mark.count_offset + 4 + i * 8;
      const std::string ip = mp + " interval " + num(i);
      if (!std::isfinite(iv.start) || !std::isfinite(iv.end)) {
        out.add(Severity::error, at, ip, "mark interval is not finite", "seconds", fmt(iv.start) + " " + fmt(iv.end));
        continue;
      }
      if (iv.start > iv.end)
        out.add(Severity::warning, at, ip, "interval starts after it ends", "start <= end",
                fmt(iv.start) + " > " + fmt(iv.end));
      if (i > 0 && iv.start < mark.intervals[i - 1].start)
        out.add(Severity::warning, at, ip, "intervals not sorted by start", "start >= " + fmt(mark.intervals[i - 1].start),
                fmt(iv.start));
      if (iv.start < -1e-4f || iv.end > length + 1e-4f)
        out.add(Severity::warning, at, ip, "mark interval outside the motion",
                "within [0, " + fmt(length) + "] s", "[" + fmt(iv.start) + ", " + fmt(iv.end) + "] s");
    }
  }
}

}  // namespace

void validate_skl_motion(const SklMotion& m, std::string_view path_prefix, Diagnostics& out) {
  const std::string path(path_prefix);
  const std::uint64_t header = m.offset + m.name.size() + 1;  // frame start
  if (!std::isfinite(m.fps) || m.fps <= 0.0f)
    out.add(Severity::error, header + 8, path + " fps", "fps is not a positive number (the SDK samples at frame / fps)",
            "a positive number", fmt(m.fps));
  else if (m.fps != 30.0f)
    out.add(Severity::info, header + 8, path + " fps", "the engine plays compiled motions at 30 fps", "30", fmt(m.fps));
  if (m.frame_end < m.frame_start)
    out.add(Severity::error, header, path + " frames", "frame range ends before it starts", "start <= end",
            std::to_string(m.frame_start) + " > " + std::to_string(m.frame_end));
  else if (static_cast<std::uint64_t>(static_cast<std::int64_t>(m.frame_end) - m.frame_start) + 1 > kMaxMotionFrames)
    out.add(Severity::warning, header, path + " frames", "longer than boneyard converts",
            "at most " + frames_text(kMaxMotionFrames), std::to_string(std::int64_t{m.frame_end} - m.frame_start + 1));
  const std::uint64_t fields = header + 14;  // after frames, fps and version
  if (m.version == 5 && m.flags > 0xFF)
    out.add(Severity::warning, fields, path + " flags", "flag bits above the low byte, which the SDK drops", "0-255",
            hex(m.flags));
  if (m.version <= 5 && m.bone_or_part > 0xFFFF)
    out.add(Severity::warning, fields + (m.version == 5 ? 4 : 0), path + " bone or part",
            "bone or part above 16 bits: the SDK keeps the low 16 bits", "at most 65535", num(m.bone_or_part));
  const std::uint64_t params_at = fields + (m.version == 4 ? 6 : m.version == 5 ? 8 : 3);
  const float values[4] = {m.speed, m.accrue, m.falloff, m.power};
  static constexpr const char* kNames[4] = {"speed", "accrue", "falloff", "power"};
  for (int i = 0; i < 4; ++i) {
    if (!valid_motion_param(values[i]))
      out.add(Severity::error, params_at + 4 * static_cast<unsigned>(i), path + " " + kNames[i],
              std::string(kNames[i]) + " is not a finite number >= 0 (the engine divides and blends by it)",
              "a finite number >= 0", fmt(values[i]));
  }
  if (!m.is_fx() && valid_motion_param(m.accrue) && valid_motion_param(m.falloff)) {
    MotionParams p;
    p.flags = m.flags;
    p.speed = m.speed;
    p.power = m.power;
    p.accrue = m.accrue;
    p.falloff = m.falloff;
    const EffectiveParams e = effective_params(p);
    if (e.falloff_clamped)
      out.add(Severity::info, params_at + 8, path + " falloff",
              "falloff >= accrue on a cycle: the engine plays falloff = accrue - 1 step (here " + fmt(e.falloff) + ")",
              "falloff < accrue", fmt(m.falloff) + " >= " + fmt(m.accrue));
  }
  if (m.bones.empty()) out.add(Severity::warning, m.offset, path + " bones", "a motion without bones", "bones", "0");

  std::map<std::string, std::size_t> seen;
  std::size_t upper = 0, first_upper = 0;
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    const SklBone& b = m.bones[i];
    const std::string bp = path + " bone " + num(i);
    if (m.version >= 5) {
      if (b.name.empty()) out.add(Severity::warning, b.offset, bp + " name", "empty bone name", "a bone name", "\"\"");
      if (b.name.size() > kMaxSdkBoneName)
        out.add(Severity::error, b.offset, bp + " name",
                "bone name too long: the SDK reads it into 64 bytes and stops", "at most 63 bytes", num(b.name.size()));
      if (has_upper(b.name) && upper++ == 0) first_upper = i;
      auto [it, inserted] = seen.emplace(lowered(b.name), i);
      if (!inserted)
        out.add(Severity::warning, b.offset, bp + " name",
                "bone name repeated (names compare ignoring case): the SDK uses the first", "unique names",
                show(b.name) + " (bone " + num(it->second) + ")");
    }
    if ((b.flags & ~kBoneWorldOrient) != 0)
      out.add(Severity::warning, b.offset + (m.version >= 5 ? b.name.size() + 1 : 0), bp + " flags", "unknown bone flag bits",
              "0 or 1 (world orientation)", hex(b.flags));
  }
  if (upper > 0)
    out.add(Severity::info, m.bones[first_upper].offset, path + " bone " + num(first_upper) + " name",
            "bone name with upper-case letters: the SDK lowercases names when it loads the motion" +
                (upper > 1 ? " (and " + num(upper - 1) + " more in this motion)" : std::string()),
            "lower case", show(m.bones[first_upper].name));

  EnvelopeChecker checker([&](std::size_t bone, std::size_t channel) {
    std::string p = path + " bone " + num(bone);
    if (bone < m.bones.size() && !m.bones[bone].name.empty()) p += " " + show(m.bones[bone].name);
    return p + " " + std::string(motion_channel_name(static_cast<MotionChannel>(channel)));
  });
  for (std::size_t i = 0; i < m.bones.size(); ++i)
    for (std::size_t c = 0; c < kMotionChannels; ++c) checker.check(m.bones[i].channels[c], i, c);
  checker.report(out);
  validate_marks(m, path, out);
}

Diagnostics validate_skl(const SklFile& f) {
  Diagnostics out;
  const bool skls = f.container == SklContainer::skls;
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const SklMotion& m = f.motions[i];
    std::string path = skls ? "motion " + num(i) + " " + show(m.name) : hex(f.chunks[f.motion_chunk].raw_id) + (f.motion_unpacked ? " unpacked" : "");
    validate_skl_motion(m, path, out);
  }
  if (skls) {
    std::map<std::string, std::size_t> names;
    for (std::size_t i = 0; i < f.motions.size(); ++i) {
      auto [it, inserted] = names.emplace(lowered(f.motions[i].name), i);
      if (!inserted)
        out.add(Severity::warning, f.motions[i].offset, "motion " + num(i) + " name",
                "motion name repeated (the SDK keeps motions by name)", "unique names",
                show(f.motions[i].name) + " (motion " + num(it->second) + ")");
    }
    if (!f.tail.empty())
      out.add(Severity::warning, f.tail_offset, "end", "bytes after the last motion, which the SDK ignores (kept)", "none",
              num(f.tail.size()) + " bytes");
    out.sort_by_offset();
    return out;
  }
  const Chunk& c = f.chunks[f.motion_chunk];
  if (f.motion_unpacked)
    out.add(Severity::error, c.offset, hex(c.raw_id),
            "LZHuf-packed motion chunk: the engine and the SDK read this chunk as stored and would not load the motion "
            "(blender-xray unpacks it)",
            "a plain chunk 0x1200", "bit 31 set, packed");
  else if (c.compress_bit())
    out.add(Severity::warning, c.offset, hex(c.raw_id),
            "bit 31 set on a plain motion chunk: the engine reads it as stored, blender-xray would try to unpack it",
            "chunk id 0x1200", hex(c.raw_id));
  if (!f.tail.empty())
    out.add(Severity::warning, f.tail_offset, hex(c.raw_id) + " end",
            "bytes after the motion in its chunk, which the SDK ignores (kept)", "none", num(f.tail.size()) + " bytes");
  for (std::size_t i = 0; i < f.chunks.size(); ++i) {
    if (i == f.motion_chunk) continue;
    const Chunk& other = f.chunks[i];
    if (other.id() == kChunkSkeletonMotion)
      out.add(Severity::warning, other.offset, hex(other.raw_id), "a second motion chunk: the SDK reads the first only (kept)",
              "one chunk 0x1200", "another");
    else
      out.add(Severity::info, other.offset, hex(other.raw_id), "chunk the SDK does not read (kept)", "chunk 0x1200",
              hex(other.raw_id));
  }
  if (f.overrun) {
    const bool truncated = f.overrun->truncated_chunk();
    out.add(truncated ? Severity::error : Severity::warning, f.overrun->offset, hex(f.overrun->raw_id),
            truncated ? "truncated chunk" : "trailing bytes after the last chunk (kept)",
            num(f.overrun->declared_size) + " bytes", num(f.overrun->available) + " bytes");
  } else if (!f.trailing.empty()) {
    out.add(Severity::warning, f.trailing_offset, "end", "trailing bytes after the last chunk (kept)", "none",
            num(f.trailing.size()) + " bytes");
  }
  out.sort_by_offset();
  return out;
}

}  // namespace boneyard::xray
