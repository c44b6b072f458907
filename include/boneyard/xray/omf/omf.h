// X-Ray skeletal motions: chunk 0xE (keys) and 0xF (bone parts + motion params), as found in
// .omf files and embedded in .ogf models. The model mirrors the file so that an unedited
// write reproduces every byte; key arrays are views into the file and decode on demand.
// Format facts and their sources: docs/xray-omf.md.
#pragma once

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
#include "boneyard/core/math.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kChunkMotions = 0xE;  // OGF_S_MOTIONS
inline constexpr std::uint32_t kChunkParams = 0xF;   // OGF_S_SMPARAMS
inline constexpr int kSampleFps = 30;
inline constexpr float kQuatQuant = 32767.0f;
inline constexpr std::size_t kMaxParts = 4;
inline constexpr std::size_t kMaxNameBytes = 127;  // the engine reads names into string128
inline constexpr std::uint16_t kNoBoneOrPart = 0xFFFF;  // BI_NONE

// Per-bone record flags in chunk 0xE.
inline constexpr std::uint8_t kFlagTKeysPresent = 0x1;  // flTKeyPresent
inline constexpr std::uint8_t kFlagRKeysAbsent = 0x2;   // flRKeyAbsent: one static rotation
inline constexpr std::uint8_t kFlagTKeys16 = 0x4;       // flTKey16IsBit (meaningful only with bit 0)

// Motion flags in chunk 0xF (ESMFlags). The names are the CLI's words.
enum MotionFlag : std::uint32_t {
  kMotionFx = 1u << 0,
  kMotionStopAtEnd = 1u << 1,
  kMotionNoMix = 1u << 2,
  kMotionSyncPart = 1u << 3,
  kMotionFootSteps = 1u << 4,
  kMotionRootMover = 1u << 5,
  kMotionIdle = 1u << 6,
  kMotionWeaponBone = 1u << 7,
};
std::string motion_flag_words(std::uint32_t flags);  // "fx,stop_at_end" or "-"

// The kinds of names an .omf stores, by how they end: marks with CR LF, the others with a NUL.
enum class OmfName { motion, mark, part, bone };
// Whether the raw cp1251 bytes `name` can be stored as this kind of .omf name; if not (written,
// the file would be misread or rejected), an error whose message says why: a NUL anywhere, CR or
// LF in a mark name, more than kMaxNameBytes bytes (the engine's string128).
Status check_omf_name(std::string_view name, OmfName kind);

struct QuatKey {
  std::int16_t x, y, z, w;
};

// One stored rotation component as the engine decodes it: float(q) times the float 1/32767.
inline float quat_component(std::int16_t q) { return static_cast<float>(q) * (1.0f / kQuatQuant); }

// One bone's keys inside one motion (a record of sub-chunk 0xE/N).
struct BoneKeys {
  std::uint64_t offset = 0;  // absolute offset of the flags byte (0 for edited data)
  std::uint8_t flags = 0;
  std::uint32_t rotation_crc = 0;  // stored CRC; not stored in the file when the rotation is static
  Bytes rotation_keys;             // 8 bytes per key: 1 key when static, else one per frame
  std::uint32_t translation_crc = 0;
  Bytes translation_keys;  // 3 or 6 bytes per frame; empty when the translation is constant
  Vec3 translation_size;   // when keyed
  Vec3 translation_init;   // when keyed; the constant translation otherwise

  bool rotation_static() const { return (flags & kFlagRKeysAbsent) != 0; }
  bool translation_keyed() const { return (flags & kFlagTKeysPresent) != 0; }
  bool translation_16bit() const { return translation_keyed() && (flags & kFlagTKeys16) != 0; }
  std::size_t rotation_key_count() const { return rotation_keys.size() / 8; }
  std::size_t translation_key_count() const {
    return translation_keys.size() / (translation_16bit() ? 6 : 3);
  }

  QuatKey rotation_key(std::size_t i) const;  // stored integers
  std::array<std::int32_t, 3> translation_key(std::size_t i) const;
  // Decoded as the engine does: component * (1/32767), not renormalised.
  Quat rotation(std::size_t frame) const;
  // q * size + init per axis (no further divisor); the constant when not keyed.
  Vec3 translation(std::size_t frame) const;

  // Byte offsets (absolute) of the stored rotation CRC/keys and translation CRC, for findings.
  std::uint64_t rotation_offset() const { return offset + 1; }
  std::uint64_t translation_offset() const;
};

// Sub-chunk 0xE/(i+1): the keys of motion i.
struct MotionKeys {
  std::uint32_t raw_id = 0;
  std::uint64_t offset = 0;   // absolute offset of the sub-chunk header
  std::string name;           // raw bytes (cp1251); the engine ignores it in release builds
  std::uint32_t frames = 0;
  std::vector<BoneKeys> bones;  // in motion-bone-index order
  Bytes tail;                   // bytes after the last record (kept for lossless rewrite)
  std::uint64_t tail_offset = 0;
  std::uint64_t frames_offset() const { return offset + 8 + name.size() + 1; }
  // Not ok when the records could not be parsed (the error says why); the sub-chunk is then kept as `raw`.
  Status readable;
  Bytes raw;
};

struct PartBone {
  std::string name;        // raw cp1251; empty for params version 1
  std::uint32_t index = 0; // motion-bone index (v3/v4) or bone id (v1); position for v2
  std::uint64_t offset = 0;
};

struct BonePart {
  std::string name;
  std::vector<PartBone> bones;
  std::uint64_t offset = 0;
};

struct MarkInterval {
  float start = 0, end = 0;  // seconds from the clip start
};

