// X-Ray chunk containers: `u32 id, u32 size, payload` repeated, little endian.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "boneyard/core/bytes.h"

namespace boneyard {

// The engine masks bit 31 of chunk ids (CFS_CompressMark); protected files set it on chunks that
// are not compressed. We keep the raw id so a rewrite reproduces it.
inline constexpr std::uint32_t kChunkCompressBit = 0x80000000u;

struct Chunk {
  std::uint32_t raw_id = 0;
  std::uint64_t offset = 0;  // absolute offset of the chunk header
  Bytes payload;
  std::uint32_t id() const { return raw_id & ~kChunkCompressBit; }
  bool compress_bit() const { return (raw_id & kChunkCompressBit) != 0; }
  std::uint64_t payload_offset() const { return offset + 8; }
};

// A chunk header whose size runs past the end of its container.
struct OverrunChunk {
  std::uint32_t raw_id = 0;
  std::uint64_t offset = 0;
  std::uint64_t declared_size = 0;
  std::uint64_t available = 0;
  // True when the id is a real chunk id (X-Ray ids are small numbers), so the container was cut
  // inside that chunk: data is lost. Junk after the last chunk (real OGFs carry text there) reads
  // as an id of four printable bytes and is only trailing bytes.
  bool truncated_chunk() const { return (raw_id & ~kChunkCompressBit) <= kMaxPlausibleChunkId; }
  static constexpr std::uint32_t kMaxPlausibleChunkId = 0xFFFF;
};

struct ChunkList {
  std::vector<Chunk> chunks;
  // Bytes after the last complete chunk (fewer than 8 bytes, or a header that overruns the end).
  Bytes trailing;
  std::uint64_t trailing_offset = 0;
  std::optional<OverrunChunk> overrun;

  const Chunk* find(std::uint32_t id) const;  // first chunk with this id (bit 31 masked)
  std::size_t count(std::uint32_t id) const;
};

// Splits `data` into chunks; never throws. The walk stops at the first header that does not fit.
ChunkList split_chunks(Bytes data, std::uint64_t base_offset);

// Writes a chunk header, returns the position of its size field for end_chunk().
std::size_t begin_chunk(ByteWriter& w, std::uint32_t raw_id);
void end_chunk(ByteWriter& w, std::size_t size_field_pos);
void write_chunk(ByteWriter& w, std::uint32_t raw_id, Bytes payload);

}  // namespace boneyard
