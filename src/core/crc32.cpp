#include "boneyard/crc32.h"

#include <zlib.h>

#include <limits>

namespace boneyard {

std::uint32_t crc32(Bytes data) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  const Bytef* p = data.data();
  std::size_t n = data.size();
  constexpr std::size_t kMax = std::numeric_limits<uInt>::max();
  while (n > 0) {
    const std::size_t part = n < kMax ? n : kMax;
    crc = ::crc32(crc, p, static_cast<uInt>(part));
    p += part;
    n -= part;
  }
  return static_cast<std::uint32_t>(crc);
}

}  // namespace boneyard
