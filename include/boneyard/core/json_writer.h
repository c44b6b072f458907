// Streaming JSON output: dumps of 100 MB files must not build a document tree in memory.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace boneyard {

class JsonWriter {
 public:
  // Writes to `out` (not owned); buffered, flushed by flush() and the destructor.
  explicit JsonWriter(std::FILE* out);
  // Collects into a string (see str()).
  JsonWriter();
  ~JsonWriter();
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);  // k must be UTF-8

  JsonWriter& value(std::string_view utf8);
  JsonWriter& value(const char* utf8) { return value(std::string_view(utf8)); }
  JsonWriter& value(bool b);
  JsonWriter& value(std::int64_t v);
  JsonWriter& value(std::uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
  JsonWriter& value(unsigned v) { return value(static_cast<std::uint64_t>(v)); }
  // Shortest text that reads back to the same float; NaN and infinities become null.
  JsonWriter& value(float v);
  JsonWriter& value(double v);
  JsonWriter& null();
  // A number already formatted as JSON (e.g. from a lookup table of shortest forms).
  JsonWriter& number_text(std::string_view json_number);

  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  void newline();  // a line break between top-level items, for readability of big dumps
  void flush();
  const std::string& str() const { return buf_; }

 private:
  template <class T>
  JsonWriter& number(T v);
  void separator();
  void raw(std::string_view s);
  void maybe_flush();

  std::FILE* out_ = nullptr;
  std::string buf_;
  std::vector<bool> has_items_;  // per open container
  bool after_key_ = false;
};

}  // namespace boneyard
