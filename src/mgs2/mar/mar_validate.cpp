// .mar validation (docs/mgs2-mar.md "Validation"): the table and the MTCM headers against the file,
// each stream's offsets against its archive, every stream decoded as the game's readers decode it,
// and the motions against the skeleton that plays them.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "boneyard/mgs2/half_float.h"
#include "boneyard/mgs2/mar/mar.h"
#include "mar_internal.h"

namespace boneyard::mgs2 {

namespace {

std::string motion_path(std::size_t i) { return "motion " + std::to_string(i); }

// What the keys of one motion's streams hold that the readers would play oddly.
struct KeyTally {
  std::size_t zero_deltas = 0, past_end = 0, zero_quats = 0, non_finite = 0, trailing_streams = 0;
  std::uint64_t first_zero_delta = 0, first_zero_quat = 0, first_non_finite = 0, first_trailing = 0;
  std::uint64_t last_frame = 0;
};

void note(std::size_t& count, std::uint64_t& first, std::uint64_t offset) {
  if (count++ == 0) first = offset;
}

// Bytes of a stream after its last key beyond the padding to 16 bits.
void tally_trailing(const MarStream& s, std::uint64_t bits, KeyTally& t) {
  const std::uint64_t used = (bits + 15) / 16 * 2;
  if (s.bytes.size() > used) note(t.trailing_streams, t.first_trailing, s.file_offset + used);
}

// Decodes every stream of a readable motion, reporting overruns and tallying odd keys.
void check_streams(const MarMotion& m, std::size_t i, detail::KeyBudget& budget, Diagnostics& d) {
  KeyTally t;
  std::vector<MarTranslationKey> tk;
  std::vector<MarRotationKey> rk;
  const auto affordable = [&](const MarStream& s, const std::string& path) {
    const Status ok = budget.take(s.bytes.size() * 8 / kMarRotationRecordBits + 1, s.file_offset, path);
    if (!ok) d.add(ok.error());
    return ok.ok();
  };
  if (m.header.joints != 0) {
    const MarStream s = translation_stream(m);
    if (!affordable(s, detail::stream_path(i, std::nullopt))) return;
    auto r = decode_translation_keys(m, i, tk);
    if (!r) {
      d.add(r.error());
    } else {
      tally_trailing(s, r.value().bits, t);
      for (std::size_t k = 0; k < tk.size(); ++k) {
        const std::uint64_t at = s.file_offset;
        if (!tk[k].initial && tk[k].delta == 0) note(t.zero_deltas, t.first_zero_delta, at);
        for (auto h : tk[k].value)
          if (!std::isfinite(half_to_float(h))) note(t.non_finite, t.first_non_finite, at);
      }
      if (tk.size() > 1) t.last_frame = std::max(t.last_frame, tk.back().frame);
      if (!tk.empty() && tk.back().frame > m.header.frames) ++t.past_end;
    }
  }
  for (std::size_t j = 0; j < m.header.joints; ++j) {
    const MarStream s = rotation_stream(m, j);
    if (!affordable(s, detail::stream_path(i, j))) return;
    auto r = decode_rotation_keys(m, i, j, rk);
    if (!r) {
      d.add(r.error());
      continue;
    }
    tally_trailing(s, r.value().bits, t);
    for (std::size_t k = 0; k < rk.size(); ++k) {
      if (k > 0 && rk[k].delta == 0) note(t.zero_deltas, t.first_zero_delta, s.file_offset);
      if (rk[k].value == std::array<std::int16_t, 4>{}) note(t.zero_quats, t.first_zero_quat, s.file_offset);
    }
    if (!rk.empty()) {
      t.last_frame = std::max(t.last_frame, rk.back().frame);
      if (rk.back().frame > m.header.frames) ++t.past_end;
    }
  }
  const std::string p = motion_path(i);
  if (t.zero_deltas != 0)
    d.add(Severity::warning, t.first_zero_delta, p + " keys",
          std::to_string(t.zero_deltas) + " keys have the frame of the key before (delta 0); the glTF keeps the later one", "delta >= 1",
          "0");
  if (t.zero_quats != 0)
    d.add(Severity::warning, t.first_zero_quat, p + " rotation keys",
          std::to_string(t.zero_quats) + " rotation keys are the zero quaternion, which is no rotation", "a non-zero quaternion",
          "(0, 0, 0, 0)");
  if (t.non_finite != 0)
    d.add(Severity::warning, t.first_non_finite, p + " translation keys",
          std::to_string(t.non_finite) + " translation keys hold an infinite or NaN half float", "finite values", "exponent 31");
  if (t.past_end != 0)
    d.add(Severity::info, m.file_offset + 0x0C, p + " frames",
          std::to_string(t.past_end) + " streams end past the motion's frame count (the readers stop at the first key at or past it)",
          "last key at frame " + std::to_string(m.header.frames), "frame " + std::to_string(t.last_frame));
  if (t.trailing_streams != 0)
    d.add(Severity::info, t.first_trailing, p + " streams",
          std::to_string(t.trailing_streams) + " streams hold bytes after their last key beyond the padding to 16 bits (kept)");
}

void check_motion(const MarFile& f, const MarMotion& m, std::size_t i, detail::KeyBudget& budget, Diagnostics& d) {
  const std::string p = motion_path(i);
  if (!m.readable) {
    Finding e = m.readable.error();
    if (e.path.rfind("motion ", 0) != 0) e.path = p + (e.path.empty() ? "" : " " + e.path);
    d.add(std::move(e));
    return;
  }
  const MtcmHeader& h = m.header;
  const std::uint64_t header_end = mtcm_header_size(f.layout) + std::uint64_t{h.joints} * 4;
  if (m.file_offset + m.entry.size > f.file_size)
    d.add(Severity::error, m.entry.file_offset + (f.layout == Layout::mc ? 8 : 4), p + " table size",
          "the MTCM's size runs past the end of the file", "<= " + std::to_string(f.file_size - m.file_offset) + " bytes",
          std::to_string(m.entry.size));
  if (f.layout == Layout::mc && (m.entry.pad0 != 0 || m.entry.pad1 != 0 || h.pad != 0))
    d.add(Severity::info, m.entry.file_offset, p + " pads", "Master Collection pad dwords are not 0 (kept)", "0",
          hex(m.entry.pad0) + ", " + hex(m.entry.pad1) + ", " + hex(h.pad));
  if (h.archive_offset < header_end)
    d.add(Severity::error, m.file_offset + 0x10, p + " archive offset", "the archive starts inside the header's joint offsets",
          ">= " + std::to_string(header_end), std::to_string(h.archive_offset));
  if (std::uint64_t{h.archive_offset} + h.archive_size > m.entry.size)
    d.add(Severity::info, m.file_offset + 0x10, p + " archive",
          "the archive ends past the MTCM size the table gives (what that size counts is not known)",
          "<= " + std::to_string(m.entry.size) + " bytes", std::to_string(std::uint64_t{h.archive_offset} + h.archive_size));
  if (h.joints > f.header.max_joint)
    d.add(Severity::warning, m.file_offset + (f.layout == Layout::ps2 ? 0x18 : 0x1C), p + " joints",
          "drives more joints than the header's max_joint", "<= " + std::to_string(f.header.max_joint), std::to_string(h.joints));
  if (h.joints == 0) d.add(Severity::info, m.file_offset, p + " joints", "no joints: the motion moves nothing");
  const std::uint64_t root = std::uint64_t{h.root_offset} * 2;
  const std::uint64_t root_field = m.file_offset + (f.layout == Layout::ps2 ? 0x1C : 0x20);
  if (root > h.archive_size)
    d.add(Severity::error, root_field, p + " root offset", "root offset past the archive (it ends the last rotation stream)",
          "<= " + std::to_string(h.archive_size / 2) + " 16-bit units", std::to_string(h.root_offset));
  const char* const names[3] = {"move offset", "turn offset", "fix offset"};
  const std::uint32_t others[3] = {h.move_offset, h.turn_offset, h.fix_offset};
  for (int k = 0; k < 3; ++k)
    if (std::uint64_t{others[k]} * 2 > h.archive_size)
      d.add(Severity::info, root_field + 4 * std::uint64_t(k + 1), p + " " + names[k],
            "past the archive (what the offset counts is not known)", "<= " + std::to_string(h.archive_size / 2),
            std::to_string(others[k]));
  if (h.joints != 0) {
    const MarStream s = translation_stream(m);
    if (s.declared > h.archive_size) {
      d.add(Severity::error, m.file_offset + mtcm_header_size(f.layout), p + " joint 0 offset",
            "joint 0's rotation stream starts past the archive (the translation stream before it would run out)",
            "<= " + std::to_string(h.archive_size / 2), std::to_string(m.joint_offset(0)));
    }
  }
  std::size_t unordered = 0;
  for (std::size_t j = 0; j < h.joints; ++j) {
    const std::uint64_t at = m.file_offset + mtcm_header_size(f.layout) + j * 4;
    const std::uint64_t begin = std::uint64_t{m.joint_offset(j)} * 2;
    const MarStream s = rotation_stream(m, j);
    if (j + 1 < h.joints && m.joint_offset(j + 1) <= m.joint_offset(j) && unordered++ == 0)
      d.add(Severity::warning, at + 4, p + " joint " + std::to_string(j + 1) + " offset",
            "a joint's stream does not start after the one before (the readers then take that one up to the root offset)",
            "> " + std::to_string(m.joint_offset(j)), std::to_string(m.joint_offset(j + 1)));
    if (begin + s.declared > h.archive_size) {
      d.add(Severity::error, at, p + " joint " + std::to_string(j) + " offset", "the joint's rotation stream runs past the archive",
            "ends <= " + std::to_string(h.archive_size) + " bytes into it", std::to_string(begin + s.declared));
    }
  }
  check_streams(m, i, budget, d);  // decoded within the archive: an overrun names the key
}

// MTCMs that share bytes: two entries naming one MTCM (pooled motions) are fine; one that starts
// inside another is not something the game's writer made.
void check_overlaps(const MarFile& f, Diagnostics& d) {
  std::map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> spans;  // start -> end, first motion
  const std::uint64_t table_end = kMarHeaderSize + std::uint64_t{f.header.motion_count} * mar_entry_size(f.layout);
  if (f.header.mtcm_offset < table_end)
    d.add(Severity::warning, 0x0C, "header MTCM offset", "the MTCM area starts inside the motion table", ">= " + hex(table_end),
          hex(f.header.mtcm_offset));
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const MarMotion& m = f.motions[i];
    if (!m.readable) continue;
    const std::uint64_t end = std::max(m.file_offset + mtcm_header_size(f.layout) + m.joint_offsets.size(),
                                       m.archive_file_offset() + m.archive.size());
    if (m.file_offset < table_end)
      d.add(Severity::error, m.entry.file_offset, motion_path(i) + " table offset", "the MTCM overlaps the header or the motion table",
            ">= " + hex(table_end), hex(m.file_offset));
    auto [it, added] = spans.emplace(m.file_offset, std::make_pair(end, i));
    if (!added) {
      d.add(Severity::info, m.entry.file_offset, motion_path(i) + " table offset",
            "shares its MTCM with motion " + std::to_string(it->second.second));
      continue;
    }
  }
  std::uint64_t reach = 0;
  std::size_t owner = 0;
  for (const auto& [start, span] : spans) {
    if (start < reach)
      d.add(Severity::warning, start, motion_path(span.second), "the MTCM starts inside motion " + std::to_string(owner) + "'s",
            ">= " + hex(reach), hex(start));
    if (span.first > reach) {
      reach = span.first;
      owner = span.second;
    }
  }
}

}  // namespace

