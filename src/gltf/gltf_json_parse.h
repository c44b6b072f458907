// The glTF reader's JSON parse (gltf_json_parse.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace boneyard::gltf::detail {

// Parses JSON text to the value nlohmann::json::parse(text, nullptr, false) returns (a discarded
// value when it is not valid JSON), with a tokenizer of our own feeding nlohmann's document
// builder. nlohmann's lexer reads one character at a time through an input adapter and copies
// every token twice, which made it most of the time spent reading an MGS2 export (thousands of
// small accessors, per-vertex extras as long base64 strings, docs/mgs2-gltf.md); this one scans
// runs of plain characters and parses short integers itself. tests/xray_import/json_parse_test.cpp
// compares the two on crafted, random and corrupted texts.
nlohmann::json parse_json(std::string_view text);

// The glTF objects a file can list hundreds of thousands of (a 2,760-motion model exported by
// boneyard: 100,000 accessors and 230,000 animation channels and samplers, 95 % of its 30 MB of
// JSON), read from the text straight into these records instead of the document, where each
// would take a few hundred bytes in a dozen allocations. A record holds what the reader would
// have read from the document's object: an integer member as index_of reads it (kAbsent when the
// member is missing, -2 when it is not an integer in [0, 2^40]), a string member as string_of
// does ("" when missing or not a string); a repeated member counts once, the last time, as in
// the document.
inline constexpr std::int64_t kAbsent = -1;
inline std::int64_t or_fallback(std::int64_t member, std::int64_t fallback) { return member == kAbsent ? fallback : member; }

struct AccessorRecord {
  bool sparse = false;      // has a "sparse" member (of any value)
  bool normalized = false;  // "normalized" is true
  std::string type;         // "SCALAR", "VEC3", ...
  std::int64_t component_type = kAbsent, count = kAbsent, buffer_view = kAbsent, byte_offset = kAbsent;
};
struct SamplerRecord {
  std::int64_t input = kAbsent, output = kAbsent;
  std::string interpolation;
};
struct ChannelRecord {
  std::int64_t sampler = kAbsent;
  std::int64_t node = kAbsent;  // target.node (kAbsent also when there is no target object)
  std::string path;             // target.path
};
struct AnimationArrays {  // of animations[i]; empty when the member is missing or not an array
  std::vector<ChannelRecord> channels;
  std::vector<SamplerRecord> samplers;
};
struct GltfArrays {
  std::vector<AccessorRecord> accessors;    // empty when "accessors" is missing or not an array
  std::vector<AnimationArrays> animations;  // one per element of "animations" (objects or not)
};

// parse_json for a glTF: the same document without "accessors" and without the "channels" and
// "samplers" of the animations, which go into `arrays`.
nlohmann::json parse_gltf_json(std::string_view text, GltfArrays& arrays);

}  // namespace boneyard::gltf::detail
