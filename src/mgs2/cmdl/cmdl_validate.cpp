// The .cmdl validator (docs/mgs2-cmdl.md "Validation"): the section table, each column against the
// vertex count, the values the game cannot draw, the tail's indices and records.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "cmdl_internal.h"

namespace boneyard::mgs2 {

namespace {

struct Counter {
  std::size_t count = 0;
  std::uint64_t offset = 0;
  std::size_t first = 0;
  std::string found;
  void add(std::uint64_t at, std::size_t index, std::string what) {
    if (count++ == 0) offset = at, first = index, found = std::move(what);
  }
  void report(Diagnostics& out, Severity s, const std::string& path, const std::string& what, const std::string& expected) const {
    if (count != 0)
      out.add(s, offset, path, std::to_string(count) + " " + what + " (first: " + std::to_string(first) + ")", expected, found);
  }
};

std::string section_path(const CmdlSection& s, std::size_t i) {
  return "section " + std::to_string(i) + " " + detail::tag_label(s);
}

void check_table(const CmdlFile& m, Diagnostics& out) {
  std::set<std::string_view> seen;
  std::vector<Interval> extents;
  const std::uint64_t table_end = kCmdlHeaderSize + m.sections.size() * kCmdlSectionEntrySize;
  for (std::size_t i = 0; i < m.sections.size(); ++i) {
    const CmdlSection& s = m.sections[i];
    const std::string path = section_path(s, i);
    const CmdlColumn col = s.column();
    const CmdlColumnInfo info = cmdl_column_info(col);
    if (col == CmdlColumn::unknown) {
      out.add(Severity::info, s.file_offset, path, "unknown section (kept as it is)", {}, detail::quoted_bytes(Bytes(
          reinterpret_cast<const std::uint8_t*>(s.tag.data()), 4)));
    } else if (!seen.insert(info.tag).second) {
      out.add(Severity::warning, s.file_offset, path, "a second section with this tag (readers take the first)");
    }
    if (s.data_offset() > m.file_size || s.size > m.file_size - s.data_offset()) {
      out.add(Severity::error, s.file_offset + 8, path + " offset", "section data past the end of the file",
              std::to_string(s.size) + " bytes at offset + 0x0C within " + std::to_string(m.file_size) + " bytes",
              "offset " + hex(s.offset) + " (data at " + hex(s.data_offset()) + ")");
      continue;
    }
    if (s.offset % 16 != 0) out.add(Severity::warning, s.file_offset + 8, path + " offset", "section offset not 16-byte aligned", "a multiple of 16", hex(s.offset));
    if (col != CmdlColumn::unknown && s.format != info.format)
      out.add(Severity::warning, s.file_offset + 4, path + " format", "format code differs from every known file", std::to_string(info.format), std::to_string(s.format));
    if (s.field_06 != 2) out.add(Severity::warning, s.file_offset + 6, path + " field 0x06", "differs from every known file", "2", std::to_string(s.field_06));
    if (s.pad != 0 || s.pad2 != std::array<std::uint32_t, 3>{}) out.add(Severity::warning, s.file_offset + 12, path + " pad", "pad bytes not zero", "0", "non-zero");
    if (col != CmdlColumn::unknown && s.size % info.element_size != 0)
      out.add(Severity::error, s.file_offset + 0x10, path + " size", "size is not a whole number of elements",
              "a multiple of " + std::to_string(info.element_size), std::to_string(s.size));
    else if (col != CmdlColumn::unknown && col != CmdlColumn::position && s.size / info.element_size != m.vertex_count())
      out.add(Severity::error, s.file_offset + 0x10, path + " size", "element count differs from the vertex count (POS0)",
              std::to_string(m.vertex_count()) + " elements (" + std::to_string(m.vertex_count() * info.element_size) + " bytes)",
              std::to_string(s.size / info.element_size) + " elements (" + std::to_string(s.size) + " bytes)");
    if (s.size != 0 && s.data_offset() < table_end)
      out.add(Severity::error, s.file_offset + 8, path + " offset", "section data overlaps the header or the section table",
              "data at or after " + hex(table_end), hex(s.data_offset()));
    if (s.size != 0) extents.push_back({s.data_offset(), s.data_offset() + s.size});
  }
  extents.push_back({m.tail.file_offset, m.tail.end});
  std::sort(extents.begin(), extents.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < extents.size(); ++i)
    if (extents[i].begin < extents[i - 1].end) {
      out.add(Severity::error, extents[i].begin, "file", "sections or the tail overlap", "disjoint extents",
              hex(extents[i - 1].begin) + ".." + hex(extents[i - 1].end) + " and " + hex(extents[i].begin) + ".." + hex(extents[i].end));
      break;
    }
  for (auto col : {CmdlColumn::position, CmdlColumn::normal, CmdlColumn::original_index})
    if (m.find(col) == nullptr)
      out.add(Severity::error, 0x0C, "header section count", "no " + std::string(cmdl_column_info(col).tag) + " section", "a section", "none");
  if ((m.find(CmdlColumn::bone_index) == nullptr) != (m.find(CmdlColumn::bone_weight) == nullptr))
    out.add(Severity::error, 0x0C, "header section count", "BONI and BONW come together", "both or neither", "one of them");
}

// The columns' values: positions and halves the game cannot draw, weights that do not sum to 1.
void check_values(const CmdlFile& m, Diagnostics& out) {
  const std::size_t n = m.vertex_count();
  const auto usable = [&](CmdlColumn c) -> const CmdlSection* {
    const CmdlSection* s = m.find(c);
    return s != nullptr && s->data.size() == n * cmdl_column_info(c).element_size ? s : nullptr;
  };
  if (const CmdlSection* pos = usable(CmdlColumn::position)) {
    Counter bad, w;
    for (std::size_t v = 0; v < n; ++v) {
      float p[4];
      std::memcpy(p, pos->data.data() + v * 16, 16);
      if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]) || !std::isfinite(p[3]))
        bad.add(pos->data_offset() + v * 16, v, "not finite");
      else if (p[3] != 1.0f)
        w.add(pos->data_offset() + v * 16 + 12, v, std::to_string(p[3]));
    }
    bad.report(out, Severity::error, "POS0", "vertices with a coordinate that is not a finite number", "finite");
    w.report(out, Severity::info, "POS0 w", "vertices whose w is not 1 (SeaLouse writes a KMS vertex's own-unit weight there)", "1");
  }
  for (auto col : {CmdlColumn::uv0, CmdlColumn::uv1, CmdlColumn::uv2, CmdlColumn::bone_weight}) {
    const CmdlSection* s = usable(col);
    if (s == nullptr) continue;
    Counter bad, sum;
    const std::size_t halves = cmdl_column_info(col).element_size / 2;
    for (std::size_t v = 0; v < n; ++v) {
      float total = 0;
      for (std::size_t k = 0; k < halves; ++k) {
        const float f = half_to_float(load_le<std::uint16_t>(s->data.data() + (v * halves + k) * 2));
        if (!std::isfinite(f) || (col == CmdlColumn::bone_weight && f < 0)) bad.add(s->data_offset() + (v * halves + k) * 2, v, std::to_string(f));
        total += f;
      }
      if (col == CmdlColumn::bone_weight && std::isfinite(total) && std::fabs(total - 1.0f) > 0.01f) sum.add(s->data_offset() + v * 8, v, std::to_string(total));
    }
    const std::string tag(cmdl_column_info(col).tag);
    bad.report(out, Severity::error, tag, col == CmdlColumn::bone_weight ? "vertices with a negative or non-finite weight" : "vertices with a non-finite UV",
               col == CmdlColumn::bone_weight ? ">= 0, finite" : "finite");
    sum.report(out, Severity::warning, tag, "vertices whose weights do not sum to 1", "1 +- 0.01");
  }
}

