// What `info` and `dump` show of a .cmdl (dump schema: docs/json-schema-mgs2.md ".cmdl").
#include <cstdio>
#include <cstring>
#include <string>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/mgs2/cmdl/cmdl_report.h"
#include "cmdl_internal.h"
#include "mgs2/dump_helpers.h"

namespace boneyard::mgs2 {

namespace {

// The elements of one section: decoded values, or the stored integers with `raw`.
void dump_values(JsonWriter& w, const CmdlSection& s, bool raw) {
  const CmdlColumn col = s.column();
  const std::size_t size = cmdl_column_info(col).element_size;
  if (col == CmdlColumn::unknown || s.data.size() != s.size) {
    w.null();
    return;
  }
  const std::size_t n = s.data.size() / size;
  const std::uint8_t* d = s.data.data();
  w.begin_array();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* e = d + i * size;
    switch (col) {
      case CmdlColumn::position: {
        float p[4];
        std::memcpy(p, e, 16);
        w.begin_array().value(p[0]).value(p[1]).value(p[2]).value(p[3]).end_array();
        break;
      }
      case CmdlColumn::normal: {
        const std::uint32_t packed = load_le<std::uint32_t>(e);
        if (raw) {
          w.value(std::uint64_t{packed});
        } else {
          const auto v = unpack_normal(packed);
          w.begin_array().value(v[0]).value(v[1]).value(v[2]).end_array();
        }
        break;
      }
      case CmdlColumn::uv0:
      case CmdlColumn::uv1:
      case CmdlColumn::uv2:
      case CmdlColumn::bone_weight: {
        w.begin_array();
        for (std::size_t k = 0; k < size / 2; ++k) {
          const std::uint16_t h = load_le<std::uint16_t>(e + k * 2);
          if (raw) {
            w.value(std::uint64_t{h});
          } else {
            w.value(half_to_float(h));
          }
        }
        w.end_array();
        break;
      }
      case CmdlColumn::bone_index:
        w.begin_array().value(unsigned{e[0]}).value(unsigned{e[1]}).value(unsigned{e[2]}).value(unsigned{e[3]}).end_array();
        break;
      case CmdlColumn::original_index:
        w.value(std::uint64_t{load_le<std::uint32_t>(e)});
        break;
      case CmdlColumn::unknown:
        break;
    }
  }
  w.end_array();
}

void dump_mesh(JsonWriter& w, const CmdlMesh& m, bool raw) {
  w.begin_object();
  w.field("mesh", std::uint64_t{m.mesh}).field("sub_mesh", std::uint64_t{m.sub_mesh});
  w.key("bbox_min");
  detail::json_vec3(w, m.bbox_min);
  w.key("bbox_max");
  detail::json_vec3(w, m.bbox_max);
  w.field("start_vertex", std::uint64_t{m.start_vertex}).field("vertex_count", std::uint64_t{m.vertex_count});
  w.field("start_index", std::uint64_t{m.start_index}).field("index_count", std::uint64_t{m.index_count});
  w.key("bones").begin_array();
  for (auto b : m.bones) w.value(std::uint64_t{b});
  w.end_array();
  if (raw) {
    w.field("offset", m.file_offset).field("field_18", std::int64_t{m.field_18}).field("field_1a", unsigned{m.field_1a});
    w.key("field_80").begin_array();
    for (auto b : m.field_80) w.value(unsigned{b});
    w.end_array();
    w.field("field_pre", std::uint64_t{m.field_pre});
  }
  w.end_object();
}

std::string section_summary(const CmdlSection& s) {
  const std::size_t size = cmdl_column_info(s.column()).element_size;
  const std::string tag = detail::tag_label(s);
  char b[160];
  if (size != 0) {
    std::snprintf(b, sizeof b, "  %-4s  format %2u  %8zu x %2zu bytes at 0x%08llX%s\n", tag.c_str(), unsigned{s.format},
                  std::size_t{s.size} / size, size, static_cast<unsigned long long>(s.data_offset()),
                  s.size % size != 0 ? " (not whole elements)" : "");
  } else {
    std::snprintf(b, sizeof b, "  %-4s  format %2u  %8u bytes at 0x%08llX (unknown section)\n", tag.c_str(), unsigned{s.format},
                  s.size, static_cast<unsigned long long>(s.data_offset()));
  }
  return b;
}

}  // namespace

std::string describe_cmdl(const CmdlFile& m) {
  std::string s;
  char b[256];
  std::snprintf(b, sizeof b, "format: cmdl (MGS2 Master Collection model companion), version %u\n", m.version);
  s += b;
  std::snprintf(b, sizeof b, "vertices: %zu, triangles: %u, records: %zu, sections: %zu, tail at 0x%llX\n", m.vertex_count(),
                m.tail.n_indices / 3, m.tail.meshes.size(), m.sections.size(), static_cast<unsigned long long>(m.tail.file_offset));
  s += b;
  s += "sections:\n";
  for (const auto& sec : m.sections) s += section_summary(sec);
  s += "  record  mesh  sub-mesh  vertices (first)  triangles (first)  bones\n";
  for (std::size_t r = 0; r < m.tail.meshes.size(); ++r) {
    const CmdlMesh& rec = m.tail.meshes[r];
    std::snprintf(b, sizeof b, "  %6zu  %4u  %8u  %8u (%6u)  %9u (%6u)  %zu\n", r, rec.mesh, rec.sub_mesh, rec.vertex_count,
                  rec.start_vertex, rec.index_count / 3, rec.start_index / 3, rec.bones.size());
    s += b;
  }
  return s;
}

void dump_cmdl(JsonWriter& w, const CmdlFile& m, bool raw) {
  w.begin_object();
  w.field("format", "cmdl").field("version", std::uint64_t{m.version}).field("vertex_count", std::uint64_t{m.vertex_count()});
  if (raw) w.field("tail_offset", std::uint64_t{m.tail_offset}).field("n_sections", std::uint64_t{m.n_sections});
  w.key("sections").begin_array();
  for (const auto& s : m.sections) {
    w.begin_object();
    w.field("tag", s.tag_text()).field("format", unsigned{s.format}).field("field_06", unsigned{s.field_06});
    w.field("offset", std::uint64_t{s.offset}).field("size", std::uint64_t{s.size});
    if (raw) {
      w.field("entry_offset", s.file_offset).field("pad", std::uint64_t{s.pad});
      w.key("pad2").begin_array().value(std::uint64_t{s.pad2[0]}).value(std::uint64_t{s.pad2[1]}).value(std::uint64_t{s.pad2[2]}).end_array();
    }
    w.key("values");
    dump_values(w, s, raw);
    w.end_object();
    w.newline();
  }
  w.end_array();
  w.field("index_count", std::uint64_t{m.tail.n_indices});
  if (raw) w.field("tail_pad", std::uint64_t{m.tail.pad});
  w.key("triangles").begin_array();
  for (std::size_t i = 0; i + 2 < m.tail.n_indices; i += 3)
    w.begin_array().value(std::uint64_t{m.tail.index(i)}).value(std::uint64_t{m.tail.index(i + 1)}).value(std::uint64_t{m.tail.index(i + 2)}).end_array();
  w.end_array();
  w.newline();
  w.key("meshes").begin_array();
  for (const auto& rec : m.tail.meshes) dump_mesh(w, rec, raw);
  w.end_array();
  w.end_object();
}

int sniff_cmdl(Bytes bytes, std::string_view extension) {
  if (!looks_like_cmdl(bytes)) return 0;
  return extension == ".cmdl" ? 95 : 85;
}

}  // namespace boneyard::mgs2
