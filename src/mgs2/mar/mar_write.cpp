// .mar writing: the lossless writer (every field at its stored offset, the gaps put back) and the
// builder that lays out a new file in either layout (docs/mgs2-mar.md "Writing").
#include <string>

#include "boneyard/core/limits.h"
#include "boneyard/mgs2/mar/mar.h"
#include "core/byte_reader.h"
#include "mar_internal.h"

namespace boneyard::mgs2 {

namespace {

void put_mar_header(ByteWriter& w, const MarHeader& h) {
  w.u32(h.magic);
  w.u32(h.max_joint);
  w.u32(h.motion_count);
  w.u32(h.mtcm_offset);
}

void put_entry(ByteWriter& w, Layout layout, std::uint32_t offset, std::uint32_t size, std::uint32_t pad0, std::uint32_t pad1) {
  w.u32(offset);
  if (layout == Layout::mc) w.u32(pad0);
  w.u32(size);
  if (layout == Layout::mc) w.u32(pad1);
}

void put_mtcm_header(ByteWriter& w, Layout layout, const MtcmHeader& x) {
  w.u32(x.name);
  w.u32(x.flags);
  w.u32(x.base_tick);
  w.u32(x.frames);
  w.u32(x.archive_offset);
  if (layout == Layout::mc) w.u32(x.pad);
  w.u32(x.archive_size);
  w.u32(x.joints);
  w.u32(x.root_offset);
  w.u32(x.move_offset);
  w.u32(x.turn_offset);
  w.u32(x.fix_offset);
}

}  // namespace

std::vector<std::uint8_t> write_mar(const MarFile& m) {
  std::vector<std::uint8_t> out = detail::file_with_gaps(m.file_size, m.gaps);
  std::vector<std::uint8_t> tmp;
  ByteWriter w(tmp);
  put_mar_header(w, m.header);
  for (const MarMotion& x : m.motions) put_entry(w, m.layout, x.entry.offset, x.entry.size, x.entry.pad0, x.entry.pad1);
  detail::place(out, 0, tmp);
  for (const MarMotion& x : m.motions) {
    if (!x.readable) continue;  // its bytes are gaps
    tmp.clear();
    put_mtcm_header(w, m.layout, x.header);
    w.bytes(x.joint_offsets);
    detail::place(out, x.file_offset, tmp);
    detail::put_at(out, x.archive_file_offset(), x.archive);
  }
  return out;
}

Result<std::vector<std::uint8_t>> build_mar(Layout layout, std::uint32_t max_joint, const std::vector<MtcmContent>& motions) {
  return catch_parse_errors([&]() -> std::vector<std::uint8_t> {
    if (motions.size() > kMaxMarMotions)
      fail(8, "header motion count", "more motions than a motion archive may hold", "<= " + std::to_string(kMaxMarMotions),
           std::to_string(motions.size()));
    const std::uint64_t table_end = kMarHeaderSize + motions.size() * mar_entry_size(layout);
    const std::uint64_t mtcm_area = detail::align16(table_end);
    std::vector<std::uint8_t> out(mtcm_area, 0);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> entries;  // offset from the area, size
    for (std::size_t i = 0; i < motions.size(); ++i) {
      const MtcmContent& c = motions[i];
      if (c.joint_offsets.size() != c.header.joints)
        fail(0, "motion " + std::to_string(i) + " joints", "one offset per joint", std::to_string(c.header.joints),
             std::to_string(c.joint_offsets.size()));
      const std::uint64_t start = detail::align16(out.size());
      const std::uint64_t archive_offset = detail::align16(mtcm_header_size(layout) + std::uint64_t{c.header.joints} * 4);
      if (archive_offset > 0xFFFFFFFFu || c.archive.size() > 0xFFFFFFFFu)
        fail(0, "motion " + std::to_string(i), "MTCM too large for 32-bit sizes", "< 4 GiB", std::to_string(c.archive.size()) + " bytes");
      MtcmHeader h = c.header;
      h.archive_offset = static_cast<std::uint32_t>(archive_offset);
      h.archive_size = static_cast<std::uint32_t>(c.archive.size());
      out.resize(start, 0);
      ByteWriter w(out);
      put_mtcm_header(w, layout, h);
      for (auto o : c.joint_offsets) w.u32(o);
      out.resize(start + archive_offset, 0);
      w.bytes(Bytes(c.archive.data(), c.archive.size()));
      entries.emplace_back(start - mtcm_area, archive_offset + c.archive.size());
    }
    out.resize(detail::align16(out.size()), 0);
    if (out.size() > 0xFFFFFFFFu) fail(0, "file", "too large for 32-bit offsets", "at most 4 GiB", std::to_string(out.size()) + " bytes");
    std::vector<std::uint8_t> head;
    ByteWriter w(head);
    put_mar_header(w, MarHeader{kMarMagic, max_joint, static_cast<std::uint32_t>(motions.size()), static_cast<std::uint32_t>(mtcm_area)});
    for (const auto& [offset, size] : entries)
      put_entry(w, layout, static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(size), 0, 0);
    detail::place(out, 0, head);
    return out;
  });
}

}  // namespace boneyard::mgs2
