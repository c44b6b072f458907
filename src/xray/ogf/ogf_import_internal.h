// Internal to the glTF -> .ogf import (ogf_import_*.cpp): the scene's primitives as triangle
// soups in X-Ray model space, how they are compared with a template's children, and how a soup
// becomes a child. docs/ogf-write.md explains the rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/scene/scene.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "ogf_build.h"
#include "ogf_tangents.h"

namespace boneyard::xray::ogf_import {

inline Finding import_error(std::string path, std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, std::move(path), std::move(message), std::move(expected), std::move(found)};
}

// A node's name as the model would store it: its extras' raw name (our export), else the UTF-8
// name in cp1251; nullopt when it has no cp1251 form.
std::optional<std::string> raw_node_name(const scene::Joint& joint);

// The scene's nodes against the model's bones (matched by name as the engine does: exact, then
// lower-cased), and every node's rest-pose world matrix (glTF space).
struct NodeBones {
  std::vector<int> bone_of_node;   // -1: not a bone
  std::vector<int> parent;         // node parents
  std::vector<scene::Mat4> world;  // per node
  // The node or its nearest ancestor that is a bone; -1 when none is.
  int bone_for(int node) const;
};
NodeBones map_nodes(const scene::Skeleton& skeleton, const std::vector<std::string>& bone_names);

enum class Kind : std::uint8_t { skinned, rigid, statics };

// Triangles in X-Ray model space (bind pose), X-Ray winding. A skinned or rigid vertex holds its
// influences (bones, weights heaviest first, `links` of them); a static one none (links 0).
struct Soup {
  std::vector<OgfVertex> vertices;
  std::vector<std::uint32_t> indices;
  double moved_weight = 0;            // influences the glTF reader dropped (beyond JOINTS_0..n's 4)
  std::size_t moved_vertices = 0;
  std::size_t unweighted = 0;         // vertices with no weight at all (given to bone 0)
  std::size_t missing_uvs = 0;        // vertices of primitives without TEXCOORD_0 (UV 0)
};

// The texture and shader a material names (raw cp1251): its extras (as boneyard exports them),
// else its name (boneyard names materials after the texture) or its image's name; the shader
// defaults to models\model (`shader_defaulted`). `error` when there is no texture name or a name
// the format cannot hold.
struct MaterialNames {
  std::string texture, shader;
  bool shader_defaulted = false;
  std::optional<Finding> error;
  // A name longer than the stock engine's 255 bytes that the glTF's extras recorded from the
  // source model: kept, with this warning (docs/ogf-write.md "Limits").
  std::optional<Finding> beyond_stock;
};
MaterialNames material_names(const scene::Scene& scene, std::uint32_t material);

// Why `raw` cannot be stored as an .ogf string ("" when it can): a NUL, or longer than string256.
std::string name_problem(const std::string& raw);

// One primitive as a soup. `world` maps a rigid or static mesh's node space to model space (glTF
// space; null: identity); `bone_of_joint` maps a skinned primitive's joints to bones; `bone` is
// the rigid mesh's bone. Errors name `where`: a weighted joint that is no bone.
Result<Soup> to_soup(const scene::Primitive& p, Kind kind, const scene::Mat4* world,
                     const std::vector<int>& bone_of_joint, int bone, const std::string& where);
void append(Soup& into, const Soup& from);

// The primitives' arrays are equal value for value (joints compared through `bone_of_joint` on
// one side, identity on the other): the fast test for "exported and not touched".
bool same_arrays(const scene::Primitive& exported, const scene::Primitive& incoming,
                 const std::vector<int>& bone_of_joint);

// Tolerant one-to-one triangle matching (a DCC round trip reorders and splits vertices and adds
// float noise): each triangle of `want` is looked for among the triangles of `pool` not yet
// `taken` (same winding, any rotation; positions, normals, UVs and weights within the
// tolerances of docs/ogf-write.md). True when every one was found, and then they are marked
// taken; otherwise `taken` is left as it was. `normal_tolerance` (per component; <= 0: the
// default of docs/ogf-write.md) lets a caller whose normals are derived, not stored, accept more.
bool find_triangles(const Soup& want, const Soup& pool, std::vector<bool>& taken, double normal_tolerance = 0);
// The triangles of `pool` not taken (with the vertices they use).
Soup remaining(const Soup& pool, const std::vector<bool>& taken);

// How a soup is laid out as a child.
struct ChildPlan {
  bool is_static = false;   // FVF 0x112 (type 0)
  bool magic = false;       // the SoC SDK's vertex ids (else numeric 1-4)
  int min_links = 1;        // the template child's link count (kept when the data needs fewer)
  int max_links = 4;        // the game's limit: SoC 2, CS/CoP 4
  TangentOptions tangents;
};
// Influences beyond max_links are dropped (the weight moved is reported per child in `warnings`),
// tangents and binormals computed (tangent splits counted in `stats`), limits checked (65535
// vertices: error naming `where`).
Result<ogf_build::ChildGeometry> make_child(Soup soup, const ChildPlan& plan, const std::string& texture,
                                            const std::string& shader, const std::string& where,
                                            Diagnostics& warnings, OgfImportStats& stats);

// The import with a template (ogf_import_template.cpp) and without (ogf_import_new.cpp); both
// return written bytes, checked by the caller.
Result<std::vector<std::uint8_t>> import_with_template(const scene::Scene& scene, const OgfImportOptions& options,
                                                       Diagnostics& warnings, OgfImportStats& stats);
Result<std::vector<std::uint8_t>> import_new_model(const scene::Scene& scene, const OgfImportOptions& options,
                                                   Diagnostics& warnings, OgfImportStats& stats);

// The child plan's limits for a game (SoC: magic ids, 2 links, 75 degree smoothing, no UV shift).
ChildPlan plan_for(Game game);

}  // namespace boneyard::xray::ogf_import
