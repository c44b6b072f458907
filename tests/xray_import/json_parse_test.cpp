// The glTF reader's JSON parse (src/gltf/gltf_json_parse.cpp, a tokenizer of our own feeding
// nlohmann's document builder): the same value as nlohmann's own parse, or a failure exactly when
// nlohmann fails, on crafted texts (numbers, escapes, surrogates, UTF-8 edges, byte order marks),
// random documents, and every one-byte corruption and truncation of a document; deep nesting
// neither crashes nor recurses.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "boneyard/gltf/gltf_read.h"
#include "gltf/gltf_json_parse.h"
#include "scene/extras_json.h"

namespace boneyard::test {
namespace {

using Json = nlohmann::json;

// Empty when parse_json agrees with nlohmann::json::parse, else what differs. Values compare
// with their types: 1, 1u and 1.0 are different here.
std::string disagreement(const std::string& text) {
  const Json ours = gltf::detail::parse_json(text);
  const Json theirs = Json::parse(text, nullptr, false);
  if (ours.is_discarded() != theirs.is_discarded())
    return std::string("ours ") + (ours.is_discarded() ? "failed" : "parsed") + ", nlohmann's " +
           (theirs.is_discarded() ? "failed" : "parsed");
  if (ours.is_discarded()) return {};
  if (ours != theirs) return "different values: " + ours.dump() + " vs " + theirs.dump();
  // operator== treats 1 and 1u (and 1.0) as equal; the reader does not.
  std::vector<const Json*> a{&ours}, b{&theirs};
  while (!a.empty()) {
    const Json* x = a.back();
    const Json* y = b.back();
    a.pop_back(), b.pop_back();
    if (x->type() != y->type()) return "different types at " + x->dump() + " vs " + y->dump();
    if (x->is_structured())
      for (auto i = x->begin(), j = y->begin(); i != x->end(); ++i, ++j) a.push_back(&*i), b.push_back(&*j);
  }
  return {};
}

const std::string kLong(80, 'A');

TEST(GltfJsonParse, SameValueAsNlohmannOnCraftedTexts) {
  const std::vector<std::string> texts = {
      // Values, whitespace, duplicate keys (the last wins), empty containers.
      R"({"a": ")" + kLong + R"(", "b": [1, -2, 3.5, true, false, null, {}, [], ""]})",
      " \t\r\n{ \"a\" :\n[ ] , \"a\" : { } }\n ", R"({"a": 1, "a": 2})", "[]", "{}", "0", "\"x\"", "null",
      // Numbers at the edges of the integer types and of double.
      "[0, -0, 1, -1, 123456789012345678, -123456789012345678, 1234567890123456789, -1234567890123456789]",
      "[9223372036854775807, 9223372036854775808, -9223372036854775808, -9223372036854775809]",
      "[18446744073709551615, 18446744073709551616, 123456789012345678901234567890, -99999999999999999999]",
      "[1.0, -0.0, 0.5, 1e5, 1E+2, 2.5e-3, 1e308, 1.7976931348623157e308, 4.9e-324, 1e-400, -1e-400]",
      "[0.1, 0.2, 3.14159265358979323846264338327950288, 1e0, 0e0, 0.0e-0]",
      // Strings: escapes, \u forms, surrogate pairs, UTF-8 of every length, DEL.
      R"(["\"\\\/\b\f\n\r\t", "\u0041\u00e9\u20AC\uD83D\uDE00", "\u0000x", "\uFFFF", "\u00", "x"])",
      "[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf\"]",
      // Byte order marks.
      "\xEF\xBB\xBF{}", "\xEF\xBB\xBF [1]",
      // Invalid: each must fail as nlohmann's parse does.
      "", " ", "{", "[", "]", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{1: 2}", "[1 2]", "{\"a\":1}}", "[1]x",
      "tru", "nul", "True", "[+1]", "[01]", "[-]", "[1.]", "[.5]", "[1e]", "[1e+]", "[-01]", "[1.5e3.2]",
      "[1e309]", "[-1e309]", "[1e99999]", "\xEF\xBB{}", "\xEF{}", " \xEF\xBB\xBF{}", "{} \xEF\xBB\xBF",
      "[\"a\x01\"]", "[\"a\x1f\"]", "[\"\\q\"]", "[\"\\u12\"]", "[\"\\u12G4\"]", "[\"\\uD83D\"]", "[\"\\uD83Dx\"]",
      "[\"\\uD83D\\u0041\"]", "[\"\\uDE00\"]", "[\"\\", "[\"abc", "[\"a\"", "/* c */ []", "[1] // c",
      "[\"\x80\"]", "[\"\xc0\xaf\"]", "[\"\xc1\xbf\"]", "[\"\xe0\x9f\xbf\"]", "[\"\xed\xa0\x80\"]", "[\"\xf0\x8f\xbf\xbf\"]",
      "[\"\xf4\x90\x80\x80\"]", "[\"\xf5\x80\x80\x80\"]", "[\"\xff\"]", "[\"\xc3\"]", "[\"\xe2\x82\"]", "[\"\xc3x\"]",
      std::string("[1]\0", 4), std::string("{} \0\0 x", 7), std::string("\0[1]", 4), std::string("[\0]", 3),
      std::string("[\"a\0\"]", 6), "[\"" + kLong + "\" \"" + kLong + "\"]",
  };
  for (std::size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(disagreement(texts[i]), "") << "text " << i << ": " << texts[i];
}

// Random documents (every kind of value, random whitespace, random bytes in strings) agree, and
// so does every prefix of each.
TEST(GltfJsonParse, RandomDocumentsAgreeWithNlohmann) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  const auto next = [&x] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  const char* const pieces[] = {"0", "-0", "17", "-5", "3.25", "1e-3", "-2E+8", "18446744073709551615",
                                "-9223372036854775808", "99999999999999999999", "true", "false", "null"};
  const auto ws = [&] { return std::string(next() % 3, " \t\n\r"[next() % 4]); };
  int valid = 0;
  for (int doc = 0; doc < 300; ++doc) {
    std::string text = ws() + "[";
    std::vector<char> open{']'};
    bool first = true;  // no value yet in the innermost container
    for (int step = 0; step < 60; ++step) {
      if (!first) text += ',';
      text += ws();
      if (open.back() == '}') text += "\"k" + std::to_string(next() % 5) + "\"" + ws() + ":" + ws();
      first = false;
      const unsigned kind = unsigned(next() % 8);
      if (kind == 0 && open.size() < 6) {
        const bool object = next() % 2;
        text += object ? '{' : '[';
        open.push_back(object ? '}' : ']');
        first = true;
        continue;
      }
      if (kind == 1) {
        const char* const parts[] = {"a", "Z", "0", " ", "\\n", "\\\"", "\\u00e9", "\\uD83D\\uDE00", "\xc3\xa9", "\xf0\x9f\x98\x80", "\x7f"};
        std::string s = "\"";
        for (unsigned n = unsigned(next() % 70); n > 0; --n)
          if (next() % 200 == 0) s += char(next() % 256);  // rarely, any byte at all
          else s += parts[next() % std::size(parts)];
        text += s + "\"";
      } else {
        text += pieces[next() % std::size(pieces)];
      }
      text += ws();
      if (open.size() > 1 && next() % 4 == 0) text += open.back(), open.pop_back();
    }
    while (!open.empty()) text += open.back(), open.pop_back();
    text += ws();
    valid += !Json::parse(text, nullptr, false).is_discarded();
    ASSERT_EQ(disagreement(text), "") << text;
    for (std::size_t cut = doc % 7; cut < text.size(); cut += 41) ASSERT_EQ(disagreement(text.substr(0, cut)), "") << text;
  }
  EXPECT_GT(valid, 100) << valid;
}

// Every byte of a document full of long strings replaced by characters that matter to JSON's
// structure: whatever nlohmann makes of the result, parse_json makes the same.
TEST(GltfJsonParse, EveryByteCorruptedAgreesWithNlohmann) {
  const std::string doc = R"({"meshes": [{"extras": {"k": ")" + kLong + R"(", "w": ["b64:)" + kLong + R"(==", null],
 ")" + kLong + R"(": 7, "u": "\u00e9\n"}}, ")" + kLong + R"("], "s": "short", "n": -1.5e3, "i": [0, 12, -3]})";
  const char replacements[] = {'"', '\\', ':', ',', '}', ']', '[', '{', ' ', 'x', 'e', '.', '-', '0', '\0', '\x80'};
  for (std::size_t at = 0; at < doc.size(); ++at)
    for (char r : replacements) {
      std::string text = doc;
      text[at] = r;
      ASSERT_EQ(disagreement(text), "") << "byte " << at << " set to " << int(static_cast<unsigned char>(r));
    }
  for (std::size_t at = 0; at <= doc.size(); ++at) ASSERT_EQ(disagreement(doc.substr(0, at)), "") << "cut at " << at;
}

