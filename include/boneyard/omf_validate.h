// The OMF validator: what the engine would crash on or misread (errors), what is suspicious
// (warnings) and what is worth knowing (info). Every finding carries offset, path, expected/found.
#pragma once

#include "boneyard/diagnostics.h"
#include "boneyard/omf.h"

namespace boneyard::xray {

// Checks chunks 0xE/0xF (shared by .omf files and .ogf models with embedded motions).
void validate_motion_set(const MotionSet& set, Diagnostics& out);
// The whole file: the motion set plus its container (bit-31 ids, unknown chunks, trailing bytes).
Diagnostics validate_omf(const OmfFile& file);

// `bytes` (a written .omf) when they read back and validate without errors; else the first
// problem, its path prefixed with "written .omf". Every .omf writer checks its output with it.
// `inherited`: the inputs' findings (an edit of a broken file); their errors, matched by message,
// are not held against the output.
Result<std::vector<std::uint8_t>> checked_omf_bytes(std::vector<std::uint8_t> bytes,
                                                    const Diagnostics* inherited = nullptr);

}  // namespace boneyard::xray
