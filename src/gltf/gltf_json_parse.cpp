// The glTF reader's JSON tokenizer (gltf_json_parse.h). It accepts exactly the texts nlohmann's
// lexer and parser accept in strict mode without comments, RFC 8259 plus an optional UTF-8 byte
// order mark, and reports the same values through nlohmann's own document builder, so the
// document is the one nlohmann::json::parse makes:
//  * strings: no byte below 0x20, only the escapes \" \\ \/ \b \f \n \r \t \uXXXX, a \u high
//    surrogate followed by a \u low one (a lone surrogate is an error), and well-formed UTF-8
//    (no overlong forms, no surrogates, nothing past U+10FFFF);
//  * numbers: '-'? ('0' | [1-9][0-9]*) ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?; without fraction or
//    exponent an unsigned (no '-') or signed 64-bit integer when it fits, else, like every other
//    number, strtod's double (with the locale's decimal point, as nlohmann does); a double that
//    overflows to infinity is an error;
//  * after the value only whitespace (space, tab, LF, CR), up to the end or a NUL byte, where
//    nlohmann's lexer stops reading (a .glb's JSON chunk padded with NULs parses).
// Nesting is kept on a heap stack, never the call stack.
#include "gltf_json_parse.h"

#include <array>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace boneyard::gltf::detail {

namespace {

using Json = nlohmann::json;

// Bytes a string may hold as they are: printable ASCII except '"' and '\\'.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[std::size_t(c)] = c != '"' && c != '\\';
  return t;
}();

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
  }
}

// The tokenizer; `Handler` receives the values as nlohmann's SAX interface names them.
template <class Handler>
class Parser {
 public:
  Parser(std::string_view text, Handler& handler) : p_(text.data()), end_(text.data() + text.size()), dom_(handler) {}

  bool parse() {
    if (p_ < end_ && static_cast<unsigned char>(*p_) == 0xEF) {  // a byte order mark, complete or an error
      if (end_ - p_ < 3 || static_cast<unsigned char>(p_[1]) != 0xBB || static_cast<unsigned char>(p_[2]) != 0xBF) return false;
      p_ += 3;
    }
    std::vector<bool> in_object;  // the open containers, innermost last
    skip_whitespace();
    for (;;) {
      // A value.
      if (p_ == end_) return false;
      if (*p_ == '{' || *p_ == '[') {
        const bool object = *p_++ == '{';
        if (!(object ? dom_.start_object(std::size_t(-1)) : dom_.start_array(std::size_t(-1)))) return false;
        skip_whitespace();
        if (p_ < end_ && *p_ == (object ? '}' : ']')) {
          ++p_;
          if (!(object ? dom_.end_object() : dom_.end_array())) return false;
        } else {
          in_object.push_back(object);
          if (object && !key()) return false;
          continue;
        }
      } else if (!scalar()) {
        return false;
      }
      // After a value: a comma, or the end of containers.
      for (;;) {
        skip_whitespace();
        if (in_object.empty()) return p_ == end_ || *p_ == '\0';  // nlohmann ends its input at a NUL
        if (p_ == end_) return false;
        if (*p_ == ',') {
          ++p_;
          skip_whitespace();
          if (in_object.back() && !key()) return false;
          break;
        }
        if (*p_ != (in_object.back() ? '}' : ']')) return false;
        ++p_;
        if (!(in_object.back() ? dom_.end_object() : dom_.end_array())) return false;
        in_object.pop_back();
      }
    }
  }

  bool errored() const { return dom_.is_errored(); }

 private:
  void skip_whitespace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  // A member's key and its colon; whitespace before the key has been skipped.
  bool key() {
    if (p_ == end_ || *p_ != '"' || !string()) return false;
    if (!dom_.key(buffer_)) return false;
    skip_whitespace();
    if (p_ == end_ || *p_ != ':') return false;
    ++p_;
    skip_whitespace();
    return true;
  }

  bool scalar() {
    switch (*p_) {
      case '"':
        return string() && dom_.string(buffer_);
      case 't':
        return literal("true") && dom_.boolean(true);
      case 'f':
        return literal("false") && dom_.boolean(false);
      case 'n':
        return literal("null") && dom_.null();
      default:
        return number();
    }
  }

