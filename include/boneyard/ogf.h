// X-Ray .ogf models. The file is a flat list of chunks; this model keeps every chunk as stored
// (so a rewrite is byte-exact) and parses what boneyard uses: the header and the embedded
// motions (0xE/0xF). Layout facts: docs/xray-omf.md and ../shared/docs/xray-motions.md section 4.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "boneyard/chunks.h"
#include "boneyard/diagnostics.h"
#include "boneyard/file_io.h"
#include "boneyard/omf.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kOgfHeader = 0x1;

struct OgfHeader {
  std::uint8_t format_version = 4;
  std::uint8_t type = 3;  // 3 = animated skeleton, 10 = rigid skeleton
  std::uint16_t shader_id = 0;
  std::array<float, 6> bbox{};    // min xyz, max xyz
  std::array<float, 4> sphere{};  // centre xyz, radius
};

struct OgfFile {
  std::shared_ptr<const FileData> source;
  std::uint64_t size = 0;
  ChunkList chunks;  // top level, file order; payloads are views into `source`
  OgfHeader header;
  std::optional<MotionSet> motions;  // embedded 0xE/0xF
};

// True when the bytes start with an OGF header chunk (id 1).
bool looks_like_ogf(Bytes bytes);

// Fails clearly on OGF v3 (a 4-byte header) and on files without a header chunk.
Result<OgfFile> read_ogf(std::shared_ptr<const FileData> file);
std::vector<std::uint8_t> write_ogf(const OgfFile& file);

// An .omf holding the model's embedded motions (chunks 0xE and 0xF, ids without bit 31).
Result<std::vector<std::uint8_t>> extract_omf(const OgfFile& file);

Diagnostics validate_ogf(const OgfFile& file);

}  // namespace boneyard::xray
