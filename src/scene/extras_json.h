// The JSON value behind scene::Extras, for the layers that write and read extras (the game
// adapters and the glTF reader and writer). Not a public header: the library's users see
// Extras only as an opaque value.
#pragma once

#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "boneyard/scene/scene.h"

namespace boneyard::scene {

// Either a JSON document, or (set_json_text) the document's compact text, which is parsed into
// `json` only when someone reads the value: an exporter's thousands of per-packet extras are
// mostly only printed into a glTF, and building, printing and freeing a document for each was
// most of an `.evm` -> `.glb` conversion.
struct Extras::Value {
  nlohmann::json json;
  std::string text;        // when not empty, the value; `json` is then its parse, once `parsed` ran
  std::once_flag parsed;   // const readers may share a scene between threads

  Value() = default;
  Value(const Value& other) : json(other.text.empty() ? other.json : nlohmann::json()), text(other.text) {}
  // The document, parsed from `text` on first use.
  const nlohmann::json& document() {
    if (!text.empty()) std::call_once(parsed, [this] { json = nlohmann::json::parse(text); });
    return json;
  }
};

struct ExtrasAccess {
  // The document, for changing: a value held as text becomes a document.
  static nlohmann::json& json(Extras& e) {
    if (!e.value_) e.value_ = std::make_unique<Extras::Value>();
    if (!e.value_->text.empty()) {
      e.value_->document();
      e.value_->text.clear();
    }
    return e.value_->json;
  }
  static const nlohmann::json* find(const Extras& e) { return e.value_ ? &e.value_->document() : nullptr; }
  static void set_text(Extras& e, std::string text) {
    if (text.empty() || text == "{}" || text == "null") {
      e.value_.reset();
      return;
    }
    e.value_ = std::make_unique<Extras::Value>();
    e.value_->text = std::move(text);
  }
};

// The value, created as null on first use (found by argument-dependent lookup).
inline nlohmann::json& json_of(Extras& e) { return ExtrasAccess::json(e); }
// The value, or null when nothing is attached.
inline const nlohmann::json& json_of(const Extras& e) {
  static const nlohmann::json kNull;
  const nlohmann::json* j = ExtrasAccess::find(e);
  return j ? *j : kNull;
}
// Sets the value from its text, which must be exactly what nlohmann's dump(-1) prints for it
// (compact, object members in key order), since glTF writers copy it as it is. For adapters that
// print large extras themselves instead of building documents.
inline void set_json_text(Extras& e, std::string text) { ExtrasAccess::set_text(e, std::move(text)); }

}  // namespace boneyard::scene
