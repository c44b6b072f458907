// `info` and `dump` of a .mar: the header, the table and each motion's header with its decoded
// streams (every key, the second value set included), within the key budget of one pass.
#include <cstdio>
#include <string>

#include "boneyard/mgs2/half_float.h"
#include "boneyard/mgs2/mar/mar_report.h"
#include "mar_internal.h"

namespace boneyard::mgs2 {

namespace {

// A motion's streams decoded once for a report; `error` says why not all of them were.
struct DecodedMotion {
  std::vector<MarTranslationKey> translation;
  std::vector<std::vector<MarRotationKey>> rotations;
  std::string error;
};

DecodedMotion decode_for_report(const MarMotion& m, std::size_t i, detail::KeyBudget& budget) {
  DecodedMotion d;
  if (!m.readable) {
    d.error = m.readable.error().message;
    return d;
  }
  const auto fail_with = [&](const Finding& f) {
    d.error = (f.path.empty() ? "" : f.path + ": ") + f.message;
    return d;
  };
  if (m.header.joints != 0) {
    if (auto ok = budget.take(translation_stream(m).bytes.size() / 13 + 1, m.file_offset, "motion"); !ok) return fail_with(ok.error());
    if (auto r = decode_translation_keys(m, i, d.translation); !r) return fail_with(r.error());
  }
  d.rotations.resize(m.header.joints);
  for (std::size_t j = 0; j < m.header.joints; ++j) {
    if (auto ok = budget.take(rotation_stream(m, j).bytes.size() / 13 + 1, m.file_offset, "motion"); !ok) return fail_with(ok.error());
    if (auto r = decode_rotation_keys(m, i, j, d.rotations[j]); !r) return fail_with(r.error());
  }
  return d;
}

std::size_t rotation_key_count(const DecodedMotion& d) {
  std::size_t n = 0;
  for (const auto& r : d.rotations) n += r.size();
  return n;
}

// Keys whose second value set holds anything but zeros (what no reader uses, shown so it is seen).
std::size_t second_set_count(const DecodedMotion& d) {
  std::size_t n = 0;
  for (const auto& k : d.translation)
    if (k.extra != std::array<std::uint16_t, 3>{}) ++n;
  for (const auto& r : d.rotations)
    for (const auto& k : r)
      if (k.extra != std::array<std::int16_t, 4>{}) ++n;
  return n;
}

void json_floats(JsonWriter& w, const float* v, std::size_t n) {
  w.begin_array();
  for (std::size_t i = 0; i < n; ++i) w.value(v[i]);
  w.end_array();
}
template <class T, std::size_t N>
void json_ints(JsonWriter& w, const std::array<T, N>& v) {
  w.begin_array();
  for (auto x : v) w.value(static_cast<std::int64_t>(x));
  w.end_array();
}

void dump_translation(JsonWriter& w, const std::vector<MarTranslationKey>& keys, bool raw) {
  w.begin_array();
  for (const auto& k : keys) {
    w.begin_array().value(k.frame);
    if (raw) w.value(static_cast<std::uint64_t>(k.delta));
    if (raw) {
      json_ints(w, k.value);
    } else {
      const auto v = translation_key_value(k.value);
      json_floats(w, v.data(), 3);
    }
    if (k.initial) {
      w.null();
    } else if (raw) {
      json_ints(w, k.extra);
    } else {
      const auto e = translation_key_value(k.extra);
      json_floats(w, e.data(), 3);
    }
    w.end_array();
  }
  w.end_array();
}

void dump_rotation(JsonWriter& w, const std::vector<MarRotationKey>& keys, bool raw) {
  w.begin_array();
  for (const auto& k : keys) {
    w.begin_array().value(k.frame);
    if (raw) {
      w.value(static_cast<std::uint64_t>(k.delta));
      json_ints(w, k.value);
      json_ints(w, k.extra);
    } else {
      const auto q = rotation_key_value(k.value);
      json_floats(w, q.data(), 4);
      float e[4];
      for (std::size_t c = 0; c < 4; ++c) e[c] = static_cast<float>(k.extra[c]) / 2047.0f;  // scaled alike, not normalised
      json_floats(w, e, 4);
    }
    w.end_array();
  }
  w.end_array();
}

void json_name(JsonWriter& w, std::uint32_t strcode, const TextureNames* names) {
  if (names != nullptr)
    if (const std::string* n = names->find(strcode)) {
      w.value(*n);
      return;
    }
  w.value(static_cast<std::uint64_t>(strcode));
}

}  // namespace

std::string mar_motion_name(std::uint32_t strcode, const TextureNames* names) {
  if (names != nullptr)
    if (const std::string* n = names->find(strcode)) return *n;
  char b[16];
  std::snprintf(b, sizeof b, "%06x", strcode);
  return b;
}

int sniff_mar(Bytes bytes, std::string_view extension) {
  if (!looks_like_mar(bytes)) return 0;
  return extension == ".mar" ? 90 : 80;
}

std::string describe_mar(const MarFile& f, const TextureNames* names) {
  std::string s;
  char b[320];
  std::snprintf(b, sizeof b, "format: mar (MGS2 motion archive), layout %s (%s)\n", std::string(layout_name(f.layout)).c_str(),
                f.layout == Layout::ps2 ? "PS2: 8-byte table entries, 0x2C-byte MTCM headers"
                                        : "Master Collection: 16-byte table entries, 0x30-byte MTCM headers");
  s += b;
  std::snprintf(b, sizeof b, "max_joint %u, %u motions, MTCM area at 0x%X, %llu bytes; keys at 30 fps\n", f.header.max_joint,
                f.header.motion_count, f.header.mtcm_offset, static_cast<unsigned long long>(f.file_size));
  s += b;
  s += "motion  name      frames  seconds  joints  rot keys  trans keys  2nd set  flags       base_tick  root/move/turn/fix (16-bit units)\n";
  detail::KeyBudget budget(f.file_size);
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const MarMotion& m = f.motions[i];
    if (!m.readable) {
      std::snprintf(b, sizeof b, "%6zu  (unreadable: %s)\n", i, m.readable.error().message.c_str());
      s += b;
      continue;
    }
    const MtcmHeader& h = m.header;
    const DecodedMotion d = decode_for_report(m, i, budget);
    std::snprintf(b, sizeof b, "%6zu  %-8s  %6u  %7.3f  %6u  %8zu  %10zu  %7zu  0x%08X  %9u  %u/%u/%u/%u\n", i,
                  mar_motion_name(h.name, names).c_str(), h.frames, h.frames / kMarFramesPerSecond, h.joints, rotation_key_count(d),
                  d.translation.size(), second_set_count(d), h.flags, h.base_tick, h.root_offset, h.move_offset, h.turn_offset,
                  h.fix_offset);
    s += b;
    if (!d.error.empty()) s += "        keys not decoded: " + d.error + "\n";
  }
  return s;
}

