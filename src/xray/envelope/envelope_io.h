// Reading envelopes inside the readers of the formats that hold them (.skl/.skls, .anm, an
// .object's motions): private to the X-Ray library (src/xray).
#pragma once

#include <string_view>

#include "boneyard/xray/envelope/envelope.h"
#include "core/byte_reader.h"

namespace boneyard::xray {

// Reads one envelope at the reader's position. The key count is checked against the bytes left
// before anything else; v2 keys are walked (their size depends on their shape) and kept as one
// view. Short data throws ParseError with `what` as its path.
Envelope read_envelope(ByteReader& r, EnvelopeLayout layout, std::string_view what);

}  // namespace boneyard::xray
