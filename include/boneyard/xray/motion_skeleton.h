// The skeleton motions are compiled for or sampled on, whichever model it comes from (an .ogf's bones
// and IK data, an .object's bones and ACTORTRANSFORM): shared by the SDK's motion conversions
// (xray/skl/skl_convert.h) and the glTF importer (xray_scene.h).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/math.h"
#include "boneyard/xray/omf/omf.h"

namespace boneyard::xray {

// The skeleton a motion is compiled for: the bones in the model's order (which is the motion-bone
// index order of the .omf), their parents and rest pose, the object's ACTORTRANSFORM, and the bone
// parts the .omf gets.
struct MotionSkeletonBone {
  std::string name;   // raw cp1251 as the model stores it
  int parent = -1;    // index, -1 for a root
  Vec3 rest_offset;   // parent-relative
  Vec3 rest_rotate;   // setXYZi angles (x, y, z), as IK data and BIND_POSE store them
};
struct MotionSkeleton {
  std::vector<MotionSkeletonBone> bones;
  // ACTORTRANSFORM of an .object (position, rotation): the SDK puts every root bone's keys in it.
  std::optional<std::array<Vec3, 2>> actor_transform;
  std::vector<BonePart> parts;  // with names and motion-bone indices; empty: one part with every bone
  std::string source;           // the file, for messages
  bool rest_known = true;       // false for the motions' own bones: no rest pose for a bone a motion lacks
};

}  // namespace boneyard::xray
