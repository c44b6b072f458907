// OMF validation rules: ../shared/docs/xray-motions.md sections 1-3 and the clarifications
// (falloff >= accrue is info, garbage translations warn, CRC problems warn). See docs/xray-omf.md.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <map>
#include <string>

#include "boneyard/core/crc32.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/core/text.h"

namespace boneyard::xray {

namespace {

constexpr float kAbsurdTranslation = 1.0e4f;  // metres; real rigs stay within a few metres

std::string num(std::uint64_t v) { return std::to_string(v); }
std::string motion_path(std::size_t i) { return "0xE/" + num(i + 1); }
std::string params_motion_path(std::size_t i) { return "0xF motion " + num(i); }
std::string fmt_float(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}
std::string show_name(std::string_view raw) { return "\"" + printable(raw) + "\""; }


// Counts occurrences of one problem across a motion and reports it once, at its first place.
// Paths and values are built only for that first place: validation runs at CRC speed.
struct Tally {
  std::size_t count = 0;
  std::uint64_t offset = 0;
  std::string path, found;
  template <class PathFn, class FoundFn>
  void hit(std::uint64_t at, PathFn&& path_fn, FoundFn&& found_fn) {
    if (count++ == 0) {
      offset = at;
      path = path_fn();
      found = found_fn();
    }
  }
  void report(Diagnostics& out, Severity s, const std::string& message, const std::string& expected) const {
    if (count == 0) return;
    std::string m = message;
    if (count > 1) m += " (and " + num(count - 1) + " more in this motion)";
    out.add(s, offset, path, m, expected, found);
  }
};

enum TallyKind { kRotCrcZero, kRotCrcBad, kTransCrcZero, kTransCrcBad, kQuatLength, kAbsurdTrans, kTallyCount };

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
float max_abs(const Vec3& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

// Index of the first key whose length is off unit by more than 1%, or -1. Works on the stored
// integers: the sum of squares fits in u32 (4 * 32767^2 < 2^32). Runs once per key array, so it
// must cost about as much as the CRC pass: SSE2 checks two keys per instruction group.
constexpr std::uint32_t kQuatLow = static_cast<std::uint32_t>(0.99 * 0.99 * 32767.0 * 32767.0);
constexpr std::uint32_t kQuatHigh = static_cast<std::uint32_t>(1.01 * 1.01 * 32767.0 * 32767.0);

bool quaternion_length_ok(const std::uint8_t* key) {
  std::int16_t c[4];
  std::memcpy(c, key, 8);
  std::uint32_t s = 0;
  for (int i = 0; i < 4; ++i) s += static_cast<std::uint32_t>(c[i] * c[i]);
  return s >= kQuatLow && s <= kQuatHigh;
}

bool all_quaternion_lengths_ok(Bytes keys) {
  const std::size_t n = keys.size() / 8;
  std::size_t k = 0;
#if defined(__SSE2__)
  const __m128i sign = _mm_set1_epi32(static_cast<int>(0x80000000u));
  const __m128i low = _mm_set1_epi32(static_cast<int>(kQuatLow));
  const __m128i span = _mm_xor_si128(_mm_set1_epi32(static_cast<int>(kQuatHigh - kQuatLow)), sign);
  __m128i bad = _mm_setzero_si128();
  for (; k + 2 <= n; k += 2) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(keys.data() + k * 8));
    const __m128i pairs = _mm_madd_epi16(v, v);  // x^2+y^2, z^2+w^2 per key
    const __m128i sums = _mm_add_epi32(pairs, _mm_shuffle_epi32(pairs, _MM_SHUFFLE(2, 3, 0, 1)));
    // Unsigned range check: (sum - low) <= (high - low), done as a signed compare after a sign flip.
    const __m128i offset = _mm_xor_si128(_mm_sub_epi32(sums, low), sign);
    bad = _mm_or_si128(bad, _mm_cmpgt_epi32(offset, span));
  }
  if (_mm_movemask_epi8(bad) != 0) return false;
#endif
  for (; k < n; ++k)
    if (!quaternion_length_ok(keys.data() + k * 8)) return false;
  return true;
}

std::ptrdiff_t first_bad_quaternion(Bytes keys) {
  if (all_quaternion_lengths_ok(keys)) return -1;
  for (std::size_t k = 0; k < keys.size() / 8; ++k)
    if (!quaternion_length_ok(keys.data() + k * 8)) return static_cast<std::ptrdiff_t>(k);
  return -1;
}

struct FileTallies {
  std::size_t bit2_without_bit0 = 0;
  std::size_t keys16 = 0;
  std::uint64_t keys16_offset = 0;
  std::string keys16_path;
};

void validate_bone(std::size_t mi, std::size_t bi, const BoneKeys& b, Tally (&t)[kTallyCount], FileTallies& ft,
                   Diagnostics& out) {
  auto path = [&](const char* what) { return motion_path(mi) + " bone " + num(bi) + " " + what; };
  if ((b.flags & ~0x7u) != 0)
    out.add(Severity::warning, b.offset, path("flags"), "unknown flag bits set", "bits 0-2 only", hex(b.flags));
  if ((b.flags & kFlagTKeys16) && !b.translation_keyed()) ++ft.bit2_without_bit0;
  if (b.translation_16bit() && ft.keys16++ == 0) {
    ft.keys16_offset = b.offset;
    ft.keys16_path = path("flags");
  }
  auto check_crc = [&](std::uint32_t stored, Bytes keys, std::uint64_t at, const char* what, Tally& zero,
                       Tally& mismatch) {
    if (stored == 0) {
      zero.hit(at, [&] { return path(what); }, [] { return std::string("0"); });
      return;
    }
    const std::uint32_t actual = crc32(keys);
    if (actual != stored)
      mismatch.hit(at, [&] { return path(what); }, [&] { return hex(stored) + ", computed " + hex(actual); });
  };
  if (!b.rotation_static())
    check_crc(b.rotation_crc, b.rotation_keys, b.rotation_offset(), "rotation CRC", t[kRotCrcZero], t[kRotCrcBad]);
  if (b.translation_keyed())
    check_crc(b.translation_crc, b.translation_keys, b.translation_offset(), "translation CRC", t[kTransCrcZero],
              t[kTransCrcBad]);
  // The engine uses keys as stored; real data is within 6e-5 of unit length.
  if (const auto k = first_bad_quaternion(b.rotation_keys); k >= 0) {
    const auto key = static_cast<std::size_t>(k);
    t[kQuatLength].hit(
        b.rotation_offset() + (b.rotation_static() ? 0 : 4) + key * 8,
        [&] { return path("rotation key") + " " + num(key); },
        [&] { return "length " + fmt_float(b.rotation(key).norm()); });
  }
  // The farthest a key can reach: |init| + qmax * |size|.
  const float qmax = b.translation_16bit() ? 32767.0f : 128.0f;
  const Vec3 reach = b.translation_keyed()
                         ? Vec3{std::fabs(b.translation_init.x) + qmax * std::fabs(b.translation_size.x),
                                std::fabs(b.translation_init.y) + qmax * std::fabs(b.translation_size.y),
                                std::fabs(b.translation_init.z) + qmax * std::fabs(b.translation_size.z)}
                         : b.translation_init;
  if (!finite(b.translation_init) || !finite(b.translation_size) || max_abs(reach) > kAbsurdTranslation) {
    t[kAbsurdTrans].hit(
        b.translation_offset(), [&] { return path("translation"); },
        [&] {
          return "init (" + fmt_float(b.translation_init.x) + ", " + fmt_float(b.translation_init.y) + ", " +
                 fmt_float(b.translation_init.z) + ")";
        });
  }
}

void validate_keys(const MotionSet& set, Diagnostics& out, FileTallies& ft) {
  if (!set.has_motions_chunk) {
    out.add(Severity::error, 0, "0xE", "missing chunk 0xE (motion keys)", "chunk 0xE", "none");
    return;
  }
  if (set.motions_overrun) {
    const auto& o = *set.motions_overrun;
    out.add(Severity::error, o.offset, "0xE/" + num(o.raw_id & ~kChunkCompressBit), "sub-chunk size past the data",
            num(o.declared_size) + " bytes", num(o.available) + " bytes");
  } else if (!set.motions_trailing.empty()) {
    out.add(Severity::warning, set.motions_trailing_offset, "0xE", "trailing bytes after the last sub-chunk", "none",
            num(set.motions_trailing.size()) + " bytes");
  }
  if (!set.declared_count) {
    out.add(Severity::error, set.motions_offset, "0xE/0", "missing motion count sub-chunk", "sub-chunk 0 with a u32",
            "none");
  } else {
    for (const auto& s : set.subchunks) {
      if (s.kind == MotionsSubchunk::Kind::count && s.payload.size() != 4)
        out.add(Severity::warning, s.offset, "0xE/0", "unexpected size of the motion count sub-chunk", "4 bytes",
                num(s.payload.size()) + " bytes");
    }
    if (*set.declared_count >= 0x3FFF)
      out.add(Severity::warning, set.motions_offset + 16, "0xE/0", "motion count over the engine's limit",
              "below 16383", num(*set.declared_count));
    if (set.motions.size() < *set.declared_count)
      out.add(Severity::error, set.motions_offset, "0xE/" + num(set.motions.size() + 1), "motion sub-chunk missing",
              num(*set.declared_count) + " motion sub-chunks", num(set.motions.size()));
  }
  for (const auto& s : set.subchunks) {
    if (s.kind != MotionsSubchunk::Kind::other) continue;
    out.add(Severity::warning, s.offset, "0xE/" + num(s.raw_id & ~kChunkCompressBit),
            "sub-chunk the engine never reads (duplicate id or beyond the motion count)", "-", "kept as is");
  }
  for (const auto& s : set.subchunks)
    if (s.raw_id & kChunkCompressBit)
      out.add(Severity::warning, s.offset, "0xE/" + num(s.raw_id & ~kChunkCompressBit), "sub-chunk id has bit 31 set",
              hex(s.raw_id & ~kChunkCompressBit), hex(s.raw_id));

  const std::size_t parts_bones = set.params.bone_count();
  for (std::size_t mi = 0; mi < set.motions.size(); ++mi) {
    const MotionKeys& m = set.motions[mi];
    const std::string path = motion_path(mi);
    if (!m.readable) {
      out.add(m.readable.error());
      continue;
    }
    if (m.frames == 0)
      out.add(Severity::error, m.frames_offset(), path + " frame count", "no frames", "at least 1", "0");
    if (m.frames > 0xFFFFFF)
      out.add(Severity::warning, m.frames_offset(), path + " frame count",
              "frame count over the engine's 24-bit field", "at most 16777215", num(m.frames));
    if (m.name.size() > kMaxNameBytes)
      out.add(Severity::warning, m.offset + 8, path + " name", "name too long for the engine", "at most 127 bytes",
              num(m.name.size()) + " bytes");
    Tally t[kTallyCount];
    for (std::size_t bi = 0; bi < m.bones.size(); ++bi) validate_bone(mi, bi, m.bones[bi], t, ft, out);
    t[kRotCrcZero].report(out, Severity::warning, "stored CRC is 0", "CRC-32 of the keys");
    t[kRotCrcBad].report(out, Severity::warning, "CRC mismatch", "stored CRC = CRC-32 of the keys");
    t[kTransCrcZero].report(out, Severity::warning, "stored CRC is 0", "CRC-32 of the keys");
    t[kTransCrcBad].report(out, Severity::warning, "CRC mismatch", "stored CRC = CRC-32 of the keys");
    t[kQuatLength].report(out, Severity::warning, "quaternion far from unit length", "length 1 +- 0.01");
    t[kAbsurdTrans].report(out, Severity::warning, "absurd or non-finite translation (the engine still plays it)",
                "within 10 km");
    if (!m.tail.empty()) {
      const auto extra = count_whole_records(m.tail, m.frames);
      if (extra && *extra > 0) {
        out.add(Severity::error, m.tail_offset, path + " bone records",
                "more bone records than the parts' bone total", num(parts_bones) + " records",
                num(parts_bones + *extra) + " records");
      } else {
        out.add(Severity::warning, m.tail_offset, path, "trailing bytes after the last bone record", "none",
                num(m.tail.size()) + " bytes");
      }
    }
  }
}

void check_name(Diagnostics& out, std::uint64_t at, const std::string& path, const std::string& name) {
  if (name.size() > kMaxNameBytes)
    out.add(Severity::warning, at, path, "name too long for the engine", "at most 127 bytes",
            num(name.size()) + " bytes");
}

void validate_parts(const Params& p, Diagnostics& out) {
  if (p.parts.size() > kMaxParts)
    out.add(Severity::error, p.offset + 10, "0xF part count", "too many bone parts", "at most 4", num(p.parts.size()));
  if (p.parts_without_names)
    out.add(Severity::error, p.offset + 12, "0xF part 0",
            "bone part written with indices only (SDK 'default' part): v3/v4 loaders misread it",
            "name and index per bone", "indices only");
  if (p.version < 3)
    out.add(Severity::warning, p.offset + 8, "0xF version",
            "params version the CS/CoP loader misreads (it parses v3-style bone entries)", "3 or 4",
            num(p.version));
  const std::size_t n = p.bone_count();
  std::vector<int> seen(n, -1);
  std::map<std::string, std::uint64_t> names;
  for (std::size_t pi = 0; pi < p.parts.size(); ++pi) {
    const auto& part = p.parts[pi];
    check_name(out, part.offset, "0xF part " + num(pi) + " name", part.name);
    for (std::size_t bi = 0; bi < part.bones.size(); ++bi) {
      const auto& bone = part.bones[bi];
      const std::string path = "0xF part " + num(pi) + " bone " + num(bi);
      if (p.version >= 2 && !p.parts_without_names) {
        check_name(out, bone.offset, path + " name", bone.name);
        if (!names.emplace(bone.name, bone.offset).second)
          out.add(Severity::warning, bone.offset, path + " name", "bone listed twice", "unique bone names",
                  show_name(bone.name));
      }
      if (p.version >= 3) {
        const std::uint64_t at = bone.offset + (p.parts_without_names ? 0 : bone.name.size() + 1);
        if (bone.index >= n) {
          out.add(Severity::error, at, path + " index", "motion bone index out of range (not a permutation)",
                  "below " + num(n), num(bone.index));
        } else if (seen[bone.index] >= 0) {
          out.add(Severity::error, at, path + " index", "motion bone index used twice (not a permutation)",
                  "each of 0.." + num(n - 1) + " once", num(bone.index));
        } else {
          seen[bone.index] = static_cast<int>(bi);
        }
      }
    }
  }
}

void validate_marks(const MotionParams& m, const std::string& path, Diagnostics& out) {
  for (std::size_t k = 0; k < m.marks.size(); ++k) {
    const auto& mark = m.marks[k];
    const std::string mp = path + " mark " + num(k);
    if (mark.name.empty())
      out.add(Severity::warning, mark.offset, mp + " name", "empty mark name (the engine reads it as \"\\r\")",
              "a name", "\"\"");
    if (mark.name.find_first_of("\r\n") != std::string::npos)
      out.add(Severity::warning, mark.offset, mp + " name", "CR or LF inside a mark name (the engine cuts it there)",
              "no CR/LF", show_name(mark.name));
    check_name(out, mark.offset, mp + " name", mark.name);
    const auto low = mark.intervals.size() & 0xFF;
    if (low == 0x0A || low == 0x0D)
      out.add(Severity::warning, mark.count_offset, mp + " interval count",
              "count whose low byte is CR/LF: the engine's string reader swallows it", "low byte not 0x0A/0x0D",
              num(mark.intervals.size()));
    for (std::size_t i = 0; i < mark.intervals.size(); ++i) {
      const auto& iv = mark.intervals[i];
      const std::uint64_t at = mark.count_offset + 4 + i * 8;
      if (iv.start > iv.end)
        out.add(Severity::warning, at, mp + " interval " + num(i), "interval starts after it ends", "start <= end",
                fmt_float(iv.start) + " > " + fmt_float(iv.end));
      if (i > 0 && iv.start < mark.intervals[i - 1].start)
        out.add(Severity::warning, at, mp + " interval " + num(i), "intervals not sorted by start",
                "start >= " + fmt_float(mark.intervals[i - 1].start), fmt_float(iv.start));
    }
  }
}

void validate_params(const MotionSet& set, Diagnostics& out) {
  const Params& p = set.params;
  validate_parts(p, out);
  if (set.declared_count && p.motions.size() != *set.declared_count)
    out.add(Severity::error, p.tail_offset, "0xF motion count", "0xE and 0xF motion counts differ",
            num(*set.declared_count) + " (0xE)", num(p.motions.size()));
  if (!p.tail.empty())
    out.add(Severity::warning, p.tail_offset, "0xF", "trailing bytes after the last motion", "none",
            num(p.tail.size()) + " bytes");

  std::map<std::string, std::size_t> names[2];  // the engine keeps cycles and FX in separate maps
  std::size_t clamped = 0, bad_ids = 0, renamed = 0;
  std::size_t first_clamped = 0, first_bad_id = 0, first_renamed = 0;
  const std::size_t bones = p.bone_count();
  for (std::size_t i = 0; i < p.motions.size(); ++i) {
    const MotionParams& m = p.motions[i];
    const std::string path = params_motion_path(i);
    check_name(out, m.offset, path + " name", m.name);
    if (m.name.empty()) out.add(Severity::warning, m.offset, path + " name", "empty motion name", "a name", "\"\"");
    auto [it, inserted] = names[m.is_fx() ? 1 : 0].emplace(lower_ascii(m.name), i);
    if (!inserted)
      out.add(Severity::warning, m.offset, path + " name",
              "duplicate motion name ignoring case: the engine keeps only the first",
              "unique (motion " + num(it->second) + " has it)", show_name(m.name));
    const std::uint64_t bop_at = m.offset + m.name.size() + 1 + 4;
    if (m.is_fx()) {
      if (m.bone_or_part != kNoBoneOrPart && m.bone_or_part >= bones)
        out.add(Severity::warning, bop_at, path + " bone", "FX start bone out of range", "below " + num(bones),
                num(m.bone_or_part));
    } else if (m.bone_or_part != kNoBoneOrPart && m.bone_or_part >= p.parts.size()) {
      out.add(Severity::warning, bop_at, path + " part", "cycle part out of range (the engine ignores the motion)",
              "below " + num(p.parts.size()) + " or 65535 (all)", num(m.bone_or_part));
    }
    const float values[4] = {m.speed, m.power, m.accrue, m.falloff};
    static constexpr const char* kNames[4] = {"speed", "power", "accrue", "falloff"};
    for (int k = 0; k < 4; ++k) {
      if (!std::isfinite(values[k]) || values[k] < 0.0f || values[k] > 100.0f)
        out.add(Severity::warning, bop_at + 4 + 4 * k, path + " " + kNames[k],
                "value outside what the engine stores (clamped to 0..100)", "0..100", fmt_float(values[k]));
    }
    if (effective_params(m).falloff_clamped && clamped++ == 0) first_clamped = i;
    if (m.motion_id != i && bad_ids++ == 0) first_bad_id = i;
    if (i < set.motions.size() && set.motions[i].readable && set.motions[i].name != m.name && renamed++ == 0)
      first_renamed = i;
    validate_marks(m, path, out);
  }
  if (clamped > 0) {
    const auto& m = p.motions[first_clamped];
    const auto e = effective_params(m);
    out.add(Severity::info, m.offset + m.name.size() + 1 + 20, params_motion_path(first_clamped) + " falloff",
            num(clamped) + " cycle(s) with falloff >= accrue: the engine plays falloff = accrue - 1 step (here " +
                fmt_float(e.falloff) + ")",
            "falloff < accrue", fmt_float(m.falloff) + " >= " + fmt_float(m.accrue));
  }
  if (bad_ids > 0) {
    const auto& m = p.motions[first_bad_id];
    out.add(Severity::info, m.offset + m.name.size() + 1 + 6, params_motion_path(first_bad_id) + " motion id",
            num(bad_ids) + " motion id(s) differ from the ordinal; the engine ignores them (omf repair fixes them)",
            num(first_bad_id), num(m.motion_id));
  }
  if (renamed > 0) {
    out.add(Severity::info, set.motions[first_renamed].offset + 8, motion_path(first_renamed) + " name",
            num(renamed) + " 0xE name(s) differ from 0xF; release engines ignore 0xE names",
            show_name(p.motions[first_renamed].name), show_name(set.motions[first_renamed].name));
  }
}

}  // namespace

