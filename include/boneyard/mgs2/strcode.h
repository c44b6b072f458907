// StrCode24, the MGS2 name hash used for texture ids and file ids, and a table that turns ids back
// into names for display.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "boneyard/core/diagnostics.h"

namespace boneyard {

namespace mgs2 {
// Hashes the bytes exactly as given (no lower-casing: the game hashes names as written; the names
// it hashes are lower case in practice). A result of 0 becomes 1.
std::uint32_t strcode(std::string_view name);

// What a texture file's name says about the texture it holds, for every form the game and
// boneyard name texture files (docs/textures.md "Texture files by id"): the Master Collection's
// "<name>.bmp.ctxr" and "<name>.bmp_<md5>.ctxr", a converted "<name>.png" or "<name>.dds", and
// files named by the id itself ("00b7e31e.ctxr", "00005011.img.ctxr", `boneyard texture`'s
// "b7e31e.png").
struct TextureFileName {
  std::string name;                 // the texture's name: no extension, "_<md5>" suffix or ".bmp"
  std::optional<std::uint32_t> id;  // the id the name states (6 or 8 hex digits, "<8 hex>.img")
  bool variant = false;             // it had a "_<32 hex digits>" suffix (another file of the same name)
  // The ids it may hold, best first: the stated id alone; otherwise StrCode24 of name + ".bmp" and
  // of the name (the game's texture ids hash either form, docs/textures.md).
  std::vector<std::uint32_t> ids() const;
};
TextureFileName parse_texture_file_name(std::string_view file_name);
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