  bool literal(std::string_view word) {
    if (std::size_t(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) return false;
    p_ += word.size();
    return true;
  }

  // The string at p_ (an opening quote) into buffer_, unescaped.
  bool string() {
    buffer_.clear();
    ++p_;
    for (;;) {
      const char* run = p_;
      while (p_ < end_ && kPlain[static_cast<unsigned char>(*p_)]) ++p_;
      buffer_.append(run, p_);
      if (p_ == end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c == '\\') {
        if (!escape()) return false;
      } else if (c >= 0x80) {
        if (!utf8_sequence()) return false;
      } else {
        return false;  // a control character
      }
    }
  }

  bool escape() {
    if (end_ - p_ < 2) return false;
    const char e = p_[1];
    p_ += 2;
    switch (e) {
      case '"': buffer_ += '"'; return true;
      case '\\': buffer_ += '\\'; return true;
      case '/': buffer_ += '/'; return true;
      case 'b': buffer_ += '\b'; return true;
      case 'f': buffer_ += '\f'; return true;
      case 'n': buffer_ += '\n'; return true;
      case 'r': buffer_ += '\r'; return true;
      case 't': buffer_ += '\t'; return true;
      case 'u': break;
      default: return false;
    }
    std::uint32_t cp = 0;
    if (!hex4(cp)) return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate first
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      std::uint32_t low = 0;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
      p_ += 2;
      if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(buffer_, cp);
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (end_ - p_ < 4) return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex_value(p_[i]);
      if (h < 0) return false;
      out = out * 16 + std::uint32_t(h);
    }
    p_ += 4;
    return true;
  }

  // One well-formed UTF-8 sequence of 2 to 4 bytes (RFC 3629's table), copied.
  bool utf8_sequence() {
    const auto b0 = static_cast<unsigned char>(*p_);
    int length = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
    if (b0 >= 0xC2 && b0 <= 0xDF) length = 2;
    else if (b0 == 0xE0) length = 3, lo = 0xA0;
    else if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) length = 3;
    else if (b0 == 0xED) length = 3, hi = 0x9F;
    else if (b0 == 0xF0) length = 4, lo = 0x90;
    else if (b0 >= 0xF1 && b0 <= 0xF3) length = 4;
    else if (b0 == 0xF4) length = 4, hi = 0x8F;
    else return false;
    if (end_ - p_ < length) return false;
    for (int i = 1; i < length; ++i) {
      const auto b = static_cast<unsigned char>(p_[i]);
      if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) return false;
    }
    buffer_.append(p_, std::size_t(length));
    p_ += length;
    return true;
  }

  bool digits() {
    const char* start = p_;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return p_ > start;
  }

  bool number() {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_ == '0') ++p_;
    else digits();
    bool integer = true;
    if (p_ < end_ && *p_ == '.') {
      ++p_, integer = false;
      if (!digits()) return false;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_, integer = false;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digits()) return false;
    }
    const std::string_view token(start, std::size_t(p_ - start));
    if (integer) {
      // Up to 19 digits cannot overflow 64 bits: the common case, without a C library call.
      const std::string_view magnitude = token.substr(negative ? 1 : 0);
      if (magnitude.size() <= 18) {
        std::uint64_t v = 0;
        for (char c : magnitude) v = v * 10 + std::uint64_t(c - '0');
        return negative ? dom_.number_integer(-std::int64_t(v)) : dom_.number_unsigned(v);
      }
      number_text_.assign(token);
      char* stop = nullptr;
      errno = 0;
      if (!negative) {
        const unsigned long long v = std::strtoull(number_text_.c_str(), &stop, 10);
        if (errno == 0) return dom_.number_unsigned(std::uint64_t(v));
      } else {
        const long long v = std::strtoll(number_text_.c_str(), &stop, 10);
        if (errno == 0) return dom_.number_integer(std::int64_t(v));
      }
    }
    // from_chars rounds as strtod does, without its locale work (most numbers of a glTF are
    // floats); what it reports as out of range (an underflow strtod takes to a denormal or 0, an
    // overflow) goes the C library's way.
    double parsed = 0;
    if (const auto r = std::from_chars(token.data(), token.data() + token.size(), parsed);
        r.ec == std::errc{} && r.ptr == token.data() + token.size() && std::isfinite(parsed)) {
      number_text_.assign(token);
      return dom_.number_float(parsed, number_text_);
    }
    number_text_.assign(token);
    if (const char point = *std::localeconv()->decimal_point; point != '.')
      for (char& c : number_text_)
        if (c == '.') c = point;
    const double v = std::strtod(number_text_.c_str(), nullptr);
    if (!std::isfinite(v)) return false;  // nlohmann: "number overflow"
    return dom_.number_float(v, number_text_);
  }

  const char* p_;
  const char* const end_;
  Handler& dom_;
  std::string buffer_;       // the last string or key, unescaped
  std::string number_text_;  // a number handed to the C library
};


