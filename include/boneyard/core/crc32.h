// CRC-32 as zlib computes it (reflected 0xEDB88320, init and xorout 0xFFFFFFFF).
#pragma once

#include <cstdint>

#include "boneyard/core/bytes.h"

namespace boneyard {

std::uint32_t crc32(Bytes data);

}  // namespace boneyard
