// Internal to the glTF -> .omf importer: the exporter's per-record extras as RecordHints.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "xray_import_internal.h"

namespace boneyard::xray::import_detail {

// One hint per record (`n` records) from an animation's `extras.xray`: its `tracks` object, else
// the older `records` array; hints without `present` when neither fits.
std::vector<RecordHint> record_hints(const nlohmann::json& xray_extras, std::size_t n);

}  // namespace boneyard::xray::import_detail
