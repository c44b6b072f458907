// The SDK's object and camera motions (.anm) to and from the neutral scene (glTF conventions): one
// node animated as the engine moves an object by the motion (CObjectAnimator), with a camera on it
// when the motion moves a camera. Conventions: docs/xray-sdk.md "Conversions".
#pragma once

#include <string_view>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/anm/anm.h"

namespace boneyard::xray {

// The game's default field of view (g_fov, degrees), given to the camera of a camera motion.
inline constexpr float kDefaultCameraFov = 67.5f;

struct AnmExportOptions {
  bool camera = false;  // the motion moves a camera (a perspective camera on the node)
};

// One node named after the motion, its pose at every frame start..end sampled at frame / fps by
// the envelope evaluator (every shape and behaviour: curves are baked into one key per frame,
// interpolated linearly between frames), each pose setXYZi(p, h, b) with the position, mirrored
// into glTF space like every X-Ray transform; times in seconds from the first frame (the engine
// plays an object motion at its own fps). The node's rest pose is the first frame's. The scene
// extras keep the header (name, version, fps, frame range) for the way back. Errors: a motion
// without frames or with an fps that is not a positive number.
Result<scene::Scene> anm_to_scene(const AnmFile& file, std::string_view name, const AnmExportOptions& options,
                                  Diagnostics& warnings);

// A glTF scene (gltf::read, sampled at 30 fps) as an .anm: the node that carries a camera, else
// the node our export wrote, else the only animated node (several: the first, with a warning), its
// pose per sample as linear keys (a run of equal values keeps its ends) of x, y, z and h, p, b
// (continuous angles), version 5, the header from the extras (else 30 fps, frames from 0). The
// first animation is used (others: a warning).
Result<AnmFile> scene_to_anm(const scene::Scene& scene, Diagnostics& warnings);

}  // namespace boneyard::xray
