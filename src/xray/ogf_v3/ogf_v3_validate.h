// The per-visual check, shared by validate_ogf_v3 and the glTF export (which refuses a visual
// with errors and repairs what the warnings name, so both always agree).
#pragma once

#include <functional>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"

namespace boneyard::xray::ogf3 {

// Read errors, geometry errors (index count, indices and bone indices out of range, progressive
// data that does not fit), warnings for non-finite UVs, zero normals and 2-link weights outside
// [0, 1], and notes on what the file does not hold (level buffers, other files, LOD visuals).
void validate_visual(const OgfV3File& file, const Ogf3Visual& visual, Diagnostics& out);
// `fn` on `visual` and every visual nested in it (children, then LODs), depth first.
void for_each_visual(const Ogf3Visual& visual, const std::function<void(const Ogf3Visual&)>& fn);

}  // namespace boneyard::xray::ogf3
