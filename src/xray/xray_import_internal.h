// Internal to the glTF -> .omf importer: per-record quantisation (xray_import_keys.cpp) shared
// with the motion assembly (xray_scene_import.cpp).
#pragma once

#include <optional>
#include <vector>

#include "boneyard/omf.h"
#include "boneyard/scene.h"

namespace boneyard::xray::import_detail {

// glTF (x, y, -z) and quaternion (x, y, -z, w) back to X-Ray space (mirroring Z is its own inverse).
inline Vec3 from_gltf(const float* v) { return {v[0], v[1], -v[2]}; }
inline Quat from_gltf_quat(const float* v) { return {v[0], v[1], -v[2], v[3]}; }
inline Vec3 from_gltf(const Vec3& v) { return {v.x, v.y, -v.z}; }
inline Quat from_gltf(const Quat& q) { return {q.x, q.y, -q.z, q.w}; }

// One record's quantisation inputs: per-frame values in X-Ray space from wherever they come.
struct RecordSource {
  const scene::Channel* rotation = nullptr;
  const scene::Channel* translation = nullptr;
  const BoneKeys* fallback = nullptr;  // the template's record (any frame count)
  std::size_t fallback_frames = 0;
  Quat bind_rotation;
  Vec3 bind_translation;
  std::size_t sampled = 1;  // samples per channel; fewer than the motion's frames only when held (see below)

  Quat rot(std::size_t f) const {
    f = std::min(f, sampled - 1);
    if (rotation) return from_gltf_quat(rotation->values.data() + f * 4);
    if (fallback) return scene::normalized(fallback->rotation(std::min(f, fallback_frames - 1)));
    return bind_rotation;
  }
  Vec3 tr(std::size_t f) const {
    if (translation) return from_gltf(translation->values.data() + std::min(f, sampled - 1) * 3);
    if (fallback) return fallback->translation(std::min(f, fallback_frames - 1));
    return bind_translation;
  }
};

struct RecordHint {  // the exported record (extras), when usable
  bool present = false;
  std::uint8_t flags = 0;
  std::optional<std::uint32_t> rotation_crc, translation_crc;
  std::optional<Vec3> size, init;
};

// True when the template/exported record's keys decode to the sampled values (within a step).
bool rotation_matches(const RecordSource& src, const BoneKeys& k, std::size_t frames);
bool translation_matches(const RecordSource& src, const BoneKeys& k, std::size_t frames);
// Fill `b` (and append its key bytes to `out`) from the sampled values.
void quantise_rotation(const RecordSource& src, std::size_t frames, bool prefer_static, OmfFile& out, BoneKeys& b);
bool quantise_translation(const RecordSource& src, std::size_t frames, const RecordHint& hint, bool hq, OmfFile& out,
                          BoneKeys& b);

}  // namespace boneyard::xray::import_detail
