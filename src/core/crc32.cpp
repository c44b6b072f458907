// CRC-32 by libdeflate (Debian's libdeflate-dev): it picks a carry-less-multiply (PCLMULQDQ)
// folding loop at run time where the CPU has one and a table-driven loop elsewhere, several times
// zlib's speed on the development machine (README, "Performance"). Same polynomial, initial value
// and final xor as zlib's crc32 (Crc32.MatchesZlibOnEveryLengthAndAlignment in
// tests/core/core_test.cpp compares them).
#include "boneyard/core/crc32.h"

#include <libdeflate.h>

namespace boneyard {

std::uint32_t crc32(Bytes data) { return libdeflate_crc32(0, data.data(), data.size()); }

}  // namespace boneyard
