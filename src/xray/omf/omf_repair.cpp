// Whole-file rewrites: repair (what the validator can fix without guessing) and retarget
// (SoC / CS / CoP compatibility, params versions 3 and 4).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/core/text.h"

namespace boneyard::xray {

namespace {

std::string shown_name(const std::string& raw) { return "\"" + printable(raw) + "\""; }
std::string path(std::size_t i) { return "0xE/" + std::to_string(i + 1); }

// Requantises a 16-bit translation track to 8 bits the way the SDK quantises: init = centre of
// the range, size = half-range / 127, q = int(127 * (t - init) / half-range). Returns the largest
// change of a decoded value, in metres.
float requantise_to_8bit(OmfFile& file, BoneKeys& b, std::uint32_t frames) {
  std::vector<Vec3> values(frames);
  for (std::uint32_t k = 0; k < frames; ++k) values[k] = b.translation(k);
  float lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = hi[a] = (&values[0].x)[a];
    for (const auto& v : values) {
      lo[a] = std::min(lo[a], (&v.x)[a]);
      hi[a] = std::max(hi[a], (&v.x)[a]);
    }
  }
  Vec3 init, size;
  float half[3];
  for (int a = 0; a < 3; ++a) {
    (&init.x)[a] = (lo[a] + hi[a]) / 2.0f;
    half[a] = (hi[a] - lo[a]) / 2.0f;
    (&size.x)[a] = half[a] / 127.0f;
  }
  std::vector<std::uint8_t> keys(std::size_t{frames} * 3);
  for (std::uint32_t k = 0; k < frames; ++k) {
    for (int a = 0; a < 3; ++a) {
      int q = 0;
      if (half[a] > 0.0f) q = static_cast<int>(127.0f * ((&values[k].x)[a] - (&init.x)[a]) / half[a]);
      keys[k * 3 + a] = static_cast<std::uint8_t>(static_cast<std::int8_t>(std::clamp(q, -128, 127)));
    }
  }
  b.flags = static_cast<std::uint8_t>(b.flags & ~kFlagTKeys16);
  b.translation_keys = file.keep(std::move(keys));
  b.translation_size = size;
  b.translation_init = init;
  update_crcs(b);
  float worst = 0.0f;
  for (std::uint32_t k = 0; k < frames; ++k) {
    const Vec3 v = b.translation(k);
    worst = std::max({worst, std::fabs(v.x - values[k].x), std::fabs(v.y - values[k].y), std::fabs(v.z - values[k].z)});
  }
  return worst;
}

}  // namespace

