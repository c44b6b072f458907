// Internal to the scene -> .object import: the object's body around its meshes, from a template
// (its chunks kept, the edited ones replaced) or new (the SDK's chunk order).
#pragma once

#include <cstdint>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/object/object_scene.h"
#include "object_motions.h"

namespace boneyard::xray::object_import {

struct OutputMesh {
  const ObjectMesh* template_mesh = nullptr;  // the template mesh it replaces or keeps
  bool kept = false;                          // the template mesh's bytes as stored
  std::vector<std::uint8_t> payload;          // else: the rebuilt mesh chunk's payload
};

struct BodyParts {
  std::vector<OutputMesh> meshes;
  std::vector<ObjectSurface> surfaces;
  bool surfaces_changed = false;
  std::vector<BoneData> bones;
  std::vector<bool> edited_bones;  // template bones whose data the scene changed
  SmoothingStyle style = SmoothingStyle::cscop;
  object_motions::MotionsChunk motions;  // 0x916
};

// The ACTORTRANSFORM a new object gets (a dynamic one: the extras', else zero); nullopt for none.
std::optional<std::array<Vec3, 2>> new_actor_transform(const scene::Scene& scene, bool skeletal);

// The 0x907 (or 0x906, 0x905 + 0x918) payloads of `surfaces`.
std::vector<std::uint8_t> surfaces_payload(const std::vector<ObjectSurface>& surfaces, std::uint32_t chunk);
std::vector<std::uint8_t> compiler_shaders_payload(const std::vector<ObjectSurface>& surfaces);
// Motion refs as 0x924 (one comma-separated string) or 0x926 (count + strings).
std::vector<std::uint8_t> motion_refs_payload(const std::vector<std::string>& refs, std::uint32_t chunk);

Result<std::vector<std::uint8_t>> template_body(const ObjectFile& tpl, const BodyParts& parts, const scene::Scene& scene,
                                                const ObjectImportOptions& options, Diagnostics& warnings,
                                                ObjectImportStats& stats);
Result<std::vector<std::uint8_t>> new_body(const BodyParts& parts, const scene::Scene& scene,
                                           const ObjectImportOptions& options, Diagnostics& warnings);

}  // namespace boneyard::xray::object_import
