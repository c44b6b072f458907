// Pieces shared by the MGS2 model formats (.kms, .evm): the two shipped layouts, fixed-point
// decoding, and the bookkeeping that makes an unedited file rewrite byte-exact.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "boneyard/core/bytes.h"

namespace boneyard::mgs2 {

// PS2 (and 2003 PC) files store 32-bit pointers; Master Collection (2023) widens every pointer and
// texture id to 8 bytes, which changes every struct size.
enum class Layout : std::uint8_t { ps2, mc };

std::string_view layout_name(Layout layout);                 // "ps2" / "mc"
std::optional<Layout> parse_layout(std::string_view name);  // "" or unknown -> nullopt

struct Vec3 {
  float x = 0, y = 0, z = 0;
  bool operator==(const Vec3&) const = default;
};
struct Vec4 {
  float x = 0, y = 0, z = 0, w = 0;
  bool operator==(const Vec4&) const = default;
};

// A data array as stored: the pointer field's value (a file offset, 0 = absent) and a view of its
// bytes. Views point into the file (or, for a built model, into the caller's buffers).
struct ArrayRef {
  std::uint64_t pointer = 0;
  Bytes data;
  bool present() const { return pointer != 0; }
};

// File bytes that no known structure covers (alignment padding, trailing data, gaps left by other
// tools). Kept so the lossless writer can put them back.
struct Gap {
  std::uint64_t offset = 0;
  Bytes bytes;
};

// Kick flag bits (KMS: normal.w, EVM: vertex.w).
inline constexpr std::uint16_t kKickNoDraw = 0x8000;    // the triangle ending here is not drawn
inline constexpr std::uint16_t kKickReserved = 0x4000;  // used by the VU; files must not set it
inline constexpr std::uint16_t kKickDefaultLow = 0x0FFF;

// Every vertex-like record is 8 bytes: four s16 (x, y, z, w|flag|pad).
inline std::int16_t s16_at(Bytes records, std::size_t index, std::size_t component) {
  return load_le<std::int16_t>(records.data() + index * 8 + component * 2);
}
inline std::uint16_t kick_at(Bytes records, std::size_t index) {
  return load_le<std::uint16_t>(records.data() + index * 8 + 6);
}
inline float fixed_1_3_12(std::int16_t v) { return static_cast<float>(v) / 4096.0f; }

// Absolute file intervals, for gap computation and the validator's overlap check.
struct Interval {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};
// The complement of `covered` inside [0, file.size()), as views of `file`.
std::vector<Gap> uncovered_gaps(Bytes file, std::vector<Interval> covered);

}  // namespace boneyard::mgs2
