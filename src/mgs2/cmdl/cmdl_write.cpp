// A .cmdl from its model, at its stored offsets with its gaps: byte-exact for an unedited model.
#include "boneyard/mgs2/cmdl/cmdl.h"
#include "cmdl_internal.h"
#include "mgs2/read_helpers.h"

namespace boneyard::mgs2 {

std::vector<std::uint8_t> write_cmdl(const CmdlFile& m) {
  std::vector<std::uint8_t> out = detail::file_with_gaps(m.file_size, m.gaps);
  std::vector<std::uint8_t> tmp;
  detail::put_cmdl_header(tmp, m.magic, m.version, m.tail_offset, m.n_sections);
  detail::place(out, 0, tmp);
  for (const auto& s : m.sections) {
    tmp.clear();
    detail::put_cmdl_entry(tmp, s.tag, s.format, s.field_06, s.offset, s.pad, s.size, s.pad2);
    detail::place(out, s.file_offset, tmp);
    detail::put_at(out, s.data_offset(), s.data);
  }
  tmp.clear();
  detail::put_cmdl_tail(tmp, m.tail.n_indices, m.tail.indices, m.tail.pad, m.tail.n_meshes, m.tail.meshes);
  detail::place(out, m.tail.file_offset, tmp);
  return out;
}

}  // namespace boneyard::mgs2
