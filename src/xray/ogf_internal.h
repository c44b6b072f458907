// Parts of the OGF reader shared between ogf.cpp and ogf_skeleton.cpp.
#pragma once

#include "boneyard/ogf.h"
#include "boneyard/text.h"

namespace boneyard::xray {

// Parses 0xD, 0x10, 0x13/0x18, 0x11 and 0x12 into `f` (throws ParseError on a broken chunk).
void parse_ogf_skeleton(OgfFile& f);
// Parses the 0x9 children into f.children; a broken child keeps its error and the others are read.
void parse_ogf_children(OgfFile& f);

}  // namespace boneyard::xray
