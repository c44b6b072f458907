// JSON as text for the glTF writer (a DOM for ~10k accessors costs more than the key data
// itself) and URI escaping. Private to src/gltf.
#pragma once

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "boneyard/core/file_io.h"
#include "boneyard/scene/scene.h"

namespace boneyard::gltf {

// The text is built in `s` and, when a sink is given, handed on in blocks (flush_if_full() after
// each element of a long array), so that a 30 MB JSON chunk never sits whole in memory. With
// `hold`, the text stays whole in `s` until it grows past that many bytes (then blocks follow).
class JsonText {
 public:
  static constexpr std::size_t kBlock = 256 << 10;
  std::string s;

  explicit JsonText(ByteSink* sink = nullptr, std::size_t hold = kBlock) : sink_(sink), hold_(hold) {}
  void flush_if_full() {
    if (sink_ != nullptr && s.size() >= hold_) flush(), hold_ = kBlock;
  }
  bool passed_on() const { return passed_ != 0; }  // whether any text went to the sink
  // Hands the rest to the sink (unless all of it is still held); the first failed write, if any
  // (later text is dropped).
  Status finish() {
    if (sink_ != nullptr && passed_ != 0) flush();
    return status_;
  }
  std::size_t size() const { return passed_ + s.size(); }  // bytes so far, passed on or held

  void raw(std::string_view v) { s.append(v); }
  void str(std::string_view v) {
    s.push_back('"');
    for (unsigned char c : v) {
      if (c == '"' || c == '\\') {
        s.push_back('\\');
        s.push_back(static_cast<char>(c));
      } else if (c < 0x20) {
        char b[8];
        std::snprintf(b, sizeof b, "\\u%04x", c);
        s.append(b);
      } else {
        s.push_back(static_cast<char>(c));
      }
    }
    s.push_back('"');
  }
  void num(std::uint64_t v) {
    char b[24];
    auto r = std::to_chars(b, b + sizeof b, v);
    s.append(b, r.ptr);
  }
  void num(float v) {
    char b[32];
    auto r = std::to_chars(b, b + sizeof b, v);  // shortest text that reads back to the same float
    s.append(b, r.ptr);
  }
  void floats(const float* v, int n) {
    for (int k = 0; k < n; ++k) {
      if (k) raw(",");
      num(v[k]);
    }
  }
  // `"key":[a,b,c]` after a comma.
  template <class List>
  void index_list(std::string_view key, const List& list) {
    raw(",\"");
    raw(key);
    raw("\":[");
    bool first = true;
    for (const auto v : list) {
      if (!first) raw(",");
      first = false;
      num(std::uint64_t{v});
    }
    raw("]");
  }
  void extras(const scene::Extras& e) {
    if (e.empty()) return;
    raw(",\"extras\":");
    e.append_text(s);
  }

 private:
  void flush() {
    if (status_ && !s.empty()) status_ = sink_->write({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
    passed_ += s.size();
    s.clear();
  }
  ByteSink* sink_;
  std::size_t hold_;
  std::size_t passed_ = 0;
  Status status_;
};

inline std::string percent_encode(std::string_view s, bool keep_slashes = false) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slashes && c == '/')) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

}  // namespace boneyard::gltf
