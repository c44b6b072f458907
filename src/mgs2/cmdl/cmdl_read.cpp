// .cmdl reading (layout in docs/mgs2-cmdl.md; the lossless writer is cmdl_write.cpp): the header and the section
// table are read as they are, section data and the tail's index list are kept as views, and every
// byte no structure covers is kept as a gap.
#include <algorithm>
#include <string>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "core/byte_reader.h"
#include "cmdl_internal.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2 {

namespace {

constexpr std::array<CmdlColumnInfo, 8> kColumns = {{
    {"POS0", 16, 2},
    {"NRM0", 4, 9},
    {"TEX0", 4, 5},
    {"TEX1", 4, 5},
    {"TEX2", 4, 5},
    {"BONI", 4, 4},
    {"BONW", 8, 6},
    {"OIDX", 4, 10},
}};

CmdlSection read_section(ByteReader& r, Bytes file) {
  CmdlSection s;
  s.file_offset = r.offset();
  for (int i = 3; i >= 0; --i) s.tag[std::size_t(i)] = static_cast<char>(r.u8("tag"));
  s.format = r.u16("format");
  s.field_06 = r.u16("field 0x06");
  s.offset = r.u32("offset");
  s.pad = r.u32("pad");
  s.size = r.u32("size");
  for (auto& p : s.pad2) p = r.u32("pad");
  const std::uint64_t at = s.data_offset();
  if (at <= file.size() && s.size <= file.size() - at) s.data = file.subspan(at, s.size);
  return s;
}

CmdlMesh read_mesh(detail::BigEndianReader& r) {
  CmdlMesh m;
  m.file_offset = r.offset();
  m.bbox_min = r.vec3("bbox");
  m.bbox_max = r.vec3("bbox");
  m.field_18 = static_cast<std::int16_t>(r.u16("field 0x18"));
  m.field_1a = r.u8("field 0x1A");
  m.start_vertex = r.u32("start vertex");
  m.vertex_count = r.u32("vertex count");
  m.start_index = r.u32("start index");
  m.index_count = r.u32("index count");
  const std::uint32_t n_bones = r.u32("bone count");
  r.need_array(n_bones, 4, "bones");
  m.bones.resize(n_bones);
  for (auto& b : m.bones) b = r.u32("bone");
  for (auto& b : m.field_80) b = r.u8("field 0x80 bytes");
  m.field_pre = r.u32("field before the mesh index");
  m.mesh = r.u32("mesh index");
  m.sub_mesh = r.u32("sub-mesh index");
  return m;
}

CmdlTail read_tail(Bytes file, std::uint64_t at) {
  CmdlTail t;
  t.file_offset = at;
  if (at > file.size()) {
    fail(8, "header tail offset", "tail past the end of the file", "offset + 0x0C within " + std::to_string(file.size()) + " bytes",
         hex(at));
  }
  detail::BigEndianReader r(file.subspan(at), at);
  t.n_indices = r.u32("index count");
  r.need_array(t.n_indices, 4, "indices");
  t.indices = r.bytes(std::size_t{t.n_indices} * 4, "indices");
  t.pad = r.u32("pad after the indices");
  t.n_meshes = r.u32("mesh count");
  r.need_array(t.n_meshes, 0x43, "meshes");
  t.meshes.reserve(t.n_meshes);
  for (std::uint32_t i = 0; i < t.n_meshes; ++i) t.meshes.push_back(detail::read_at("mesh ", i, [&] { return read_mesh(r); }));
  t.end = r.offset();
  return t;
}

CmdlFile read_model(Bytes file, Diagnostics* notes) {
  CmdlFile m;
  m.file_size = file.size();
  ByteReader r(file, 0);
  const Bytes magic = r.bytes(4, "header magic");
  std::copy(magic.begin(), magic.end(), m.magic.begin());
  if (!std::equal(magic.begin(), magic.end(), m.magic.begin()) || m.magic != std::array<std::uint8_t, 4>{'M', 'O', 'D', 'L'})
    fail(0, "header magic", "not a .cmdl", "\"MODL\"", detail::quoted_bytes(magic));
  m.version = detail::bswap32(r.u32("header version"));
  m.tail_offset = detail::bswap32(r.u32("header tail offset"));
  m.n_sections = r.u32("header section count");
  r.need_array(m.n_sections, kCmdlSectionEntrySize, "section table (section count)");
  std::vector<Interval> covered;
  covered.push_back(Interval{0, kCmdlHeaderSize + std::uint64_t{m.n_sections} * kCmdlSectionEntrySize});
  m.sections.reserve(m.n_sections);
  for (std::uint32_t i = 0; i < m.n_sections; ++i) {
    m.sections.push_back(detail::read_at("section ", i, [&] { return read_section(r, file); }));
    const CmdlSection& s = m.sections.back();
    if (!s.data.empty()) covered.push_back(Interval{s.data_offset(), s.data_offset() + s.data.size()});
  }
  m.tail = detail::with_path("tail", [&] { return read_tail(file, std::uint64_t{m.tail_offset} + kCmdlBase); });
  covered.push_back(Interval{m.tail.file_offset, m.tail.end});
  m.gaps = uncovered_gaps(file, std::move(covered));
  if (notes != nullptr) {
    std::uint64_t filler = 0, other = 0;
    for (const auto& g : m.gaps)
      for (auto b : g.bytes) (b == 0xFF ? filler : other) += 1;
    if (other != 0)
      notes->add(Severity::info, m.gaps.front().offset, "file",
                 std::to_string(other) + " bytes not covered by any structure hold something other than the 0xFF filler "
                 "(kept on rewrite)");
  }
  return m;
}

}  // namespace

CmdlColumnInfo cmdl_column_info(CmdlColumn column) {
  const auto i = static_cast<std::size_t>(column);
  return i < kColumns.size() ? kColumns[i] : CmdlColumnInfo{};
}

CmdlColumn cmdl_column(std::string_view tag) {
  for (std::size_t i = 0; i < kColumns.size(); ++i)
    if (kColumns[i].tag == tag) return static_cast<CmdlColumn>(i);
  return CmdlColumn::unknown;
}

const CmdlSection* CmdlFile::find(CmdlColumn column) const {
  for (const auto& s : sections)
    if (s.column() == column) return &s;
  return nullptr;
}

std::size_t CmdlFile::vertex_count() const {
  const CmdlSection* pos = find(CmdlColumn::position);
  return pos == nullptr ? 0 : pos->size / 16;
}

bool looks_like_cmdl(Bytes file) {
  return file.size() >= 4 && file[0] == 'M' && file[1] == 'O' && file[2] == 'D' && file[3] == 'L';
}

Result<CmdlFile> read_cmdl(std::shared_ptr<const FileData> file, Diagnostics* notes) {
  return catch_parse_errors([&] {
    CmdlFile m = read_model(file->bytes(), notes);
    m.source = std::move(file);
    return m;
  });
}


}  // namespace boneyard::mgs2
