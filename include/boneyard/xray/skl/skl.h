// The X-Ray SDK's skeletal motions (CSMotion): a `.skl` (one motion in chunk 0x1200), a `.skls`
// (u32 count + motions, no chunk), and the same body in an `.object`'s chunk 0x0916 (SMOTIONS).
// Each motion holds, per bone, six envelopes (xray/envelope/envelope.h: position x, y, z, then
// rotation h, p, b in radians); v7 adds motion marks. Every version the SDKs and tools write
// (4-7) is read and kept as stored: an unedited write reproduces every byte. Format facts and
// their sources: docs/xray-sdk.md.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/chunks.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/xray/envelope/envelope.h"
#include "boneyard/xray/omf/omf.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kChunkSkeletonMotion = 0x1200;  // EOBJ_SMOTION: the chunk of a .skl
inline constexpr std::uint16_t kOldestSklVersion = 4;
inline constexpr std::uint16_t kNewestSklVersion = 7;  // the CS/CoP SDK's (EOBJ_SMOTION_VERSION)
inline constexpr std::uint32_t kBoneWorldOrient = 0x1;  // st_BoneMotion::flWorldOrient

// One bone's channels in a motion (st_BoneMotion). Its six envelopes stay as stored, one after
// another, and are handed out as Envelope views (channel()): a large .skls holds tens of thousands
// of envelopes, and keeping one view per bone is what keeps reading at the file's speed.
struct SklBone {
  // Raw cp1251 as stored (the SDK lowercases on load); v4 stores none. A view into the file (or
  // into storage the motion's owner keeps, e.g. SklFile::keep_text for a made bone).
  std::string_view name;
  std::uint32_t flags = 0;  // u8 (v6/v7) or u32 (v4/v5); kBoneWorldOrient
  EnvelopeLayout layout = EnvelopeLayout::v2;  // of its envelopes: v1 in motions v4/v5, v2 in v6/v7
  // Bit c: channel c is plain (Envelope::plain, set by the reader); 0 for a made bone.
  std::uint8_t plain_channels = 0;
  // The six envelopes x, y, z, h, p, b as stored, one after another, and where each starts in it:
  // a view into the file, or into storage kept by the owner of a made bone (make_skl_bone).
  Bytes envelopes;
  std::array<std::uint32_t, kMotionChannels> starts{};
  std::uint64_t offset = 0;            // absolute offset of the record (its name; its flags in v4)
  std::uint64_t envelopes_offset = 0;  // absolute offset of `envelopes`

  // Channel `c` as an Envelope (a view of its stored bytes; its offsets absolute).
  Envelope channel(std::size_t c) const;
  Envelope channel(MotionChannel c) const { return channel(static_cast<std::size_t>(c)); }
  std::array<Envelope, kMotionChannels> channels() const;
};

// A bone made from six envelopes (a conversion's): their stored form is written one after another
// into a buffer that `storage` keeps (e.g. *SklFile::owned). The envelopes' layout must be the
// motion version's (v1 for v4/v5, v2 for v6/v7).
SklBone make_skl_bone(std::string_view name, std::uint32_t flags, EnvelopeLayout layout,
                      const std::array<Envelope, kMotionChannels>& channels,
                      std::deque<std::vector<std::uint8_t>>& storage);

// One skeletal motion (CSMotion), as stored. Which header fields a version stores:
//  v4: u32 bone_or_part, u8 FX, u8 stop-at-end, speed, accrue, falloff, power, u32 bone count;
//      bones without names (the engine names bone i "i"), u32 flags, v1 envelopes;
//  v5: u32 flags, u32 bone_or_part, the four params, u32 bone count; named bones, u32 flags, v1
//      envelopes;
//  v6: u8 flags, u16 bone_or_part, the four params, u16 bone count; named bones, u8 flags, v2
//      envelopes;
//  v7: v6 and then the marks.
struct SklMotion {
  std::string name;  // raw cp1251
  std::int32_t frame_start = 0, frame_end = 0;
  float fps = 30;
  std::uint16_t version = kNewestSklVersion;
  // The motion flags (xray::MotionFlag; the engine keeps the low byte). v4 stores FX and
  // stop-at-end as two bytes: `flags` is made of them, and `v4_flag_bytes` keeps them as stored.
  std::uint32_t flags = 0;
  std::array<std::uint8_t, 2> v4_flag_bytes{};
  // A part (cycles) or a bone (FX), kNoBoneOrPart for all; u32 in v4/v5 (the engine keeps the low
  // 16 bits), u16 in v6/v7.
  std::uint32_t bone_or_part = kNoBoneOrPart;
  float speed = 1, accrue = 2, falloff = 2, power = 1;  // stored in this order
  std::vector<SklBone> bones;
  std::vector<MotionMark> marks;  // v7
  std::uint64_t offset = 0;       // absolute offset of the motion (its name)
  // Set by the reader when every bone's flags are 0 or 1 and every envelope is plain
  // (Envelope::plain): validation then has no key or flag to look at. Whoever changes bones or
  // envelopes sets it false.
  bool plain = false;

