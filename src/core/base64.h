// Standard base64 ("b64:" prefixed) for the per-vertex and per-triangle columns adapters put in
// glTF extras: a tenth of the size of a JSON number array, and parsed as one string instead of one
// JSON value per number. Shared by the MGS2 and .object adapters.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace boneyard {

// The length of the standard base64 of `size` bytes, padding included.
constexpr std::size_t base64_size(std::size_t size) { return (size + 2) / 3 * 4; }
// Standard base64 of `size` bytes, padding included, into `o` (base64_size(size) chars).
inline void write_base64(char* o, const std::uint8_t* data, std::size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  // The two characters of every 12 bits: two lookups per 3 bytes instead of four.
  static constexpr std::array<char, 8192> kPairs = [] {
    std::array<char, 8192> t{};
    for (std::size_t i = 0; i < 4096; ++i) t[2 * i] = kAlphabet[i >> 6], t[2 * i + 1] = kAlphabet[i & 63];
    return t;
  }();
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3, o += 4) {
    const std::uint32_t v = (std::uint32_t(data[i]) << 16) | (std::uint32_t(data[i + 1]) << 8) | data[i + 2];
    std::memcpy(o, kPairs.data() + 2 * (v >> 12), 2);
    std::memcpy(o + 2, kPairs.data() + 2 * (v & 4095), 2);
  }
  if (i < size) {  // one or two bytes left, then '=' padding
    const std::uint32_t v = (std::uint32_t(data[i]) << 16) | (i + 1 < size ? std::uint32_t(data[i + 1]) << 8 : 0);
    o[0] = kAlphabet[(v >> 18) & 63];
    o[1] = kAlphabet[(v >> 12) & 63];
    o[2] = i + 1 < size ? kAlphabet[(v >> 6) & 63] : '=';
    o[3] = '=';
  }
}
// Per-vertex columns go to extras as base64 of their little-endian bytes ("b64:..."): a tenth of
// the size of a JSON number array and parsed as one string.
inline std::string to_b64(const std::uint8_t* data, std::size_t size) {
  // Sized once and filled by index: an EVM's weights are most of its export's extras.
  std::string out(4 + base64_size(size), '\0');
  std::memcpy(out.data(), "b64:", 4);
  write_base64(out.data() + 4, data, size);
  return out;
}
// Appends the bytes of "b64:<standard base64>" to `out`; false without the prefix or on a character
// outside the alphabet. Decoding stops at the first '='.
inline bool from_b64(std::string_view s, std::vector<std::uint8_t>& out) {
  static constexpr std::array<std::int8_t, 256> kValue = [] {
    std::array<std::int8_t, 256> t{};
    t.fill(-1);
    for (int i = 0; i < 26; ++i) t[std::size_t('A' + i)] = std::int8_t(i), t[std::size_t('a' + i)] = std::int8_t(26 + i);
    for (int i = 0; i < 10; ++i) t[std::size_t('0' + i)] = std::int8_t(52 + i);
    t[std::size_t('+')] = 62, t[std::size_t('/')] = 63;
    t[std::size_t('=')] = -2;
    return t;
  }();
  if (s.substr(0, 4) != "b64:") return false;
  s.remove_prefix(4);
  out.reserve(out.size() + s.size() / 4 * 3 + 2);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    const int v = kValue[static_cast<unsigned char>(c)];
    if (v < 0) {
      if (v == -2) break;
      return false;
    }
    acc = (acc << 6) | std::uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xFF));
    }
  }
  return true;
}

}  // namespace boneyard
