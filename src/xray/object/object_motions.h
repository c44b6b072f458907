// Internal to the .object <-> scene adapters: the embedded motions (0x916, SMOTIONS) as the scene's
// animations, made and read by the .skls <-> glTF conversion on the object's own skeleton
// (docs/xray-object.md "Motions").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/object/object.h"

namespace boneyard::xray::object_motions {

// The object's embedded motions (those `globs` select; all when empty) as animations of `scene`,
// the object's own export: channels on its joints (matched by bone name), the .skls export's
// extras. Motions that do not read or convert leave the scene without animations, with a warning.
void add_motions(const ObjectFile& object, const std::vector<std::string>& globs, scene::Scene& scene,
                 Diagnostics& warnings);

// What the written object's 0x916 becomes.
struct MotionsChunk {
  // With a template: its 0x916 as stored (or still absent). Else `payload` is the new chunk's
  // payload; nullopt: no 0x916.
  bool keep_template = true;
  std::optional<std::vector<std::uint8_t>> payload;
  std::size_t kept = 0;     // motions whose stored bytes were kept
  std::size_t rebuilt = 0;  // motions made from the scene's animations
};

// The scene's animations as the motions of the object being written, whose bones are `bones` and
// ACTORTRANSFORM `actor_transform`; with a template, each animation that is the template's own
// motion unedited keeps that motion's stored bytes (poses within kPoseTolerance*, same header).
Result<MotionsChunk> motions_chunk(const scene::Scene& scene, const std::vector<BoneData>& bones,
                                   const std::optional<std::array<Vec3, 2>>& actor_transform, const ObjectFile* tpl,
                                   Diagnostics& warnings);

// An unedited motion's poses, every frame and bone, as the compiler samples them (the transform
// the .omf would store), may differ from the template's by this much: float noise of a glTF round
// trip and of a DCC tool resampling at 30 fps, far below any edit.
inline constexpr double kPoseRotationTolerance = 1e-4;     // per rotation matrix element (~0.006 degrees)
inline constexpr double kPoseTranslationTolerance = 1e-4;  // metres per axis (plus 1e-6 of the value)

}  // namespace boneyard::xray::object_motions
