// An OGF v3 model as a neutral scene (glTF conventions, the mapping of docs/xray-gltf.md): its
// skeleton in the bind pose (where the file has one), its meshes, and every motion it has (its
// embedded 0xE or 0x1A key sets at 30 fps, or the .omf files its 0x1D refs name, which the
// registry reads into options.ref_motions). Decisions: docs/xray-ogf-v3.md.
#pragma once

#include "boneyard/core/diagnostics.h"
#include "boneyard/scene/scene.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/xray_scene.h"

namespace boneyard::xray {

// Errors: a bone tree the export would misplace (validate_bone_tree), a visual with errors (unless
// options.keep_going: left out with a warning), a broken motion, an unreadable ref. Warnings: no
// bind pose (identity rest poses), geometry the file does not hold (level buffers, other files).
Result<scene::Scene> ogf_v3_to_scene(const OgfV3File& file, const XrayExportOptions& options, Diagnostics& warnings);

// The validation errors that stop a conversion to glTF: all of them, except the visuals' (path
// "0x11/...") when keep_going leaves broken ones out.
std::vector<Finding> ogf_v3_conversion_blockers(const OgfV3File& file, bool keep_going);

}  // namespace boneyard::xray
