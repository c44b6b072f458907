// The motion-set parser shared by the OMF reader and the OGF reader (embedded motions). Private
// to src/xray: it throws ParseError, which read_omf/read_ogf turn into their Result.
#pragma once

#include "boneyard/xray/omf/omf.h"
#include "core/byte_reader.h"

namespace boneyard::xray {

// Parses 0xE + 0xF payloads (0xE may be absent: pass nullptr). Throws ParseError only when 0xF
// cannot be parsed (without it the 0xE records cannot be delimited); a motion whose records are
// broken is kept raw with MotionKeys::error set.
MotionSet parse_motion_set(const Chunk* motions_chunk, const Chunk& params_chunk);

}  // namespace boneyard::xray
