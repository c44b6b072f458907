// .mar internals shared by the reader, the key codec, the validator, the report and the scene
// adapter: the LSB-first bit reader and writer, and the budget of keys one pass may decode.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/limits.h"
#include "boneyard/mgs2/mar/mar.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2::detail {

// Bits in the order the readers take them: bit 0 of byte 0 first, and a value of n bits has its
// first bit as its least significant (docs/mgs2-mar.md "Bit order").
class BitReader {
 public:
  explicit BitReader(Bytes bytes) : bytes_(bytes) {}
  std::uint64_t position() const { return pos_; }
  std::uint64_t size() const { return std::uint64_t{bytes_.size()} * 8; }
  bool fits(std::uint64_t bits) const { return bits <= size() - pos_; }
  // `n` <= 32 bits; the caller checked fits(n).
  std::uint32_t read(unsigned n) {
    std::uint32_t v = 0;
    for (unsigned i = 0; i < n;) {
      const std::uint64_t at = pos_ >> 3;
      const unsigned shift = static_cast<unsigned>(pos_ & 7);
      const unsigned take = std::min(8u - shift, n - i);
      const std::uint32_t bits = (static_cast<std::uint32_t>(bytes_[at]) >> shift) & ((1u << take) - 1u);
      v |= bits << i;
      i += take;
      pos_ += take;
    }
    return v;
  }

 private:
  Bytes bytes_;
  std::uint64_t pos_ = 0;
};

class BitWriter {
 public:
  explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) {}
  void write(std::uint32_t value, unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
      if (bit_ == 0) out_.push_back(0);
      if ((value >> i) & 1u) out_.back() = static_cast<std::uint8_t>(out_.back() | (1u << bit_));
      bit_ = (bit_ + 1) & 7;
    }
  }
  // Pads with zero bits to a whole 16-bit unit (streams start on 16-bit boundaries).
  void align16() {
    bit_ = 0;
    if (out_.size() % 2 != 0) out_.push_back(0);
  }

 private:
  std::vector<std::uint8_t>& out_;
  unsigned bit_ = 0;
};

// 12-bit two's complement to int16 (bit 11 is the sign).
inline std::int16_t sign_extend12(std::uint32_t v) {
  return static_cast<std::int16_t>(static_cast<std::int32_t>(v << 20) >> 20);
}

// Keys one pass over a file may decode (validate, info, a conversion): one per 8 file bytes plus a
// slack, so that motions and joints whose offsets name the same stream cannot multiply the file in
// memory or time (docs/safety.md "Memory").
class KeyBudget {
 public:
  explicit KeyBudget(std::uint64_t file_size) : left_(file_size / 8 + kSharedKeySlack) {}
  Status take(std::uint64_t keys, std::uint64_t offset, const std::string& path) {
    if (keys <= left_) {
      left_ -= keys;
      return {};
    }
    return Finding{Severity::error, offset, path,
                   "motions and joints share key streams so much that decoding them would take far more than the file",
                   "<= " + std::to_string(left_) + " more keys", std::to_string(keys)};
  }

 private:
  std::uint64_t left_;
};

// "motion 3 joint 7 rotation keys"
inline std::string stream_path(std::size_t motion, std::optional<std::size_t> joint) {
  std::string s = "motion " + std::to_string(motion);
  if (joint) return s + " joint " + std::to_string(*joint) + " rotation keys";
  return s + " joint 0 translation keys";
}

}  // namespace boneyard::mgs2::detail
