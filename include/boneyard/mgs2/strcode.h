// StrCode24, the MGS2 name hash used for texture ids and file ids, and a table that turns ids back
// into names for display.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "boneyard/core/diagnostics.h"

namespace boneyard {

namespace mgs2 {
// Hashes the bytes exactly as given (no lower-casing: the game hashes names as written; the names
// it hashes are lower case in practice). A result of 0 becomes 1.
std::uint32_t strcode(std::string_view name);
}  // namespace mgs2

// id -> name, built from a list of candidate names (e.g. texture file names, one per line).
class TextureNames {
 public:
  void add(std::string name);
  // Adds one name per line (CR LF or LF; blank lines and surrounding spaces ignored). A names
  // file is read by the registry: load_texture_names (registry/convert_request.h).
  void load_text(std::string_view text);
  const std::string* find(std::uint32_t id) const;
  std::size_t size() const { return names_.size(); }

 private:
  std::unordered_map<std::uint32_t, std::string> names_;
};

}  // namespace boneyard
