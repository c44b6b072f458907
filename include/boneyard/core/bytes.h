// Bounds-checked little-endian reading and writing over byte spans.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"

namespace boneyard {

using Bytes = std::span<const std::uint8_t>;

static_assert(std::endian::native == std::endian::little, "boneyard assumes a little-endian host");

template <class T>
inline T load_le(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Appends little-endian fields to a growing byte vector.
class ByteWriter {
 public:
  ByteWriter() = default;
  explicit ByteWriter(std::vector<std::uint8_t>& out) : out_(&out) {}

  std::vector<std::uint8_t>& buffer() { return *out_; }
  std::size_t size() const { return out_->size(); }

  void u8(std::uint8_t v) { out_->push_back(v); }
  void s8(std::int8_t v) { put(v); }
  void u16(std::uint16_t v) { put(v); }
  void s16(std::int16_t v) { put(v); }
  void u32(std::uint32_t v) { put(v); }
  void s32(std::int32_t v) { put(v); }
  void u64(std::uint64_t v) { put(v); }
  void f32(float v) { put(v); }
  void bytes(Bytes b) { out_->insert(out_->end(), b.begin(), b.end()); }
  void bytes(std::string_view s) { out_->insert(out_->end(), s.begin(), s.end()); }
  void zeros(std::size_t n) { out_->insert(out_->end(), n, 0); }
  void stringz(std::string_view s) {
    bytes(s);
    u8(0);
  }
  void string_crlf(std::string_view s) {
    bytes(s);
    u8('\r');
    u8('\n');
  }
  // Overwrites a previously written u32 (chunk sizes, offsets).
  void patch_u32(std::size_t at, std::uint32_t v) { std::memcpy(out_->data() + at, &v, sizeof v); }
  void align(std::size_t alignment) {
    while (out_->size() % alignment != 0) out_->push_back(0);
  }

  template <class T>
  void put(T v) {
    std::uint8_t b[sizeof(T)];
    std::memcpy(b, &v, sizeof v);
    out_->insert(out_->end(), b, b + sizeof(T));
  }

 private:
  std::vector<std::uint8_t> own_;
  std::vector<std::uint8_t>* out_ = &own_;
};

std::string hex(std::uint64_t v);  // "0x1A2B"

}  // namespace boneyard
