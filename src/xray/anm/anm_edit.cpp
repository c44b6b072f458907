// Renaming an .anm's motion (anm_edit.h).
#include "boneyard/core/text.h"
#include "boneyard/xray/anm/anm_edit.h"

namespace boneyard::xray {

Result<EditReport> rename_anm_motion(AnmFile& file, const std::string& old_name, const std::string& new_name) {
  auto edit_error = [](std::string message, std::string expected, std::string found) {
    return Finding{Severity::error, 0, {}, std::move(message), std::move(expected), std::move(found)};
  };
  const auto from = utf8_to_cp1251(old_name);
  if (!from || lower_ascii(*from) != lower_ascii(file.motion.name))
    return edit_error("the motion has another name", "\"" + cp1251_to_utf8(file.motion.name) + "\"", old_name);
  const auto to = utf8_to_cp1251(new_name);
  if (!to) return edit_error("new name cannot be written in cp1251", "Latin or Cyrillic text", new_name);
  if (to->find_first_of(std::string_view("\0\r\n", 3)) != std::string::npos)
    return edit_error("new name holds a NUL, CR or LF, which the SDK or the tools cannot keep", "printable text",
                      "\"" + printable(*to) + "\"");
  if (to->size() > kMaxNameBytes)
    return edit_error("new name too long", "at most 127 bytes", std::to_string(to->size()));
  EditReport report;
  report.changes.push_back("renamed \"" + printable(file.motion.name) + "\" to \"" + printable(*to) + "\"");
  file.motion.name = *to;
  return report;
}

}  // namespace boneyard::xray
