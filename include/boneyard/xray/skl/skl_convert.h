// Skeletal motions between the SDK's source form (.skl/.skls: envelopes per bone) and the game's
// compiled form (.omf: one quantised key per bone and frame), both ways, as the SDK's compiler
// (ExportSkeleton.cpp) and Bardak's converter do, without their losses: an .omf made into an
// .skls and compiled again gives its keys back. Conventions, decisions and measured key identity:
// docs/xray-sdk.md "Conversions".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/math.h"
#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/motion_skeleton.h"
#include "boneyard/xray/skl/skl.h"

namespace boneyard::xray {

// The bones of an .ogf (0xD order; rest pose from its IK data, which the SDK writes from the
// bones' bind pose). Error: no bones, or no IK data.
Result<MotionSkeleton> motion_skeleton(const OgfFile& ogf, std::string source);
// The bones of an .object (BONES2 order), its ACTORTRANSFORM and its bone parts (0x923/0x919).
Result<MotionSkeleton> motion_skeleton(const ObjectFile& object, std::string source);
// The bones of the first motion, in their order, without parents or rest pose: what an .skls made
// from an .omf holds (its bones in motion-bone-index order), when no model is given.
MotionSkeleton motion_skeleton(const std::vector<SklMotion>& motions);
// Bone parts for `skeleton` from the parts of a .bones file or an .object, by bone name (ignoring
// case, as the SDK matches them); error: a bone in no part or in two, or a name not in the skeleton.
Result<std::vector<BonePart>> parts_for(const MotionSkeleton& skeleton, const BoneParts& parts, std::string_view source);
// The same from an .omf's (or an .ogf's embedded) bone parts, by bone name.
Result<std::vector<BonePart>> parts_for(const MotionSkeleton& skeleton, const Params& params, std::string_view source);

// ---- .skl/.skls -> .omf (the SDK's compiler)

struct SklCompileOptions {
  // The model the motions are for (and the parts); null: motion_skeleton(motions).
  const MotionSkeleton* skeleton = nullptr;
  std::uint16_t params_version = 4;  // 3 (SoC: no marks, 8-bit translations only) or 4
  bool force_16bit = false;          // the SDK's g_force16BitTransformQuant (--hq)
};

// How the keys were obtained.
struct SklCompileStats {
  std::size_t motions = 0, records = 0, frames = 0;
  std::size_t rotation_keys = 0;      // keys computed (records x frames)
  std::size_t rotation_keys_found = 0;  // of them, keys whose own direction the angles held exactly
  std::size_t translations = 0;       // keyed translation tracks
  std::size_t translations_found = 0;  // of them, tracks whose stored size and init were found again
  std::size_t missing_bones = 0;      // bones a motion lacked (compiled in the rest pose)
};

// Every frame start..end of each motion sampled at t = frame / fps, each bone's local matrix
// setXYZi(p, h, b) with its position, world-oriented bones made parent-relative, the root bones put
// in ACTORTRANSFORM, Fquaternion::set and the SDK's quantisation of rotations (truncated) and
// translations (8- or 16-bit over the track's range, or a constant within 1 mm of the mean), and
// the motion's params and marks in 0xF with the skeleton's parts. Where the envelopes hold what a
// decoded .omf holds (an .skls made from one), the stored keys, sizes and inits are found again
// (sdk_pose.h), so the round trip gives the same keys. Errors: a motion without frames, bones the
// skeleton lacks in every motion, a name the .omf cannot store; warnings: bones a motion lacks
// (rest pose), bones the skeleton lacks (left out), fps other than 30, flags the .omf cannot hold.
Result<OmfFile> compile_skl_motions(const std::vector<SklMotion>& motions, const SklCompileOptions& options,
                                    Diagnostics& warnings, SklCompileStats* stats = nullptr);

// ---- .omf -> .skl/.skls (Bardak's converter, exactly)

struct OmfToSklOptions {
  // The model the .omf was compiled for: with an .object's ACTORTRANSFORM the root bones' keys are
  // taken out of it again (else they stay as compiled).
  const MotionSkeleton* skeleton = nullptr;
  std::uint16_t version = 0;  // 6 or 7; 0: 7 for a motion with marks, else 6 (as the converter)
};

// One motion per 0xF entry, in order: its name and params, frames 0..n-1 at 30 fps, its bones in
// motion-bone-index order named from the parts, and per bone and channel one stepped key per frame
// where the value changes (t = frame / 30): the rotation's h, p, b from the stored quaternion
// (normalised; the angles nearest the previous frame's, so they never jump by a turn) and the
// translation as the engine decodes it. Marks go into version 7. Errors: a motion that cannot be
// read, parts without bone names. Warnings: flags above the low byte (an .skls keeps a byte).
Result<SklFile> omf_to_skl_motions(const MotionSet& set, const OmfToSklOptions& options, Diagnostics& warnings);

}  // namespace boneyard::xray