  bool is_fx() const { return (flags & kMotionFx) != 0; }
  EnvelopeLayout envelope_layout() const { return version >= 6 ? EnvelopeLayout::v2 : EnvelopeLayout::v1; }
};

// The two files that hold skeletal motions.
enum class SklContainer : std::uint8_t {
  skl,   // chunks; the motion is the payload of the first chunk 0x1200 (the engine's find_chunk)
  skls,  // u32 count, then the motions
};

struct SklFile {
  SklContainer container = SklContainer::skls;
  std::shared_ptr<const FileData> source;  // keeps the views alive
  std::uint64_t size = 0;
  std::vector<SklMotion> motions;  // a .skl holds exactly one

  // .skls: the stored count (the motions read are exactly that many).
  std::uint32_t declared_count = 0;

  // .skl: every chunk in file order (payloads as stored) and which one holds the motion.
  std::vector<Chunk> chunks;
  std::size_t motion_chunk = 0;
  // Bit 31 set on the motion chunk. The engine reads the payload as stored (find_chunk); only when
  // that is no motion and the payload LZHuf-unpacks to one (as blender-xray reads it) is the motion
  // read from the unpacked bytes: `motion_unpacked` (offsets inside it are positions in the
  // unpacked bytes), and an error says the engine would not load it.
  std::optional<ChunkContent> motion_unpacked;
  // .skl: bytes of the motion chunk after the motion; .skls: bytes after the last motion.
  Bytes tail;
  std::uint64_t tail_offset = 0;
  // .skl: bytes after the last complete chunk, and a chunk header that runs past the end.
  Bytes trailing;
  std::uint64_t trailing_offset = 0;
  std::optional<OverrunChunk> overrun;

  // Other storage this model's views point into (motions merged in from other files).
  std::vector<std::shared_ptr<const void>> keep_alive;
  // Storage for key records and bytes made by edits and conversions (views point here).
  std::shared_ptr<std::deque<std::vector<std::uint8_t>>> owned =
      std::make_shared<std::deque<std::vector<std::uint8_t>>>();
  Bytes keep(std::vector<std::uint8_t> bytes);  // stores made bytes and returns a view of them
  std::string_view keep_text(std::string_view text);  // the same for a name (SklBone::name)
};

// True when the bytes look like a .skl (a chunk 0x1200 first) or a .skls (a count, then a motion
// whose header reads: a name, frames, fps and a version 4-7).
bool looks_like_skl(Bytes bytes);
bool looks_like_skls(Bytes bytes);

Result<SklFile> read_skl(std::shared_ptr<const FileData> file);
Result<SklFile> read_skls(std::shared_ptr<const FileData> file);

// The motions of an `.object`'s chunk 0x0916 (SMOTIONS) or a .skls: u32 count, then the motions,
// read from `data` whose first byte is at absolute offset `base_offset` (a chunk's payload), or,
// for unpacked content, at position `base_offset` in it. `path` prefixes every error's path
// ("0x0916"). Bytes after the last motion go to `tail`.
struct MotionList {
  std::uint32_t declared_count = 0;
  std::vector<SklMotion> motions;
  Bytes tail;
  std::uint64_t tail_offset = 0;
};
Result<MotionList> read_motion_list(Bytes data, std::uint64_t base_offset, std::string_view path = {});
// One motion body (CSMotion::Load) at the start of `data`; `consumed` gets its size.
Result<SklMotion> read_skl_motion(Bytes data, std::uint64_t base_offset, std::size_t& consumed,
                                  std::string_view path = {});

// Writes one motion as stored (CSMotion::Save for v6/v7; each version's own layout otherwise).
void write_skl_motion(ByteWriter& w, const SklMotion& m);
// A motion list (u32 count + motions): a .skls file, or an .object's chunk 0x0916 payload.
void write_motion_list(ByteWriter& w, const std::vector<SklMotion>& motions, Bytes tail = {});
// The whole file in its container.
std::vector<std::uint8_t> write_skl(const SklFile& file);

// What the engine and the SDK would misread or refuse (errors), what is suspicious (warnings),
// and what is worth knowing (info), each with offset, record path, expected and found. Motion
// paths are "motion 3 \"idle\" bone 2 \"spine\" h" (channels by meaning).
void validate_skl_motion(const SklMotion& m, std::string_view path, Diagnostics& out);
Diagnostics validate_skl(const SklFile& file);

// `bytes` (a written .skl/.skls) when they read back and validate without errors; else the first
// problem, its path prefixed with "written .skls". Every writer of these files checks its output
// with it. `inherited`: the input's findings, whose errors are not held against the output.
Result<std::vector<std::uint8_t>> checked_skl_bytes(std::vector<std::uint8_t> bytes, SklContainer container,
                                                    const Diagnostics* inherited = nullptr);

}  // namespace boneyard::xray