EditReport repair_omf(OmfFile& file) {
  EditReport report;
  MotionSet& s = file.motions;
  bool relayout = false;
  for (auto& c : file.chunks) {
    if (c.raw_id & kChunkCompressBit) {
      report.changes.push_back("cleared bit 31 of chunk id " + hex(c.raw_id));
      c.raw_id &= ~kChunkCompressBit;
    }
  }
  if (s.motions_raw_id & kChunkCompressBit) s.motions_raw_id &= ~kChunkCompressBit;
  if (s.params.raw_id & kChunkCompressBit) s.params.raw_id &= ~kChunkCompressBit;
  for (const auto& sub : s.subchunks)
    if (sub.kind == MotionsSubchunk::Kind::other || (sub.raw_id & kChunkCompressBit) ||
        (sub.kind == MotionsSubchunk::Kind::count && sub.payload.size() != 4))
      relayout = true;
  if (!s.motions_trailing.empty()) {
    report.changes.push_back("removed " + std::to_string(s.motions_trailing.size()) + " trailing byte(s) in 0xE");
    s.motions_trailing = {};
    s.motions_overrun.reset();
  }
  if (!file.trailing.empty()) {
    report.changes.push_back("removed " + std::to_string(file.trailing.size()) + " trailing byte(s) after the last chunk");
    file.trailing = {};
    file.overrun.reset();
  }
  if (!s.params.tail.empty()) {
    report.changes.push_back("removed " + std::to_string(s.params.tail.size()) + " byte(s) after the last 0xF entry");
    s.params.tail = {};
  }
  const std::size_t n = std::min(s.motions.size(), s.params.motions.size());
  if (s.motions.size() != s.params.motions.size() && s.declared_count)
    report.warnings.push_back("not fixed: 0xE has " + std::to_string(s.motions.size()) + " motions and 0xF " +
                              std::to_string(s.params.motions.size()) + " (which ones belong together is unknown)");
  for (std::size_t i = 0; i < s.motions.size(); ++i) {
    MotionKeys& m = s.motions[i];
    if (!m.readable) {
      report.warnings.push_back("not fixed: " + path(i) + " cannot be parsed: " + m.readable.error().message);
      continue;
    }
    if (i < n && m.name != s.params.motions[i].name) {
      report.changes.push_back(path(i) + " name " + shown_name(m.name) + " -> " + shown_name(s.params.motions[i].name));
      m.name = s.params.motions[i].name;
    }
    if (!m.tail.empty()) {
      report.changes.push_back(path(i) + ": removed " + std::to_string(m.tail.size()) + " byte(s) after the last bone record");
      m.tail = {};
    }
    std::size_t fixed = 0;
    for (auto& b : m.bones) {
      const std::uint32_t r = b.rotation_crc, t = b.translation_crc;
      update_crcs(b);
      if (b.rotation_crc != r || b.translation_crc != t) ++fixed;
    }
    if (fixed > 0) report.changes.push_back(path(i) + ": fixed the CRCs of " + std::to_string(fixed) + " bone record(s)");
  }
  for (std::size_t i = 0; i < s.params.motions.size(); ++i) {
    MotionParams& mp = s.params.motions[i];
    if (mp.motion_id != i) {
      report.changes.push_back("0xF motion " + std::to_string(i) + " " + shown_name(mp.name) + ": motion id " +
                               std::to_string(mp.motion_id) + " -> " + std::to_string(i));
      mp.motion_id = static_cast<std::uint16_t>(i);
    }
    for (auto& mark : mp.marks) {
      auto by_start = [](const MarkInterval& a, const MarkInterval& b) { return a.start < b.start; };
      if (!std::is_sorted(mark.intervals.begin(), mark.intervals.end(), by_start)) {
        std::stable_sort(mark.intervals.begin(), mark.intervals.end(), by_start);
        report.changes.push_back(shown_name(mp.name) + ": sorted the intervals of mark " + shown_name(mark.name));
      }
    }
  }
  if (relayout && s.has_motions_chunk) rebuild_motion_layout(file, report);
  return report;
}

Result<EditReport> retarget_omf(OmfFile& file, std::optional<int> params_version, Game game) {
  MotionSet& s = file.motions;
  EditReport report;
  int target = s.params.version;
  if (params_version)
    target = *params_version;
  else if (game == Game::soc)
    target = 3;  // the SoC release loader asserts version 3
  else if (game == Game::cs || game == Game::cop)
    target = 4;
  if (target != 3 && target != 4)
    return Finding{Severity::error, 0, "0xF version", "unsupported target params version", "3 or 4", std::to_string(target)};
  if (s.params.version == 1 && target != 1)
    return Finding{Severity::error, 0, "0xF version", "params version 1 has no bone names to convert", "version 2, 3 or 4",
                   "1"};
  for (const auto& m : s.motions)
    if (!m.readable) return m.readable.error();
  if (s.params.version != target) {
    if (target == 3) {
      for (auto& mp : s.params.motions) {
        if (mp.marks.empty()) continue;
        report.warnings.push_back(shown_name(mp.name) + ": dropped " + std::to_string(mp.marks.size()) +
                                  " mark(s) (params version 3 has none)");
        mp.marks.clear();
      }
    }
    if (s.params.version == 2) {
      std::uint32_t position = 0;  // v2 records follow the part entries in order
      for (auto& part : s.params.parts)
        for (auto& b : part.bones) b.index = position++;
    }
    report.changes.push_back("params version " + std::to_string(s.params.version) + " -> " + std::to_string(target));
    s.params.version = static_cast<std::uint16_t>(target);
  }
  if (game == Game::soc) {
    std::size_t requantised = 0, cleared = 0;
    float worst = 0.0f;
    for (auto& m : s.motions) {
      for (auto& b : m.bones) {
        if (b.translation_16bit()) {
          worst = std::max(worst, requantise_to_8bit(file, b, m.frames));
          ++requantised;
        } else if (b.flags & kFlagTKeys16) {
          b.flags = static_cast<std::uint8_t>(b.flags & ~kFlagTKeys16);
          ++cleared;
        }
      }
    }
    if (requantised > 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "requantised %zu 16-bit translation track(s) to 8 bits (largest change %.3g m)",
                    requantised, static_cast<double>(worst));
      report.changes.push_back(buf);
    }
    if (cleared > 0)
      report.changes.push_back("cleared the unused 16-bit flag of " + std::to_string(cleared) + " bone record(s)");
  }
  return report;
}

}  // namespace boneyard::xray
