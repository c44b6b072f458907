#include "boneyard/core/json_writer.h"

#include <charconv>
#include <cmath>
#include <type_traits>

namespace boneyard {

JsonWriter::JsonWriter(std::FILE* out) : out_(out) { buf_.reserve(1 << 16); }
JsonWriter::JsonWriter() = default;
JsonWriter::~JsonWriter() { flush(); }

void JsonWriter::flush() {
  if (out_ != nullptr && !buf_.empty()) {
    std::fwrite(buf_.data(), 1, buf_.size(), out_);
    buf_.clear();
  }
}

void JsonWriter::maybe_flush() {
  if (out_ != nullptr && buf_.size() >= (1u << 16)) flush();
}

void JsonWriter::raw(std::string_view s) { buf_.append(s); }

void JsonWriter::separator() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) buf_.push_back(',');
    has_items_.back() = true;
  }
}

JsonWriter& JsonWriter::begin_object() {
  separator();
  buf_.push_back('{');
  has_items_.push_back(false);
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  has_items_.pop_back();
  buf_.push_back('}');
  maybe_flush();
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  separator();
  buf_.push_back('[');
  has_items_.push_back(false);
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  has_items_.pop_back();
  buf_.push_back(']');
  maybe_flush();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  value(k);
  buf_.push_back(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  separator();
  buf_.push_back('"');
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    switch (c) {
      case '"': raw("\\\""); break;
      case '\\': raw("\\\\"); break;
      case '\n': raw("\\n"); break;
      case '\r': raw("\\r"); break;
      case '\t': raw("\\t"); break;
      default:
        if (b < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          raw("\\u00");
          buf_.push_back(kHex[b >> 4]);
          buf_.push_back(kHex[b & 15]);
        } else {
          buf_.push_back(c);
        }
    }
  }
  buf_.push_back('"');
  maybe_flush();
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  separator();
  raw(b ? "true" : "false");
  return *this;
}

template <class T>
JsonWriter& JsonWriter::number(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(v)) return null();
  }
  separator();
  char tmp[32];
  const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);  // shortest round-trip form for floats
  buf_.append(tmp, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t v) { return number(v); }
JsonWriter& JsonWriter::value(std::uint64_t v) { return number(v); }
JsonWriter& JsonWriter::value(float v) { return number(v); }
JsonWriter& JsonWriter::value(double v) { return number(v); }

JsonWriter& JsonWriter::number_text(std::string_view json_number) {
  separator();
  raw(json_number);
  return *this;
}

JsonWriter& JsonWriter::null() {
  separator();
  raw("null");
  return *this;
}

void JsonWriter::newline() { buf_.push_back('\n'); }

}  // namespace boneyard
