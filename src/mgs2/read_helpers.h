// Internal helpers shared by the KMS and EVM readers and writers.
#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/bytes.h"
#include "boneyard/diagnostics.h"
#include "boneyard/mgs2_layout.h"

namespace boneyard::mgs2::detail {

inline Vec3 read_vec3(ByteReader& r, std::string_view what) {
  Vec3 v;
  v.x = r.f32(what);
  v.y = r.f32(what);
  v.z = r.f32(what);
  return v;
}
inline Vec4 read_vec4(ByteReader& r, std::string_view what) {
  Vec4 v;
  v.x = r.f32(what);
  v.y = r.f32(what);
  v.z = r.f32(what);
  v.w = r.f32(what);
  return v;
}
inline void put_vec3(ByteWriter& w, const Vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}
inline void put_vec4(ByteWriter& w, const Vec4& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
  w.f32(v.w);
}

// A pointer field: 4 bytes on PS2, 8 on Master Collection.
inline std::uint64_t read_ptr(ByteReader& r, Layout layout, std::string_view what) {
  return layout == Layout::ps2 ? r.u32(what) : r.u64(what);
}
inline void put_ptr(ByteWriter& w, Layout layout, std::uint64_t v) {
  if (layout == Layout::ps2) {
    w.u32(static_cast<std::uint32_t>(v));
  } else {
    w.u64(v);
  }
}

// Resolves an array pointer into a view, recording its extent. `field_offset` is where the
// pointer is stored, so a bad pointer is reported where it can be fixed.
struct ArrayResolver {
  Bytes file;

  ArrayRef resolve(std::uint64_t field_offset, std::uint64_t pointer, std::uint64_t size, const char* what) const {
    if (pointer == 0) return {};
    if (pointer > file.size() || size > file.size() - pointer) {
      fail(field_offset, what, "array past the end of the file",
           std::to_string(size) + " bytes at " + hex(pointer) + " within " + std::to_string(file.size()) + " bytes",
           pointer > file.size() ? "offset " + hex(pointer) : std::to_string(file.size() - pointer) + " bytes left");
    }
    return ArrayRef{pointer, file.subspan(pointer, size)};
  }
};

// A reader positioned at a table of `count` structs of `elem` bytes at `pointer`.
inline ByteReader table_reader(Bytes file, std::uint64_t field_offset, std::uint64_t pointer, std::uint64_t count,
                               std::size_t elem, const char* what) {
  if (count != 0 && pointer == 0) {
    fail(field_offset, what, "absent table with a non-zero count", "a file offset", "0 for " + std::to_string(count));
  }
  if (pointer > file.size()) {
    fail(field_offset, what, "table past the end of the file", "offset within " + std::to_string(file.size()) + " bytes",
         hex(pointer));
  }
  ByteReader r(file.subspan(pointer), pointer);
  r.need_array(count, elem, what);
  return r;
}

// Records the extent of a present, non-empty array.
inline void cover(std::vector<Interval>& covered, const ArrayRef& a) {
  if (a.present() && !a.data.empty()) covered.push_back(Interval{a.pointer, a.pointer + a.data.size()});
}

// Copies `bytes` into `out` at `at`, growing it when needed (lossless writers).
inline void put_at(std::vector<std::uint8_t>& out, std::uint64_t at, Bytes bytes) {
  if (bytes.empty()) return;
  if (out.size() < at + bytes.size()) out.resize(at + bytes.size(), 0);
  std::memcpy(out.data() + at, bytes.data(), bytes.size());
}

inline std::uint64_t align16(std::uint64_t v) { return (v + 15) & ~std::uint64_t{15}; }

}  // namespace boneyard::mgs2::detail

namespace boneyard::mgs2 {

// The reader's info notes shared by both formats: a forced layout, and bytes no structure covers.
void note_layout_and_gaps(Diagnostics& notes, std::optional<Layout> forced, const std::vector<Gap>& gaps);

}  // namespace boneyard::mgs2
