// Helpers shared by the MGS2 scene export (mgs2_scene_export.cpp) and import
// (mgs2_scene_import.cpp): extras values and the key names of the extras schema
// (docs/mgs2-gltf.md).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base64.h"
#include "scene/extras_json.h"

#include "boneyard/mgs2/mgs2_layout.h"

namespace boneyard::mgs2::detail {

using Json = nlohmann::json;

inline constexpr const char* kSceneKey = "mgs2";          // scene extras: header fields
inline constexpr const char* kJointKey = "mgs2_joint";    // joint extras: unit / skeleton entry
inline constexpr const char* kMeshKey = "mgs2_mesh";      // mesh extras: unit, packets without triangles
inline constexpr const char* kPacketKey = "mgs2_packet";  // primitive extras: packet fields, kicks
inline constexpr const char* kMaterialKey = "mgs2_textures";
// What our export appends to the name of a single-sided material (mgs2_scene_identity.cpp reads it).
inline constexpr const char* kSingleSidedSuffix = " (single-sided)";

inline Json jvec(const Vec3& v) { return Json::array({v.x, v.y, v.z}); }
inline Json jvec(const Vec4& v) { return Json::array({v.x, v.y, v.z, v.w}); }

inline const Json* jget(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}
template <class T>
T jnum(const Json& j, const char* key, T fallback) {
  const Json* v = jget(j, key);
  if (v == nullptr || !v->is_number()) return fallback;
  if constexpr (std::is_floating_point_v<T>) {
    return v->get<T>();
  } else if (v->is_number_float()) {
    return fallback;
  } else if constexpr (std::is_signed_v<T>) {
    const auto x = v->get<std::int64_t>();
    return x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max() ? fallback : static_cast<T>(x);
  } else {
    if (!v->is_number_unsigned()) return fallback;
    const auto x = v->get<std::uint64_t>();
    return x > std::numeric_limits<T>::max() ? fallback : static_cast<T>(x);
  }
}
inline bool jfloats(const Json& j, const char* key, float* out, std::size_t n) {
  const Json* v = jget(j, key);
  if (v == nullptr || !v->is_array() || v->size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(*v)[i].is_number()) return false;
    out[i] = (*v)[i].get<float>();
  }
  return true;
}
inline Vec3 jvec3(const Json& j, const char* key, Vec3 fallback) {
  float f[3];
  return jfloats(j, key, f, 3) ? Vec3{f[0], f[1], f[2]} : fallback;
}
inline Vec4 jvec4(const Json& j, const char* key, Vec4 fallback) {
  float f[4];
  return jfloats(j, key, f, 4) ? Vec4{f[0], f[1], f[2], f[3]} : fallback;
}
// Integers of type T from a base64 string (as written) or a JSON array (as a person may edit it);
// empty when absent or malformed.
template <class T>
std::vector<T> jints(const Json& j, const char* key) {
  std::vector<T> out;
  const Json* v = jget(j, key);
  if (v == nullptr) return out;
  if (v->is_string()) {
    if constexpr (sizeof(T) == 1 && std::is_unsigned_v<T>) {
      if (!from_b64(v->get_ref<const std::string&>(), out)) return {};
      return out;
    }
    std::vector<std::uint8_t> b;
    if (!from_b64(v->get_ref<const std::string&>(), b) || b.size() % sizeof(T) != 0) return {};
    out.resize(b.size() / sizeof(T));
    for (std::size_t i = 0; i < out.size(); ++i) {
      std::make_unsigned_t<T> u = 0;
      for (std::size_t k = 0; k < sizeof(T); ++k) u = static_cast<std::make_unsigned_t<T>>(u | (std::make_unsigned_t<T>(b[i * sizeof(T) + k]) << (8 * k)));
      out[i] = static_cast<T>(u);
    }
    return out;
  }
  if (!v->is_array()) return out;
  out.reserve(v->size());
  for (const auto& x : *v) {
    if (!x.is_number_integer()) return {};
    const auto i = x.get<std::int64_t>();
    if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) return {};
    out.push_back(static_cast<T>(i));
  }
  return out;
}

template <class T, std::size_t N>
std::array<T, N> jarray(const Json& j, const char* key, std::array<T, N> fallback) {
  const Json* v = jget(j, key);
  if (v == nullptr || !v->is_array() || v->size() != N) return fallback;
  std::array<T, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    if (!(*v)[i].is_number_integer()) return fallback;
    out[i] = (*v)[i].get<T>();
  }
  return out;
}

}  // namespace boneyard::mgs2::detail
