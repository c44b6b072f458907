// .mar: MGS2's motion archive ("MARa"), one per character or stage set. A 16-byte header, a table
// of motions (8-byte entries on PS2, 16-byte ones in the Master Collection) and one MTCM record
// per motion: a header (name strcode, flags, base tick, frames, joint count, the root/move/turn/fix
// offsets, one stream offset per joint) and an archive of bitstreams: joint 0's translation keys,
// then each joint's rotation keys. Layout, bit order and conventions: docs/mgs2-mar.md.
//
// The model is a lossless view like kms.h: every stored field, the archives as views into the file,
// and the bytes no structure covers (gaps). Keys are decoded on demand into caller-owned vectors.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/mgs2/mgs2_layout.h"

namespace boneyard::mgs2 {

inline constexpr std::uint32_t kMarMagic = 0x6152414D;  // "MARa" read as a little-endian u32
inline constexpr std::size_t kMarHeaderSize = 0x10;
inline constexpr double kMarFramesPerSecond = 30.0;

// Table entry and MTCM header (before the per-joint offsets) sizes of each layout.
constexpr std::size_t mar_entry_size(Layout layout) { return layout == Layout::ps2 ? 8 : 16; }
constexpr std::size_t mtcm_header_size(Layout layout) { return layout == Layout::ps2 ? 0x2C : 0x30; }

// Bits of one key record of each stream: an 8-bit frame delta, then the key, then a second value
// set of the same shape that no known reader uses (kept, never applied).
inline constexpr std::size_t kMarRotationRecordBits = 8 + 4 * 12 + 4 * 12;
inline constexpr std::size_t kMarTranslationRecordBits = 8 + 3 * 16 + 3 * 16;
inline constexpr std::size_t kMarTranslationInitialBits = 3 * 16;

// Flag bits the Noesis headers name beside the offsets ("count of preceding 16-bit values (flag
// 0x10/0x20/0x04)"); what they do in the game is not known.
inline constexpr std::uint32_t kMtcmFlagFix = 0x04;
inline constexpr std::uint32_t kMtcmFlagRoot = 0x10;
inline constexpr std::uint32_t kMtcmFlagMove = 0x20;

struct MarHeader {
  std::uint32_t magic = kMarMagic;
  std::uint32_t max_joint = 0;    // the most joints a motion drives (a model needs at least as many)
  std::uint32_t motion_count = 0;
  std::uint32_t mtcm_offset = 0;  // where the MTCM area starts; table offsets count from it
};

struct MarEntry {
  std::uint64_t file_offset = 0;  // of the entry
  std::uint32_t offset = 0;       // of the MTCM, from the header's mtcm_offset
  std::uint32_t size = 0;         // bytes of the MTCM
  std::uint32_t pad0 = 0;         // MC: the dword after offset
  std::uint32_t pad1 = 0;         // MC: the dword after size
};

struct MtcmHeader {
  std::uint32_t name = 0;  // StrCode24 of the motion's name
  std::uint32_t flags = 0;
  std::uint32_t base_tick = 0;
  std::uint32_t frames = 0;
  std::uint32_t archive_offset = 0;  // bytes from the MTCM's start to its archive
  std::uint32_t pad = 0;             // MC only: the dword after archive_offset
  std::uint32_t archive_size = 0;    // bytes
  std::uint32_t joints = 0;
  // In 16-bit units from the archive's start. root_offset also ends the last rotation stream.
  std::uint32_t root_offset = 0, move_offset = 0, turn_offset = 0, fix_offset = 0;
};

struct MarMotion {
  std::uint64_t file_offset = 0;  // of the MTCM: mtcm_offset + entry.offset
  MarEntry entry;
  MtcmHeader header;
  Bytes joint_offsets;  // header.joints u32, each the start of a rotation stream (16-bit units)
  Bytes archive;        // header.archive_size bytes at file_offset + archive_offset
  // Why the MTCM could not be read (its header or archive lies outside the file); such a motion
  // has no views and is reported by validate_mar. The rest of the file is still read.
  Status readable;

