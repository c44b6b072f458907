// The SDK's skeletal motions (.skl/.skls) to and from the neutral scene (glTF conventions), through
// the adapters .omf uses: the same skeleton, extras and importer. Conventions: docs/xray-sdk.md
// "Conversions" and docs/xray-gltf.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/motion_skeleton.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

struct SklExportOptions {
  // The model's skeleton (bind pose, parents, ACTORTRANSFORM); null: a flat armature of the first
  // motion's bones (identity rest poses), with a warning.
  const MotionSkeleton* skeleton = nullptr;
  std::vector<std::string> motions;  // --motions: UTF-8 globs (empty: all)
};

// One animation per motion: each frame start..end sampled at frame / fps by the envelope evaluator
// (every shape and behaviour), each bone's pose as the compiler computes it (setXYZi, world-oriented
// bones made parent-relative, root bones in the object's ACTORTRANSFORM), at the game's time: frame
// i of a motion at i / 30 s, as the compiled .omf plays it. The extras are the .omf export's (motion
// params, marks, parts) plus `skl` (version, fps, first frame), so that the glTF converts back to
// an .skls or on to an .omf. Errors: a motion without frames; warnings: bones a motion lacks (rest
// pose) or the skeleton lacks (left out).
Result<scene::Scene> skl_to_scene(const std::vector<SklMotion>& motions, std::string_view name,
                                  const SklExportOptions& options, Diagnostics& warnings);

struct SklImportOptions {
  const OgfFile* skeleton = nullptr;      // --skeleton model.ogf: the bones and their bind pose
  const MotionSkeleton* model = nullptr;  // --skeleton model.object: bones, bind pose, ACTORTRANSFORM
};

// A glTF scene (gltf::read, sampled at 30 fps) as .skls motions: the bones found as for an .omf
// import (the skeleton given, else the extras' parts; joint frames a DCC tool turned are turned
// back), per bone and frame one stepped key per channel where the value changes (the rotation's
// h, p, b kept continuous; root bones taken out of the object's ACTORTRANSFORM), the header
// (name, params, flags, marks, fps, first frame) from the extras, else defaults (30 fps, version 7
// with marks, else 6).
Result<SklFile> scene_to_skl(const scene::Scene& scene, const SklImportOptions& options, Diagnostics& warnings);

}  // namespace boneyard::xray
