// Internal to the glTF -> .omf importer: reading our extras (names, numbers, parts) and the bone
// table (which bones, their order and bind pose), shared by xray_import_bones.cpp and
// xray_scene_import.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/scene/scene.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/xray_scene.h"

namespace boneyard::xray::import_detail {

inline Finding import_error(std::string path, std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, std::move(path), std::move(message), std::move(expected), std::move(found)};
}

inline const nlohmann::json* member(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// A name from our extras: the exact stored bytes when a `<key>_hex` member exists, else the
// UTF-8 string converted back to cp1251.
inline std::optional<std::string> extras_name(const nlohmann::json& j, const char* key) {
  if (const auto* hex = member(j, (std::string(key) + "_hex").c_str()); hex && hex->is_string()) {
    const auto& h = hex->get_ref<const std::string&>();
    std::string raw;
    for (std::size_t i = 0; i + 1 < h.size(); i += 2) raw += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
    return raw;
  }
  if (const auto* s = member(j, key); s && s->is_string()) return utf8_to_cp1251(s->get_ref<const std::string&>());
  return std::nullopt;
}

template <class T>
std::optional<T> number(const nlohmann::json& j, const char* key) {
  const auto* v = member(j, key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->get<T>();
}

inline std::optional<Vec3> vec3(const nlohmann::json& j, const char* key) {
  const auto* v = member(j, key);
  if (v == nullptr || !v->is_array() || v->size() != 3) return std::nullopt;
  for (const auto& c : *v)
    if (!c.is_number()) return std::nullopt;  // a NaN was written as null
  return Vec3{(*v)[0].get<float>(), (*v)[1].get<float>(), (*v)[2].get<float>()};
}

// Which bones the motions have, in motion-bone-index order, and their rest pose in X-Ray space.
struct BoneTable {
  std::vector<std::string> names;  // raw cp1251
  std::vector<Quat> bind_rotation;
  std::vector<Vec3> bind_translation;
  std::vector<bool> bind_known;  // from --skeleton, the joint extras or a flat armature, not the glTF rest pose
  Params params;  // version and parts (motions are filled by the caller)
  bool default_part = false;
};

// Names by motion-bone index from parts; nullopt when the indices are not a permutation.
std::optional<std::vector<std::string>> names_by_index(const Params& p);
// The parts our exporter wrote for one motion set.
std::optional<Params> extras_params(const nlohmann::json& set);
// Equal ignoring ASCII case, as the engine compares bone names.
bool same_names(const std::vector<std::string>& a, const std::vector<std::string>& b);
// The bones, from --template, --skeleton or the extras (docs/xray-gltf-import.md section 2).
Result<BoneTable> bone_table(const scene::Scene& s, const XrayImportOptions& o, const nlohmann::json* extras_set);

}  // namespace boneyard::xray::import_detail
