// MGS2 .mar fixtures encoded byte by byte from the notes (../shared/docs/mgs2-next.md section 2),
// independently of the library's encoder and builder: header "MARa", the motion table (8-byte PS2
// or 16-byte Master Collection entries), MTCM headers (0x2C / 0x30 bytes before the per-joint
// offsets), and the archive's bitstreams (LSB first: 8-bit frame delta, 12-bit quaternion
// components, 16-bit half floats, each record followed by its second value set).
//
// Placement (the one documented for boneyard's builder, docs/mgs2-mar.md "Writing"): the MTCM
// area starts at the table's end rounded up to 16, each MTCM on a 16-byte boundary, its archive at
// the header's end rounded up to 16, the table's size = archive offset + archive size, the file
// padded to 16 with zeros.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "boneyard/mgs2/strcode.h"

namespace boneyard::test::marfx {

struct RotKey {
  std::uint8_t delta = 0;
  std::array<std::int16_t, 4> q{};      // 12-bit x, y, z, w
  std::array<std::int16_t, 4> extra{};  // the second quaternion
};
struct TransKey {
  std::uint8_t delta = 0;
  std::array<std::uint16_t, 3> v{};  // half bits
  std::array<std::uint16_t, 3> extra{};
};
struct Motion {
  std::string name;  // hashed with StrCode24
  std::uint32_t flags = 0, base_tick = 0, frames = 0;
  std::array<std::uint16_t, 3> t0{};  // initial translation (half bits)
  std::vector<TransKey> trans;
  std::vector<std::vector<RotKey>> rots;  // one stream per joint
  std::vector<std::uint8_t> tail;         // data after the last rotation stream (even size)
  // move/turn/fix offsets as distances (16-bit units) from the root offset, 0 = stored as 0.
  std::uint32_t move_after_root = 0, turn_after_root = 0, fix_after_root = 0;
};
struct Archive {
  bool mc = false;
  std::uint32_t max_joint = 0;
  std::vector<Motion> motions;
};

// A half float's bits for values that halves hold exactly (the fixtures use such values).
inline std::uint16_t half_bits(float f) {
  if (f == 0.0f) return std::signbit(f) ? 0x8000 : 0;
  const std::uint16_t sign = f < 0 ? 0x8000 : 0;
  float a = std::fabs(f);
  int e = 0;
  const float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const int exp = e - 1 + 15;
  const auto mant = static_cast<std::uint16_t>(std::lround((m * 2.0f - 1.0f) * 1024.0f));
  return static_cast<std::uint16_t>(sign | (exp << 10) | mant);
}

// Bits packed LSB first into a 64-bit accumulator, flushed a byte at a time.
class Packer {
 public:
  void put(std::uint32_t value, int bits) {
    acc_ |= (std::uint64_t(value) & ((std::uint64_t(1) << bits) - 1)) << fill_;
    fill_ += bits;
    while (fill_ >= 8) {
      bytes_.push_back(static_cast<std::uint8_t>(acc_ & 0xFF));
      acc_ >>= 8;
      fill_ -= 8;
    }
  }
  // Zero bits up to a 16-bit boundary.
  void end_stream() {
    if (fill_ > 0) put(0, 8 - fill_);
    if (bytes_.size() % 2 != 0) bytes_.push_back(0);
  }
  std::vector<std::uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
  std::uint64_t acc_ = 0;
  int fill_ = 0;
};

inline void le32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  if (out.size() < at + 4) out.resize(at + 4, 0);
  for (int i = 0; i < 4; ++i) out[at + std::size_t(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}
inline std::size_t up16(std::size_t v) { return (v + 15) / 16 * 16; }

struct EncodedMtcm {
  std::vector<std::uint32_t> joint_offsets;  // 16-bit units
  std::uint32_t root = 0;
  std::vector<std::uint8_t> archive;
};

inline EncodedMtcm encode(const Motion& m) {
  Packer p;
  EncodedMtcm e;
  if (!m.rots.empty()) {
    for (auto v : m.t0) p.put(v, 16);
    for (const auto& k : m.trans) {
      p.put(k.delta, 8);
      for (auto v : k.v) p.put(v, 16);
      for (auto v : k.extra) p.put(v, 16);
    }
    p.end_stream();
  }
  for (const auto& stream : m.rots) {
    e.joint_offsets.push_back(static_cast<std::uint32_t>(p.bytes().size() / 2));
    for (const auto& k : stream) {
      p.put(k.delta, 8);
      for (auto c : k.q) p.put(static_cast<std::uint16_t>(c), 12);
      for (auto c : k.extra) p.put(static_cast<std::uint16_t>(c), 12);
    }
    p.end_stream();
  }
  e.root = static_cast<std::uint32_t>(p.bytes().size() / 2);
  e.archive = p.bytes();
  e.archive.insert(e.archive.end(), m.tail.begin(), m.tail.end());
  return e;
}

inline std::vector<std::uint8_t> mar_bytes(const Archive& a) {
  const std::size_t entry = a.mc ? 16 : 8, header = a.mc ? 0x30 : 0x2C;
  const std::size_t area = up16(0x10 + a.motions.size() * entry);
  std::vector<std::uint8_t> out(area, 0);
  le32(out, 0, 0x6152414D);  // "MARa"
  le32(out, 4, a.max_joint);
  le32(out, 8, static_cast<std::uint32_t>(a.motions.size()));
  le32(out, 12, static_cast<std::uint32_t>(area));
  for (std::size_t i = 0; i < a.motions.size(); ++i) {
    const Motion& m = a.motions[i];
    const EncodedMtcm e = encode(m);
    const std::size_t start = up16(out.size());
    const std::size_t joints = m.rots.size();
    const std::size_t archive_offset = up16(header + joints * 4);
    out.resize(start + archive_offset + e.archive.size(), 0);
    std::size_t at = start;
    const auto field = [&](std::uint32_t v) {
      le32(out, at, v);
      at += 4;
    };
    field(boneyard::mgs2::strcode(m.name));
    field(m.flags);
    field(m.base_tick);
    field(m.frames);
    field(static_cast<std::uint32_t>(archive_offset));
    if (a.mc) field(0);  // pad
    field(static_cast<std::uint32_t>(e.archive.size()));
    field(static_cast<std::uint32_t>(joints));
    field(e.root);
    field(m.move_after_root ? e.root + m.move_after_root : 0);
    field(m.turn_after_root ? e.root + m.turn_after_root : 0);
    field(m.fix_after_root ? e.root + m.fix_after_root : 0);
    for (auto o : e.joint_offsets) field(o);
    std::memcpy(out.data() + start + archive_offset, e.archive.data(), e.archive.size());
    const std::size_t table = 0x10 + i * entry;
    le32(out, table, static_cast<std::uint32_t>(start - area));
    le32(out, table + (a.mc ? 8 : 4), static_cast<std::uint32_t>(archive_offset + e.archive.size()));
  }
  out.resize(up16(out.size()), 0);
  return out;
}

// A quaternion about one axis in 12-bit components (|q| = 2047, as the readers scale it).
inline std::array<std::int16_t, 4> quat12(double angle_deg, int axis) {
  const double h = angle_deg * 3.14159265358979323846 / 360.0;
  std::array<std::int16_t, 4> q{0, 0, 0, 0};
  q[std::size_t(axis)] = static_cast<std::int16_t>(std::lround(std::sin(h) * 2047));
  q[3] = static_cast<std::int16_t>(std::lround(std::cos(h) * 2047));
  return q;
}

// Four motions on the six-joint branching skeleton (tests/mgs2/mgs2_branching_fixture.h): a walk
// over 30 frames with root data after the streams and second key sets that are not zero, a one-frame
// pose, and a motion whose joints start keying late, with extreme components (-2048, 2047) and
// a translation that ends past the motion's last frame, and a five-joint turn of 170 degrees.
inline Archive standard_mar(bool mc) {
  Archive a;
  a.mc = mc;
  a.max_joint = 6;
  Motion walk;
  walk.name = "rai_walk";
  walk.flags = 0x10;
  walk.frames = 30;
  walk.t0 = {half_bits(0.0f), half_bits(8.0f), half_bits(0.0f)};
  walk.trans = {{15, {half_bits(1.5f), half_bits(8.25f), half_bits(-2.25f)}, {half_bits(0.5f), 0, half_bits(-0.125f)}},
                {15, {half_bits(3.0f), half_bits(8.0f), half_bits(-4.5f)}, {0, half_bits(1.0f), 0}}};
  for (int j = 0; j < 6; ++j) {
    std::vector<RotKey> s;
    s.push_back({0, quat12(0, 1), {}});
    s.push_back({10, quat12(30.0 + 10 * j, j % 3), {1, -2, 3, 2047}});
    s.push_back({20, quat12(-45.0, (j + 1) % 3), {}});
    walk.rots.push_back(s);
  }
  walk.tail = {0x01, 0x02, 0x03, 0x04};
  walk.move_after_root = 1;
  Motion pose;
  pose.name = "rai_idle";
  pose.base_tick = 5;
  pose.frames = 1;
  pose.t0 = {half_bits(0.25f), half_bits(7.5f), half_bits(0.0f)};
  pose.trans = {{1, {half_bits(0.25f), half_bits(7.5f), half_bits(0.0f)}, {}}};
  for (int j = 0; j < 3; ++j) pose.rots.push_back({{0, quat12(90.0, j), {}}, {1, quat12(90.0, j), {}}});
  Motion late;
  late.name = "rai_hold";
  late.flags = 0x24;
  late.frames = 45;
  late.t0 = {half_bits(-1.0f), half_bits(0.5f), half_bits(2.0f)};
  late.trans = {{5, {half_bits(-1.0f), half_bits(0.75f), half_bits(2.0f)}, {}},
                {20, {half_bits(-0.5f), half_bits(1.0f), half_bits(2.5f)}, {half_bits(0.25f), half_bits(0.25f), half_bits(0.25f)}},
                {25, {half_bits(0.0f), half_bits(1.0f), half_bits(3.0f)}, {}}};
  for (int j = 0; j < 6; ++j) {
    std::vector<RotKey> s;
    if (j % 2 == 0) {
      s.push_back({45, quat12(120.0, 2), {}});  // first key at the last frame
    } else {
      s.push_back({5, {-2048, 0, 0, 2047}, {-2048, 2047, -1, 0}});
      s.push_back({40, {0, 2047, 0, -2048}, {}});
    }
    late.rots.push_back(s);
  }
  Motion turn;  // five joints: the one shape where MTAR-GEAR's PS2-to-MC block conversion fits
  turn.name = "rai_turn";
  turn.flags = 0x20;
  turn.frames = 10;
  turn.t0 = {half_bits(0.0f), half_bits(8.0f), half_bits(0.0f)};
  turn.trans = {{10, {half_bits(0.0f), half_bits(8.0f), half_bits(0.0f)}, {}}};
  for (int j = 0; j < 5; ++j) turn.rots.push_back({{0, quat12(0, 1), {}}, {10, quat12(170.0, 1), {}}});
  a.motions = {walk, pose, late, turn};
  return a;
}

// The names of the standard motions, one per line (a --names file).
inline std::string standard_motion_names() { return "rai_walk\nrai_idle\nrai_hold\nrai_turn\n"; }

}  // namespace boneyard::test::marfx