struct MotionMark {
  std::string name;  // stored without its CR LF terminator
  std::vector<MarkInterval> intervals;
  std::uint64_t offset = 0;
  std::uint64_t count_offset = 0;  // where interval_count is stored
};

// One motion's entry in chunk 0xF.
struct MotionParams {
  std::string name;
  std::uint32_t flags = 0;
  std::uint16_t bone_or_part = kNoBoneOrPart;
  std::uint16_t motion_id = 0;  // written by the SDK as the ordinal; never read by the engine
  float speed = 1, power = 1, accrue = 2, falloff = 2;
  std::vector<MotionMark> marks;  // params version >= 4
  std::uint64_t offset = 0;
  bool is_fx() const { return (flags & kMotionFx) != 0; }
};

struct Params {
  std::uint32_t raw_id = kChunkParams;
  std::uint64_t offset = 0;
  std::uint16_t version = 4;
  std::vector<BonePart> parts;
  // The SDK's "default" part written with u32 indices and no names (v3/v4 loaders misread it).
  bool parts_without_names = false;
  std::vector<MotionParams> motions;
  Bytes tail;  // bytes after the last motion entry
  std::uint64_t tail_offset = 0;

  std::size_t bone_count() const;  // sum of the parts' bone counts = records per motion
};

// A sub-chunk of 0xE in file order: the count (id 0), a motion, or something the engine ignores.
struct MotionsSubchunk {
  enum class Kind { count, motion, other } kind = Kind::other;
  std::uint32_t raw_id = 0;
  std::uint64_t offset = 0;
  std::size_t motion = 0;  // index into MotionSet::motions when kind == motion
  Bytes payload;           // stored payload when kind != motion
};

// Chunks 0xE + 0xF: the motions of an .omf file or of an .ogf model.
struct MotionSet {
  std::uint32_t motions_raw_id = kChunkMotions;
  std::uint64_t motions_offset = 0;
  std::optional<std::uint32_t> declared_count;  // sub-chunk 0's value
  std::vector<MotionsSubchunk> subchunks;       // file order
  std::vector<MotionKeys> motions;              // motion i = first sub-chunk with id i+1
  Bytes motions_trailing;                       // bytes after the last complete sub-chunk
  std::uint64_t motions_trailing_offset = 0;
  std::optional<OverrunChunk> motions_overrun;
  Params params;
  bool has_motions_chunk = true;
};

// A top-level chunk of an .omf file in file order.
struct TopChunk {
  enum class Kind { motions, params, other } kind = Kind::other;
  std::uint32_t raw_id = 0;
  std::uint64_t offset = 0;
  Bytes payload;  // for `other`
};

struct OmfFile {
  std::shared_ptr<const FileData> source;  // keeps the views alive
  std::uint64_t size = 0;
  std::vector<TopChunk> chunks;
  MotionSet motions;
  Bytes trailing;
  std::uint64_t trailing_offset = 0;
  std::optional<OverrunChunk> overrun;
  // Other storage this model's views point into (motions merged in from other files).
  std::vector<std::shared_ptr<const void>> keep_alive;
  // Storage for key arrays and strings created by edits (views point here).
  std::shared_ptr<std::deque<std::vector<std::uint8_t>>> owned =
      std::make_shared<std::deque<std::vector<std::uint8_t>>>();

  Bytes keep(std::vector<std::uint8_t> bytes);  // stores edited bytes and returns a view
};

// True when the bytes look like an .omf (chunk 0xE or 0xF first).
bool looks_like_omf(Bytes bytes);

Result<OmfFile> read_omf(std::shared_ptr<const FileData> file);

// Serialises chunk payloads exactly as stored (sizes recomputed from the content).
void write_motions_payload(ByteWriter& w, const MotionSet& set);
void write_params_payload(ByteWriter& w, const Params& params);
std::vector<std::uint8_t> write_omf(const OmfFile& file);

// Key array CRC as the engine computes it (zlib CRC-32 over the array bytes).
std::uint32_t key_crc(Bytes keys);
// Recomputes the stored CRCs of a record whose key arrays were replaced.
void update_crcs(BoneKeys& bone);

}  // namespace boneyard::xray

namespace boneyard::xray {

// Motion params as the engine stores them: u16 = clamp(floor(v * 655.35), 0, 65535).
std::uint16_t quantize_param(float v);

// What the engine actually plays: quantised values, accrue/falloff x1.5, and for cycles
// falloff clamped to accrue - 1 (quantised) when it is not below accrue.
struct EffectiveParams {
  float speed, power, accrue, falloff;
  bool falloff_clamped;
};
EffectiveParams effective_params(const MotionParams& m);

// Tries to parse `bytes` as whole bone records; returns how many, or nullopt if they don't fit exactly.
std::optional<std::size_t> count_whole_records(Bytes bytes, std::uint32_t frames);

// The validator: what the engine would crash on or misread (errors), what is suspicious
// (warnings) and what is worth knowing (info). Every finding carries offset, path, expected/found.
// Checks chunks 0xE/0xF (shared by .omf files and .ogf models with embedded motions).
void validate_motion_set(const MotionSet& set, Diagnostics& out);
// The whole file: the motion set plus its container (bit-31 ids, unknown chunks, trailing bytes).
Diagnostics validate_omf(const OmfFile& file);

// `bytes` (a written .omf) when they read back and validate without errors; else the first
// problem, its path prefixed with "written .omf". Every .omf writer checks its output with it.
// `inherited`: the inputs' findings (an edit of a broken file); their errors, matched by message,
// are not held against the output.
Result<std::vector<std::uint8_t>> checked_omf_bytes(std::vector<std::uint8_t> bytes,
                                                    const Diagnostics* inherited = nullptr);

}  // namespace boneyard::xray
