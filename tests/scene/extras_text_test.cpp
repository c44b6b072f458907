// Extras::text() writes JSON itself for speed (src/scene/extras.cpp); it must give exactly the
// text of nlohmann's dump(-1, ' ', false, replace), which glTF files written before relied on.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "scene/extras_json.h"
#include "boneyard/scene/scene.h"
#include "test_support.h"

namespace boneyard::test {
namespace {

using Json = nlohmann::json;

std::string reference(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string fast(const Json& j) {
  scene::Extras e;
  json_of(e) = j;
  return e.text();
}

Json random_value(std::mt19937& rng, int depth) {
  const int kind = std::uniform_int_distribution<int>(0, depth > 3 ? 6 : 8)(rng);
  switch (kind) {
    case 0: return nullptr;
    case 1: return rng() % 2 == 0;
    case 2: return static_cast<std::int64_t>(rng()) - static_cast<std::int64_t>(rng()) * 3;
    case 3: return static_cast<std::uint64_t>(rng()) << (rng() % 33);
    case 4: {
      const double specials[] = {0.0, -0.0, 1.5, 1e300, -2.5e-300, std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::infinity(), 0.1, 4096.0, 1.0 / 3.0};
      return rng() % 2 ? specials[rng() % 10] : std::ldexp(double(rng()), int(rng() % 80) - 40);
    }
    case 5:
    case 6: {
      std::string s;
      const std::size_t n = rng() % 12;
      for (std::size_t i = 0; i < n; ++i)  // mostly ASCII; sometimes quotes, controls, UTF-8 or broken UTF-8
        s.push_back(static_cast<char>(rng() % 4 == 0 ? rng() % 256 : 'a' + rng() % 26));
      if (rng() % 5 == 0) s += "\xD0\x96\"\\\n\t\x7F";
      return s;
    }
    case 7: {
      Json a = Json::array();
      for (std::size_t i = rng() % 5; i > 0; --i) a.push_back(random_value(rng, depth + 1));
      return a;
    }
    default: {
      Json o = Json::object();
      for (std::size_t i = rng() % 5; i > 0; --i) o[reference(random_value(rng, 9))] = random_value(rng, depth + 1);
      for (std::size_t i = rng() % 3; i > 0; --i) o[std::string(1, char('a' + rng() % 26))] = random_value(rng, depth + 1);
      return o;
    }
  }
}

TEST(ExtrasText, EqualsNlohmannDumpOnCraftedValues) {
  const Json cases[] = {
      Json::object(),
      Json::array(),
      Json{{"b64", "b64:AAAA"}, {"n", -1}, {"u", 18446744073709551615ull}, {"f", 0.1f}, {"z", nullptr}},
      Json{{"name", "\xD0\x96\xD1\x83\xD0\xBA"}, {"bad", "\xFF\xFE"}, {"esc", "a\"b\\c\x01\x1F/"}},
      Json{{"nested", {{"a", {1, 2, {{"c", true}}}}, {"e", Json::array()}}}},
      Json{{"\xD0\x96key", 1}, {"k\"ey", 2}, {"", 3}},
      Json(std::numeric_limits<std::int64_t>::min()),
      Json::array({1.0, -0.0, 1e-7, 123456789.0, std::nan("")}),
  };
  for (const Json& j : cases) EXPECT_EQ(fast(j), j.is_object() && j.empty() ? "" : reference(j)) << reference(j);
}

// Long strings are checked eight bytes at a time: a byte that needs escaping (or UTF-8 checking)
// must be noticed at every position of a word and of the tail.
TEST(ExtrasText, EverySpecialByteAtEveryPositionOfALongString) {
  const unsigned char specials[] = {0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF};
  for (const unsigned char c : specials)
    for (std::size_t at = 0; at < 27; ++at) {
      std::string s(27, 'Q');
      s[at] = static_cast<char>(c);
      const Json j = Json{{"s", s}};
      ASSERT_EQ(fast(j), reference(j)) << "byte " << int(c) << " at " << at;
    }
}

TEST(ExtrasText, EqualsNlohmannDumpOnRandomValues) {
  std::mt19937 rng(20261205);
  for (int i = 0; i < 20000; ++i) {
    const Json j = Json{{"x", random_value(rng, 0)}};
    ASSERT_EQ(fast(j), reference(j)) << "case " << i;
  }
}

// Extras given as text (set_json_text, for adapters that print large extras themselves): printed
// as given, read as the document it parses to, and a document again once changed.
TEST(ExtrasText, ValueGivenAsTextIsPrintedAsGivenAndReadAsItsDocument) {
  scene::Extras e;
  scene::set_json_text(e, R"({"k":{"a":[1,2],"b":"b64:AA=="}})");
  EXPECT_FALSE(e.empty());
  EXPECT_EQ(e.text(), R"({"k":{"a":[1,2],"b":"b64:AA=="}})");
  const scene::Extras copy = e;
  EXPECT_EQ(json_of(copy)["k"]["a"][1], 2);  // const read: parsed once, the text stays
  EXPECT_EQ(copy.text(), e.text());
  json_of(e)["k"]["c"] = true;  // changed: a document from now on
  EXPECT_EQ(e.text(), R"({"k":{"a":[1,2],"b":"b64:AA==","c":true}})");
  EXPECT_EQ(copy.text(), R"({"k":{"a":[1,2],"b":"b64:AA=="}})");
  for (const char* nothing : {"", "{}", "null"}) {
    scene::set_json_text(e, nothing);
    EXPECT_TRUE(e.empty());
    EXPECT_EQ(e.text(), "");
  }
}

}  // namespace
}  // namespace boneyard::test