void check_record(const CmdlFile& m, std::size_t r, const CmdlMesh& rec, std::set<std::pair<std::uint32_t, std::uint32_t>>& keys,
                  Diagnostics& out) {
  const std::string path = "mesh record " + std::to_string(r);
  const std::size_t n = m.vertex_count();
  if (!keys.insert({rec.mesh, rec.sub_mesh}).second)
    out.add(Severity::warning, rec.file_offset, path, "a second record for the same mesh and sub-mesh", "unique",
            std::to_string(rec.mesh) + ", " + std::to_string(rec.sub_mesh));
  if (rec.field_18 != -1 || rec.field_1a != 0 || rec.field_80 != std::array<std::uint8_t, 8>{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80} ||
      rec.field_pre != 0)
    out.add(Severity::warning, rec.file_offset + 0x18, path, "a constant field differs from every known file",
            "-1, 0, 8 x 0x80, 0", std::to_string(rec.field_18) + ", " + std::to_string(rec.field_1a) + ", ...");
  const float box[6] = {rec.bbox_min.x, rec.bbox_min.y, rec.bbox_min.z, rec.bbox_max.x, rec.bbox_max.y, rec.bbox_max.z};
  if (!std::all_of(box, box + 6, [](float f) { return std::isfinite(f); }))
    out.add(Severity::error, rec.file_offset, path + " box", "box corner not a finite number", "finite", "not finite");
  if (std::uint64_t{rec.start_vertex} + rec.vertex_count > n)
    out.add(Severity::error, rec.file_offset + 0x1B, path + " vertices", "vertex range past the vertex count",
            "<= " + std::to_string(n), std::to_string(rec.start_vertex) + " + " + std::to_string(rec.vertex_count));
  if (std::uint64_t{rec.start_index} + rec.index_count > m.tail.n_indices) {
    out.add(Severity::error, rec.file_offset + 0x23, path + " indices", "index range past the index count",
            "<= " + std::to_string(m.tail.n_indices), std::to_string(rec.start_index) + " + " + std::to_string(rec.index_count));
    return;
  }
  if (rec.index_count % 3 != 0 || rec.start_index % 3 != 0)
    out.add(Severity::error, rec.file_offset + 0x23, path + " indices", "index range not whole triangles", "multiples of 3",
            std::to_string(rec.start_index) + " + " + std::to_string(rec.index_count));
  Counter outside;
  for (std::size_t i = rec.start_index; i < std::size_t{rec.start_index} + rec.index_count; ++i) {
    const std::uint32_t v = m.tail.index(i);
    if (v < rec.start_vertex || v - rec.start_vertex >= rec.vertex_count) outside.add(m.tail.file_offset + 4 + i * 4, i, std::to_string(v));
  }
  outside.report(out, Severity::error, path + " indices", "indices outside the record's vertex range",
                 std::to_string(rec.start_vertex) + ".." + std::to_string(std::int64_t{rec.start_vertex} + rec.vertex_count - 1));
  const CmdlSection* boni = m.find(CmdlColumn::bone_index);
  const CmdlSection* bonw = m.find(CmdlColumn::bone_weight);
  if (boni == nullptr || bonw == nullptr || boni->data.size() != n * 4 || bonw->data.size() != n * 8 ||
      std::uint64_t{rec.start_vertex} + rec.vertex_count > n)
    return;
  Counter slot;
  for (std::size_t v = rec.start_vertex; v < std::size_t{rec.start_vertex} + rec.vertex_count; ++v)
    for (std::size_t k = 0; k < 4; ++k)
      if (boni->data[v * 4 + k] >= rec.bones.size() && half_to_float(load_le<std::uint16_t>(bonw->data.data() + v * 8 + k * 2)) != 0)
        slot.add(boni->data_offset() + v * 4 + k, v, std::to_string(boni->data[v * 4 + k]));
  slot.report(out, Severity::error, path + " BONI", "weighted bone slots past the record's bone list",
              "< " + std::to_string(rec.bones.size()));
}

