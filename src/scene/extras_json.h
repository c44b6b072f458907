// The JSON value behind scene::Extras, for the layers that write and read extras (the game
// adapters and the glTF reader and writer). Not a public header: the library's users see
// Extras only as an opaque value.
#pragma once

#include <nlohmann/json.hpp>

#include "boneyard/scene/scene.h"

namespace boneyard::scene {

struct Extras::Value {
  nlohmann::json json;
};

struct ExtrasAccess {
  static nlohmann::json& json(Extras& e) {
    if (!e.value_) e.value_ = std::make_unique<Extras::Value>();
    return e.value_->json;
  }
  static const nlohmann::json* find(const Extras& e) { return e.value_ ? &e.value_->json : nullptr; }
};

// The value, created as null on first use (found by argument-dependent lookup).
inline nlohmann::json& json_of(Extras& e) { return ExtrasAccess::json(e); }
// The value, or null when nothing is attached.
inline const nlohmann::json& json_of(const Extras& e) {
  static const nlohmann::json kNull;
  const nlohmann::json* j = ExtrasAccess::find(e);
  return j ? *j : kNull;
}

}  // namespace boneyard::scene
