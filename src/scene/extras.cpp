#include <charconv>
#include <cstdint>
#include <cstring>

#include "scene/extras_json.h"

namespace boneyard::scene {

namespace {

using Json = nlohmann::json;

// A string that needs no escaping, as nlohmann would write it; false when it needs escaping (or
// UTF-8 checking) and must go through nlohmann.
bool append_plain_string(const std::string& s, std::string& out) {
  // Eight bytes at a time (an EVM's base64 weights run to megabytes): a word holds a byte that
  // needs care when it has a byte >= 0x80, < 0x20, '"' or '\\' (the classic "has a zero byte"
  // test on the word, on its distance to 0x20, and on its XOR with each quote).
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  const auto has_zero = [](std::uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (((w | ((w - kOnes * 0x20) & ~w)) & kHigh) | has_zero(w ^ (kOnes * '"')) | has_zero(w ^ (kOnes * '\\'))) return false;
  }
  for (; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  out.push_back('"');
  out.append(s);
  out.push_back('"');
  return true;
}

// The text nlohmann's dump(-1, ' ', false, replace) gives, written straight into `out`: large
// extras (an EVM's raw weights in base64, per-vertex columns) are mostly integers and plain
// ASCII strings, which are written here without a temporary string each; anything else (floats,
// strings that need escaping or are not ASCII) goes through nlohmann itself, so the text is the
// same byte for byte.
void append_dump(const Json& j, std::string& out) {
  switch (j.type()) {
    case Json::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, value] : j.items()) {
        if (!first) out.push_back(',');
        first = false;
        if (!append_plain_string(key, out)) out.append(Json(key).dump(-1, ' ', false, Json::error_handler_t::replace));
        out.push_back(':');
        append_dump(value, out);
      }
      out.push_back('}');
      return;
    }
    case Json::value_t::array: {
      out.push_back('[');
      bool first = true;
      for (const auto& value : j) {
        if (!first) out.push_back(',');
        first = false;
        append_dump(value, out);
      }
      out.push_back(']');
      return;
    }
    case Json::value_t::string:
      if (append_plain_string(j.get_ref<const std::string&>(), out)) return;
      break;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: {
      char b[24];
      const auto r = j.is_number_unsigned() ? std::to_chars(b, b + sizeof b, j.get<std::uint64_t>())
                                            : std::to_chars(b, b + sizeof b, j.get<std::int64_t>());
      out.append(b, r.ptr);
      return;
    }
    case Json::value_t::null:
      out.append("null");
      return;
    case Json::value_t::boolean:
      out.append(j.get<bool>() ? "true" : "false");
      return;
    default:
      break;
  }
  out.append(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

}  // namespace

Extras::Extras() noexcept = default;
Extras::~Extras() = default;
Extras::Extras(const Extras& other) : value_(other.value_ ? std::make_unique<Value>(*other.value_) : nullptr) {}
Extras& Extras::operator=(const Extras& other) {
  if (this != &other) value_ = other.value_ ? std::make_unique<Value>(*other.value_) : nullptr;
  return *this;
}
Extras::Extras(Extras&& other) noexcept = default;
Extras& Extras::operator=(Extras&& other) noexcept = default;

bool Extras::empty() const noexcept {
  if (!value_) return true;
  if (!value_->text.empty()) return false;  // set_json_text keeps no empty text
  return value_->json.is_null() || (value_->json.is_object() && value_->json.empty());
}

std::string Extras::text() const {
  std::string out;
  append_text(out);
  return out;
}

void Extras::append_text(std::string& out) const {
  if (empty()) return;
  if (!value_->text.empty()) out.append(value_->text);
  else append_dump(value_->json, out);
}

}  // namespace boneyard::scene
