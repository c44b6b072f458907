// Editing .object files without the SDK. Every edit changes only what it is asked to change:
// chunks it does not touch keep their bytes (a compressed body is packed again), and the result is
// read back and validated before anything replaces the file. Names are UTF-8 at this interface and
// stored as cp1251. docs/xray-object.md "Edits".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/omf/omf_edit.h"  // EditReport
#include "boneyard/xray/xray_game.h"

namespace boneyard::xray {

struct ObjectSurfaceInfo {
  std::size_t index = 0;
  std::string name, texture, shader, compiler_shader, game_mtl;  // UTF-8
  bool two_sided = false;
  std::size_t faces = 0;  // over every mesh
};
std::vector<ObjectSurfaceInfo> list_surfaces(const ObjectFile& file);

// Surfaces by index ("3") or by a glob over their names or textures (UTF-8, `*` and `?`, ignoring
// case). A selector that matches nothing is an error.
Result<std::vector<std::size_t>> select_surfaces(const ObjectFile& file, const std::vector<std::string>& selectors);

struct SurfaceChange {
  std::optional<std::string> texture, shader, compiler_shader, game_mtl;
  std::optional<bool> two_sided;
  bool empty() const { return !texture && !shader && !compiler_shader && !game_mtl && !two_sided; }
};
// The fields of the selected surfaces (the surfaces chunk is rewritten in its own layout; an old
// 0x905 surface has no game material, which is then an error).
Result<EditReport> set_surfaces(ObjectFile& file, const std::vector<std::string>& selectors, const SurfaceChange& change);

// Replaces the motion refs: the file's chunk is kept (0x924: one comma-separated string; 0x926:
// count and strings); a file without refs gets 0x924 for SoC and 0x926 for CS/CoP (`game`; keep:
// 0x926). An empty list removes them.
Result<EditReport> set_object_motion_refs(ObjectFile& file, const std::vector<std::string>& refs, Game game = Game::keep);

// Replaces the user data (0x912, the class script); an empty text writes it empty, as the SDK does.
Result<EditReport> set_object_user_data(ObjectFile& file, const std::string& text);

// The Actor Editor's Bones > Load (apply_bones_to_object), as an edit.
Result<EditReport> load_object_bones(ObjectFile& file, const BonesFile& bones);

}  // namespace boneyard::xray
