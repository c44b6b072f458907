// Validation of skeletal motions and their files (docs/xray-sdk.md "Skeletal motions", rules).
// One pass over the key records (EnvelopeChecker); paths and values are built only for problems.
#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

namespace {

std::string skl_num(std::uint64_t v) { return std::to_string(v); }
// As "%g" (6 significant digits), through to_chars: validation formats the values of its findings
// once per motion of large files.
std::string skl_fmt(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v, std::chars_format::general, 6);
  return std::string(b, r.ptr);
}
std::string skl_show(std::string_view raw) { return "\"" + printable(raw) + "\""; }

// The SDK reads bone names of v5+ motions into 64 bytes (string64) and asserts on longer ones.
constexpr std::size_t kMaxSklBoneName = 63;

bool skl_has_upper(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

std::string skl_lowered(std::string_view s) { return lower_ascii(s); }

// A hash of a name that ignores ASCII case, from its length and its first and last 8 bytes with
// bit 5 set (which lowers letters, and maps a few other bytes together: equal hashes are compared
// by name anyway). O(1) per name: validation runs per bone of every motion.
std::uint64_t skl_lowered_hash(std::string_view s) {
  std::uint64_t head = 0, tail = 0;
  std::memcpy(&head, s.data(), std::min<std::size_t>(s.size(), 8));
  if (s.size() > 8) std::memcpy(&tail, s.data() + s.size() - 8, 8);
  constexpr std::uint64_t kCase = 0x2020202020202020ULL;
  std::uint64_t h = (head | kCase) * 0x9E3779B97F4A7C15ULL;
  h ^= (tail | kCase) + 0x632BE59BD9B4E019ULL + (h << 6) + (h >> 2);
  return (h ^ s.size()) * 0xD6E8FEB86659FD93ULL;
}

int skl_compare_ignoring_case(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    auto lower = [](char c) { return static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); };
    const int x = lower(a[i]), y = lower(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

void validate_skl_marks(const SklMotion& m, const std::string& path, Diagnostics& out) {
  const float length = m.fps > 0 && std::isfinite(m.fps) ? static_cast<float>(m.frame_end - m.frame_start) / m.fps : 0.0f;
  for (std::size_t k = 0; k < m.marks.size(); ++k) {
    const auto& mark = m.marks[k];
    const std::string mp = path + " mark " + skl_num(k);
    if (mark.name.empty())
      out.add(Severity::warning, mark.offset, mp + " name", "empty mark name", "a name", "\"\"");
    for (std::size_t i = 0; i < mark.intervals.size(); ++i) {
      const auto& iv = mark.intervals[i];
      const std::uint64_t at = mark.count_offset + 4 + i * 8;
      const std::string ip = mp + " interval " + skl_num(i);
      if (!std::isfinite(iv.start) || !std::isfinite(iv.end)) {
        out.add(Severity::error, at, ip, "mark interval is not finite", "seconds", skl_fmt(iv.start) + " " + skl_fmt(iv.end));
        continue;
      }
      if (iv.start > iv.end)
        out.add(Severity::warning, at, ip, "interval starts after it ends", "start <= end",
                skl_fmt(iv.start) + " > " + skl_fmt(iv.end));
      if (i > 0 && iv.start < mark.intervals[i - 1].start)
        out.add(Severity::warning, at, ip, "intervals not sorted by start", "start >= " + skl_fmt(mark.intervals[i - 1].start),
                skl_fmt(iv.start));
      if (iv.start < -1e-4f || iv.end > length + 1e-4f)
        out.add(Severity::warning, at, ip, "mark interval outside the motion",
                "within [0, " + skl_fmt(length) + "] s", "[" + skl_fmt(iv.start) + ", " + skl_fmt(iv.end) + "] s");
    }
  }
}


// The bone names' findings (empty, too long, repeated, upper case); returns whether there were any.
bool check_bone_names(const SklMotion& m, const std::string& path, Diagnostics& out) {
  const std::size_t before = out.findings().size();
  std::size_t upper = 0, first_upper = 0;
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    const SklBone& b = m.bones[i];
    auto bp = [&] { return path + " bone " + skl_num(i); };
    if (m.version >= 5) {
      if (b.name.empty()) out.add(Severity::warning, b.offset, bp() + " name", "empty bone name", "a bone name", "\"\"");
      if (b.name.size() > kMaxSklBoneName)
        out.add(Severity::error, b.offset, bp() + " name",
                "bone name too long: the SDK reads it into 64 bytes and stops", "at most 63 bytes", skl_num(b.name.size()));
      if (skl_has_upper(b.name) && upper++ == 0) first_upper = i;
    }
  }
  if (m.version >= 5 && m.bones.size() > 1) {
    // Repeated names, ignoring case: an open-addressing table of (hash of the lowered name, bone),
    // names compared only when their hashes are equal.
    std::size_t slots = 16;
    while (slots < 2 * m.bones.size()) slots *= 2;
    constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> table(slots, {0, kEmpty});
    for (std::size_t i = 0; i < m.bones.size(); ++i) {
      const std::uint64_t h = skl_lowered_hash(m.bones[i].name);
      for (std::size_t at = h & (slots - 1);; at = (at + 1) & (slots - 1)) {
        auto& slot = table[at];
        if (slot.second == kEmpty) {
          slot = {h, static_cast<std::uint32_t>(i)};
          break;
        }
        if (slot.first == h && skl_compare_ignoring_case(m.bones[slot.second].name, m.bones[i].name) == 0) {
          out.add(Severity::warning, m.bones[i].offset, path + " bone " + skl_num(i) + " name",
                  "bone name repeated (names compare ignoring case): the SDK uses the first", "unique names",
                  skl_show(m.bones[i].name) + " (bone " + skl_num(slot.second) + ")");
          break;
        }
      }
    }
  }
  if (upper > 0)
    out.add(Severity::info, m.bones[first_upper].offset, path + " bone " + skl_num(first_upper) + " name",
            "bone name with upper-case letters: the SDK lowercases names when it loads the motion" +
                (upper > 1 ? " (and " + skl_num(upper - 1) + " more in this motion)" : std::string()),
            "lower case", skl_show(m.bones[first_upper].name));

  return out.findings().size() != before;
}

// Whether `m` has exactly the bone names of `other` (a .skls's motions usually share a skeleton:
// names found clean once need no second look).
bool same_bone_names(const SklMotion& m, const SklMotion& other) {
  if (m.version != other.version || m.bones.size() != other.bones.size()) return false;
  for (std::size_t i = 0; i < m.bones.size(); ++i)
    if (m.bones[i].name != other.bones[i].name) return false;
  return true;
}

// Validates `m`; its bone names only when they are not those of `names_checked` (found clean).
// Returns whether its bone names are clean.
// Cycles whose falloff the engine clamps, counted over a file and reported once (as for .omf: it is
// in almost every real file): how many, and the first one's place.
struct ClampTally {
  std::size_t count = 0;
  Finding first;
};

bool validate_motion(const SklMotion& m, std::string_view path_prefix, Diagnostics& out, const SklMotion* names_checked,
                     ClampTally* clamps) {
  const std::string path(path_prefix);
  const std::uint64_t header = m.offset + m.name.size() + 1;  // frame start
  if (!std::isfinite(m.fps) || m.fps <= 0.0f)
    out.add(Severity::error, header + 8, path + " fps", "fps is not a positive number (the SDK samples at frame / fps)",
            "a positive number", skl_fmt(m.fps));
  else if (m.fps != 30.0f)
    out.add(Severity::info, header + 8, path + " fps", "the engine plays compiled motions at 30 fps", "30", skl_fmt(m.fps));
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
            "bone or part above 16 bits: the SDK keeps the low 16 bits", "at most 65535", skl_num(m.bone_or_part));
  const std::uint64_t params_at = fields + (m.version == 4 ? 6 : m.version == 5 ? 8 : 3);
  const float values[4] = {m.speed, m.accrue, m.falloff, m.power};
  static constexpr const char* kNames[4] = {"speed", "accrue", "falloff", "power"};
  for (int i = 0; i < 4; ++i) {
    if (!valid_motion_param(values[i]))
      out.add(Severity::error, params_at + 4 * static_cast<unsigned>(i), path + " " + kNames[i],
              std::string(kNames[i]) + " is not a finite number >= 0 (the engine divides and blends by it)",
              "a finite number >= 0", skl_fmt(values[i]));
  }
  if (!m.is_fx() && valid_motion_param(m.accrue) && valid_motion_param(m.falloff)) {
    MotionParams p;
    p.flags = m.flags;
    p.speed = m.speed;
    p.power = m.power;
    p.accrue = m.accrue;
    p.falloff = m.falloff;
    const EffectiveParams e = effective_params(p);
    if (e.falloff_clamped && (clamps == nullptr || clamps->count++ == 0)) {
      Finding f{Severity::info, params_at + 8, path + " falloff",
                "falloff >= accrue on a cycle: the engine plays falloff = accrue - 1 step (here " + skl_fmt(e.falloff) + ")",
                "falloff < accrue", skl_fmt(m.falloff) + " >= " + skl_fmt(m.accrue)};
      if (clamps != nullptr) clamps->first = std::move(f);
      else out.add(std::move(f));
    }
  }
  if (m.bones.empty()) out.add(Severity::warning, m.offset, path + " bones", "a motion without bones", "bones", "0");

  const bool names_clean =
      (names_checked != nullptr && same_bone_names(m, *names_checked)) || !check_bone_names(m, path, out);
  for (std::size_t i = 0; i < m.bones.size() && !m.plain; ++i) {
    const SklBone& b = m.bones[i];
    if ((b.flags & ~kBoneWorldOrient) != 0)
      out.add(Severity::warning, b.offset + (m.version >= 5 ? b.name.size() + 1 : 0), path + " bone " + skl_num(i) + " flags",
              "unknown bone flag bits", "0 or 1 (world orientation)", hex(b.flags));
  }

  if (!m.plain) {  // the reader saw every envelope and flag plain otherwise: nothing to look at
    EnvelopeChecker checker([&](std::size_t bone, std::size_t channel) {
      std::string p = path + " bone " + skl_num(bone);
      if (bone < m.bones.size() && !m.bones[bone].name.empty()) p += " " + skl_show(m.bones[bone].name);
      return p + " " + std::string(motion_channel_name(static_cast<MotionChannel>(channel)));
    });
    for (std::size_t i = 0; i < m.bones.size(); ++i)
      for (std::size_t c = 0; c < kMotionChannels; ++c)
        if (((m.bones[i].plain_channels >> c) & 1u) == 0) checker.check(m.bones[i].channel(c), i, c);
    checker.report(out);
  }
  validate_skl_marks(m, path, out);
  return names_clean;
}

}  // namespace