TEST(GltfJsonParse, BadInputDeepNestingAroundALongString) {
  constexpr std::size_t kDepth = 200000;
  const std::string text = std::string(kDepth, '[') + '"' + kLong + '"' + std::string(kDepth, ']');
  const Json j = gltf::detail::parse_json(text);
  ASSERT_TRUE(j.is_array());
  const Json* inner = &j;
  for (std::size_t d = 1; d < kDepth; ++d) inner = &(*inner)[0];
  ASSERT_TRUE(inner->is_array() && (*inner)[0].is_string());
  EXPECT_EQ((*inner)[0].get<std::string>(), kLong);
  EXPECT_TRUE(gltf::detail::parse_json(std::string(kDepth, '[') + '"' + kLong + '"').is_discarded());
  EXPECT_TRUE(gltf::detail::parse_json(std::string(kDepth, '{')).is_discarded());
}

// The reader gives a mesh's extras away to the scene when one node instantiates it; a mesh that
// two nodes share must bring its extras to both.
TEST(GltfJsonParse, MeshSharedByTwoNodesKeepsItsExtrasInBoth) {
  const std::string gltf = R"({"asset": {"version": "2.0"},
 "nodes": [{"mesh": 0}, {"mesh": 0}, {"mesh": 1}],
 "meshes": [{"extras": {"m": "shared"}, "primitives": [{"attributes": {"POSITION": 0}, "extras": {"p": [1, 2]}}]},
            {"extras": {"m": "own"}, "primitives": [{"attributes": {"POSITION": 0}, "extras": {"p": [3]}}]}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
 "bufferViews": [{"buffer": 0, "byteLength": 36}],
 "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]})";
  Diagnostics w;
  gltf::ReadOptions o;
  o.require_animations = false;
  auto s = gltf::read(Bytes(reinterpret_cast<const std::uint8_t*>(gltf.data()), gltf.size()), {}, o, w);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s.value().meshes.size(), 3u);
  const std::string want[3][2] = {{R"({"m":"shared"})", R"({"p":[1,2]})"}, {R"({"m":"shared"})", R"({"p":[1,2]})"},
                                  {R"({"m":"own"})", R"({"p":[3]})"}};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(s.value().meshes[i].extras.text(), want[i][0]) << "mesh of node " << i;
    ASSERT_EQ(s.value().meshes[i].primitives.size(), 1u);
    EXPECT_EQ(s.value().meshes[i].primitives[0].extras.text(), want[i][1]) << "primitive of node " << i;
  }
}

}  // namespace
}  // namespace boneyard::test
