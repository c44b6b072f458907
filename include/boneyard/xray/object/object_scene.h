// .object models to and from the neutral scene (glTF conventions), and through it to and from
// .ogf models; bone data (.bones) into and out of models. The mapping, the extras schema and the
// rules: docs/xray-object.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/xray_game.h"

namespace boneyard::xray {

// The smoothing style a game's SDK uses: SoC ids for soc, CS/CoP flags for cs and cop; nullopt
// for keep.
std::optional<SmoothingStyle> smoothing_style_of(Game game);

struct ObjectExportOptions {
  // How the smoothing groups are read (--game); detected from the values when unset.
  std::optional<SmoothingStyle> style;
  // The Actor Editor's export: a two-sided surface's faces again, flipped (what the engine draws);
  // for glTF a two-sided surface is a double-sided material instead.
  bool two_sided_copies = false;
  // A mesh with errors is left out with a warning instead of failing the export.
  bool keep_going = false;
  // Primitive extras that let an import rebuild meshes exactly (points, smoothing values): on for
  // glTF, off where nothing reads them back (.ogf, a template's export compared with a glTF). The
  // tags naming each primitive's mesh and SFACE entry are always there.
  bool rebuild_extras = true;
  // Each joint's bone data in its extras: off where only the bind pose is compared (a template's
  // export).
  bool bone_extras = true;
  // The embedded motions (0x916) as animations (docs/xray-object.md "Motions"): on for glTF.
  bool motions = true;
  std::vector<std::string> motion_globs;  // --motions: UTF-8 globs (empty: all)
};

// An .object as a scene: its bones as joints (bind pose from each bone's BIND_POSE, setXYZi),
// each mesh a scene mesh (skinned when the object has bones) with one primitive per surface it
// uses (SFACE order), every UV map and every weight of each corner's vmref, normals from the
// smoothing groups by the SDK's rules; the embedded motions as animations on the joints (the
// .skls export on the object's skeleton; motions that do not read or convert are left out with a
// warning). Static objects hang their meshes on the root node. Errors:
// a bone tree the scene cannot hold (duplicate names, unknown parents, cycles), a broken mesh
// (unless keep_going).
Result<scene::Scene> object_to_scene(const ObjectFile& object, std::string_view name, const ObjectExportOptions& options,
                                     Diagnostics& warnings);

struct ObjectImportOptions {
  // --template: the object whose chunks, meshes, bones and layout are kept where the scene leaves
  // them as they were; edited meshes are rebuilt in its layout.
  const ObjectFile* template_object = nullptr;
  // --game: the smoothing style and the motion-ref chunk of a new object (SoC: ids and 0x924;
  // CS/CoP: edge flags and 0x926); keep: the template's, CoP without one.
  Game game = Game::keep;
  // Replaces the motion refs (UTF-8); without it the template's, else the scene extras'.
  std::optional<std::vector<std::string>> motion_refs;
  // Bone data for the bones of a new object, by name (an .ogf's IK data when converting from
  // .ogf): shape, joint, material, mass. Bones it does not name get the SDK's defaults.
  const std::vector<BoneData>* bone_data = nullptr;
  std::optional<BoneParts> parts;  // bone parts of a new object (an .ogf's embedded motion parts)
};

struct ObjectImportStats {
  std::size_t meshes = 0;
  std::size_t kept = 0;     // template meshes kept byte for byte
  std::size_t rebuilt = 0;  // meshes written from the scene
  std::size_t removed = 0;  // template meshes the scene no longer has
  std::size_t smoothing_conflicts = 0;  // faces whose normals the written smoothing groups do not give back
  bool bones_kept = false;  // the template's bone chunk kept as stored
  std::size_t motions_kept = 0;     // embedded motions whose stored bytes were kept
  std::size_t motions_rebuilt = 0;  // embedded motions made from the scene's animations
};

// The scene as .object bytes, read back and validated (checked_object_bytes; a template's own
// errors are inherited). Errors name the mesh, primitive, material or node: names without a
// cp1251 form, a skinned primitive whose joint is no bone, a template mismatch (bones moved).
Result<std::vector<std::uint8_t>> scene_to_object_bytes(const scene::Scene& scene, const ObjectImportOptions& options,
                                                        Diagnostics& warnings, ObjectImportStats* stats = nullptr);

// ---- .ogf <-> .object

// converter.exe's `.ogf -> .object`: the model's meshes (every child, its UV and weights as the
// engine reads them), its bones with their IK data, its motion refs, in `game`'s smoothing style
// (rebuilt from the stored normals).
Result<std::vector<std::uint8_t>> ogf_to_object_bytes(const OgfFile& ogf, std::string_view name, Game game,
                                                      Diagnostics& warnings);
// The Actor Editor's `.object -> .ogf` (without progressive meshes): the object's meshes with
// their normals by the smoothing rules, two-sided surfaces doubled, its bones with their data, its
// motion refs, for `game`.
Result<std::vector<std::uint8_t>> object_to_ogf_bytes(const ObjectFile& object, std::string_view name, Game game,
                                                      std::optional<SmoothingStyle> style, Diagnostics& warnings);

// ---- Bone data (.bones) into and out of models

// An .ogf bone (0xD name and parent, 0x10 IK data) as the SDK's bone data.
BoneData bone_data_of(const OgfBone& bone);

// A model's bone data as a .bones file (the Actor Editor's Bones > Save): every bone's material,
// shape, joint and mass, and the parts (an object's 0x923/0x919; an .ogf's embedded motion parts
// when it has them).
Result<std::vector<std::uint8_t>> bones_of_object(const ObjectFile& object);

// An object's embedded motions (0x916) as a .skls (the Actor Editor's Motions > Save): the chunk's
// payload is a .skls body (count, then the motions), so the file is those bytes as stored, read
// back and checked. Error: no 0x916 chunk.
Result<std::vector<std::uint8_t>> motions_of_object(const ObjectFile& object);
Result<std::vector<std::uint8_t>> bones_of_ogf(const OgfFile& ogf);

// The Actor Editor's Bones > Load: each bone of the model named in `bones` (lower-cased names)
// takes its material, shape, joint, break limits, friction, mass and centre of mass; the parts
// are replaced when the file has them. Bones the file does not name keep theirs (one warning lists
// them). The bytes come back checked.
Result<std::vector<std::uint8_t>> apply_bones_to_object(const ObjectFile& object, const BonesFile& bones,
                                                        Diagnostics& warnings);
// The same for an .ogf's IK data (0x10); an .ogf holds no parts.
Result<std::vector<std::uint8_t>> apply_bones_to_ogf(const OgfFile& ogf, const BonesFile& bones, Diagnostics& warnings);

}  // namespace boneyard::xray
