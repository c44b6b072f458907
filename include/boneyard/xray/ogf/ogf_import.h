// glTF (a neutral scene read from it) back to an X-Ray .ogf model: the inverse of add_meshes and
// skeleton_scene (xray_scene.h). With a template model the glTF's meshes replace the template's
// and everything the glTF leaves as it was keeps its bytes (whole unchanged children included);
// without one, a new model is made for the chosen game. Rules, limits and sources:
// docs/ogf-write.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/xray_game.h"

namespace boneyard::xray {

struct OgfImportOptions {
  // --template: the model whose skeleton, IK data, refs, user data, description, motions, unknown
  // chunks and unchanged children are kept. Bone order and names always come from it.
  const OgfFile* template_ogf = nullptr;
  // --game: which game's variants to write (vertex ids, link limit, refs chunk, tangent method).
  // keep: the template's (numeric vertex ids mean CS/CoP, magic ids alone SoC), CoP without one.
  Game game = Game::keep;
  // --motion-refs: replaces the motion refs (UTF-8; the template's 0x13/0x18 choice is kept, a
  // model without refs gets the game's). Without it: the template's refs, or the scene extras'.
  std::optional<std::vector<std::string>> motion_refs;
  // Replaces the user data (0x11, ini text, UTF-8); an empty string removes it.
  std::optional<std::string> user_data;
};

// What became of the children (for reports and tests).
struct OgfImportStats {
  std::size_t children = 0;           // in the written model
  std::size_t kept = 0;               // template children kept byte for byte: the glTF has them as exported
  std::size_t kept_within_noise = 0;  // kept: the same triangles within float noise (a DCC round trip)
  std::size_t edited = 0;             // template children written again from the glTF
  std::size_t added = 0;              // children with no template child
  std::size_t removed = 0;            // template children the glTF no longer has
  std::size_t split_vertices = 0;     // vertices added by the tangent frames of written children
  std::size_t moved_weight_vertices = 0;  // vertices whose influences beyond the game's limit were dropped
};

// The model the scene describes. `scene` comes from gltf::read with meshes. Errors name the mesh,
// primitive, material, node or bone: a skin joint or attachment node that is not a template bone,
// a joint moved from the template's bind pose, a material without texture or shader, names the
// format cannot hold, more than 65535 vertices in a child or 64 bones. Warnings: influences
// beyond the game's limit (the moved weight per child), a progressive child written without its
// slide windows, UVs tiled more than 32 times, defaults used.
Result<OgfFile> scene_to_ogf(const scene::Scene& scene, const OgfImportOptions& options, Diagnostics& warnings,
                             OgfImportStats* stats = nullptr);
// The same as written bytes, read back and validated (checked_ogf_bytes; the template's own errors
// are inherited).
Result<std::vector<std::uint8_t>> scene_to_ogf_bytes(const scene::Scene& scene, const OgfImportOptions& options,
                                                     Diagnostics& warnings, OgfImportStats* stats = nullptr);

}  // namespace boneyard::xray