void check_tail(const CmdlFile& m, Diagnostics& out) {
  const CmdlTail& t = m.tail;
  const std::size_t n = m.vertex_count();
  if (t.n_indices % 3 != 0)
    out.add(Severity::error, t.file_offset, "tail index count", "not whole triangles", "a multiple of 3", std::to_string(t.n_indices));
  Counter past;
  for (std::size_t i = 0; i < t.n_indices; ++i)
    if (t.index(i) >= n) past.add(t.file_offset + 4 + i * 4, i, std::to_string(t.index(i)));
  past.report(out, Severity::error, "tail indices", "indices past the vertex count", "< " + std::to_string(n));
  if (t.pad != 0) out.add(Severity::warning, t.file_offset + 4 + std::uint64_t{t.n_indices} * 4, "tail pad", "pad not zero", "0", hex(t.pad));
  std::set<std::pair<std::uint32_t, std::uint32_t>> keys;
  for (std::size_t r = 0; r < t.meshes.size(); ++r) check_record(m, r, t.meshes[r], keys, out);
  if (t.end < m.file_size)
    out.add(Severity::info, t.end, "file", std::to_string(m.file_size - t.end) + " bytes after the tail (kept on rewrite)");
}

}  // namespace

Diagnostics validate_cmdl(const CmdlFile& m) {
  Diagnostics out;
  if (m.version != kCmdlVersion)
    out.add(Severity::warning, 4, "header version", "version differs from every known file", "1", std::to_string(m.version));
  if (m.tail_offset % 16 != 0)
    out.add(Severity::warning, 8, "header tail offset", "tail offset not 16-byte aligned", "a multiple of 16", hex(m.tail_offset));
  check_table(m, out);
  check_values(m, out);
  check_tail(m, out);
  return out;
}

}  // namespace boneyard::mgs2
