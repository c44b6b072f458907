// Helpers shared by the X-Ray scene adapters (skeleton/motions and meshes).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "boneyard/omf.h"
#include "scene/extras_json.h"

namespace boneyard::xray {

// j[key] = the raw cp1251 string as UTF-8; when that does not map back to the same bytes (0x98),
// j[key + "_hex"] carries the stored bytes in hex so an importer can restore them exactly.
void put_name(nlohmann::json& j, const char* key, const std::string& raw);

// Exporter side: per 0xE record of a motion, in file order, what glTF values cannot carry
// (flags, CRCs, translation size and init as stored). Stored in animations[a].extras.xray.records.
nlohmann::json motion_records_extras(const MotionKeys& keys);

}  // namespace boneyard::xray