Diagnostics validate_mar(const MarFile& f) {
  Diagnostics d;
  detail::KeyBudget budget(f.file_size);
  check_overlaps(f, d);
  std::map<std::uint32_t, std::size_t> names;
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const MarMotion& m = f.motions[i];
    check_motion(f, m, i, budget, d);
    if (!m.readable) continue;
    auto [it, added] = names.emplace(m.header.name, i);
    if (!added && f.motions[it->second].file_offset != m.file_offset)
      d.add(Severity::info, m.file_offset, motion_path(i) + " name", "has the name of motion " + std::to_string(it->second));
  }
  return d;
}

void check_mar_skeleton(const MarFile& f, std::size_t joints, Diagnostics& out) {
  if (f.header.max_joint > joints)
    out.add(Severity::warning, 4, "header max joint",
            "the archive's max_joint exceeds the skeleton's joints (the Noesis readers load none of its motions then)",
            "<= " + std::to_string(joints), std::to_string(f.header.max_joint));
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const MarMotion& m = f.motions[i];
    if (m.readable && m.header.joints > joints)
      out.add(Severity::error, m.file_offset + (f.layout == Layout::ps2 ? 0x18 : 0x1C), motion_path(i) + " joints",
              "the motion drives joints the skeleton does not have", "<= " + std::to_string(joints), std::to_string(m.header.joints));
  }
}

}  // namespace boneyard::mgs2