// An integer member as index_of reads it from the document: the value when it is an integer in
// [0, 2^40], else -2.
std::int64_t index_value(std::uint64_t v) { return v > (std::uint64_t{1} << 40) ? -2 : std::int64_t(v); }
std::int64_t index_value(std::int64_t v) { return v >= 0 ? v : -2; }

// The glTF document with its accessors and its animations' channels and samplers taken straight
// into records (gltf_json_parse.h): everything else goes to nlohmann's document builder. The
// records hold what member(), index_of() and string_of() would have read from the document,
// repeated keys included (the last one counts, as in the document).
class GltfCapture {
 public:
  GltfCapture(Json& root, GltfArrays& arrays) : dom_(root, false), arrays_(arrays) {}

  bool is_errored() const { return dom_.is_errored(); }

  bool key(std::string& k) {
    if (stack_.empty()) return true;
    switch (stack_.back().role) {
      case Role::dom:
      case Role::animations:
        return dom_.key(k);
      case Role::root:
      case Role::animation:
        key_.swap(k);  // decided with the value: a captured array drops its key
        return true;
      case Role::accessor:
      case Role::sampler:
      case Role::channel:
      case Role::target:
        field_ = field_of(k);
        return true;
      default:
        return true;
    }
  }

  bool start_object(std::size_t n) { return start(true, n); }
  bool start_array(std::size_t n) { return start(false, n); }
  bool end_object() { return end(); }
  bool end_array() { return end(); }

  bool string(std::string& v) {
    if (forwarded()) return dom_.string(v);
    set_integer(-2);
    set_text(v);
    return true;
  }
  bool boolean(bool v) {
    if (forwarded()) return dom_.boolean(v);
    set_integer(-2);
    if (in(Role::accessor) && field_ == Field::normalized) arrays_.accessors.back().normalized = v;
    return true;
  }
  bool null() {
    if (forwarded()) return dom_.null();
    set_integer(-2);
    return true;
  }
  bool number_unsigned(std::uint64_t v) {
    if (forwarded()) return dom_.number_unsigned(v);
    set_integer(index_value(v));
    return true;
  }
  bool number_integer(std::int64_t v) {
    if (forwarded()) return dom_.number_integer(v);
    set_integer(index_value(v));
    return true;
  }
  bool number_float(double v, const std::string& text) {
    if (forwarded()) return dom_.number_float(v, text);
    set_integer(-2);
    return true;
  }

 private:
  enum class Role : std::uint8_t {
    dom,         // forwarded to the document
    root,        // the top-level object (forwarded)
    animations,  // its "animations" array (forwarded)
    animation,   // one of its elements (forwarded, but for "channels" and "samplers")
    accessors, accessor, samplers, sampler, channels, channel, target,  // captured
    skip,        // a container inside a captured record: nothing in it is read
  };
  // The members the records hold; `other` for every other key.
  enum class Field : std::uint8_t {
    other, component_type, count, buffer_view, byte_offset, type, normalized, sparse,
    input, output, interpolation, sampler, target, node, path,
  };
  struct Open {  // a container being read
    Role role;
    bool object;
  };

  static Field field_of(const std::string& k) {
    static const std::pair<const char*, Field> kFields[] = {
        {"componentType", Field::component_type}, {"count", Field::count}, {"bufferView", Field::buffer_view},
        {"byteOffset", Field::byte_offset}, {"type", Field::type}, {"normalized", Field::normalized},
        {"sparse", Field::sparse}, {"input", Field::input}, {"output", Field::output},
        {"interpolation", Field::interpolation}, {"sampler", Field::sampler}, {"target", Field::target},
        {"node", Field::node}, {"path", Field::path}};
    for (const auto& [name, field] : kFields)
      if (k == name) return field;
    return Field::other;
  }

  bool in(Role r) const { return !stack_.empty() && stack_.back().role == r; }
  AccessorRecord& current_accessor() { return arrays_.accessors.back(); }
  AnimationArrays& current_animation() { return arrays_.animations.back(); }

  // Called before every value: starts the element it belongs to, and says whether it goes to
  // the document (true) or into a record (false).
  bool forwarded() {
    if (stack_.empty()) return true;
    switch (stack_.back().role) {
      case Role::root:
        // A repeated member replaces the first, as in the document; accessors are never its.
        if (key_ == "accessors") return arrays_.accessors.clear(), false;
        if (key_ == "animations") arrays_.animations.clear();
        return dom_.key(key_), true;
      case Role::animations:
        arrays_.animations.emplace_back();
        return true;
      case Role::animation:
        if (key_ == "channels") return current_animation().channels.clear(), false;
        if (key_ == "samplers") return current_animation().samplers.clear(), false;
        return dom_.key(key_), true;
      case Role::accessors:
        arrays_.accessors.emplace_back();
        return false;
      case Role::samplers:
        current_animation().samplers.emplace_back();
        return false;
      case Role::channels:
        current_animation().channels.emplace_back();
        return false;
      case Role::dom:
        return true;
      default:
        return false;
    }
  }

