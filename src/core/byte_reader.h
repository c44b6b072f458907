// Reader internals, private to the libraries that parse files (core, xray, mgs2, texture): a
// bounds-checked reader whose short reads throw ParseError, and catch_parse_errors, which every
// reader's entry point wraps its parsing in. ParseError never leaves that entry point: the public
// API reports errors only as values (Result, Status, Diagnostics; docs/architecture.md "Errors").
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"

namespace boneyard {

// Thrown inside readers when the bytes cannot be parsed any further; converted to a Finding
// (and a Result error) at the public API boundary. Outer parsing levels prepend their context.
class ParseError : public std::runtime_error {
 public:
  explicit ParseError(Finding f);
  const Finding& finding() const { return finding_; }
  // Prepend a structural context: "bone 7" + "rotation keys" -> "bone 7 rotation keys".
  void prepend_path(std::string_view context);

 private:
  Finding finding_;
};

[[noreturn]] void fail(std::uint64_t offset, std::string path, std::string message,
                       std::string expected = {}, std::string found = {});

// Runs `fn` and turns a ParseError into an error Result.
template <class Fn>
auto catch_parse_errors(Fn&& fn) -> Result<decltype(fn())> {
  try {
    return fn();
  } catch (const ParseError& e) {
    return e.finding();
  }
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

}  // namespace boneyard
