// The X-Ray SDK's object motions (COMotion): an `.anm` is one chunk 0x1100 holding a name, a frame
// range, an fps, a version and six envelopes (xray/envelope/envelope.h) that move one object or
// camera: position x, y, z and rotation h, p, b. Every version the SDKs and tools write (3-5) is
// read and kept as stored. Format facts and their sources: docs/xray-sdk.md "Object motions".
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/chunks.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/xray/envelope/envelope.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kChunkObjectMotion = 0x1100;  // EOBJ_OMOTION
inline constexpr std::uint16_t kOldestAnmVersion = 3;
inline constexpr std::uint16_t kNewestAnmVersion = 5;  // EOBJ_OMOTION_VERSION

// One object motion (COMotion), as stored. v3 stores v1 envelopes, v4 and v5 v2 envelopes; v4
// stores the rotation channels in the order p, h, b (the engine swaps them back on load).
struct AnmMotion {
  std::string name;  // raw cp1251
  std::int32_t frame_start = 0, frame_end = 0;
  float fps = 30;
  std::uint16_t version = kNewestAnmVersion;
  std::array<Envelope, kMotionChannels> stored;  // in stored order
  std::uint64_t offset = 0;                      // absolute offset of the motion (its name)

  // Where channel `c` is stored: v4 swaps h and p.
  std::size_t stored_index(MotionChannel c) const {
    const auto i = static_cast<std::size_t>(c);
    if (version == 4 && (c == MotionChannel::h || c == MotionChannel::p)) return i == 3 ? 4 : 3;
    return i;
  }
  const Envelope& channel(MotionChannel c) const { return stored[stored_index(c)]; }
  EnvelopeLayout envelope_layout() const { return version == 3 ? EnvelopeLayout::v1 : EnvelopeLayout::v2; }
};

struct AnmFile {
  std::shared_ptr<const FileData> source;  // keeps the views alive
  std::uint64_t size = 0;
  AnmMotion motion;
  // Every chunk in file order (payloads as stored) and which one holds the motion (the first
  // chunk 0x1100: the engine's find_chunk).
  std::vector<Chunk> chunks;
  std::size_t motion_chunk = 0;
  // As for a .skl (xray/skl/skl.h): set when bit 31 is set on the motion chunk and only its
  // LZHuf-unpacked payload is a motion (the engine reads the payload as stored).
  std::optional<ChunkContent> motion_unpacked;
  Bytes tail;  // bytes of the motion chunk after the motion
  std::uint64_t tail_offset = 0;
  Bytes trailing;  // bytes after the last complete chunk
  std::uint64_t trailing_offset = 0;
  std::optional<OverrunChunk> overrun;
  std::shared_ptr<std::deque<std::vector<std::uint8_t>>> owned =
      std::make_shared<std::deque<std::vector<std::uint8_t>>>();
  Bytes keep(std::vector<std::uint8_t> bytes);  // stores made bytes and returns a view of them
};

// True when the bytes start with a chunk 0x1100.
bool looks_like_anm(Bytes bytes);
Result<AnmFile> read_anm(std::shared_ptr<const FileData> file);
void write_anm_motion(ByteWriter& w, const AnmMotion& m);
std::vector<std::uint8_t> write_anm(const AnmFile& file);

// Rules as for skeletal motions (fps, frame range, envelopes), plus the container's.
Diagnostics validate_anm(const AnmFile& file);
// `bytes` (a written .anm) when they read back and validate without errors (see checked_skl_bytes).
Result<std::vector<std::uint8_t>> checked_anm_bytes(std::vector<std::uint8_t> bytes,
                                                    const Diagnostics* inherited = nullptr);

}  // namespace boneyard::xray
