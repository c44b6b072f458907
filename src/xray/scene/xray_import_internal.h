// Internal to the glTF -> .omf importer: per-record quantisation (xray_import_keys.cpp) shared
// with the motion assembly (xray_scene_import.cpp).
#pragma once

#include <optional>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/scene/scene.h"

namespace boneyard::xray::import_detail {

// glTF (x, y, -z) and quaternion (x, y, -z, w) back to X-Ray space (mirroring Z is its own inverse).
inline Vec3 from_gltf(const float* v) { return {v[0], v[1], -v[2]}; }
inline Quat from_gltf_quat(const float* v) { return {v[0], v[1], -v[2], v[3]}; }
inline Vec3 from_gltf(const Vec3& v) { return {v.x, v.y, -v.z}; }
inline Quat from_gltf(const Quat& q) { return {q.x, q.y, -q.z, q.w}; }

// The constant rotation by which a joint's glTF frame is turned from the engine's (glTF space):
// keys written in turned frames are q' = parent^-1 * q * own and t' = parent^-1 * t, so
// q = parent * q' * own^-1 and t = parent * t' (docs/xray-gltf-import.md, "Joint frames").
struct JointTurn {
  Quat parent;  // the parent joint's turn
  Quat own;
  bool turned = false;  // either is not the identity
};
// Key values in glTF space, turned back into the engine's frames (still glTF space).
Quat turned_rotation(const JointTurn& t, const float* xyzw);
Vec3 turned_translation(const JointTurn& t, const float* xyz);

constexpr std::size_t kNoBone = static_cast<std::size_t>(-1);
// A joint rest position within this of the bind position is the same joint: Blender's round trip
// moves them by about 1e-6 m; another skeleton's joints are millimetres to metres away.
constexpr double kJointPositionTolerance = 1e-4;
// Turns below this (radians) are float noise, far below one rotation key step (about 6e-5).
constexpr double kJointTurnSnap = 1e-5;

struct JointFrameInput {
  const scene::Skeleton& skeleton;
  const std::vector<std::size_t>& bone_of;  // glTF node -> motion bone, or kNoBone
  const std::vector<Quat>& bind_rotation;   // per motion bone, X-Ray space
  const std::vector<Vec3>& bind_translation;
  const std::vector<bool>& bind_known;  // the bind pose came from outside the glTF rest pose
};
// Per motion bone, its turn; `corrected` lists the bones whose own frame is turned. Error: a
// joint whose rest position is not the bind position (a different skeleton), naming the node.
Result<std::vector<JointTurn>> joint_turns(const JointFrameInput& in, std::vector<std::size_t>& corrected);

// Where several glTF nodes name one bone, the one that is the bone: a joint of the skin, else one
// that carries boneyard's bone extras (xray.bind_position), else the first; the others name no
// bone. boneyard's export names the node that holds the skeleton after the model, which is also
// the name of the bone of many one-bone models (weapons\upgrade\wpn_silencer.ogf's bone is
// "wpn_silencer"), so that node must not stand for the bone (it sits at the origin).
void keep_one_node_per_bone(const scene::Skeleton& skeleton, std::vector<std::size_t>& bone_of);

// One record's quantisation inputs: per-frame values in X-Ray space from wherever they come.
struct RecordSource {
  const scene::Channel* rotation = nullptr;
  const scene::Channel* translation = nullptr;
  const BoneKeys* fallback = nullptr;  // the template's record (any frame count)
  std::size_t fallback_frames = 0;
  Quat bind_rotation;
  Vec3 bind_translation;
  std::size_t sampled = 1;  // samples per channel; fewer than the motion's frames only when held (see below)
  const JointTurn* turn = nullptr;  // the joint's frame turn, when it has one

  Quat rot(std::size_t f) const {
    f = std::min(f, sampled - 1);
    if (rotation && turn) return from_gltf(turned_rotation(*turn, rotation->values.data() + f * 4));
    if (rotation) return from_gltf_quat(rotation->values.data() + f * 4);
    if (fallback) return scene::normalized(fallback->rotation(std::min(f, fallback_frames - 1)));
    return bind_rotation;
  }
  Vec3 tr(std::size_t f) const {
    if (translation && turn) return from_gltf(turned_translation(*turn, translation->values.data() + std::min(f, sampled - 1) * 3));
    if (translation) return from_gltf(translation->values.data() + std::min(f, sampled - 1) * 3);
    if (fallback) return fallback->translation(std::min(f, fallback_frames - 1));
    return bind_translation;
  }
};

// A translation channel whose samples all lie within this (metres, per axis) of one value is
// constant: Blender writes constant channels with float noise of about 6e-7 m, and a motion that
// small is below what any 8-bit track of the samples resolves (docs/xray-gltf-import.md).
constexpr double kTranslationNoise = 2e-6;

// The record flag bits that say how the keys are stored; the others are kept as they were.
constexpr std::uint8_t kRecordEncodingFlags = kFlagTKeysPresent | kFlagRKeysAbsent | kFlagTKeys16;

struct RecordHint {  // the exported record (extras), when usable
  bool present = false;
  bool legacy = false;  // from the older `records` extras (which carry CRCs)
  std::uint8_t flags = 0;
  std::optional<std::uint32_t> rotation_crc, translation_crc;  // the older `records` extras only
  std::optional<Vec3> size, init;
  // From the `tracks` extras: keys whose sign the exporter changed (from each listed key on, the
  // sign toggles), stored key bytes the values do not give back, and stored CRCs that are not the
  // CRC of their keys (stored, computed).
  std::vector<std::uint32_t> sign_toggles;
  std::optional<std::vector<std::uint8_t>> rotation_keys, translation_keys;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> rotation_crc_fix, translation_crc_fix;
};

// Translation keys under a known size/init: the nearest integer per value, accepted only when
// every value is within half a step of its decoded key (false otherwise; `keys` then undefined).
bool quantise_under(const RecordSource& src, std::size_t frames, Vec3 size, Vec3 init, bool b16,
                    std::vector<std::uint8_t>& keys);

// True when the template/exported record's keys decode to the sampled values (within a step).
bool rotation_matches(const RecordSource& src, const BoneKeys& k, std::size_t frames);
bool translation_matches(const RecordSource& src, const BoneKeys& k, std::size_t frames);
// Fill `b` (and append its key bytes to `out`) from the sampled values.
void quantise_rotation(const RecordSource& src, std::size_t frames, bool prefer_static, OmfFile& out, BoneKeys& b);
bool quantise_translation(const RecordSource& src, std::size_t frames, const RecordHint& hint, bool hq, OmfFile& out,
                          BoneKeys& b);
// What the values alone cannot give back, restored from the exported record where the values
// still say the same (else `b` stays as quantised): stored key bytes (when every value is within
// a step of them), the signs the exporter changed, stored CRCs that differ from the keys' CRC.
void restore_rotation(const RecordSource& src, std::size_t frames, const RecordHint& hint, OmfFile& out, BoneKeys& b);
void restore_translation(const RecordSource& src, std::size_t frames, const RecordHint& hint, OmfFile& out,
                         BoneKeys& b);

}  // namespace boneyard::xray::import_detail