void validate_skl_motion(const SklMotion& m, std::string_view path, Diagnostics& out) {
  (void)validate_motion(m, path, out, nullptr, nullptr);
}

Diagnostics validate_skl(const SklFile& f) {
  Diagnostics out;
  const SklMotion* clean_names = nullptr;
  ClampTally clamps;
  const bool skls = f.container == SklContainer::skls;
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const SklMotion& m = f.motions[i];
    std::string path = skls ? "motion " + skl_num(i) + " " + skl_show(m.name) : hex(f.chunks[f.motion_chunk].raw_id) + (f.motion_unpacked ? " unpacked" : "");
    // Bone names found clean in an earlier motion need no second look when this one repeats them.
    if (validate_motion(m, path, out, clean_names, &clamps)) clean_names = &m;
  }
  if (clamps.count > 0) {
    if (clamps.count > 1) clamps.first.message += " (and " + skl_num(clamps.count - 1) + " more cycles in this file)";
    out.add(std::move(clamps.first));
  }
  if (skls) {
    std::map<std::string, std::size_t> names;
    for (std::size_t i = 0; i < f.motions.size(); ++i) {
      auto [it, inserted] = names.emplace(skl_lowered(f.motions[i].name), i);
      if (!inserted)
        out.add(Severity::warning, f.motions[i].offset, "motion " + skl_num(i) + " name",
                "motion name repeated (the SDK keeps motions by name)", "unique names",
                skl_show(f.motions[i].name) + " (motion " + skl_num(it->second) + ")");
    }
    if (!f.tail.empty())
      out.add(Severity::warning, f.tail_offset, "end", "bytes after the last motion, which the SDK ignores (kept)", "none",
              skl_num(f.tail.size()) + " bytes");
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
            "bytes after the motion in its chunk, which the SDK ignores (kept)", "none", skl_num(f.tail.size()) + " bytes");
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
            skl_num(f.overrun->declared_size) + " bytes", skl_num(f.overrun->available) + " bytes");
  } else if (!f.trailing.empty()) {
    out.add(Severity::warning, f.trailing_offset, "end", "trailing bytes after the last chunk (kept)", "none",
            skl_num(f.trailing.size()) + " bytes");
  }
  out.sort_by_offset();
  return out;
}

}  // namespace boneyard::xray
