// Parts of the OGF reader shared between ogf.cpp, ogf_skeleton.cpp and ogf_mesh.cpp.
#pragma once

#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/core/text.h"
#include "core/byte_reader.h"

namespace boneyard::xray {

// Reads the 0x1 header chunk of the model or of a child into `h` (v4 only; errors name "0x1"). In
// place: a broken child keeps the fields read before the error.
void read_ogf_header(const Chunk& header, OgfHeader& h);
// Parses 0xD, 0x10, 0x13/0x18, 0x11 and 0x12 into `f` (throws ParseError on a broken chunk).
void parse_ogf_skeleton(OgfFile& f);
// Stride of a D3D FVF vertex and where its normal and first UV pair sit (-1 when absent); 0 when
// the code uses something boneyard does not decode (blend weights, transformed positions, 1/3/4-D
// UVs). Static OGF v4 children and OGF v3 visuals use it.
std::uint32_t fvf_stride(std::uint32_t fvf, int& normal_at, int& uv_at);
// Parses the 0x9 children into f.children; a broken child keeps its error and the others are read.
void parse_ogf_children(OgfFile& f);

}  // namespace boneyard::xray
