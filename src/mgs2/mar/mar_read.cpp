// .mar reading (layout in docs/mgs2-mar.md; the lossless writer is mar_write.cpp): the header and
// the table as they are, each MTCM's header, its per-joint offsets and its archive as views, and
// every byte no structure covers as a gap. A motion whose MTCM lies outside the file keeps why in
// `readable`; the rest of the file is still read.
#include <algorithm>
#include <string>

#include "boneyard/core/limits.h"
#include "boneyard/mgs2/mar/mar.h"
#include "core/byte_reader.h"
#include "mar_internal.h"

namespace boneyard::mgs2 {

namespace {

std::uint32_t u32_at(Bytes file, std::uint64_t at) { return load_le<std::uint32_t>(file.data() + at); }

// Whether the bytes at `at` can be an MTCM of `layout`: its header and joint offsets fit, the
// archive starts after them and lies inside the file.
bool plausible_mtcm(Bytes file, std::uint64_t at, Layout layout) {
  const std::uint64_t header = mtcm_header_size(layout);
  if (at > file.size() || header > file.size() - at) return false;
  const std::uint64_t archive_offset = u32_at(file, at + 0x10);
  const std::uint64_t archive_size = u32_at(file, at + (layout == Layout::ps2 ? 0x14 : 0x18));
  const std::uint64_t joints = u32_at(file, at + (layout == Layout::ps2 ? 0x18 : 0x1C));
  if (archive_offset < header + joints * 4) return false;
  return at + archive_offset + archive_size <= file.size();
}

// Whether every entry of the table read in `layout` names a plausible MTCM (in MC, with both pad
// dwords 0 unless `any_pads`).
bool plausible_layout(Bytes file, const MarHeader& h, Layout layout, bool any_pads = false) {
  const std::uint64_t entry = mar_entry_size(layout);
  if (kMarHeaderSize + std::uint64_t{h.motion_count} * entry > file.size()) return false;
  for (std::uint64_t i = 0; i < h.motion_count; ++i) {
    const std::uint64_t at = kMarHeaderSize + i * entry;
    if (layout == Layout::mc && !any_pads && (u32_at(file, at + 4) != 0 || u32_at(file, at + 12) != 0)) return false;
    if (!plausible_mtcm(file, std::uint64_t{h.mtcm_offset} + u32_at(file, at), layout)) return false;
  }
  return true;
}

// PS2 or MC: the layout whose table names plausible MTCMs; when both do (a single motion can read
// either way), the one whose table ends where the MTCM area starts.
Layout detect_layout(Bytes file, const MarHeader& h) {
  const bool ps2 = plausible_layout(file, h, Layout::ps2);
  const bool mc = plausible_layout(file, h, Layout::mc);
  if (ps2 != mc) return ps2 ? Layout::ps2 : Layout::mc;
  const auto table_end = [&](Layout l) { return kMarHeaderSize + std::uint64_t{h.motion_count} * mar_entry_size(l); };
  const auto aligned = [](std::uint64_t v) { return (v + 15) & ~std::uint64_t{15}; };
  if (ps2) {
    const bool mc_exact = h.mtcm_offset == table_end(Layout::mc);
    const bool ps2_exact = h.mtcm_offset == table_end(Layout::ps2) || h.mtcm_offset == aligned(table_end(Layout::ps2));
    if (mc_exact != ps2_exact) return mc_exact ? Layout::mc : Layout::ps2;
    if (h.motion_count == 0) return Layout::ps2;  // nothing is laid out either way
  } else if (plausible_layout(file, h, Layout::mc, true)) {
    return Layout::mc;  // MC pads that are not 0 (the validator says so): nothing else reads
  }
  fail(0, "header", "cannot tell the PS2 from the Master Collection layout (give --input-layout ps2 or mc)",
       "a table and MTCMs that read in one layout",
       ps2 ? "both read" : "neither reads (" + std::to_string(h.motion_count) + " motions, MTCM area at " + hex(h.mtcm_offset) + ")");
}

MarMotion read_motion(Bytes file, const MarHeader& h, Layout layout, ByteReader& table) {
  MarMotion m;
  m.entry.file_offset = table.offset();
  m.entry.offset = table.u32("offset");
  if (layout == Layout::mc) m.entry.pad0 = table.u32("pad");
  m.entry.size = table.u32("size");
  if (layout == Layout::mc) m.entry.pad1 = table.u32("pad");
  m.file_offset = std::uint64_t{h.mtcm_offset} + m.entry.offset;
  const auto read = catch_parse_errors([&]() -> bool {
    const std::uint64_t at = m.file_offset;
    if (at > file.size()) {
      fail(m.entry.file_offset, "table offset", "MTCM past the end of the file",
           "mtcm_offset + offset within " + std::to_string(file.size()) + " bytes", hex(at));
    }
    ByteReader r(file.subspan(at), at);
    MtcmHeader& x = m.header;
    x.name = r.u32("name");
    x.flags = r.u32("flags");
    x.base_tick = r.u32("base tick");
    x.frames = r.u32("frames");
    x.archive_offset = r.u32("archive offset");
    if (layout == Layout::mc) x.pad = r.u32("pad");
    x.archive_size = r.u32("archive size");
    x.joints = r.u32("joints");
    x.root_offset = r.u32("root offset");
    x.move_offset = r.u32("move offset");
    x.turn_offset = r.u32("turn offset");
    x.fix_offset = r.u32("fix offset");
    r.need_array(x.joints, 4, "joint offsets");
    m.joint_offsets = r.bytes(std::size_t{x.joints} * 4, "joint offsets");
    const std::uint64_t archive = at + x.archive_offset;
    if (archive > file.size() || x.archive_size > file.size() - archive) {
      fail(at + 0x10, "archive", "archive past the end of the file",
           std::to_string(x.archive_size) + " bytes at " + hex(archive) + " within " + std::to_string(file.size()) + " bytes",
           archive > file.size() ? "offset " + hex(archive) : std::to_string(file.size() - archive) + " bytes left");
    }
    m.archive = file.subspan(archive, x.archive_size);
    return true;
  });
  if (!read) {
    m.readable = read.error();  // nothing of a broken MTCM is a view: the writer keeps its bytes as gaps
    m.joint_offsets = {};
    m.archive = {};
  }
  return m;
}

}  // namespace

std::uint32_t MarMotion::joint_offset(std::size_t joint) const { return load_le<std::uint32_t>(joint_offsets.data() + joint * 4); }

bool looks_like_mar(Bytes file) { return file.size() >= 4 && load_le<std::uint32_t>(file.data()) == kMarMagic; }

Result<MarFile> read_mar(std::shared_ptr<const FileData> data, std::optional<Layout> forced, Diagnostics* notes) {
  const Bytes file = data->bytes();
  return catch_parse_errors([&]() -> MarFile {
    MarFile m;
    m.source = data;
    m.file_size = file.size();
    ByteReader r(file, 0);
    m.header.magic = r.u32("magic");
    if (m.header.magic != kMarMagic) fail(0, "header magic", "not a .mar", "\"MARa\"", hex(m.header.magic));
    m.header.max_joint = r.u32("max joint");
    m.header.motion_count = r.u32("motion count");
    m.header.mtcm_offset = r.u32("MTCM offset");
    if (m.header.motion_count > kMaxMarMotions) {
      fail(8, "header motion count", "more motions than any motion archive holds", "<= " + std::to_string(kMaxMarMotions),
           std::to_string(m.header.motion_count));
    }
    m.layout = forced ? *forced : detect_layout(file, m.header);
    const std::size_t entry = mar_entry_size(m.layout);
    r.need_array(m.header.motion_count, entry, "motion table");
    m.motions.reserve(m.header.motion_count);
    std::vector<Interval> covered{{0, kMarHeaderSize + std::uint64_t{m.header.motion_count} * entry}};
    for (std::uint32_t i = 0; i < m.header.motion_count; ++i) {
      m.motions.push_back(detail::read_at("motion ", i, [&] { return read_motion(file, m.header, m.layout, r); }));
      const MarMotion& x = m.motions.back();
      if (!x.readable) continue;
      covered.push_back({x.file_offset, x.file_offset + mtcm_header_size(m.layout) + x.joint_offsets.size()});
      if (!x.archive.empty()) covered.push_back({x.archive_file_offset(), x.archive_file_offset() + x.archive.size()});
    }
    m.gaps = uncovered_gaps(file, std::move(covered));
    if (notes != nullptr) note_layout_and_gaps(*notes, forced, m.gaps);
    return m;
  });
}

}  // namespace boneyard::mgs2