void dump_mar(JsonWriter& w, const MarFile& f, bool raw, const TextureNames* names) {
  w.begin_object();
  w.field("format", "mar").field("layout", layout_name(f.layout));
  w.field("max_joint", static_cast<std::uint64_t>(f.header.max_joint));
  w.field("motion_count", static_cast<std::uint64_t>(f.header.motion_count));
  w.field("mtcm_offset", static_cast<std::uint64_t>(f.header.mtcm_offset));
  w.key("motions").begin_array();
  detail::KeyBudget budget(f.file_size);
  for (std::size_t i = 0; i < f.motions.size(); ++i) {
    const MarMotion& m = f.motions[i];
    const MtcmHeader& h = m.header;
    w.begin_object();
    w.field("index", static_cast<std::uint64_t>(i));
    if (raw) {
      w.key("entry").begin_object().field("offset", static_cast<std::uint64_t>(m.entry.offset));
      w.field("size", static_cast<std::uint64_t>(m.entry.size));
      if (f.layout == Layout::mc) w.key("pads").begin_array().value(m.entry.pad0).value(m.entry.pad1).end_array();
      w.end_object();
      w.field("offset", m.file_offset);
    }
    if (!m.readable) {
      w.field("error", m.readable.error().message);
      w.end_object();
      continue;
    }
    w.key("name");
    json_name(w, h.name, names);
    w.field("flags", static_cast<std::uint64_t>(h.flags)).field("base_tick", static_cast<std::uint64_t>(h.base_tick));
    w.field("frames", static_cast<std::uint64_t>(h.frames)).field("joints", static_cast<std::uint64_t>(h.joints));
    w.field("root_offset", static_cast<std::uint64_t>(h.root_offset)).field("move_offset", static_cast<std::uint64_t>(h.move_offset));
    w.field("turn_offset", static_cast<std::uint64_t>(h.turn_offset)).field("fix_offset", static_cast<std::uint64_t>(h.fix_offset));
    w.field("archive_size", static_cast<std::uint64_t>(h.archive_size));
    if (raw) {
      w.field("archive_offset", static_cast<std::uint64_t>(h.archive_offset));
      if (f.layout == Layout::mc) w.field("pad", static_cast<std::uint64_t>(h.pad));
      w.key("joint_offsets").begin_array();
      for (std::size_t j = 0; j < h.joints; ++j) w.value(static_cast<std::uint64_t>(m.joint_offset(j)));
      w.end_array();
    }
    const DecodedMotion d = decode_for_report(m, i, budget);
    w.key("translation");
    if (h.joints == 0 || (!d.error.empty() && d.translation.empty())) {
      w.null();
    } else {
      dump_translation(w, d.translation, raw);
    }
    w.key("rotations").begin_array();
    for (const auto& r : d.rotations) dump_rotation(w, r, raw);
    w.end_array();
    const std::uint64_t tail_at = std::uint64_t{h.root_offset} * 2;
    const Bytes tail = tail_at < m.archive.size() ? m.archive.subspan(tail_at) : Bytes{};
    w.field("tail_size", static_cast<std::uint64_t>(tail.size()));
    if (raw) {
      std::string hexed;
      static const char* kDigits = "0123456789abcdef";
      for (auto c : tail) {
        hexed += kDigits[c >> 4];
        hexed += kDigits[c & 15];
      }
      w.field("tail", hexed);
    }
    if (!d.error.empty()) w.field("error", d.error);
    w.end_object();
    w.newline();
  }
  w.end_array();
  w.end_object();
}

}  // namespace boneyard::mgs2
