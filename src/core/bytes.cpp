#include "boneyard/core/bytes.h"

#include <charconv>
#include <cstdio>

#include "core/byte_reader.h"

namespace boneyard {

std::string hex(std::uint64_t v) {
  // "0x%llX" without printf's format parsing (readers name every chunk they open with it).
  char b[24] = {'0', 'x'};
  char* end = std::to_chars(b + 2, b + sizeof b, v, 16).ptr;
  for (char* c = b + 2; c != end; ++c)
    if (*c >= 'a') *c = static_cast<char>(*c - 'a' + 'A');
  return std::string(b, end);
}

void ByteReader::short_read(std::size_t n, std::string_view what) const {
  fail(offset(), std::string(what), "truncated", std::to_string(n) + " bytes",
       std::to_string(remaining()) + " bytes");
}

void ByteReader::need_array(std::uint64_t count, std::size_t elem_size, std::string_view what) const {
  // Division avoids overflow of count * elem_size for absurd counts.
  if (elem_size != 0 && count > remaining() / elem_size) {
    fail(offset(), std::string(what), "count past the data",
         "at most " + std::to_string(remaining() / elem_size) + " elements of " + std::to_string(elem_size) +
             " bytes",
         std::to_string(count));
  }
}

std::string_view ByteReader::stringz(std::string_view what) {
  const auto* begin = data_.data() + pos_;
  // memchr may not be given a null pointer, which an empty span (an empty unpacked chunk) has.
  const void* nul = remaining() == 0 ? nullptr : std::memchr(begin, 0, remaining());
  if (nul == nullptr) {
    fail(offset(), std::string(what), "string not terminated", "a NUL byte",
         "end of data after " + std::to_string(remaining()) + " bytes");
  }
  auto len = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - begin);
  pos_ += len + 1;
  return {reinterpret_cast<const char*>(begin), len};
}

std::string_view ByteReader::string_crlf(std::string_view what) {
  const auto* begin = data_.data() + pos_;
  std::size_t n = remaining();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (begin[i] == '\r' && begin[i + 1] == '\n') {
      pos_ += i + 2;
      return {reinterpret_cast<const char*>(begin), i};
    }
  }
  fail(offset(), std::string(what), "string not terminated", "CR LF",
       "end of data after " + std::to_string(n) + " bytes");
}

}  // namespace boneyard
