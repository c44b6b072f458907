// Internal helpers shared by the KMS and EVM readers and writers.
#pragma once

#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/mgs2/mgs2_layout.h"
#include "core/byte_reader.h"

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

// The three texture ids of a packet, each followed by a pad word on Master Collection.
inline void read_tex_ids(ByteReader& r, Layout layout, std::array<std::uint32_t, 3>& tex_id,
                         std::array<std::uint32_t, 3>& tex_pad) {
  for (int i = 0; i < 3; ++i) {
    tex_id[i] = r.u32("tex_id");
    if (layout == Layout::mc) tex_pad[i] = r.u32("tex_id pad");
  }
}
inline void put_tex_ids(ByteWriter& w, Layout layout, const std::array<std::uint32_t, 3>& tex_id,
                        const std::array<std::uint32_t, 3>& tex_pad) {
  for (int i = 0; i < 3; ++i) {
    w.u32(tex_id[i]);
    if (layout == Layout::mc) w.u32(tex_pad[i]);
  }
}

// The vertex, normal and UV arrays of a KMS or EVM packet of n vertices: `ptrs` are the pointer
// fields in that order (verts, norms, uv0..2), stored from `at` on; vertex and normal records are
// 8 bytes, UV records `uv_record`.
template <class Packet>
void resolve_packet_arrays(Packet& p, const ArrayResolver& arrays, Layout layout, std::uint64_t at, const std::uint64_t* ptrs,
                           std::uint64_t n, std::uint64_t uv_record) {
  const std::size_t ptr = layout == Layout::ps2 ? 4 : 8;
  p.verts = arrays.resolve(at, ptrs[0], n * 8, "vertices");
  p.norms = arrays.resolve(at + ptr, ptrs[1], n * 8, "normals");
  static const char* const kUvNames[3] = {"uv0", "uv1", "uv2"};
  for (int i = 0; i < 3; ++i) p.uvs[i] = arrays.resolve(at + ptr * (2 + i), ptrs[2 + i], n * uv_record, kUvNames[i]);
}

// Runs read(), naming `kind index` in front of the path of any error it throws ("unit 3 packet 1
// ..."); the name is only built on error (tables can hold many thousand entries).
template <class Read>
auto read_at(const char* kind, std::size_t index, Read read) {
  try {
    return read();
  } catch (ParseError& e) {
    e.prepend_path(kind + std::to_string(index));
    throw;
  }
}

// A file of `size` bytes holding the unknown `gaps` bytes, for a lossless writer to fill in.
inline std::vector<std::uint8_t> file_with_gaps(std::uint64_t size, const std::vector<Gap>& gaps) {
  std::vector<std::uint8_t> out(size, 0);
  for (const auto& g : gaps) put_at(out, g.offset, g.bytes);
  return out;
}

// Copies a struct just written to `tmp` into `out` at its file offset.
inline void place(std::vector<std::uint8_t>& out, std::uint64_t at, const std::vector<std::uint8_t>& tmp) {
  put_at(out, at, Bytes(tmp.data(), tmp.size()));
}

inline std::uint64_t align16(std::uint64_t v) { return (v + 15) & ~std::uint64_t{15}; }

// The size of a built file that ends at `end` (16-aligned); PS2 pointers are 32-bit, so a PS2
// file must fit in 4 GiB.
inline std::uint64_t built_size(std::uint64_t end, Layout layout) {
  const std::uint64_t total = align16(end);
  if (layout == Layout::ps2 && total > 0xFFFFFFFFULL) {
    fail(0, "file", "too large for 32-bit offsets", "at most 4 GiB", std::to_string(total) + " bytes");
  }
  return total;
}

}  // namespace boneyard::mgs2::detail

namespace boneyard::mgs2 {

// The reader's info notes shared by both formats: a forced layout, and bytes no structure covers.
void note_layout_and_gaps(Diagnostics& notes, std::optional<Layout> forced, const std::vector<Gap>& gaps);

}  // namespace boneyard::mgs2
