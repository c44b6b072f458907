// The "records" extras of an exported animation: per 0xE record what the decoded glTF values
// cannot carry, so that an import without the original .omf can still reproduce its bytes
// (docs/xray-gltf.md section 6, docs/xray-gltf-import.md).
#include "xray_scene_internal.h"

namespace boneyard::xray {

nlohmann::json motion_records_extras(const MotionKeys& keys) {
  nlohmann::json records = nlohmann::json::array();
  for (const auto& b : keys.bones) {
    nlohmann::json r;
    r["flags"] = b.flags;
    // A static rotation has no stored CRC; a constant translation has no CRC/size and its init
    // is the constant itself, which the glTF values carry exactly.
    if (!b.rotation_static()) r["rotation_crc"] = b.rotation_crc;
    if (b.translation_keyed()) {
      r["translation_crc"] = b.translation_crc;
      // float -> double is exact and JSON keeps 17 digits, so these read back bit for bit.
      r["translation_size"] = {b.translation_size.x, b.translation_size.y, b.translation_size.z};
      r["translation_init"] = {b.translation_init.x, b.translation_init.y, b.translation_init.z};
    }
    records.push_back(std::move(r));
  }
  return records;
}

}  // namespace boneyard::xray
