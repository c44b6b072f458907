// LZHuf, the compression of the X-Ray SDK's chunk files: a chunk whose id has bit 31 set
// (kChunkCompressBit) holds `u32 unpacked size` followed by an LZSS stream (4096-byte window,
// matches of 3-60 bytes) whose symbols are coded with an adaptive Huffman tree and whose match
// distances use a fixed prefix code. Format facts and the bounds below: docs/xray-sdk.md.
//
// boneyard's own implementation of the published algorithm: it decodes what the SDK wrote, and
// encodes the same bytes the SDK's encoder writes (xrCore's _compressLZ in a fresh process), so an
// unedited compressed chunk written again is identical.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"

namespace boneyard {

// The most bytes a stream of `stream_bytes` packed bytes can unpack to: every coded bit yields at
// most 6 bytes (a 60-byte match costs at least 10 bits: a 1-bit symbol and a 9-bit distance), so
// 48 per packed byte. A declared size above it is refused before anything is allocated.
inline constexpr std::uint64_t kLzhufMaxBytesPerPackedByte = 48;
constexpr std::uint64_t lzhuf_max_unpacked_size(std::uint64_t stream_bytes) {
  return stream_bytes * kLzhufMaxBytesPerPackedByte;
}

// The unpacked size a compressed payload declares (its first 4 bytes), or nothing when shorter.
std::optional<std::uint32_t> lzhuf_declared_size(Bytes payload);

// Decodes a compressed chunk payload (`u32 unpacked size` + stream), as xrCore's open_chunk does.
// Errors carry `base_offset` (the payload's absolute offset) plus the position in the payload and
// `path`: a payload shorter than 4 bytes; a declared size the stream cannot hold (see above); a
// stream that ends before the declared size is reached (the engine would read zero bits there); a
// match that runs past the declared size. A declared size of 0 gives no bytes (the engine's
// decoder refuses it; the SDK writes it for an empty chunk).
Result<std::vector<std::uint8_t>> lzhuf_decode(Bytes payload, std::uint64_t base_offset = 0,
                                               std::string_view path = {});

// Encodes `data` as a compressed chunk payload: the bytes the SDK writes for it. (The SDK loses
// the first bits of a Huffman code longer than 16 bits, which only a crafted input reaches; there
// boneyard writes the whole code, so its stream always decodes.)
std::vector<std::uint8_t> lzhuf_encode(Bytes data);

}  // namespace boneyard
