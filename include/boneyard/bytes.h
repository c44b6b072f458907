// Bounds-checked little-endian reading and writing over byte spans.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/diagnostics.h"

namespace boneyard {

using Bytes = std::span<const std::uint8_t>;

static_assert(std::endian::native == std::endian::little, "boneyard assumes a little-endian host");

template <class T>
inline T load_le(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Reads fields from a span. Every read is checked; a short read throws ParseError carrying the
// absolute file offset, the field name and expected vs found byte counts.
class ByteReader {
 public:
  ByteReader(Bytes data, std::uint64_t base_offset) : data_(data), base_(base_offset) {}

  std::size_t position() const { return pos_; }
  std::uint64_t offset() const { return base_ + pos_; }  // absolute offset in the file
  std::uint64_t base_offset() const { return base_; }
  std::size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  Bytes data() const { return data_; }
  Bytes rest() const { return data_.subspan(pos_); }

  void need(std::size_t n, std::string_view what) const {
    if (n > remaining()) short_read(n, what);
  }
  void skip(std::size_t n, std::string_view what) {
    need(n, what);
    pos_ += n;
  }
  // Checks that `count` elements of `elem_size` bytes fit in what is left, before anything is
  // allocated for them (counts like 0xFFFFFFFF must fail here, not in the allocator).
  void need_array(std::uint64_t count, std::size_t elem_size, std::string_view what) const;

  std::uint8_t u8(std::string_view what) { return read<std::uint8_t>(what); }
  std::int8_t s8(std::string_view what) { return read<std::int8_t>(what); }
  std::uint16_t u16(std::string_view what) { return read<std::uint16_t>(what); }
  std::int16_t s16(std::string_view what) { return read<std::int16_t>(what); }
  std::uint32_t u32(std::string_view what) { return read<std::uint32_t>(what); }
  std::int32_t s32(std::string_view what) { return read<std::int32_t>(what); }
  std::uint64_t u64(std::string_view what) { return read<std::uint64_t>(what); }
  float f32(std::string_view what) { return read<float>(what); }

  Bytes bytes(std::size_t n, std::string_view what) {
    need(n, what);
    Bytes b = data_.subspan(pos_, n);
    pos_ += n;
    return b;
  }
  // A NUL-terminated string; the view excludes the terminator.
  std::string_view stringz(std::string_view what);
  // A string terminated by CR LF (X-Ray IWriter::w_string); the view excludes CR LF.
  std::string_view string_crlf(std::string_view what);

  template <class T>
  T read(std::string_view what) {
    need(sizeof(T), what);
    T v = load_le<T>(data_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }

 private:
  [[noreturn]] void short_read(std::size_t n, std::string_view what) const;

  Bytes data_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

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
