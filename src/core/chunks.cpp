#include "boneyard/core/chunks.h"

#include <algorithm>
#include <cstring>

#include "boneyard/core/lzhuf.h"
#include "byte_reader.h"

namespace boneyard {

const Chunk* ChunkList::find(std::uint32_t id) const {
  for (const auto& c : chunks)
    if (c.id() == id) return &c;
  return nullptr;
}

std::size_t ChunkList::count(std::uint32_t id) const {
  return static_cast<std::size_t>(
      std::count_if(chunks.begin(), chunks.end(), [id](const Chunk& c) { return c.id() == id; }));
}

std::size_t ChunkList::index_or_fail(std::uint32_t id, std::string_view missing, std::string_view expected) const {
  for (std::size_t i = 0; i < chunks.size(); ++i)
    if (chunks[i].id() == id) return i;
  if (overrun && overrun->truncated_chunk())
    fail(overrun->offset, hex(overrun->raw_id), "truncated chunk", std::to_string(overrun->declared_size) + " bytes",
         std::to_string(overrun->available) + " bytes");
  fail(0, {}, std::string(missing), std::string(expected), chunks.empty() ? "no chunk" : "chunk " + hex(chunks[0].raw_id));
}

ChunkList split_chunks(Bytes data, std::uint64_t base_offset) {
  ChunkList list;
  std::size_t pos = 0;
  while (data.size() - pos >= 8) {
    const auto raw_id = load_le<std::uint32_t>(data.data() + pos);
    const auto size = load_le<std::uint32_t>(data.data() + pos + 4);
    const std::size_t avail = data.size() - pos - 8;
    if (size > avail) {
      list.overrun = OverrunChunk{raw_id, base_offset + pos, size, avail};
      break;
    }
    list.chunks.push_back(Chunk{raw_id, base_offset + pos, data.subspan(pos + 8, size)});
    pos += 8 + size;
  }
  list.trailing = data.subspan(pos);
  list.trailing_offset = base_offset + pos;
  return list;
}

std::size_t begin_chunk(ByteWriter& w, std::uint32_t raw_id) {
  w.u32(raw_id);
  const std::size_t at = w.size();
  w.u32(0);
  return at;
}

void end_chunk(ByteWriter& w, std::size_t size_field_pos) {
  w.patch_u32(size_field_pos, static_cast<std::uint32_t>(w.size() - size_field_pos - 4));
}

Result<ChunkContent> open_chunk(const Chunk& chunk, std::string_view path) {
  ChunkContent c;
  c.raw_id = chunk.raw_id;
  c.payload_offset = chunk.payload_offset();
  c.stored = chunk.payload;
  c.bytes = chunk.payload;
  if (!chunk.compress_bit()) return c;
  auto unpacked = lzhuf_decode(chunk.payload, chunk.payload_offset(), path);
  if (!unpacked) return unpacked.error();
  auto storage = std::make_shared<const std::vector<std::uint8_t>>(std::move(unpacked).value());
  c.bytes = *storage;
  c.unpacked = std::move(storage);
  return c;
}

void write_chunk_content(ByteWriter& w, const ChunkContent& original, Bytes content) {
  const bool unchanged =
      content.size() == original.bytes.size() && std::equal(content.begin(), content.end(), original.bytes.begin());
  if (unchanged) return write_chunk(w, original.raw_id, original.stored);
  if ((original.raw_id & kChunkCompressBit) == 0) return write_chunk(w, original.raw_id, content);
  const auto packed = lzhuf_encode(content);
  write_chunk(w, original.raw_id, packed);
}

void write_chunk(ByteWriter& w, std::uint32_t raw_id, Bytes payload) {
  w.u32(raw_id);
  w.u32(static_cast<std::uint32_t>(payload.size()));
  w.bytes(payload);
}

}  // namespace boneyard