void validate_motion_set(const MotionSet& set, Diagnostics& out) {
  FileTallies ft;
  validate_keys(set, out, ft);
  validate_params(set, out);
  if (ft.bit2_without_bit0 > 0)
    out.add(Severity::info, set.motions_offset, "0xE",
            num(ft.bit2_without_bit0) +
                " bone record(s) have the 16-bit flag without translation keys (normal for CS/CoP files; kept)");
  if (ft.keys16 > 0 && set.params.version <= 3)
    out.add(Severity::info, ft.keys16_offset, ft.keys16_path,
            num(ft.keys16) + " record(s) with 16-bit translation keys in a params-v" + num(set.params.version) +
                " file: SoC engines cannot read them (omf retarget --game soc converts)");
  if (set.motions.empty() && set.declared_count && *set.declared_count == 0)
    out.add(Severity::info, set.motions_offset, "0xE/0", "file holds no motions (legal)");
}

Diagnostics validate_omf(const OmfFile& file) {
  Diagnostics out;
  for (const auto& c : file.chunks) {
    const std::string path = hex(c.raw_id & ~kChunkCompressBit);
    if (c.raw_id & kChunkCompressBit)
      out.add(Severity::warning, c.offset, path, "chunk id has bit 31 set (the engine masks it)",
              hex(c.raw_id & ~kChunkCompressBit), hex(c.raw_id));
    if (c.kind == TopChunk::Kind::other) {
      const std::uint32_t id = c.raw_id & ~kChunkCompressBit;
      if (id == kChunkMotions || id == kChunkParams)
        out.add(Severity::warning, c.offset, path, "second chunk with this id (the engine reads only the first)");
      else
        out.add(Severity::info, c.offset, path, "chunk not used in .omf files (kept as is)", "-",
                num(c.payload.size()) + " bytes");
    }
  }
  validate_motion_set(file.motions, out);
  if (file.overrun && file.overrun->truncated_chunk()) {
    out.add(Severity::error, file.overrun->offset, hex(file.overrun->raw_id & ~kChunkCompressBit),
            "chunk truncated: its size runs past the end of the file (truncated file)",
            num(file.overrun->declared_size) + " bytes", num(file.overrun->available) + " bytes available");
  } else if (file.overrun) {
    out.add(Severity::warning, file.overrun->offset, hex(file.overrun->raw_id), "trailing bytes: chunk size past the end",
            num(file.overrun->declared_size) + " bytes", num(file.overrun->available) + " bytes");
  } else if (!file.trailing.empty()) {
    out.add(Severity::warning, file.trailing_offset, "file", "trailing bytes after the last chunk", "none",
            num(file.trailing.size()) + " bytes");
  }
  out.sort_by_offset();
  return out;
}

}  // namespace boneyard::xray
