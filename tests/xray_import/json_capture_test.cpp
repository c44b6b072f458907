// The glTF reader takes accessors and animation channels and samplers straight from the JSON text
// into records (parse_gltf_json, src/gltf/gltf_json_parse.h) instead of nlohmann's document. The
// records must hold exactly what the reader would have read from the document (member, index_of
// and string_of semantics: missing members, wrong types, integers past 2^40, negative and float
// numbers, repeated keys, elements that are no objects), and the rest of the document must be
// nlohmann's: checked on crafted texts and on every one-byte corruption and truncation of a glTF.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gltf/gltf_json_parse.h"

namespace boneyard::test::json_capture {
namespace {

using Json = nlohmann::json;
using namespace gltf::detail;

const Json* find(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// index_of(j, key, kAbsent), as src/gltf/gltf_container.cpp reads the document.
std::int64_t integer(const Json& j, const char* key) {
  const Json* v = find(j, key);
  if (v == nullptr) return kAbsent;
  if (v->is_number_unsigned()) return v->get<std::uint64_t>() > (1ull << 40) ? -2 : std::int64_t(v->get<std::uint64_t>());
  if (v->is_number_integer()) return v->get<std::int64_t>() >= 0 ? v->get<std::int64_t>() : -2;
  return -2;
}

std::string text(const Json& j, const char* key) {
  const Json* v = find(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

const Json& array(const Json& j, const char* key) {
  static const Json kEmpty = Json::array();
  const Json* v = find(j, key);
  return v && v->is_array() ? *v : kEmpty;
}

// The records and the rest of the document as the reader's old code made them from the whole document.
void expected_from(const Json& whole, GltfArrays& arrays, Json& rest) {
  rest = whole;
  for (const Json& a : array(whole, "accessors")) {
    AccessorRecord r;
    r.sparse = find(a, "sparse") != nullptr;
    const Json* norm = find(a, "normalized");
    r.normalized = norm && norm->is_boolean() && norm->get<bool>();
    r.type = text(a, "type");
    r.component_type = integer(a, "componentType");
    r.count = integer(a, "count");
    r.buffer_view = integer(a, "bufferView");
    r.byte_offset = integer(a, "byteOffset");
    arrays.accessors.push_back(r);
  }
  for (const Json& a : array(whole, "animations")) {
    AnimationArrays arr;
    for (const Json& c : array(a, "channels")) {
      ChannelRecord r;
      r.sampler = integer(c, "sampler");
      if (const Json* t = find(c, "target")) r.node = integer(*t, "node"), r.path = text(*t, "path");
      arr.channels.push_back(r);
    }
    for (const Json& s : array(a, "samplers")) {
      SamplerRecord r;
      r.input = integer(s, "input");
      r.output = integer(s, "output");
      r.interpolation = text(s, "interpolation");
      arr.samplers.push_back(r);
    }
    arrays.animations.push_back(arr);
  }
  if (rest.is_object()) {
    rest.erase("accessors");
    if (auto it = rest.find("animations"); it != rest.end() && it->is_array())
      for (Json& a : *it)
        if (a.is_object()) a.erase("channels"), a.erase("samplers");
  }
}

std::string disagreement(const std::string& t) {
  GltfArrays got;
  const Json rest = parse_gltf_json(t, got);
  const Json whole = parse_json(t);
  if (whole.is_discarded() != rest.is_discarded()) return "one parse failed, the other did not";
  if (whole.is_discarded()) return {};
  GltfArrays want;
  Json want_rest;
  expected_from(whole, want, want_rest);
  if (rest != want_rest) return "document differs: " + rest.dump() + " vs " + want_rest.dump();
  if (got.accessors.size() != want.accessors.size()) return "accessor count differs";
  for (std::size_t i = 0; i < want.accessors.size(); ++i) {
    const auto& a = got.accessors[i];
    const auto& b = want.accessors[i];
    if (a.sparse != b.sparse || a.normalized != b.normalized || a.type != b.type || a.component_type != b.component_type ||
        a.count != b.count || a.buffer_view != b.buffer_view || a.byte_offset != b.byte_offset)
      return "accessor " + std::to_string(i) + " differs";
  }
  if (got.animations.size() != want.animations.size()) return "animation count differs";
  for (std::size_t i = 0; i < want.animations.size(); ++i) {
    const auto& a = got.animations[i];
    const auto& b = want.animations[i];
    if (a.channels.size() != b.channels.size() || a.samplers.size() != b.samplers.size())
      return "animation " + std::to_string(i) + " sizes differ";
    for (std::size_t c = 0; c < a.channels.size(); ++c)
      if (a.channels[c].sampler != b.channels[c].sampler || a.channels[c].node != b.channels[c].node ||
          a.channels[c].path != b.channels[c].path)
        return "animation " + std::to_string(i) + " channel " + std::to_string(c) + " differs";
    for (std::size_t c = 0; c < a.samplers.size(); ++c)
      if (a.samplers[c].input != b.samplers[c].input || a.samplers[c].output != b.samplers[c].output ||
          a.samplers[c].interpolation != b.samplers[c].interpolation)
        return "animation " + std::to_string(i) + " sampler " + std::to_string(c) + " differs";
  }
  return {};
}

const std::string kGltf = R"({"asset": {"version": "2.0"}, "nodes": [{"name": "a"}, {"name": "b"}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
  {"bufferView": 1, "byteOffset": 8, "componentType": 5122, "normalized": true, "count": 2, "type": "VEC4",
   "extras": {"accessors": [1], "type": "x"}}, 7, [1, 2], {"sparse": {"count": 1}, "type": "VEC3"}],
 "animations": [{"name": "walk", "extras": {"xray": {"frames": 3}},
   "samplers": [{"input": 0, "output": 1, "interpolation": "STEP"}, {"input": -1, "output": 1.5}],
   "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}, {"sampler": 1, "target": [1]},
    {"target": {"node": 1099511627777, "path": 5}}, 3]}, 4, {"channels": {"x": 1}, "samplers": "no"}]})";

TEST(GltfJsonCapture, RecordsHoldWhatTheDocumentSays) {
  const std::vector<std::string> texts = {
      kGltf,
      // Repeated members: the last one counts, whatever its type.
      R"({"accessors": [{"type": "VEC3", "type": 5, "count": 3, "count": "x", "normalized": true, "normalized": 1}]})",
      R"({"accessors": [{"count": 1}], "accessors": {"x": 1}, "animations": [{"channels": [{"sampler": 1}]}]})",
      R"({"animations": [{"channels": [{"sampler": 2, "sampler": -0, "target": {"node": 3}, "target": null}]}]})",
      R"({"animations": [{"channels": [], "channels": [{"target": {"path": "scale", "node": 2, "node": 1e3}}]}]})",
      R"({"animations": [], "animations": [{"samplers": [{"interpolation": "LINEAR", "interpolation": null}]}]})",
      // Integers at the edges of what index_of accepts.
      R"({"accessors": [{"count": 1099511627776, "bufferView": 1099511627777, "byteOffset": -5, "componentType": 5126.0}]})",
      R"({"accessors": [{"count": 18446744073709551615, "bufferView": -9223372036854775808}]})",
      // Captured arrays inside other members are the document's.
      R"({"extras": {"accessors": [{"count": 1}], "animations": [{"channels": [1]}]}, "meshes": [{"accessors": 1}]})",
      // Not objects at all.
      R"({"accessors": 5, "animations": {"channels": []}})", R"([{"accessors": []}])", R"("accessors")", "{}",
  };
  for (const auto& t : texts) EXPECT_EQ(disagreement(t), "") << t;
}

TEST(GltfJsonCapture, EveryByteCorruptedAgreesWithTheDocument) {
  const char replacements[] = {'"', ':', ',', '}', ']', '[', '{', ' ', '1', '-', '.', 'e'};
  for (std::size_t at = 0; at < kGltf.size(); ++at)
    for (char r : replacements) {
      std::string t = kGltf;
      t[at] = r;
      ASSERT_EQ(disagreement(t), "") << "byte " << at << " set to '" << r << "'";
    }
  for (std::size_t at = 0; at <= kGltf.size(); ++at) ASSERT_EQ(disagreement(kGltf.substr(0, at)), "") << "cut at " << at;
}

}  // namespace
}  // namespace boneyard::test::json_capture
