// Shared by the DDS reader, report and codecs (private to src/texture).
#pragma once

#include <cstdint>

#include "boneyard/texture/dds/dds.h"

namespace boneyard::texture {

// Bytes of one level of `w` x `h` pixels: whole 4x4 blocks for BCn, packed rows otherwise
// (pitch = (width * bits + 7) / 8, as Microsoft's DDS documentation computes it).
std::uint64_t level_bytes(const DdsEncoding& encoding, std::uint32_t w, std::uint32_t h);

}  // namespace boneyard::texture