  // The role of a container that starts in the current one.
  Role child_role(bool object, bool forward) const {
    if (stack_.empty()) return object ? Role::root : Role::dom;
    const Role parent = stack_.back().role;
    if (forward) {
      if (parent == Role::root && !object && key_ == "animations") return Role::animations;
      if (parent == Role::animations && object) return Role::animation;
      return Role::dom;
    }
    switch (parent) {
      case Role::root: return object ? Role::skip : Role::accessors;
      case Role::animation:
        if (object) return Role::skip;
        return key_ == "channels" ? Role::channels : Role::samplers;
      case Role::accessors: return object ? Role::accessor : Role::skip;
      case Role::samplers: return object ? Role::sampler : Role::skip;
      case Role::channels: return object ? Role::channel : Role::skip;
      case Role::channel: return object && field_ == Field::target ? Role::target : Role::skip;
      default: return Role::skip;
    }
  }

  bool start(bool object, std::size_t n) {
    const bool forward = forwarded();
    if (!forward) set_integer(-2);  // a container where a record wants a number or a string
    stack_.push_back({child_role(object, forward), object});
    if (!forward) return true;
    return object ? dom_.start_object(n) : dom_.start_array(n);
  }

  bool end() {
    const Open o = stack_.back();
    stack_.pop_back();
    const bool document = o.role == Role::dom || o.role == Role::root || o.role == Role::animations ||
                          o.role == Role::animation;
    if (!document) return true;
    return o.object ? dom_.end_object() : dom_.end_array();
  }

  // Any value for the current member of a captured record: an integer as index_of reads it, or -2
  // for anything else (a string, a container, ...), which also clears a string member.
  void set_integer(std::int64_t v) {
    if (stack_.empty()) return;
    switch (stack_.back().role) {
      case Role::accessor: {
        AccessorRecord& a = current_accessor();
        switch (field_) {
          case Field::component_type: a.component_type = v; break;
          case Field::count: a.count = v; break;
          case Field::buffer_view: a.buffer_view = v; break;
          case Field::byte_offset: a.byte_offset = v; break;
          case Field::type: a.type.clear(); break;
          case Field::normalized: a.normalized = false; break;
          case Field::sparse: a.sparse = true; break;
          default: break;
        }
        break;
      }
      case Role::sampler: {
        SamplerRecord& s = current_animation().samplers.back();
        if (field_ == Field::input) s.input = v;
        else if (field_ == Field::output) s.output = v;
        else if (field_ == Field::interpolation) s.interpolation.clear();
        break;
      }
      case Role::channel: {
        ChannelRecord& c = current_animation().channels.back();
        if (field_ == Field::sampler) c.sampler = v;
        else if (field_ == Field::target) c.node = kAbsent, c.path.clear();  // a new target replaces the old
        break;
      }
      case Role::target: {
        ChannelRecord& c = current_animation().channels.back();
        if (field_ == Field::node) c.node = v;
        else if (field_ == Field::path) c.path.clear();
        break;
      }
      default:
        break;
    }
  }

  void set_text(const std::string& v) {
    if (in(Role::accessor) && field_ == Field::type) current_accessor().type = v;
    else if (in(Role::sampler) && field_ == Field::interpolation) current_animation().samplers.back().interpolation = v;
    else if (in(Role::target) && field_ == Field::path) current_animation().channels.back().path = v;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  GltfArrays& arrays_;
  std::vector<Open> stack_;
  std::string key_;  // the last key of the root object or of an animation
  Field field_ = Field::other;  // the last key of a captured record
};

}  // namespace

Json parse_json(std::string_view text) {
  Json j;
  nlohmann::detail::json_sax_dom_parser<Json> dom(j, false);
  Parser parser(text, dom);
  if (!parser.parse() || parser.errored()) return Json(Json::value_t::discarded);
  return j;
}

Json parse_gltf_json(std::string_view text, GltfArrays& arrays) {
  Json j;
  arrays = {};
  GltfCapture capture(j, arrays);
  Parser parser(text, capture);
  if (!parser.parse() || parser.errored()) return Json(Json::value_t::discarded);
  return j;
}

}  // namespace boneyard::gltf::detail
