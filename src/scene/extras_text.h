// Extras written as JSON text (scene::set_json_text) instead of nlohmann documents, for adapters
// whose items are many (an MGS2 packet, an .object bone): building, printing and freeing a
// document for each costs more than the rest of the export. The text is what nlohmann's dump(-1)
// prints for the same document, byte for byte (members in key order, numbers as nlohmann prints
// them), so a glTF's bytes do not depend on which way its extras were made
// (tests/mgs2/extras_text_test.cpp and tests/xray compare the two).
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base64.h"

namespace boneyard::scene {

// Standard base64 of `size` bytes with the "b64:" prefix, as a JSON string (quoted), onto `out`.
inline void append_b64(std::string& out, const std::uint8_t* data, std::size_t size) {
  const std::size_t at = out.size();
  out.resize(at + 6 + base64_size(size));  // sized once and filled by index
  char* o = out.data() + at;
  std::memcpy(o, "\"b64:", 5);
  write_base64(o + 5, data, size);
  out.back() = '"';
}

inline void append_uint(std::string& out, std::uint64_t v) {
  char b[24];
  out.append(b, std::to_chars(b, b + sizeof b, v).ptr);
}

// `[a,b,c]` of unsigned integers (nlohmann prints a std::array of numbers so).
template <class T, std::size_t N>
  requires(!std::is_same_v<T, bool>)
void append_uints(std::string& out, const std::array<T, N>& values) {
  out.push_back('[');
  for (std::size_t i = 0; i < N; ++i) {
    if (i) out.push_back(',');
    append_uint(out, values[i]);
  }
  out.push_back(']');
}

inline void append_bool(std::string& out, bool v) { out.append(v ? "true" : "false"); }

// A JSON object whose members may be added in any order and are printed in key order, as
// nlohmann keeps them (a std::map). Keys are plain ASCII (no escaping) and added once each. One
// object is reused for every packet (clear()), so a packet costs no allocation but its text.
class ObjectText {
 public:
  void clear() {
    members_.clear();
    values_.clear();
  }
  // Room for `bytes` of value text (an item whose size is known grows its text once).
  void reserve(std::size_t bytes) { values_.reserve(bytes); }
  // Starts the member `key`; its value's text is appended to the string returned, up to the
  // next value() or print.
  std::string& value(std::string_view key) {
    members_.push_back({key, values_.size()});
    return values_;
  }
  // `{"k":v,...}` onto `out`.
  void append_to(std::string& out) const {
    const std::size_t n = members_.size();
    order_.resize(n);
    std::size_t bytes = 2;
    for (std::size_t i = 0; i < n; ++i) {
      order_[i] = i;
      bytes += members_[i].key.size() + 4 + end(i) - members_[i].start;
    }
    // Adapters that add their members in key order skip the sort.
    const auto by_key = [&](std::size_t a, std::size_t b) { return members_[a].key < members_[b].key; };
    if (!std::is_sorted(order_.begin(), order_.end(), by_key)) std::sort(order_.begin(), order_.end(), by_key);
    out.reserve(out.size() + bytes);
    out.push_back('{');
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = order_[k];
      if (k) out.push_back(',');
      out.push_back('"');
      out.append(members_[i].key);
      out.append("\":");
      out.append(values_, members_[i].start, end(i) - members_[i].start);
    }
    out.push_back('}');
  }
  // `{"outer":{...}}`, the whole extras value of an item.
  std::string inside(std::string_view outer) const {
    std::string out;
    out.reserve(values_.size() + members_.size() * 16 + outer.size() + 8);
    out.append("{\"").append(outer).append("\":");
    append_to(out);
    out.push_back('}');
    return out;
  }

 private:
  struct Member {
    std::string_view key;
    std::size_t start;
  };
  std::size_t end(std::size_t i) const { return i + 1 < members_.size() ? members_[i + 1].start : values_.size(); }
  std::vector<Member> members_;
  std::string values_;
  mutable std::vector<std::size_t> order_;  // kept only to reuse its memory
};


// A double as nlohmann prints it ("null" when not finite).
inline void append_double(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out.append("null");
    return;
  }
  char b[64];
  // An integral value (most of a bone's data: zeros, ones, masses) is its digits and ".0" as
  // nlohmann prints every integral double below 10^15, without the shortest-digits search.
  if (std::fabs(v) < 1e15 && v == std::trunc(v)) {
    char* end = b;
    if (std::signbit(v)) *end++ = '-';
    end = std::to_chars(end, b + sizeof b - 2, static_cast<std::int64_t>(std::fabs(v))).ptr;
    *end++ = '.', *end++ = '0';
    out.append(b, end);
    return;
  }
  out.append(b, nlohmann::detail::to_chars(b, b + sizeof b, v));
}

// A UTF-8 string as nlohmann prints it (quoted, escaped).
inline void append_string(std::string& out, std::string_view utf8) {
  bool plain = true;
  for (const char c : utf8) plain = plain && static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\';
  if (plain) {
    out.push_back('"');
    out.append(utf8);
    out.push_back('"');
    return;
  }
  out.append(nlohmann::json(std::string(utf8)).dump());
}

}  // namespace boneyard::scene
