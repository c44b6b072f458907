// X-Ray files found the way the engine finds them: the motion files a model's refs name and its
// textures root. The engine's rules over names are the X-Ray library's (xray_scene.h); walking
// the folders and opening the files is the registry's, so that only the registry reads files.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/xray_scene.h"

namespace boneyard {

// A model's motion ref as the lookup found it: the files (a wildcard: each match, sorted), and the
// path that was looked for (named in the warning when nothing was found).
struct ResolvedMotionRef {
  std::vector<std::filesystem::path> files;
  std::string looked;
};

// Files a ref names: "<root>/<ref with / for \\>.omf", case-insensitive per component (game data
// comes from Windows), with `*` wildcards in the last component expanded (sorted). `looked`
// receives what was tried.
std::vector<std::filesystem::path> resolve_motion_ref(const std::filesystem::path& meshes_root, std::string_view ref,
                                                      std::string* looked = nullptr);
// Each of a model's refs, in order.
std::vector<ResolvedMotionRef> resolve_motion_refs(const std::filesystem::path& meshes_root,
                                                   const std::vector<std::string>& refs);
// How many refs resolve_motion_ref has looked up in this process (each costs stats and, for a
// name whose case differs, folder listings): a batch looks up each model's refs once.
std::size_t motion_ref_lookups();

// The files of `refs` opened and read for xray::ogf_to_scene, one RefMotions per ref; `model` is
// the .ogf (the extras name each file relative to its folder).
std::vector<xray::RefMotions> read_ref_motions(const std::vector<ResolvedMotionRef>& refs,
                                               const std::filesystem::path& model);

// An .ogf's scene with every motion the engine would give it: its refs looked up under
// `meshes_root` (empty: the nearest "meshes" folder above `model`) and read, or its embedded
// motions. What `convert model.ogf -o x.glb` builds before textures are attached. `used_omfs`
// (optional) receives the motion files that were read.
Result<scene::Scene> ogf_scene_with_motions(const xray::OgfFile& ogf, const std::filesystem::path& model,
                                            const std::filesystem::path& meshes_root, Diagnostics& warnings,
                                            std::vector<std::filesystem::path>* used_omfs = nullptr);

// `relative` (with \ or / separators) under `root`, each component matched ignoring ASCII case;
// nullopt when there is no such regular file.
std::optional<std::filesystem::path> find_ignoring_case(const std::filesystem::path& root, std::string_view relative);

// The engine's textures root for a model: the folder named "textures" (any case) beside the
// nearest ancestor named "meshes" (gamedata/meshes -> gamedata/textures); "" when there is none.
std::filesystem::path default_textures_root(const std::filesystem::path& model_path);

}  // namespace boneyard
