// Text helpers shared by the index files' reader, validator and report.
#pragma once

#include <string_view>

namespace boneyard::mgs2::index_text {

inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
inline bool ends_with(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }
// The extension of the last path part, without its dot ("" when none).
inline std::string_view path_extension(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return path.substr(dot + 1);
}

}  // namespace boneyard::mgs2::index_text
