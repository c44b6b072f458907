// X-Ray chunk containers: `u32 id, u32 size, payload` repeated, little endian.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "boneyard/core/bytes.h"

namespace boneyard {

// Bit 31 of a chunk id (CFS_CompressMark) says the payload is LZHuf-compressed (core/lzhuf.h).
// The engine has two readers: find_chunk masks the bit and gives the payload as stored, only
// open_chunk unpacks it. Formats the engine reads with find_chunk (.ogf, .omf, .skl, .anm) keep
// the stored payload, which is what protected files count on: they set the bit on chunks that are
// not compressed. Formats it reads with open_chunk (the .object body, .db file tables) unpack it:
// open_chunk below. We keep the raw id so a rewrite reproduces it.
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
  // The index of the first chunk with this id (bit 31 masked). A reader that needs it fails
  // without it (ParseError): at the chunk a truncation cut, else at 0 with `missing` and `expected`.
  std::size_t index_or_fail(std::uint32_t id, std::string_view missing, std::string_view expected) const;
};

// A chunk's content as the engine's open_chunk gives it: the stored payload, or, when bit 31 of the
// id is set, that payload LZHuf-unpacked (ChunkList::find is find_chunk: the stored payload).
struct ChunkContent {
  std::uint32_t raw_id = 0;
  std::uint64_t payload_offset = 0;  // absolute offset of the stored payload
  Bytes stored;                      // the payload as stored
  Bytes bytes;                       // the content: `stored`, or the unpacked bytes
  std::shared_ptr<const std::vector<std::uint8_t>> unpacked;  // owns `bytes` when unpacked
  bool is_unpacked() const { return unpacked != nullptr; }
};

// `chunk`'s content. A compressed payload that does not unpack is an error at its offset, with
// `path` (e.g. "0x7777") naming the chunk; positions inside unpacked content are not file
// offsets: a reader's findings there point at the chunk and say where in the unpacked bytes.
Result<ChunkContent> open_chunk(const Chunk& chunk, std::string_view path);

// Writes `content` as the chunk `original` was read from: the stored payload again when the
// content is unchanged (byte for byte what was read, whoever packed it), else `content`, LZHuf-packed
// (core/lzhuf.h, as the SDK packs it) when bit 31 of the id is set.
void write_chunk_content(ByteWriter& w, const ChunkContent& original, Bytes content);

// Splits `data` into chunks; never throws. The walk stops at the first header that does not fit.
ChunkList split_chunks(Bytes data, std::uint64_t base_offset);

// Writes a chunk header, returns the position of its size field for end_chunk().
std::size_t begin_chunk(ByteWriter& w, std::uint32_t raw_id);
void end_chunk(ByteWriter& w, std::size_t size_field_pos);
void write_chunk(ByteWriter& w, std::uint32_t raw_id, Bytes payload);
// Writes a chunk whose payload `fill()` appends to `w` (the size is filled in afterwards).
template <class Fill>
void write_chunk_with(ByteWriter& w, std::uint32_t raw_id, Fill&& fill) {
  const std::size_t at = begin_chunk(w, raw_id);
  fill();
  end_chunk(w, at);
}

}  // namespace boneyard
