// Helpers shared by the X-Ray scene adapters (skeleton/motions and meshes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "boneyard/xray/omf/omf.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/xray_scene.h"
#include "scene/extras_json.h"

namespace boneyard::xray {

// j[key] = the raw cp1251 string as UTF-8; when that does not map back to the same bytes (0x98),
// j[key + "_hex"] carries the stored bytes in hex so an importer can restore them exactly.
void put_name(nlohmann::json& j, const char* key, const std::string& raw);

// A float as the double whose shortest text is the float's shortest text (compact in JSON, and
// read back as a float it is the same float).
double compact_float(float f);

// One record's rotation channel in glTF space: the stored 16-bit components (channel.shorts,
// with the decoded values) made sign-continuous by negating whole keys, or normalised floats when
// `float_rotations` or a key is not near unit length or holds -32768 (`floats` set then).
struct RotationExport {
  bool floats = false;
  std::vector<std::uint32_t> sign_toggles;  // keys from which on the sign differs from the previous key's
};
RotationExport export_rotation(const BoneKeys& keys, std::size_t key_count, bool held, bool float_rotations,
                               scene::Channel& channel);

// Exporter side: per 0xE record of a motion, in file order, what glTF values cannot carry (record
// flags, translation size and init, sign changes, stored keys the values do not give back, stored
// CRCs that are not the keys' CRC). Stored in animations[a].extras.xray.tracks (docs/xray-gltf.md 6.1).
nlohmann::json motion_tracks_extras(const MotionKeys& keys, const std::vector<RotationExport>& rotations,
                                    bool float_rotations);

// add_motions with the frames of the motions already in the scene given (and counted on) by the
// caller: a model adding the sets of its refs one after another (the hands: 53 sets, 2,760
// motions) need not count every earlier motion again for each set.
Status add_motion_set(scene::Scene& scene, const OgfFile* ogf, const MotionSet& set, std::string_view source,
                      Diagnostics& warnings, const MotionExportOptions& options, std::uint64_t& frames_so_far);

}  // namespace boneyard::xray
