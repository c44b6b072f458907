// .mar motions as animations of the neutral scene (then glTF), on the skeleton of the KMS/EVM that
// plays them: joint index = unit (KMS) or skeleton entry (EVM) index, keys at frame / 30 s.
// Conventions and the extras schema: docs/mgs2-mar.md and docs/mgs2-gltf.md "Motions".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/mgs2/mar/mar.h"
#include "boneyard/scene/scene.h"

namespace boneyard {
class TextureNames;
}

namespace boneyard::mgs2 {

struct MarExportOptions {
  double scale = 0.001;                 // metres per model unit: the model's (docs/mgs2-gltf.md)
  std::vector<std::string> motions;     // keep only motions whose name matches a glob (* and ?, any case); empty: all
  const TextureNames* names = nullptr;  // motion names for their strcodes
  std::string source;                   // the .mar's file name, for the extras and messages
  // A motion that cannot be decoded is left out with a warning instead of failing (convert --force).
  bool skip_broken = false;
};

// Appends one animation per motion of `mar` (table order) to `scene`, whose skeleton is the
// model's (mgs2::kms_to_scene / evm_to_scene, or mar_flat_scene). Each joint the motion drives gets
// a rotation channel (the stored quaternion / 2047, normalised, made sign-continuous); joint 0 also
// a translation channel (half * 128 model units, times `scale`), which replaces its rest
// translation. The second key set, flags, base tick, root/move/turn/fix offsets and the data they
// point at go to the animation's extras, never into the pose. Errors: a motion that drives more
// joints than the skeleton has, or (without skip_broken) one that cannot be decoded.
Status add_mar_motions(scene::Scene& scene, const MarFile& mar, const MarExportOptions& options, Diagnostics& warnings);

// A flat armature for a .mar converted without its model: max_joint joints (at least as many as
// any motion drives), every one a root at the origin, named joint_N. Rotations are parent-relative,
// so the pose means little without the model's hierarchy (a warning says so).
scene::Scene mar_flat_scene(const MarFile& mar, std::string_view name);

}  // namespace boneyard::mgs2
