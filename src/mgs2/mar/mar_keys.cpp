// .mar key streams: where each stream is, decoding it as the game's readers do (records until the
// motion's last frame), and the encoder that writes the same records back (docs/mgs2-mar.md
// "Keys").
#include <cmath>

#include "boneyard/mgs2/half_float.h"
#include "boneyard/mgs2/mar/mar.h"
#include "mar_internal.h"

namespace boneyard::mgs2 {

using detail::BitReader;
using detail::BitWriter;

namespace {

MarStream stream_at(const MarMotion& m, std::uint64_t begin_units, std::int64_t size_units) {
  MarStream s;
  const std::uint64_t begin = begin_units * 2;
  s.file_offset = m.archive_file_offset() + begin;
  s.declared = size_units > 0 ? std::uint64_t(size_units) * 2 : 0;
  if (begin < m.archive.size()) s.bytes = m.archive.subspan(begin, std::min<std::uint64_t>(s.declared, m.archive.size() - begin));
  return s;
}

Finding overrun(const MarStream& s, const BitReader& r, std::string path, std::size_t keys, std::uint64_t frame,
                std::uint64_t frames, std::size_t record_bits) {
  return Finding{Severity::error, s.file_offset + r.position() / 8, std::move(path),
                 "the stream ends before its keys reach the motion's last frame (its records would run into the next stream)",
                 "a " + std::to_string(record_bits) + "-bit record for frame " + std::to_string(frame) + " < " +
                     std::to_string(frames),
                 std::to_string(keys) + " keys, " + std::to_string(r.size() - r.position()) + " of " + std::to_string(r.size()) +
                     " bits left"};
}

}  // namespace

MarStream translation_stream(const MarMotion& m) {
  if (m.header.joints == 0 || m.joint_offsets.empty()) return stream_at(m, 0, 0);
  return stream_at(m, 0, m.joint_offset(0));
}

MarStream rotation_stream(const MarMotion& m, std::size_t joint) {
  const std::int64_t begin = m.joint_offset(joint);
  const std::int64_t next = joint + 1 < m.header.joints ? std::int64_t{m.joint_offset(joint + 1)} : std::int64_t{m.header.root_offset};
  std::int64_t size = next - begin;
  if (size <= 0) size = std::int64_t{m.header.root_offset} - begin;  // as both readers do
  return stream_at(m, std::uint64_t(begin), size);
}

Result<MarStreamEnd> decode_rotation_keys(const MarMotion& m, std::size_t motion_index, std::size_t joint,
                                          std::vector<MarRotationKey>& out) {
  out.clear();
  const MarStream s = rotation_stream(m, joint);
  BitReader r(s.bytes);
  std::uint64_t frame = 0;
  while (frame < m.header.frames) {
    if (!r.fits(kMarRotationRecordBits))
      return overrun(s, r, detail::stream_path(motion_index, joint), out.size(), frame, m.header.frames, kMarRotationRecordBits);
    MarRotationKey k;
    k.delta = static_cast<std::uint8_t>(r.read(8));
    frame += k.delta;
    k.frame = frame;
    for (auto& c : k.value) c = detail::sign_extend12(r.read(12));
    for (auto& c : k.extra) c = detail::sign_extend12(r.read(12));
    out.push_back(k);
  }
  return MarStreamEnd{r.position()};
}

Result<MarStreamEnd> decode_translation_keys(const MarMotion& m, std::size_t motion_index, std::vector<MarTranslationKey>& out) {
  out.clear();
  if (m.header.joints == 0) return MarStreamEnd{};  // the readers take joint 0's translation with its rotation
  const MarStream s = translation_stream(m);
  BitReader r(s.bytes);
  if (!r.fits(kMarTranslationInitialBits))
    return overrun(s, r, detail::stream_path(motion_index, std::nullopt), 0, 0, std::max<std::uint64_t>(m.header.frames, 1),
                   kMarTranslationInitialBits);
  MarTranslationKey first;
  first.initial = true;
  for (auto& c : first.value) c = static_cast<std::uint16_t>(r.read(16));
  out.push_back(first);
  std::uint64_t frame = 0;
  while (frame < m.header.frames) {
    if (!r.fits(kMarTranslationRecordBits))
      return overrun(s, r, detail::stream_path(motion_index, std::nullopt), out.size(), frame, m.header.frames,
                     kMarTranslationRecordBits);
    MarTranslationKey k;
    k.delta = static_cast<std::uint8_t>(r.read(8));
    frame += k.delta;
    k.frame = frame;
    for (auto& c : k.value) c = static_cast<std::uint16_t>(r.read(16));
    for (auto& c : k.extra) c = static_cast<std::uint16_t>(r.read(16));
    out.push_back(k);
  }
  return MarStreamEnd{r.position()};
}

std::array<float, 4> rotation_key_value(const std::array<std::int16_t, 4>& stored) {
  std::array<float, 4> q{};
  for (std::size_t i = 0; i < 4; ++i) q[i] = static_cast<float>(stored[i]) / 2047.0f;
  const float len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (len != 0.0f)
    for (auto& c : q) c /= len;
  return q;
}

std::array<float, 3> translation_key_value(const std::array<std::uint16_t, 3>& stored) {
  std::array<float, 3> v{};
  for (std::size_t i = 0; i < 3; ++i) v[i] = half_to_float(stored[i]) * static_cast<float>(kMarTranslationScale);
  return v;
}

Result<MarMotionKeys> decode_motion_keys(const MarMotion& m, std::size_t motion_index) {
  if (!m.readable) return m.readable.error();
  MarMotionKeys k;
  k.name = m.header.name;
  k.flags = m.header.flags;
  k.base_tick = m.header.base_tick;
  k.frames = m.header.frames;
  k.move_offset = m.header.move_offset;
  k.turn_offset = m.header.turn_offset;
  k.fix_offset = m.header.fix_offset;
  std::vector<MarTranslationKey> t;
  if (auto d = decode_translation_keys(m, motion_index, t); !d) return d.error();
  if (!t.empty()) {
    k.translation_initial = t.front().value;
    k.translation.assign(t.begin() + 1, t.end());
  }
  k.rotations.resize(m.header.joints);
  for (std::size_t j = 0; j < m.header.joints; ++j)
    if (auto d = decode_rotation_keys(m, motion_index, j, k.rotations[j]); !d) return d.error();
  const std::uint64_t tail = std::uint64_t{m.header.root_offset} * 2;
  if (tail < m.archive.size()) k.tail.assign(m.archive.begin() + static_cast<std::ptrdiff_t>(tail), m.archive.end());
  return k;
}

Result<MtcmContent> encode_motion(const MarMotionKeys& keys) {
  MtcmContent c;
  MtcmHeader& h = c.header;
  h.name = keys.name;
  h.flags = keys.flags;
  h.base_tick = keys.base_tick;
  h.frames = keys.frames;
  h.move_offset = keys.move_offset;
  h.turn_offset = keys.turn_offset;
  h.fix_offset = keys.fix_offset;
  if (keys.rotations.size() > 0xFFFFFFFFu) return Finding{Severity::error, 0, "joints", "too many joints", "< 2^32", ""};
  h.joints = static_cast<std::uint32_t>(keys.rotations.size());
  if (h.joints == 0 && !keys.translation.empty())
    return Finding{Severity::error, 0, "translation keys", "translation keys without a joint: the readers take them with joint 0",
                   "no translation records", std::to_string(keys.translation.size())};
  if (keys.tail.size() % 2 != 0)
    return Finding{Severity::error, 0, "tail", "the data after the rotation streams is counted in 16-bit units", "an even size",
                   std::to_string(keys.tail.size()) + " bytes"};
  std::vector<std::uint8_t>& a = c.archive;
  BitWriter w(a);
  if (h.joints != 0) {
    for (auto v : keys.translation_initial) w.write(v, 16);
    for (const auto& k : keys.translation) {
      w.write(k.delta, 8);
      for (auto v : k.value) w.write(v, 16);
      for (auto v : k.extra) w.write(v, 16);
    }
    w.align16();
  }
  const auto units = [&](std::string_view what) -> Result<std::uint32_t> {
    if (a.size() / 2 > 0xFFFFFFFFu) return Finding{Severity::error, 0, std::string(what), "archive too large for 32-bit offsets", "", ""};
    return static_cast<std::uint32_t>(a.size() / 2);
  };
  for (std::size_t j = 0; j < keys.rotations.size(); ++j) {
    auto at = units("joint offsets");
    if (!at) return at.error();
    c.joint_offsets.push_back(at.value());
    for (const auto& k : keys.rotations[j]) {
      w.write(k.delta, 8);
      for (int pass = 0; pass < 2; ++pass) {
        for (auto v : pass == 0 ? k.value : k.extra) {
          if (v < -2048 || v > 2047)
            return Finding{Severity::error, 0, "joint " + std::to_string(j) + " rotation keys", "a component does not fit 12 bits",
                           "-2048..2047", std::to_string(v)};
          w.write(static_cast<std::uint32_t>(v) & 0xFFFu, 12);
        }
      }
    }
    w.align16();
  }
  auto root = units("root offset");
  if (!root) return root.error();
  h.root_offset = root.value();
  a.insert(a.end(), keys.tail.begin(), keys.tail.end());
  return c;
}

MtcmContent motion_content(const MarMotion& m) {
  MtcmContent c;
  c.header = m.header;
  c.joint_offsets.reserve(m.header.joints);
  for (std::size_t j = 0; j < m.header.joints && !m.joint_offsets.empty(); ++j) c.joint_offsets.push_back(m.joint_offset(j));
  c.archive.assign(m.archive.begin(), m.archive.end());
  return c;
}

}  // namespace boneyard::mgs2
