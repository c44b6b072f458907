// Sampling skeletal motions frame by frame as the SDK's compiler does (private to src/xray/skl):
// the compiler (.skls -> .omf) and the glTF export share it, so both give the same poses.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "boneyard/xray/motion_skeleton.h"
#include "boneyard/xray/sdk_pose.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

// A transform in the SDK's float arithmetic (Fmatrix rows and translation).
struct FloatPose {
  Rot3<float> r{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  std::array<float, 3> c{0, 0, 0};
};
FloatPose compose(const FloatPose& first, const FloatPose& then);
FloatPose inverse(const FloatPose& p);

// One sampled frame of one bone: the compiled key's transform in float (as the SDK) and in double
// (to find stored keys again), and the rotation envelope values it came from.
struct BoneFrame {
  FloatPose f;
  Pose d;
  float h = 0, p = 0, b = 0;
};

// The motion's bones matched to the skeleton's by name, ignoring case (SortBonesBySkeleton; the
// SDK lower-cases names when it loads a motion; the first of two same-named bones wins): one entry
// per skeleton bone, null where the motion lacks it. `unmatched` counts the motion's bones the
// skeleton lacks.
std::vector<const SklBone*> match_bones(const SklMotion& m, const MotionSkeleton& sk, std::size_t& unmatched);

class MotionSampler {
 public:
  explicit MotionSampler(const MotionSkeleton& skeleton);

  // Decodes the envelopes of `matched` (one per skeleton bone, null: rest pose) once.
  void start(const std::vector<const SklBone*>& matched);
  // Every bone at time `t` (seconds): its envelopes evaluated (rest pose where it has none), its
  // local transform setXYZi(p, h, b) with its position, a world-oriented bone made relative to its
  // parent's world transform, a root bone put in ACTORTRANSFORM: the transform the compiler
  // quantises (CalculateAnim and ExportMotionKeys).
  void sample(float t);
  const BoneFrame& key(std::size_t bone) const { return key_[bone]; }

 private:
  struct Track {
    const SklBone* bone = nullptr;
    std::array<std::vector<EnvelopeKey>, kMotionChannels> keys;
    std::array<bool, kMotionChannels> ordered{};
    std::array<std::size_t, kMotionChannels> span{};
    float value(std::size_t c, float t);
  };

  const MotionSkeleton& sk_;
  std::vector<std::size_t> order_;  // parents before children
  std::vector<BoneFrame> rest_, local_, world_, key_;
  std::vector<Track> tracks_;
  bool world_orient_ = false;
  FloatPose actor_f_;
  Pose actor_d_;
};

}  // namespace boneyard::xray
