// Internal JSON and text helpers for the MGS2 documents.
#pragma once

#include <cstdio>
#include <string>

#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/mgs2_layout.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/mgs2/strips.h"

namespace boneyard::mgs2::detail {

inline void json_vec3(JsonWriter& w, const Vec3& v) {
  w.begin_array().value(v.x).value(v.y).value(v.z).end_array();
}
inline void json_vec4(JsonWriter& w, const Vec4& v) {
  w.begin_array().value(v.x).value(v.y).value(v.z).value(v.w).end_array();
}
// A texture id, or its name when the names table knows it.
inline void json_texture(JsonWriter& w, std::uint32_t id, const TextureNames* names) {
  if (names != nullptr) {
    if (const std::string* s = names->find(id)) {
      w.value(*s);
      return;
    }
  }
  w.value(static_cast<std::uint64_t>(id));
}
inline std::string texture_text(std::uint32_t id, const TextureNames* names) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%06X", id);
  std::string s = b;
  if (names != nullptr) {
    if (const std::string* n = names->find(id)) s += " (" + *n + ")";
  }
  return s;
}
// `count` records of `comps` s16 each (stride `stride` bytes), as integers or scaled floats.
inline void json_s16_records(JsonWriter& w, Bytes data, std::size_t count, std::size_t stride, int comps, bool raw,
                             float scale) {
  w.begin_array();
  for (std::size_t i = 0; i < count; ++i) {
    w.begin_array();
    for (int c = 0; c < comps; ++c) {
      const std::int16_t v = load_le<std::int16_t>(data.data() + i * stride + static_cast<std::size_t>(c) * 2);
      if (raw || scale == 1.0f) {  // whole numbers print the same as integers, and faster
        w.value(static_cast<std::int64_t>(v));
      } else {
        w.value(static_cast<float>(v) * scale);
      }
    }
    w.end_array();
  }
  w.end_array();
}
inline void json_triangles(JsonWriter& w, Bytes records, std::size_t count) {
  w.begin_array();
  for_each_strip_triangle(records, count, [&](const Triangle& t) {
    w.begin_array().value(static_cast<std::uint64_t>(t[0])).value(static_cast<std::uint64_t>(t[1]))
        .value(static_cast<std::uint64_t>(t[2])).end_array();
  });
  w.end_array();
}
inline std::string vec_str(const Vec3& v) {
  char b[96];
  std::snprintf(b, sizeof b, "(%g, %g, %g)", static_cast<double>(v.x), static_cast<double>(v.y),
                static_cast<double>(v.z));
  return b;
}

}  // namespace boneyard::mgs2::detail
