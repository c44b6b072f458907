// What boneyard may write as an .omf: names the format can hold, and bytes that read back valid.
// Names: the reader splits them at NUL (motions, parts, bones) or CR LF (marks), so a name holding
// those bytes would come back cut, and the engine copies names into 128-byte buffers.
#include "boneyard/xray/omf/omf.h"
#include "boneyard/core/read_back.h"


namespace boneyard::xray {

Status check_omf_name(std::string_view name, OmfName kind) {
  auto refused = [](std::string why) {
    return Finding{Severity::error, 0, {}, std::move(why), "a name the .omf can store", {}};
  };
  if (name.find('\0') != std::string_view::npos) return refused("contains a NUL byte (names end at NUL)");
  if (kind == OmfName::mark && name.find_first_of("\r\n") != std::string_view::npos)
    return refused("contains CR or LF (mark names end at CR LF)");
  if (name.size() > kMaxNameBytes) return refused("too long for the engine (at most 127 bytes)");
  return {};
}

Result<std::vector<std::uint8_t>> checked_omf_bytes(std::vector<std::uint8_t> bytes, const Diagnostics* inherited) {
  // Never hand out a file boneyard or the engine would misread: the written bytes are read back
  // and validated, and the first new error stops the write.
  auto file = FileData::from_vector(bytes);
  auto reread = read_omf(file);
  if (!reread) {
    Finding e = reread.error();
    e.path = "written .omf" + (e.path.empty() ? "" : " " + e.path);
    return e;
  }
  // Errors the inputs already had are not the writer's (paths move when motions are added or removed).
  if (auto fresh = first_new_error(validate_omf(reread.value()), inherited, "written .omf"); !fresh) return fresh.error();
  return bytes;
}

}  // namespace boneyard::xray