  std::uint64_t archive_file_offset() const { return file_offset + header.archive_offset; }
  std::uint32_t joint_offset(std::size_t joint) const;  // 16-bit units from the archive's start
};

struct MarFile {
  std::shared_ptr<const FileData> source;  // the bytes the views point into
  Layout layout = Layout::ps2;
  MarHeader header;
  std::vector<MarMotion> motions;  // table order
  std::vector<Gap> gaps;           // table-to-MTCM padding, filler between MTCMs, trailing bytes
  std::uint64_t file_size = 0;
};

// "MARa" at 0.
bool looks_like_mar(Bytes file);

// Parses a whole file. `forced` overrides the layout detection (docs/mgs2-mar.md "Layouts").
// Errors: no magic, a header or table past the end, a layout that cannot be told (give one).
// A motion whose MTCM lies outside the file keeps the reason in `readable`.
Result<MarFile> read_mar(std::shared_ptr<const FileData> file, std::optional<Layout> forced = std::nullopt,
                         Diagnostics* notes = nullptr);

// Rewrites the model at its stored offsets, gaps included: byte-exact for an unedited model.
std::vector<std::uint8_t> write_mar(const MarFile& model);

// ---- Streams and keys -------------------------------------------------------------------------

// One bitstream of a motion, bounded as the Noesis readers bound it: the translation stream is the
// archive up to joint 0's rotation stream; joint j's rotation stream ends at joint j+1's start, the
// last one (or one whose next offset is not after its own) at root_offset. `bytes` is clipped to
// the archive; `declared` is the size the offsets give (past the archive when they are broken).
struct MarStream {
  std::uint64_t file_offset = 0;
  std::uint64_t declared = 0;  // bytes
  Bytes bytes;
};
MarStream translation_stream(const MarMotion& motion);
MarStream rotation_stream(const MarMotion& motion, std::size_t joint);

// A rotation key: 12-bit two's complement x, y, z, w (value / 2047, then normalised), and the
// record's second quaternion, kept as stored.
struct MarRotationKey {
  std::uint64_t frame = 0;  // sum of the deltas so far
  std::uint8_t delta = 0;
  std::array<std::int16_t, 4> value{};  // -2048..2047
  std::array<std::int16_t, 4> extra{};
};
// A translation key of joint 0: three half floats x, y, z (value * 128 = model units). The first
// key of a stream is its initial value: frame 0, no delta and no second value set.
struct MarTranslationKey {
  std::uint64_t frame = 0;
  std::uint8_t delta = 0;
  bool initial = false;
  std::array<std::uint16_t, 3> value{};  // half-float bits
  std::array<std::uint16_t, 3> extra{};
};
inline constexpr double kMarTranslationScale = 128.0;  // 2^7: half * 128 = model units

// Where decoding a stream stopped.
struct MarStreamEnd {
  std::uint64_t bits = 0;  // read
};

// The keys of a stream, read until their frame reaches the motion's frame count (as the game's
// readers loop), appended to `out` (cleared first). Error: the stream ends first (an overrun), at
// the record that does not fit, naming motion, joint and key. LSB-first bits (docs/mgs2-mar.md).
Result<MarStreamEnd> decode_rotation_keys(const MarMotion& motion, std::size_t motion_index, std::size_t joint,
                                          std::vector<MarRotationKey>& out);
Result<MarStreamEnd> decode_translation_keys(const MarMotion& motion, std::size_t motion_index,
                                             std::vector<MarTranslationKey>& out);

// The stored 12-bit quaternion as the readers use it: each component / 2047, normalised (a zero
// quaternion stays zero).
std::array<float, 4> rotation_key_value(const std::array<std::int16_t, 4>& stored);
// The half-float translation in model units (half * 128).
std::array<float, 3> translation_key_value(const std::array<std::uint16_t, 3>& stored);

// ---- Building files (fixtures, layout conversion) ----------------------------------------------

// One motion's keys, as the encoder takes them: the deltas are written as given (frames are not
// consulted), and `tail` (the root/move/turn/fix data) follows the last rotation stream, where
// root_offset is set; move/turn/fix offsets are stored as given.
struct MarMotionKeys {
  std::uint32_t name = 0, flags = 0, base_tick = 0, frames = 0;
  std::uint32_t move_offset = 0, turn_offset = 0, fix_offset = 0;
  std::array<std::uint16_t, 3> translation_initial{};
  std::vector<MarTranslationKey> translation;          // the records after the initial value
  std::vector<std::vector<MarRotationKey>> rotations;  // one stream per joint
  std::vector<std::uint8_t> tail;                      // even length
};

// Every stream of a read motion decoded, with its tail (the archive from root_offset on): what
// encode_motion takes to write the same streams again. Errors: those of the decoders.
Result<MarMotionKeys> decode_motion_keys(const MarMotion& motion, std::size_t motion_index);

// An MTCM's content, independent of the layout: the header fields, the per-joint offsets and the
// archive bytes.
struct MtcmContent {
  MtcmHeader header;  // archive_offset and archive_size are set by the layout
  std::vector<std::uint32_t> joint_offsets;
  std::vector<std::uint8_t> archive;
};

// Encodes the keys as the readers decode them: the translation stream (initial value, then
// records), each joint's rotation stream, each padded to 16 bits, then the tail.
Result<MtcmContent> encode_motion(const MarMotionKeys& keys);
// The content of a read motion, archive bytes as stored (layout conversion keeps every bit).
MtcmContent motion_content(const MarMotion& motion);
// A whole file in `layout`: header, table (mtcm_offset rounded up to 16), then each MTCM on a
// 16-byte boundary (its archive on a 16-byte boundary within it; entry size = archive offset +
// archive size), the file padded to 16. MC pads are written as 0. Errors: more than 2^32 bytes.
Result<std::vector<std::uint8_t>> build_mar(Layout layout, std::uint32_t max_joint, const std::vector<MtcmContent>& motions);

// ---- Checks -----------------------------------------------------------------------------------

// A .mar on its own: table, MTCM headers, offsets, every stream decoded (overruns, zero deltas,
// keys past the end, zero quaternions, non-finite translations), overlaps (docs/mgs2-mar.md
// "Validation").
Diagnostics validate_mar(const MarFile& model);
// Against the skeleton that plays it (`joints` joints: KMS units or EVM skeleton entries): a
// motion that drives more joints than the skeleton has, and max_joint above it, are errors.
void check_mar_skeleton(const MarFile& model, std::size_t joints, Diagnostics& out);

}  // namespace boneyard::mgs2
