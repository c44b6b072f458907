// The glTF reader's JSON parse (gltf_json_parse.cpp).
#pragma once

#include <string_view>

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

}  // namespace boneyard::gltf::detail
