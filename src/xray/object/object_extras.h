// The extras an .object's scene carries (docs/xray-object.md "Extras"): written by the export,
// read back by the import. Private to the .object folder.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "boneyard/scene/scene.h"
#include "boneyard/xray/object/object.h"

namespace boneyard::xray::object_extras {

nlohmann::json float_json(float f);  // shortest text that reads back to the same float
nlohmann::json vec3_json(const Vec3& v);

// A joint's whole extras `{"xray":{...}}` as text (scene::set_json_text; a model has dozens of
// bones): the keys the .ogf export writes (name, game_mtl, bind_rotation, bind_position, mass,
// center_of_mass, joint_type) and the rest of the bone's data.
std::string bone_extras_text(const BoneData& bone);
// A material's `xray` extras: the surface's fields (texture and shader under the keys the .ogf
// import reads).
nlohmann::json surface_json(const ObjectSurface& surface);
// The scene's `xray.object`: what the object holds besides meshes and bones.
nlohmann::json object_json(const ObjectFile& object, SmoothingStyle style);

// Reading back. A raw cp1251 string from `key` (its `_hex` twin when present); nullopt when the
// key is missing or has no cp1251 form.
std::optional<std::string> raw_string(const nlohmann::json& x, const char* key);
std::optional<Vec3> vec3(const nlohmann::json& x, const char* key);
std::optional<float> number(const nlohmann::json& x, const char* key);
// The bone data the extras describe, over `base` (the fields they do not hold keep base's).
void bone_from_json(const nlohmann::json& x, BoneData& base);
// The surface the extras describe; `name` when the extras do not name it.
ObjectSurface surface_from_json(const nlohmann::json& x, const std::string& name);

}  // namespace boneyard::xray::object_extras
