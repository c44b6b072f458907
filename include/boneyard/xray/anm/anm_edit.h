// Editing an .anm's one motion: its name (the motion keeps its bytes otherwise).
#pragma once

#include <string>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/omf/omf_edit.h"

namespace boneyard::xray {

// `old_name` must be the motion's name (ignoring case); the new one follows the .skl rules
// (xray/skl/skl_edit.h rename_skl_motion). An .anm's name may be empty: "" renames it.
Result<EditReport> rename_anm_motion(AnmFile& file, const std::string& old_name, const std::string& new_name);

}  // namespace boneyard::xray
