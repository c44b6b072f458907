// Editing .ogf models without a DCC tool. Every edit changes only what it is asked to change:
// chunks it does not touch keep their bytes, and the result is read back and validated before the
// model is replaced (an error leaves the model as it was). Names are UTF-8 at this interface and
// stored as cp1251. docs/ogf-write.md "Edits".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf_edit.h"  // EditReport
#include "boneyard/xray/xray_game.h"

namespace boneyard::xray {

struct OgfChildInfo {
  std::uint32_t index = 0;
  bool readable = true;
  std::uint8_t type = 0;          // 5 skinned, 4 progressive, 0/2 static
  std::string texture, shader;    // UTF-8
  std::uint32_t vertex_format = 0;
  int links = 0;                  // 1-4, 0 for static (FVF)
  std::uint32_t vertices = 0;
  std::uint32_t triangles = 0;    // drawn at full detail
  bool progressive = false;       // has slide windows (0x6)
};
std::vector<OgfChildInfo> list_children(const OgfFile& file);

// Children by index ("3") or by a glob over their texture names (UTF-8, `*` and `?`, ignoring
// case). A selector that matches nothing is an error.
Result<std::vector<std::size_t>> select_children(const OgfFile& file, const std::vector<std::string>& selectors);

// Texture and/or shader of the selected children (0x2; bytes after the shader string are kept).
Result<EditReport> set_child_material(OgfFile& file, const std::vector<std::string>& selectors,
                                      const std::optional<std::string>& texture,
                                      const std::optional<std::string>& shader);

// Replaces the motion refs. The file's chunk is kept (0x13: one comma-separated string; 0x18:
// count and strings); a file without refs gets 0x13 for SoC and 0x18 for CS/CoP (`game`; keep:
// judged from the vertex ids). An empty list removes the refs. The header type follows: a model
// with refs is animated (3), one without refs or embedded motions rigid (10).
Result<EditReport> set_motion_refs(OgfFile& file, const std::vector<std::string>& refs, Game game = Game::keep);

// Replaces the user data (0x11, ini text); an empty text removes the chunk.
Result<EditReport> set_user_data(OgfFile& file, const std::string& text);

// Converts for another game: SoC gets the magic 1L/2L vertex ids (3- and 4-link vertices keep
// their two heaviest bones: the moved weight is reported per child), refs in 0x13 (at most 3) and
// embedded motions retargeted as `omf retarget` does (params version 3, 8-bit keys); CS/CoP get
// the numeric ids (the same vertex bytes). Everything else keeps its bytes.
Result<EditReport> retarget_ogf(OgfFile& file, Game game);

}  // namespace boneyard::xray
